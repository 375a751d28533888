/// <reference types="bun" />
/**
 * npm run bench -- fire [--rounds N] [--out FILE]
 *
 * What one event costs with hookrun, measured next to its floors and to lefthook, in one run:
 *
 *   (a) an event that matches no hook        (b) one matching hook `true`
 *   (c) ten matching hooks `true`            (d) 1,000 configured hooks, one matches
 *   (e) a 10 MB payload to one hook that reads it
 *   (f) a Claude Code settings file with five handlers on PreToolUse, fired as Claude fires it
 *
 * Every command runs in rounds, interleaved (each round runs every command once, in a rotating
 * order), so load on the machine falls on all of them alike. Baselines in the same rounds:
 * `sh -c true` (the spawn floor), a hello-world binary compiled exactly like hookrun (the runtime
 * floor), `sh -c 'cat >/dev/null'` fed the 10 MB payload (the pipe floor), lefthook's native
 * binary running the same commands, and hookrun's Node bundle. Everything runs in a temporary
 * folder with its own HOME; lefthook runs in temporary git repositories made here, never in this
 * one. Medians and ratios are printed and written to a JSON file (default .bench/results.json).
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { cpus, release, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import pkg from '../package.json' with { type: 'json' }
import { processesPer100ToolCalls } from './agent-processes.ts'
import { hostPlatform } from './npm-packages.ts'
import { compileHello, trustProject, waitUntilSettled, writeSettledConfig } from './bench-project.ts'

const ROOT = resolve(import.meta.dir, '..')
const MiB = 1024 * 1024

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    out: { type: 'string', default: join(ROOT, '.bench', 'results.json') },
  },
})
const ROUNDS = Number(flags.rounds)
const WARMUP = Number(flags.warmup)

// ---------------------------------------------------------------------------------------------
// The workspace: hookrun projects and lefthook repositories, one per case.

const work = mkdtempSync(join(tmpdir(), 'hookrun-bench-'))
const home = join(work, 'home')
mkdirSync(home)
/** The one environment every measured command gets: small, and nobody's own config. */
const ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  NO_COLOR: '1',
  LANG: 'C',
}

const HOOKRUN = join(ROOT, 'dist', 'hookrun')
const NODE_BUNDLE = join(ROOT, 'dist', 'hookrun.mjs')
const NODE = Bun.which('node') ?? 'node'
const LEFTHOOK = lefthookBinary()
const HELLO = join(work, 'hello')

/**
 * What `npm install hookrun` lays out on this machine (test/e2e/npm-platform.test.ts installs the
 * real packed packages): node_modules/.bin/hookrun → hookrun/bin/hookrun, the launcher, which
 * execs @hookrun/<platform>/bin/hookrun. Laid out here so the bench needs no network.
 */
function npmLayout(): string {
  const modules = join(work, 'npm', 'node_modules')
  const host = hostPlatform()
  if (host === undefined) throw new Error(`no npm platform package for ${process.platform}-${process.arch}`)
  mkdirSync(join(modules, 'hookrun', 'bin'), { recursive: true })
  copyFileSync(join(ROOT, 'bin', 'hookrun'), join(modules, 'hookrun', 'bin', 'hookrun'))
  chmodSync(join(modules, 'hookrun', 'bin', 'hookrun'), 0o755)
  mkdirSync(join(modules, host.name, 'bin'), { recursive: true })
  symlinkSync(HOOKRUN, join(modules, host.name, 'bin', 'hookrun'))
  mkdirSync(join(modules, '.bin'))
  symlinkSync('../hookrun/bin/hookrun', join(modules, '.bin', 'hookrun'))
  return join(modules, '.bin', 'hookrun')
}

function lefthookBinary(): string {
  const os = process.platform === 'win32' ? 'windows' : process.platform
  const file = join(ROOT, 'node_modules', `lefthook-${os}-${process.arch}`, 'bin', os === 'windows' ? 'lefthook.exe' : 'lefthook')
  if (!Bun.file(file).size) throw new Error(`lefthook's native binary is not at ${file}; run npm ci`)
  return file
}

const smallPayload = new TextEncoder().encode(
  JSON.stringify({
    session_id: 'bench',
    cwd: work,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls -la', description: 'List files' },
  }),
)
const bigPayload = new TextEncoder().encode(
  JSON.stringify({
    session_id: 'bench',
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(work, 'big.txt'), content: 'x'.repeat(10 * MiB) },
  }),
)

interface BenchCase {
  readonly id: 'a' | 'b' | 'c' | 'd' | 'e' | 'f'
  readonly title: string
  readonly payload: Uint8Array
  /** How many commands run (checked before timing). */
  readonly commands: number
  /** hookrun's config for a given hook command. */
  hookrun(command: string): object
  /** hookrun's arguments (default: `fire tool:pre_execute --payload -`). */
  readonly fire?: readonly string[]
  /** lefthook's config (YAML) doing the same work, and the hook it runs. */
  lefthook(command: string): { yaml: string; hook: string }
}

const job = (command: string, stdin = false) => `    - run: ${JSON.stringify(command)}${stdin ? '\n      use_stdin: true' : ''}\n`

const CASES: readonly BenchCase[] = [
  {
    id: 'a',
    title: 'no hook matches',
    payload: smallPayload,
    commands: 0,
    hookrun: (command) => ({ hooks: [{ name: 'greet', event: 'session:start', command }] }),
    // A configured hook, and the one lefthook runs has no jobs.
    lefthook: (command) => ({
      yaml: `output: false\nsession-start:\n  jobs:\n${job(command)}pre-tool-use:\n  jobs: []\n`,
      hook: 'pre-tool-use',
    }),
  },
  {
    id: 'b',
    title: 'one matching hook `true`',
    payload: smallPayload,
    commands: 1,
    hookrun: (command) => ({ hooks: [{ name: 'check', event: 'tool:pre_execute', command }] }),
    lefthook: (command) => ({ yaml: `output: false\npre-tool-use:\n  jobs:\n${job(command)}`, hook: 'pre-tool-use' }),
  },
  {
    id: 'c',
    title: 'ten matching hooks `true`',
    payload: smallPayload,
    commands: 10,
    hookrun: (command) => ({ hooks: Array.from({ length: 10 }, (_, i) => ({ name: `check-${i}`, event: 'tool:pre_execute', command })) }),
    lefthook: (command) => ({ yaml: `output: false\npre-tool-use:\n  jobs:\n${job(command).repeat(10)}`, hook: 'pre-tool-use' }),
  },
  {
    id: 'd',
    title: '1,000 configured hooks, one matches',
    payload: smallPayload,
    commands: 1,
    hookrun: (command) => ({
      hooks: Array.from({ length: 1000 }, (_, i) => ({
        name: `hook-${i}`,
        // Every other hook is on another event; the rest are for another tool.
        event: i === 500 ? 'tool:pre_execute:bash' : i % 2 === 0 ? `tool:post_execute:tool${i}` : `tool:pre_execute:tool${i}`,
        command,
      })),
    }),
    lefthook: (command) => ({
      yaml: `output: false\n${Array.from({ length: 1000 }, (_, i) => `hook-${i}:\n  jobs:\n${job(command)}`).join('')}`,
      hook: 'hook-500',
    }),
  },
  {
    id: 'e',
    title: '10 MB payload to one hook',
    payload: bigPayload,
    commands: 1,
    hookrun: (command) => ({ hooks: [{ name: 'read-all', event: 'tool:pre_execute', command }] }),
    lefthook: (command) => ({ yaml: `output: false\npre-tool-use:\n  jobs:\n${job(command, true)}`, hook: 'pre-tool-use' }),
  },
  {
    id: 'f',
    title: 'Claude settings, 5 handlers on PreToolUse',
    payload: smallPayload,
    commands: 5,
    // Claude Code's own shape, fired the way its router entry fires it. Claude runs a matcher
    // group's handlers concurrently; lefthook is told to run its five jobs in parallel too.
    // Five different commands: Claude runs identical handlers once.
    hookrun: (command) => ({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: Array.from({ length: 5 }, (_, i) => ({ type: 'command', command: `${command} # ${i}` })) }],
      },
    }),
    fire: ['fire', '--format', 'claude'],
    lefthook: (command) => ({
      yaml: `output: false\npre-tool-use:\n  parallel: true\n  jobs:\n${Array.from({ length: 5 }, (_, i) => job(`${command} # ${i}`)).join('')}`,
      hook: 'pre-tool-use',
    }),
  },
]

/** The command each hook runs: `true`, or (e) one that reads the whole payload. */
const workCommand = (benchCase: BenchCase) => (benchCase.id === 'e' ? 'cat >/dev/null' : 'true')
/** The same hooks made to leave a trace, to check that both runners really run them. */
const traceCommand = (benchCase: BenchCase) => (benchCase.id === 'e' ? 'wc -c >> "$BENCH_TRACE"' : 'echo ran >> "$BENCH_TRACE"')

function writeCase(benchCase: BenchCase, command: string): { project: string; repo: string; hook: string } {
  const project = join(work, `hookrun-${benchCase.id}`)
  const repo = join(work, `lefthook-${benchCase.id}`)
  // Project hooks run only once trusted; a trusted, unchanged project is what every fire sees.
  waitUntilSettled(writeSettledConfig(project, benchCase.hookrun(command)))
  trustProject(HOOKRUN, project, ENV)
  mkdirSync(repo, { recursive: true })
  const { yaml, hook } = benchCase.lefthook(command)
  writeFileSync(join(repo, 'lefthook.yml'), yaml)
  return { project, repo, hook }
}

// ---------------------------------------------------------------------------------------------
// Measurements.

interface Measurement {
  readonly key: string
  readonly cmd: string[]
  readonly cwd: string
  readonly payload: Uint8Array
  /** Exit codes that mean the command did its work. */
  readonly ok: readonly number[]
  readonly env?: Record<string, string>
}

function run(measurement: Measurement, extraEnv: Record<string, string> = {}) {
  const started = performance.now()
  const result = Bun.spawnSync({
    cmd: measurement.cmd,
    cwd: measurement.cwd,
    env: { ...ENV, ...measurement.env, ...extraEnv },
    stdin: measurement.payload,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const ms = performance.now() - started
  if (!measurement.ok.includes(result.exitCode ?? -1)) {
    throw new Error(`${measurement.key}: ${measurement.cmd.join(' ')} exited ${result.exitCode}: ${result.stderr.toString().slice(0, 500)}`)
  }
  return { ms, stdout: result.stdout.toString() }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

/** Peak resident memory of one run, in MiB, via time(1); undefined where it cannot say. */
function peakMiB(measurement: Measurement): number | undefined {
  const gnu = process.platform === 'linux'
  const args = gnu ? ['-f', '%M', ...measurement.cmd] : ['-l', ...measurement.cmd]
  const result = spawnSync('/usr/bin/time', args, {
    cwd: measurement.cwd,
    env: ENV,
    input: measurement.payload,
    encoding: 'utf8',
    maxBuffer: 64 * MiB,
  })
  if (result.error || result.stderr === undefined) return undefined
  if (gnu) {
    const kib = Number(result.stderr.trim().split('\n').at(-1))
    return Number.isFinite(kib) && kib > 0 ? kib / 1024 : undefined
  }
  const bytes = /(\d+)\s+maximum resident set size/.exec(result.stderr)?.[1]
  return bytes === undefined ? undefined : Number(bytes) / MiB
}

async function main(): Promise<void> {
  for (const file of [HOOKRUN, NODE_BUNDLE]) if (!Bun.file(file).size) throw new Error(`${file} is missing; run npm run build`)
  await compileHello(work)

  const { measurements, checks } = checkedMeasurements()
  console.log(`checked: ${checks.join('; ')}`)
  // (b) again with OpenTelemetry on, exporting to a collector on loopback that accepts everything.
  let exported = 0
  const collector = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => {
      exported++
      return new Response('{}', { headers: { 'content-type': 'application/json' } })
    },
  })
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}` }
  for (const runner of ['hookrun', 'node']) {
    const b = measurements.find((measurement) => measurement.key === `b:${runner}`)!
    measurements.push({ ...b, key: `b+otel:${runner}`, env: otel })
  }

  const samples = sampleRounds(measurements)
  // The spans really went out (shipped by the detached `hookrun telemetry flush`).
  for (let waited = 0; exported === 0 && waited < 5000; waited += 100) await Bun.sleep(100)
  collector.stop(true)
  if (exported === 0) throw new Error('(b) with OpenTelemetry on: the collector received no spans')
  checks.push(`b+otel: the collector received ${exported} export request(s)`)
  report(measurements, samples, checks)
}

/**
 * The floors, and every case's runners, each checked first with traced hooks: a runner must run
 * exactly the commands its case says before it is timed.
 */
function checkedMeasurements(): { measurements: Measurement[]; checks: string[] } {
  const measurements: Measurement[] = [
    { key: 'floor:sh', cmd: ['sh', '-c', 'true'], cwd: work, payload: smallPayload, ok: [0] },
    { key: 'floor:hello', cmd: [HELLO], cwd: work, payload: smallPayload, ok: [0] },
    { key: 'floor:pipe10', cmd: ['sh', '-c', 'cat >/dev/null'], cwd: work, payload: bigPayload, ok: [0] },
  ]
  const checks: string[] = []
  const npmCommand = npmLayout()
  for (const benchCase of CASES) {
    // First the traced hooks: each runner must run exactly the commands the case says.
    const traced = writeCase(benchCase, traceCommand(benchCase))
    const init = spawnSync('git', ['init', '-q', traced.repo], { env: ENV, encoding: 'utf8' })
    if (init.status !== 0) throw new Error(`git init ${traced.repo}: ${init.stderr}`)
    const fire = benchCase.fire ?? ['fire', 'tool:pre_execute', '--payload', '-']
    const runners: Measurement[] = [
      { key: `${benchCase.id}:hookrun`, cmd: [HOOKRUN, ...fire], cwd: traced.project, payload: benchCase.payload, ok: [0] },
      { key: `${benchCase.id}:node`, cmd: [NODE, NODE_BUNDLE, ...fire], cwd: traced.project, payload: benchCase.payload, ok: [0] },
      { key: `${benchCase.id}:lefthook`, cmd: [LEFTHOOK, 'run', traced.hook], cwd: traced.repo, payload: benchCase.payload, ok: [0] },
      // (b) as `npm install hookrun` users run it too.
      ...(benchCase.id === 'b'
        ? [{ key: 'b:npm', cmd: [npmCommand, ...fire], cwd: traced.project, payload: benchCase.payload, ok: [0] }]
        : []),
    ]
    for (const runner of runners) checks.push(checkRunner(benchCase, runner))
    writeCase(benchCase, workCommand(benchCase))
    measurements.push(...runners)
  }
  return { measurements, checks }
}

/** Run one runner on the traced hooks: what it ran, or an error when it ran other than the case's commands. */
function checkRunner(benchCase: BenchCase, runner: Measurement): string {
  const trace = join(work, `trace-${runner.key.replace(':', '-')}`)
  writeFileSync(trace, '')
  run(runner, { BENCH_TRACE: trace })
  const lines = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
  const enough = benchCase.id === 'e' ? lines.length === 1 && Number(lines[0]) >= 10 * MiB : lines.length === benchCase.commands
  if (!enough) throw new Error(`${runner.key} ran ${lines.length} hook command(s) (${lines.join(', ')}), expected ${benchCase.commands}`)
  return `${runner.key}: ${benchCase.id === 'e' ? `hook read ${lines[0]} bytes` : `${lines.length} command(s) ran`}`
}

/** Every measurement once per round, after the warm-up rounds; the order rotates so no command always follows the same neighbour. */
function sampleRounds(measurements: readonly Measurement[]): Map<string, number[]> {
  const samples = new Map<string, number[]>(measurements.map((measurement) => [measurement.key, []]))
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const offset = round % measurements.length
    const order = [...measurements.slice(offset), ...measurements.slice(0, offset)]
    for (const measurement of order) {
      const { ms } = run(measurement)
      if (round >= WARMUP) samples.get(measurement.key)!.push(ms)
    }
    process.stderr.write(`\rround ${round + 1}/${WARMUP + ROUNDS}`)
  }
  process.stderr.write('\n')
  return samples
}

/** The medians, floors and targets: printed as the tables BENCHMARKS.md shows, and written to --out as JSON. */
function report(measurements: readonly Measurement[], samples: Map<string, number[]>, checks: readonly string[]): void {
  const med = (key: string) => median(samples.get(key)!)
  const peak = (key: string) => median(Array.from({ length: 9 }, () => peakMiB(measurements.find((m) => m.key === key)!) ?? Number.NaN))
  const memory = Object.fromEntries(
    ['b:hookrun', 'floor:hello', 'b:lefthook', 'e:hookrun', 'e:lefthook'].map((key) => [key, peak(key)]),
  ) as Record<string, number>
  const payloadMiB = bigPayload.byteLength / MiB

  const sh = med('floor:sh')
  const hello = med('floor:hello')
  const pipe10 = med('floor:pipe10') - sh
  const perExtraHook = (med('c:hookrun') - med('b:hookrun')) / 9
  const targets = targetRows(med, memory, { sh, hello, pipe10, perExtraHook, payloadMiB })
  const agentProcesses = processesPer100ToolCalls()
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const machine = `${cpu}, ${cpus().length} cores, ${process.platform} ${release()}`
  const versions = {
    hookrun: pkg.version,
    bun: Bun.version,
    node: spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim(),
    lefthook: spawnSync(LEFTHOOK, ['version'], { encoding: 'utf8' }).stdout.trim(),
  }
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`
  const lines = [
    `| case | hookrun binary | hookrun on Node | lefthook | binary / lefthook |`,
    `| --- | ---: | ---: | ---: | ---: |`,
    ...CASES.map(
      (c) =>
        `| (${c.id}) ${c.title} | ${fmt(med(`${c.id}:hookrun`))} | ${fmt(med(`${c.id}:node`))} | ${fmt(med(`${c.id}:lefthook`))} | ${(med(`${c.id}:hookrun`) / med(`${c.id}:lefthook`)).toFixed(2)}× |`,
    ),
    '',
    `(b) through the npm package (its launcher execs the platform package's binary): ${fmt(med('b:npm'))}.`,
    `Processes Claude Code starts for hookrun in a session of 100 tool calls (scripts/agent-processes.ts): ${agentProcesses.before} with an entry on every event, ${agentProcesses.after} with the matchers \`hookrun install --project --narrow\` compiles.`,
    `Floors: \`sh -c true\` ${fmt(sh)}, hello-world binary ${fmt(hello)}, piping 10 MB ${fmt(pipe10)} (over \`sh -c true\`); each extra matching hook ${fmt(perExtraHook)}.`,
    `(b) with OpenTelemetry on (OTEL_EXPORTER_OTLP_ENDPOINT, a loopback collector): binary ${fmt(med('b+otel:hookrun'))}, Node ${fmt(med('b+otel:node'))}.`,
    `Peak memory of (b): hookrun ${memory['b:hookrun']!.toFixed(1)} MiB, hello-world ${memory['floor:hello']!.toFixed(1)} MiB, lefthook ${memory['b:lefthook']!.toFixed(1)} MiB; of (e): hookrun ${memory['e:hookrun']!.toFixed(1)} MiB, lefthook ${memory['e:lefthook']!.toFixed(1)} MiB (payload ${payloadMiB.toFixed(1)} MiB).`,
    '',
    `| target | measured | limit | |`,
    `| --- | ---: | ---: | --- |`,
    ...targets.map(
      (t) =>
        `| ${t.target} | ${t.value.toFixed(t.unit === '×' ? 2 : 1)}${t.unit} | ${t.limit.toFixed(t.unit === '×' ? 1 : 1)}${t.unit} | ${t.met ? 'met' : '**missed**'} |`,
    ),
    '',
    `Medians of ${ROUNDS} interleaved rounds; ${machine}; Bun ${versions.bun}, Node ${versions.node}, lefthook ${versions.lefthook}.`,
  ]
  console.log(lines.join('\n'))

  const results = {
    date: new Date().toISOString(),
    machine,
    versions,
    rounds: ROUNDS,
    warmup: WARMUP,
    checks,
    medianMs: Object.fromEntries([...samples].map(([key, values]) => [key, Number(median(values).toFixed(3))])),
    p90Ms: Object.fromEntries([...samples].map(([key, values]) => [key, Number(quantile(values, 0.9).toFixed(3))])),
    derivedMs: { pipe10MB: pipe10, perExtraHook },
    peakMiB: memory,
    agentProcesses,
    targets,
    table: lines.join('\n'),
  }
  mkdirSync(dirname(flags.out), { recursive: true })
  writeFileSync(flags.out, `${JSON.stringify(results, null, 2)}\n`)
  console.log(`\nwrote ${flags.out}`)
}

/** The targets BENCHMARKS.md sets, each with its measured value and whether it was met. */
function targetRows(
  med: (key: string) => number,
  memory: Record<string, number>,
  floors: { sh: number; hello: number; pipe10: number; perExtraHook: number; payloadMiB: number },
) {
  const { sh, hello, pipe10, perExtraHook, payloadMiB } = floors
  const b = med('b:hookrun')
  const eLimit = 2 * b + pipe10
  return [
    { target: '(b) / lefthook (b)', value: b / med('b:lefthook'), limit: 0.8, unit: '×' },
    { target: '(a) / hello-world binary', value: med('a:hookrun') / hello, limit: 1.3, unit: '×' },
    { target: 'each extra matching hook / `sh -c true`', value: perExtraHook / sh, limit: 1.5, unit: '×' },
    { target: '(d) / (b)', value: med('d:hookrun') / b, limit: 1.2, unit: '×' },
    { target: '(e), limit 2 × (b) + piping 10 MB', value: med('e:hookrun'), limit: eLimit, unit: ' ms' },
    { target: 'peak memory of (b)', value: memory['b:hookrun']!, limit: 45, unit: ' MiB' },
    { target: 'peak memory of (e), limit payload + 45 MiB', value: memory['e:hookrun']!, limit: payloadMiB + 45, unit: ' MiB' },
    { target: '(f) / (b)', value: med('f:hookrun') / b, limit: 1.5, unit: '×' },
    { target: '(b) through the npm package / the binary', value: med('b:npm') / b, limit: 1.2, unit: '×' },
    { target: '(b) with OpenTelemetry on − (b)', value: med('b+otel:hookrun') - b, limit: 2, unit: ' ms' },
  ].map((row) => ({ ...row, met: row.value <= row.limit }))
}

try {
  await main()
} finally {
  rmSync(work, { recursive: true, force: true })
}
