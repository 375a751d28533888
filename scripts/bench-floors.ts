/// <reference types="bun" />
/**
 * npm run bench -- floors [--rounds N]
 *
 * What a fire costs above the runtime, floor by floor: compiled programs that each add one thing
 * to the one before, timed whole-process in interleaved rounds next to hookrun's own fires, so the
 * distance from a compiled hello-world to a fire splits into what the runtime takes and what
 * hookrun's code takes.
 *
 *   hello        console.log, compiled as build.ts compiles hookrun (the floor of any Bun program)
 *   builtins     + node:fs and node:path imported (what every fire needs for its stat signatures)
 *   embedded     + all of hookrun's chunks in the binary, none loaded
 *   modules      + the modules a fire imports, loaded and evaluated, nothing run
 *   (n), (m)     hookrun as Claude Code fires it: no hook matches; one gate runs `true`
 *
 * Every binary's pages are dropped from the page cache first (a binary just written runs faster:
 * BENCHMARKS.md). Run on an idle machine; quote the ratios, which hold where the milliseconds do not.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { compileBinary } from '../build.ts'
import { AS_CLAUDE, BASH_GATE, claudeFires, compileHello, trustProject, waitUntilSettled, writeSettledConfig } from './bench-project.ts'

const ROOT = resolve(import.meta.dir, '..')
const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '100' } } })
const ROUNDS = Number(flags.rounds)
const HOOKRUN = join(ROOT, 'dist', 'hookrun')

const BUILTINS = "import { statSync } from 'node:fs'\nimport { join } from 'node:path'\nconsole.log(typeof statSync, typeof join)"
/** Each floor's program, the one before it and one thing more; its entry sits in the repository (.bench/ is ignored) to resolve as the build does. */
const FLOORS: ReadonlyArray<readonly [string, string]> = [
  ['builtins', BUILTINS],
  // Never true when timed: the import only puts every chunk of hookrun into the binary.
  ['embedded', `if (process.argv[2] === 'load') await import('../../src/bin.ts')\n${BUILTINS}`],
  [
    'modules',
    `${BUILTINS}\nimport { main } from '../../src/cli.ts'\nimport { readStdin } from '../../src/payload/stdin.ts'\nconsole.log(typeof main, typeof readStdin)`,
  ],
]

const sources = join(ROOT, '.bench', 'floors')
const work = mkdtempSync(join(tmpdir(), 'hookrun-floors-'))
const home = join(work, 'home')
const project = join(work, 'project')
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', LANG: 'C' }

const fires = claudeFires(project)
const FIRES: ReadonlyArray<readonly [string, Uint8Array]> = [
  ['(n) no match', fires.n],
  ['(m) gate runs', fires.m],
]

function run(cmd: readonly string[], stdin?: Uint8Array): number {
  const started = performance.now()
  const result = Bun.spawnSync({ cmd: [...cmd], cwd: project, env, stdin: stdin ?? 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const ms = performance.now() - started
  if (result.exitCode !== 0) throw new Error(`${cmd.join(' ')} exited ${result.exitCode}: ${result.stderr.toString()}`)
  return ms
}

/** A binary's pages out of the page cache, so that each is read from disk alike. */
function dropPages(file: string): void {
  Bun.spawnSync({ cmd: ['sh', '-c', 'sync "$1" && dd if="$1" iflag=nocache count=0 2>/dev/null', 'sh', file] })
}

try {
  mkdirSync(sources, { recursive: true })
  mkdirSync(home)
  const programs: Array<readonly [string, string[], Uint8Array?]> = [['hello', [await compileHello(work)]]]
  for (const [name, source] of FLOORS) {
    writeFileSync(join(sources, `${name}.ts`), `${source}\n`)
    await compileBinary(join(work, name), { entrypoint: join(sources, `${name}.ts`) })
    programs.push([name, [join(work, name)]])
  }
  for (const [name, payload] of FIRES) programs.push([name, [HOOKRUN, ...AS_CLAUDE], payload])

  // The project of the fires: one gate, trusted once its file has settled, its plan made by a first fire.
  waitUntilSettled(writeSettledConfig(project, { hooks: [BASH_GATE] }))
  trustProject(HOOKRUN, project, env)
  for (const [, payload] of FIRES) run([HOOKRUN, ...AS_CLAUDE], payload)
  for (const file of new Set(programs.map(([, cmd]) => cmd[0]!))) dropPages(file)

  const samples = new Map<string, number[]>(programs.map(([name]) => [name, []]))
  for (let round = 0; round < ROUNDS + 3; round++) {
    for (let index = 0; index < programs.length; index++) {
      const [name, cmd, payload] = programs[(index + round) % programs.length]!
      const ms = run(cmd, payload)
      if (round >= 3) samples.get(name)!.push(ms)
    }
  }
  const median = (values: readonly number[]) => [...values].sort((x, y) => x - y)[values.length >> 1]!
  const hello = median(samples.get('hello')!)
  console.log('| program | ms | × hello | over the row before |\n| --- | ---: | ---: | ---: |')
  let before: number | undefined
  for (const [name] of programs) {
    const ms = median(samples.get(name)!)
    const over = before === undefined || name.startsWith('(m)') ? '–' : `${ms >= before ? '+' : '−'}${Math.abs(ms - before).toFixed(2)} ms`
    console.log(`| ${name} | ${ms.toFixed(2)} | ${(ms / hello).toFixed(2)}× | ${over} |`)
    if (!name.startsWith('(')) before = ms
  }
  console.log(`\nmedians of ${ROUNDS} interleaved rounds; Bun ${Bun.version}; ${new Date().toISOString().slice(0, 16)}Z`)
} finally {
  rmSync(work, { recursive: true, force: true })
  rmSync(sources, { recursive: true, force: true })
}
