/**
 * What checking for a narrowed install costs a fire (src/config/narrowed.ts): one matching hook,
 * fired through the built binary in a project with a narrowed Claude Code install (its stamp
 * up to date) and in one without (the check is one failed open), in interleaved pairs; then the
 * check alone, in-process.
 *
 *   npm run build && bun scripts/bench-narrowed-check.ts [--rounds 30]
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { narrowedAction, readStamp } from '../src/config/narrowed.ts'

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 30
const binary = resolve(import.meta.dirname, '..', 'dist', 'hookrun')
const root = mkdtempSync(join(tmpdir(), 'hookrun-narrowed-bench-'))
const home = join(root, 'home')
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_CACHE_HOME: join(home, '.cache'),
  XDG_STATE_HOME: join(home, '.state'),
  HOOKRUN_CONFIG: '',
}
const projects = { narrowed: join(root, 'narrowed'), plain: join(root, 'plain') }
mkdirSync(join(home, '.config', 'hookrun'), { recursive: true })
writeFileSync(join(home, '.config', 'hookrun', 'hooks.json'), JSON.stringify({ trustedFolders: Object.values(projects) }))
const old = new Date(Date.now() - 60_000)
for (const dir of Object.values(projects)) {
  mkdirSync(join(dir, '.hookrun'), { recursive: true })
  writeFileSync(
    join(dir, '.hookrun', 'hooks.json'),
    JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute:bash', command: 'true' }] }),
  )
}
// Settled files (as users' are), so the install's stamp is exact and the document cache is used.
for (const file of [
  join(home, '.config', 'hookrun', 'hooks.json'),
  ...Object.values(projects).map((dir) => join(dir, '.hookrun', 'hooks.json')),
])
  utimesSync(file, old, old)
const install = spawnSync(binary, ['install', '--agent', 'claude', '--project', '--narrow'], {
  cwd: projects.narrowed,
  env,
  encoding: 'utf8',
})
if (install.status !== 0) throw new Error(install.stderr)

const payload = (cwd: string) =>
  JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd })
/** Wall time, and CPU time (user + system, the hook's included), which a loaded machine disturbs less. */
const fire = (cwd: string): { wall: number; cpu: number } => {
  const started = performance.now()
  const result = Bun.spawnSync([binary, 'fire', '--format', 'claude'], { cwd, env, stdin: Buffer.from(payload(cwd)) })
  const wall = performance.now() - started
  const stdout = result.stdout.toString()
  if (result.exitCode !== 0 || stdout.trim() !== '{}')
    throw new Error(`fire in ${cwd}: exit ${result.exitCode}: ${stdout}${result.stderr.toString()}`)
  const usage = result.resourceUsage!.cpuTime
  return { wall, cpu: Number(usage.user + usage.system) / 1000 }
}
for (const dir of Object.values(projects)) for (let i = 0; i < 3; i++) fire(dir) // warm the caches
if (readStamp(projects.narrowed, env)?.startedAt !== undefined)
  throw new Error('a fire started a sync: the stamp does not match, so this would not measure the steady state')

const runs = { narrowed: [] as { wall: number; cpu: number }[], plain: [] as { wall: number; cpu: number }[] }
for (let round = 0; round < rounds; round++) {
  // Alternate which goes first, so neither always runs on a warmer machine.
  const order = round % 2 === 0 ? (['narrowed', 'plain'] as const) : (['plain', 'narrowed'] as const)
  for (const name of order) runs[name].push(fire(projects[name]))
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const of = (name: keyof typeof runs, key: 'wall' | 'cpu') => runs[name].map((run) => run[key])
const paired = (key: 'wall' | 'cpu') => median(runs.narrowed.map((run, index) => run[key] - runs.plain[index]![key]))

// The check alone, as fire runs it: read the stamp and compare (the signature string is built from stats the cache took anyway).
const stamp = readStamp(projects.narrowed, env)!
const check = (dir: string, signature: string) => {
  const found = readStamp(dir, env)
  return found === undefined ? undefined : narrowedAction(found, signature, true, env)
}
const inProcess = (dir: string, signature: string) => {
  const n = 2000
  const started = performance.now()
  for (let i = 0; i < n; i++) check(dir, signature)
  return ((performance.now() - started) / n) * 1000
}
inProcess(projects.narrowed, stamp.signature)
console.log(`${rounds} interleaved pairs of \`hookrun fire --format claude\` (one matching hook \`true\`), binary ${binary}`)
for (const key of ['wall', 'cpu'] as const) {
  console.log(
    `  ${key}: median ${median(of('narrowed', key)).toFixed(2)} ms with a narrowed install (stamp up to date), ${median(of('plain', key)).toFixed(2)} ms without; median paired difference ${paired(key).toFixed(2)} ms`,
  )
}
console.log(
  `the check alone, in-process: ${inProcess(projects.narrowed, stamp.signature).toFixed(1)} µs with a stamp, ${inProcess(projects.plain, '').toFixed(1)} µs without`,
)
if (readStamp(projects.narrowed, env)?.startedAt !== undefined) throw new Error('a fire started a sync during the rounds')
rmSync(root, { recursive: true, force: true })
