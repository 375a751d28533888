/// <reference types="bun" />
/**
 * Two hookrun binaries side by side on the bench's (a), (b), (d) and (e): no matching hook, one
 * matching hook, 1,000 configured hooks of which one matches, a 10 MB payload to a hook that reads it;
 * and as Claude Code fires (`fire --format claude`, what installs write; (a) to (e) name no format, so
 * the payload's agent is detected): (n) a PostToolUse of Read no hook matches, (m) a PreToolUse of
 * Bash whose gate runs `true`. Each round
 * fires every case once with each binary, the order of the two alternating, so load on a shared
 * machine falls on both alike; then peak memory, the median of 5 runs each.
 *
 *   cp dist/hookrun /tmp/hookrun-old   (before the change; after it: npm run build)
 *   bun scripts/bench-pair.ts /tmp/hookrun-old dist/hookrun [--rounds 20] [--cases a,b,d,e,n,m]
 *
 * Each binary has its own cache folder (two cache formats would overwrite each other on every
 * fire) and its own state folder, trusting each project itself. The projects are trusted once their config's change time has settled, as npm run bench
 * does: fires then check stat signatures and hash nothing.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { AS_CLAUDE, BASH_GATE, claudeFires, trustProject, waitUntilSettled, writeSettledConfig } from './bench-project.ts'

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '20' }, cases: { type: 'string', default: 'a,b,d,e' } },
})
if (positionals.length !== 2) throw new Error('usage: bun scripts/bench-pair.ts OLD_BINARY NEW_BINARY [--rounds 20] [--cases a,b,d,e,n,m]')
const binaries = { old: resolve(positionals[0]!), new: resolve(positionals[1]!) }
const rounds = Number(flags.rounds)
const MiB = 1024 * 1024

const work = mkdtempSync(join(tmpdir(), 'hookrun-pair-'))
const home = join(work, 'home')
mkdirSync(home)
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', LANG: 'C' }
/** Each binary keeps its own caches and its own trust records: one written by the other binary may send a fire down another path. */
const envOf = (which: keyof typeof binaries) => ({
  ...env,
  XDG_CACHE_HOME: join(work, `cache-${which}`),
  XDG_STATE_HOME: join(work, `state-${which}`),
})

const small = new TextEncoder().encode(
  JSON.stringify({ session_id: 'bench', cwd: work, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la' } }),
)
const big = new TextEncoder().encode(
  JSON.stringify({
    session_id: 'bench',
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(work, 'big.txt'), content: 'x'.repeat(10 * MiB) },
  }),
)
const CASES: Record<string, { hooks: object[]; payload: Uint8Array; args?: string[] }> = {
  a: { hooks: [{ name: 'greet', event: 'session:start', command: 'true' }], payload: small },
  b: { hooks: [{ name: 'check', event: 'tool:pre_execute', command: 'true' }], payload: small },
  d: {
    hooks: Array.from({ length: 1000 }, (_, i) => ({
      name: `hook-${i}`,
      event: i === 500 ? 'tool:pre_execute:bash' : i % 2 === 0 ? `tool:post_execute:tool${i}` : `tool:pre_execute:tool${i}`,
      command: 'true',
    })),
    payload: small,
  },
  e: { hooks: [{ name: 'read-all', event: 'tool:pre_execute', command: 'cat >/dev/null' }], payload: big },
  // Claude Code's events, sent from the case's folder (its project).
  n: { hooks: [BASH_GATE], payload: claudeFires(join(work, 'n')).n, args: AS_CLAUDE },
  m: { hooks: [BASH_GATE], payload: claudeFires(join(work, 'm')).m, args: AS_CLAUDE },
}
const cases = flags.cases.split(',').filter((id) => CASES[id] !== undefined)

// Trusted once the latest config's change time has settled (./bench-project.ts), by each binary.
const configs = cases.map((id) => writeSettledConfig(join(work, id), { hooks: CASES[id]!.hooks }))
waitUntilSettled(configs.at(-1)!)
for (const id of cases) for (const which of ['old', 'new'] as const) trustProject(binaries[which], join(work, id), envOf(which))

function fire(which: keyof typeof binaries, id: string): number {
  const started = performance.now()
  const result = Bun.spawnSync({
    cmd: [binaries[which], ...(CASES[id]!.args ?? ['fire', 'tool:pre_execute', '--payload', '-'])],
    cwd: join(work, id),
    env: envOf(which),
    stdin: CASES[id]!.payload,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const ms = performance.now() - started
  if (result.exitCode !== 0) throw new Error(`${which} (${id}) exited ${result.exitCode}: ${result.stderr.toString()}`)
  return ms
}

function peakMiB(which: keyof typeof binaries, id: string): number {
  const result = Bun.spawnSync({
    cmd: ['/usr/bin/time', '-f', '%M', binaries[which], ...(CASES[id]!.args ?? ['fire', 'tool:pre_execute', '--payload', '-'])],
    cwd: join(work, id),
    env: envOf(which),
    stdin: CASES[id]!.payload,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  return Number(result.stderr.toString().trim().split('\n').at(-1)) / 1024
}

const median = (values: readonly number[]) => [...values].sort((x, y) => x - y)[values.length >> 1]!
const samples = new Map<string, number[]>()
try {
  for (let round = 0; round < rounds + 3; round++) {
    for (const id of cases) {
      for (const which of round % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
        const ms = fire(which, id)
        if (round >= 3) samples.set(`${id}:${which}`, [...(samples.get(`${id}:${which}`) ?? []), ms])
      }
    }
  }
  for (const id of cases) {
    const [old, now] = [median(samples.get(`${id}:old`)!), median(samples.get(`${id}:new`)!)]
    const [oldPeak, newPeak] = (['old', 'new'] as const).map((which) => median(Array.from({ length: 5 }, () => peakMiB(which, id))))
    console.log(
      `(${id}) old ${old.toFixed(1)} ms, new ${now.toFixed(1)} ms, new/old ${(now / old).toFixed(2)}; peak old ${oldPeak!.toFixed(1)} MiB, new ${newPeak!.toFixed(1)} MiB`,
    )
  }
  if (cases.includes('b') && cases.includes('d')) {
    for (const which of ['old', 'new'] as const)
      console.log(`${which}: (d)/(b) ${(median(samples.get(`d:${which}`)!) / median(samples.get(`b:${which}`)!)).toFixed(2)}`)
  }
  console.log(`medians of ${rounds} rounds`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
