/**
 * Data-driven end-to-end cases: each file in cases/ is a small project (config + scripts), a
 * command line and payload, and what hookrun must answer. Every case runs against every way
 * users run hookrun that this run covers (all four in CI; by default the compiled binary, plus
 * Node, Bun and Deno for cases marked `everyRuntime`: see `localRun` below).
 * Cases run a few at a time; those that look for leftover processes, or start many, run alone. No case limits a
 * time: a case about not waiting shows the order of events instead (`eventuallyFiles`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  ALL_RUNTIMES,
  makeProject,
  removeProject,
  runCli,
  runtimeCommand,
  RUNTIMES,
  trustProjectFor,
  waitForNoProcess,
  writeFiles,
} from '../helpers.ts'

interface Case {
  description: string
  /** Where the agent documents the payload and answer the case uses. */
  source?: string
  files?: Record<string, string | object>
  args: string[]
  /** A JSON value is serialised; a string is sent as it is. */
  stdin?: unknown
  env?: Record<string, string>
  /** Run from this subfolder of the project. */
  cwd?: string
  /** Only under these runtimes (default: all); such a case runs under them in every run. */
  runtimes?: string[]
  /** Exercises what differs between runtimes: run it under all four even in a quick run. */
  everyRuntime?: boolean
  /**
   * Trust the project's hooks before running, as `hookrun trust` would (default: true, so a
   * case about anything else is not about trust). `false` runs it untrusted.
   */
  trust?: boolean
  expect: {
    exitCode: number
    /** Partial match against the JSON on stdout. */
    stdout?: Record<string, unknown>
    /** The names of the hooks that ran, in order. */
    hooks?: string[]
    stdoutIncludes?: string[]
    stderrIncludes?: string[]
    stderrEmpty?: boolean
    /** Files (relative to the project) that must exist with this content afterwards (trimmed). */
    files?: Record<string, string>
    absentFiles?: string[]
    /** Files that must contain each of these strings. */
    fileIncludes?: Record<string, string[]>
    /**
     * Files a hook hookrun did not wait for (released async, `blocking: false`) writes later, with
     * this content (trimmed), waited for up to 20 s. Such a hook waits for hookrun's process to be
     * gone before it writes (`kill -0 $PPID`) and writes what it saw: the order is the test, on
     * the one clock of the process table, never a time limit (a loaded machine is slow, not wrong).
     */
    eventuallyFiles?: Record<string, string>
    /** Many processes (eight nested runtimes): run it alone, as the cases that look for leftover processes run. */
    alone?: boolean
    /** No process whose command line contains this may be left afterwards. */
    noProcess?: string
    /** How long processes may take to go (default 2000 ms). */
    noProcessWithinMs?: number
  }
}

/**
 * A file holds one case, or several under `cases` (one file per agent: `agent-claude.json`), with
 * `source` naming the document the cases were built from.
 */
interface CaseFile {
  source?: string
  cases: Case[]
}

const CASES_DIR = join(import.meta.dirname, 'cases')
const cases = readdirSync(CASES_DIR)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .flatMap((file) => {
    const json = JSON.parse(readFileSync(join(CASES_DIR, file), 'utf8')) as Case | CaseFile
    const name = file.replace(/\.json$/, '')
    return 'cases' in json ? json.cases.map((spec, index) => ({ name: `${name}[${index}]`, spec })) : [{ name, spec: json }]
  })

/**
 * `$DIR` in args, env, stdin and file contents stands for the project folder; `$HOOKRUN_CLI` for the
 * command line of the hookrun under test (so a hook can call hookrun again); `$TEST_PID` and
 * `$TEST_PARENT_PID` for this test process and its parent (a process an agent's variable names,
 * and the one that started it).
 */
function fill<T>(value: T, dir: string, runtime = 'binary'): T {
  const hookrun = runtimeCommand(runtime)
    .map((part) => `'${part}'`)
    .join(' ')
  const text = JSON.stringify(value).replaceAll('$DIR', dir).replaceAll('$HOOKRUN_CLI', hookrun)
  return JSON.parse(text.replaceAll('$TEST_PID', String(process.pid)).replaceAll('$TEST_PARENT_PID', String(process.ppid))) as T
}

/** Cases that look for leftover processes would be confused by others; those that start many load the machine. */
const timed = (spec: Case) => spec.expect.noProcess !== undefined || spec.expect.alone === true

/**
 * A local run (HOOKRUN_TEST_RUNTIMES unset) gives every case to the compiled binary and, of the
 * runtimes, only the cases marked everyRuntime to Node, Bun and Deno: the Node bundle shares all
 * its code with the binary but the spawn and stdin paths, which every other e2e file and
 * test/unit/run.test.ts run under Node. Every case under the binary, Node and Deno is CI's full
 * run (.ci/run, `allRun` below); the local run stays under two minutes.
 */
const localRun = !process.env.HOOKRUN_TEST_RUNTIMES

/**
 * CI's full run (`all`) gives every case to the binary, Node and Deno. Bun runs the source on the
 * runtime the binary is built from, so every case under it again would repeat the binary's run
 * with only the bundling changed (Deno runs the source unbundled): it takes the cases marked
 * everyRuntime, as locally. HOOKRUN_TEST_RUNTIMES=bun still gives it every case.
 */
const allRun = process.env.HOOKRUN_TEST_RUNTIMES === 'all'

/** Only a guard against a hang: a loaded machine runs a case slowly (eight nested Deno starts), and slow is not wrong. */
const HANG_MS = 180_000
const runsEveryCase = (runtime: (typeof ALL_RUNTIMES)[number]) =>
  RUNTIMES.includes(runtime) && !(localRun && runtime.name !== 'binary') && !(allRun && runtime.name === 'bun')

for (const runtime of ALL_RUNTIMES) {
  const chosen = cases.filter(({ spec }) =>
    spec.runtimes ? spec.runtimes.includes(runtime.name) : runsEveryCase(runtime) || spec.everyRuntime === true,
  )
  if (chosen.length === 0) continue
  describe(runtime.name, () => {
    describe.concurrent('cases', () => {
      for (const { name, spec } of chosen.filter(({ spec }) => !timed(spec)))
        test(`${name}: ${spec.description}`, () => runCase(spec, runtime.name), HANG_MS)
    })
    describe.sequential('timed cases', () => {
      for (const { name, spec } of chosen.filter(({ spec }) => timed(spec)))
        test(`${name}: ${spec.description}`, () => runCase(spec, runtime.name), HANG_MS)
    })
  })
}

async function runCase(spec: Case, runtime: string): Promise<void> {
  const dir = makeProject()
  try {
    writeFiles(dir, fill(spec.files ?? {}, dir, runtime))
    const cwd = spec.cwd ? join(dir, spec.cwd) : dir
    const env = fill(spec.env ?? {}, dir)
    if (spec.trust !== false) trustProjectFor(cwd, env)
    const stdin = spec.stdin === undefined ? '' : typeof spec.stdin === 'string' ? spec.stdin : JSON.stringify(fill(spec.stdin, dir))
    const result = await runCli(fill(spec.args, dir), { runtime, cwd, input: stdin, env, timeoutMs: HANG_MS - 10_000 })
    const context = `stdout: ${result.stdout}\nstderr: ${result.stderr}`
    expect(result.exitCode, context).toBe(spec.expect.exitCode)
    if (spec.expect.stdout) expect(result.json(), context).toMatchObject(fill(spec.expect.stdout, dir))
    if (spec.expect.hooks)
      expect(
        result.json().hooks.map((hook: { name: string }) => hook.name),
        context,
      ).toEqual(spec.expect.hooks)
    for (const text of spec.expect.stdoutIncludes ?? []) expect(result.stdout, context).toContain(fill(text, dir))
    for (const text of spec.expect.stderrIncludes ?? []) expect(result.stderr, context).toContain(fill(text, dir))
    if (spec.expect.stderrEmpty) expect(result.stderr, context).toBe('')
    for (const [path, content] of Object.entries(spec.expect.eventuallyFiles ?? {})) {
      await until(() => existsSync(join(dir, path)), 20_000)
      expect(readFileSync(join(dir, path), 'utf8').trim(), path).toBe(content)
    }
    for (const [path, content] of Object.entries(spec.expect.files ?? {})) {
      expect(readFileSync(join(dir, path), 'utf8').trim(), path).toBe(fill(content, dir))
    }
    for (const path of spec.expect.absentFiles ?? []) expect(existsSync(join(dir, path)), `${path} should not exist`).toBe(false)
    for (const [path, parts] of Object.entries(spec.expect.fileIncludes ?? {})) {
      const content = readFileSync(join(dir, path), 'utf8')
      for (const part of parts) expect(content, path).toContain(fill(part, dir))
    }
    if (spec.expect.noProcess) expect(await waitForNoProcess(spec.expect.noProcess, spec.expect.noProcessWithinMs)).toEqual([])
  } finally {
    removeProject(dir)
  }
}

/** Wait for `check` to hold, polling; give up after `ms` (the assertion that follows then says what is missing). */
async function until(check: () => boolean, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; !check() && Date.now() < deadline; ) await new Promise((wake) => setTimeout(wake, 50))
}
