import { type ChildProcess, spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process'
import type { Hook } from '../src/core/types.ts'
import type { Decision } from '../src/core/protocol.ts'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { trustProject } from '../src/commands/trust.ts'
import { findProjectRoot } from '../src/config/files.ts'

export const ROOT = resolve(import.meta.dirname, '..')
const BIN = join(ROOT, 'node_modules', '.bin')

/** The ways users run hookrun. */
export const ALL_RUNTIMES: ReadonlyArray<{ readonly name: string; readonly command: readonly string[] }> = [
  { name: 'binary', command: [join(ROOT, 'dist', 'hookrun')] },
  { name: 'node', command: [process.execPath, join(ROOT, 'dist', 'hookrun.mjs')] },
  { name: 'bun', command: [join(BIN, 'bun'), join(ROOT, 'src', 'bin.ts')] },
  { name: 'deno', command: [join(BIN, 'deno'), 'run', '-A', '--quiet', join(ROOT, 'src', 'bin.ts')] },
]

/**
 * The runtimes the e2e suites run under: `HOOKRUN_TEST_RUNTIMES=all` (CI, `.ci/run`) or a comma
 * list; by default the compiled binary and Node, which between them cover the code. Bun and Deno
 * start slowly, so locally they run only the tests that exist because runtimes differ (stdin,
 * environment, the package, the library) and the cases marked `everyRuntime`.
 */
export const RUNTIMES = selectRuntimes(process.env.HOOKRUN_TEST_RUNTIMES)

export function selectRuntimes(choice: string | undefined): typeof ALL_RUNTIMES {
  if (choice === 'all') return ALL_RUNTIMES
  const names = (choice || 'binary,node').split(',').map((name) => name.trim())
  const unknown = names.filter((name) => !ALL_RUNTIMES.some((runtime) => runtime.name === name))
  if (unknown.length > 0)
    throw new Error(
      `HOOKRUN_TEST_RUNTIMES: unknown runtime ${unknown.join(', ')}; use all or a list of ${ALL_RUNTIMES.map((runtime) => runtime.name).join(', ')}`,
    )
  return ALL_RUNTIMES.filter((runtime) => names.includes(runtime.name))
}

export type Files = Record<string, string | object>

/** A throw-away folder with the given files; `.sh`/`.py` files and files starting with `#!` are made executable. */
export function makeProject(files: Files = {}): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hookrun-test-')))
  writeFiles(dir, files)
  return dir
}

/** A project that is also its HOME, with the environment tests give hookrun (cliEnvironment); `dirs` collects it to remove. */
export function projectAtHome(dirs: string[], files: Files = {}): { dir: string; env: Record<string, string> } {
  const dir = makeProject(files)
  dirs.push(dir)
  return { dir, env: cliEnvironment(dir) }
}

/** A temporary folder with these subfolders made, by name; `dirs` collects it to remove. */
export function foldersIn<Name extends string>(dirs: string[], ...names: Name[]): { root: string } & Record<Name, string> {
  const root = makeProject()
  dirs.push(root)
  const made = Object.fromEntries(names.map((name) => [name, join(root, name)])) as Record<Name, string>
  for (const folder of Object.values<string>(made)) mkdirSync(folder)
  return { root, ...made }
}

/** A user's HOME and a project folder side by side, for install tests; `dirs` collects the root to remove. */
export function homeAndProject(dirs: string[]): { home: string; project: string; env: Record<string, string> } {
  const { home, project } = foldersIn(dirs, 'home', 'project')
  return { home, project, env: { HOME: home } }
}

export function writeFiles(dir: string, files: Files): void {
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
    if (file.endsWith('.sh') || file.endsWith('.py') || (typeof content === 'string' && content.startsWith('#!'))) chmodSync(file, 0o755)
  }
}

export function removeProject(dir: string): void {
  // A background hook may still be writing in it: retry on ENOTEMPTY.
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
}

export interface CliResult {
  readonly exitCode: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  readonly durationMs: number
  /** Peak resident memory of hookrun in KiB, when `measureMemory` was set. */
  readonly maxRssKb?: number
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields of hookrun's JSON output without declaring its shape each time
  json(): any
}

export interface CliOptions {
  readonly cwd?: string
  readonly input?: string | Uint8Array
  readonly env?: Record<string, string | undefined>
  readonly runtime?: string
  readonly timeoutMs?: number
  /** Run under GNU time to report hookrun's peak memory (`maxRssKb`). */
  readonly measureMemory?: boolean
}

const TIME = '/usr/bin/time'
const MAXRSS = 'hookrun-test-maxrss-kb='

/** Deno's own cache for every test's Deno runs (see cliEnvironment). */
const DENO_CACHE = process.env.DENO_DIR ?? join(ROOT, 'node_modules', '.cache', 'deno')

/**
 * The environment hookrun runs with in tests: a clean HOME/XDG (the folder it runs in) so the
 * developer's own config and trust records never leak into a test.
 */
export function cliEnvironment(home: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.xdg-config'),
    XDG_CACHE_HOME: join(home, '.xdg-cache'),
    XDG_STATE_HOME: join(home, '.xdg-state'),
    // Deno keeps its compiled modules under XDG_CACHE_HOME: a fresh one would recompile all of
    // src/ on every start (about 3x a start), which a user's Deno, with its cache, never does.
    DENO_DIR: DENO_CACHE,
    HOOKRUN_CONFIG: undefined,
    HOOKRUN_DEPTH: undefined,
    HOOKRUN_DEBUG: undefined,
    NO_COLOR: '1',
    // Help wraps to COLUMNS when set; tests read it at its fixed width (80).
    COLUMNS: undefined,
    // A test runner's own FORCE_COLOR must not colour what a test reads (it wins over NO_COLOR).
    FORCE_COLOR: undefined,
    ...extra,
  }
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key]
  return env as Record<string, string>
}

/**
 * Trust the project at or above `cwd` for runs from `cwd` (whose HOME is `cwd`), exactly as
 * `hookrun trust` does. Tests of anything but trust start from a trusted project.
 */
export function trustProjectFor(cwd: string, env: Record<string, string | undefined> = {}): void {
  if (findProjectRoot(cwd) === undefined) return
  trustProject({ cwd, env: cliEnvironment(cwd, env) })
}

export function runtimeCommand(name: string): readonly string[] {
  const runtime = ALL_RUNTIMES.find((candidate) => candidate.name === name)
  if (!runtime) throw new Error(`unknown runtime ${name}`)
  return runtime.command
}

/**
 * Run hookrun as a user would, with a clean HOME/XDG so the developer's own config never leaks
 * into a test.
 */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).result
}

/** Start hookrun and return its process too (to signal it while it runs). */
export function startCli(args: readonly string[], options: CliOptions = {}): { child: ChildProcess; result: Promise<CliResult> } {
  const env = cliEnvironment(options.cwd ?? tmpdir(), options.env)
  if (options.measureMemory && !existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed to measure memory`)
  const [command, ...rest] = [
    ...(options.measureMemory ? [TIME, '-f', `${MAXRSS}%M`] : []),
    ...runtimeCommand(options.runtime ?? 'binary'),
    ...args,
  ]
  const started = performance.now()
  const child = spawn(command!, rest, { cwd: options.cwd ?? ROOT, env: env as NodeJS.ProcessEnv })
  const result = new Promise<CliResult>((resolvePromise, reject) => {
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.stdin!.on('error', () => {})
    child.stdin!.end(options.input ?? '')
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`hookrun ${args.join(' ')} did not finish in ${options.timeoutMs ?? 20_000} ms`))
    }, options.timeoutMs ?? 20_000)
    child.on('error', reject)
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      let maxRssKb: number | undefined
      if (options.measureMemory) {
        const at = stderr.lastIndexOf(MAXRSS)
        maxRssKb = Number(stderr.slice(at + MAXRSS.length).trim())
        stderr = stderr.slice(0, at)
        // GNU time reports a child's non-zero exit on the line before its own.
        stderr = stderr.replace(/Command (exited with non-zero status|terminated by signal) \d+\n$/, '')
      }
      resolvePromise({
        exitCode,
        signal,
        stdout,
        stderr,
        durationMs: performance.now() - started,
        maxRssKb,
        json: () => JSON.parse(stdout),
      })
    })
  })
  return { child, result }
}

/** Processes whose command line contains `marker` (used to prove nothing was left behind). */
export function processesMatching(marker: string): string[] {
  const result = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
  return result.stdout.split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'))
}

/** Wait until no process matches `marker`, up to `ms`; returns what is still there. */
export async function waitForNoProcess(marker: string, ms = 2000): Promise<string[]> {
  const deadline = Date.now() + ms
  for (;;) {
    const left = processesMatching(marker)
    if (left.length === 0 || Date.now() > deadline) return left
    await new Promise((resolveWait) => setTimeout(resolveWait, 50))
  }
}

/**
 * The CPU time (ms) this process spends in `fn`. Unlike wall time, it does not count the time
 * other processes on a busy machine take, so "takes a few milliseconds" can be asserted reliably.
 */
export function cpuMs<T>(fn: () => T): { value: T; ms: number } {
  const started = process.cpuUsage()
  const value = fn()
  const used = process.cpuUsage(started)
  return { value, ms: (used.user + used.system) / 1000 }
}

/**
 * Project hooks run only in trusted projects. Tests of anything but trust list their project in
 * the user config's `trustedFolders` (merged into what the test wrote there).
 */
export function trustFolderIn(dir: string, xdgConfigHome: string): void {
  const file = join(xdgConfigHome, 'hookrun', 'hooks.json')
  const existing = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify({ ...existing, trustedFolders: [...(existing.trustedFolders ?? []), dir] }, null, 2))
}

/** A decision as `fire` returns it, for tests of what reads one (dialects, renderers). */
export function makeDecision(over: Partial<Decision> = {}): Decision {
  return {
    event: 'tool:pre_execute:bash',
    decision: 'allow',
    blocked: false,
    continue: true,
    additionalContext: [],
    hooks: [],
    warnings: [],
    ...over,
  }
}

/** A configured hook, for tests of the stages after config (select, interpret, decide). */
export function makeHook(over: Partial<Hook> = {}): Hook {
  return {
    name: 'h',
    named: true,
    event: ['*'],
    command: 'true',
    timeout: 10,
    blocking: true,
    enabled: true,
    shape: 'hookrun',
    envPrefixes: [],
    source: { layer: 'project', file: '/p/.hookrun/hooks.json', index: 0, path: 'hooks[0]' },
    ...over,
  }
}

/**
 * Run npm or an installed package's command the way the package tests do: the Node running the
 * tests first on PATH (the package must work under it), no audit, fund or update notices.
 */
export function runPackageCommand(command: string, args: readonly string[], options: SpawnSyncOptions & { cwd: string }) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: 180_000,
    ...options,
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
      HOOKRUN_CONFIG: '',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...options.env,
    },
  })
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) }
}

/** The longest start of `text` of at most `max` bytes of UTF-8, counted character by character. */
export function cutUtf8(text: string, max: number): string {
  let bytes = 0
  let end = 0
  for (const char of text) {
    bytes += Buffer.byteLength(char)
    if (bytes > max) break
    end += char.length
  }
  return text.slice(0, end)
}

/** A loopback port nothing listens on now (a server a test starts takes it next). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise<void>((done) => server.close(() => done()))
  return port
}
