// Stage run: one hook command as a process group, with timeout, closed stdin and bounded output.
import type { CommandRun } from '../core/types.ts'
import { commandArgv } from './argv.ts'
import type { Child, ChildInput, ChildOutput } from './child.ts'
import { startChild } from './spawn.ts'

export interface CommandOptions {
  readonly cwd: string
  /** The complete environment; keys with `undefined` values are removed. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Written to the command's own stdin pipe, which is then closed (bytes go as they are). */
  readonly input: ChildInput
  readonly timeoutMs: number
  /** Aborting kills the command's process group (hookrun itself got SIGINT/SIGTERM). */
  readonly signal?: AbortSignal
  /** Each output line as it comes (for `--events`). */
  readonly onLine?: (stream: 'stdout' | 'stderr', line: string) => void
  /** Honour a first stdout line `{"async": true, "asyncTimeout": ms}`: release the hook to run on detached (SIGPIPE ignored). */
  readonly allowAsync?: boolean
}

export const OUTPUT_CAPS = { stdout: 16 * 1024 * 1024, stderr: 1024 * 1024 }
/** After SIGTERM, how long a command gets before SIGKILL. */
const KILL_GRACE_MS = 500
/** After the command exits, how long its output pipes may stay open (a grandchild holding them). */
const DRAIN_GRACE_MS = 250

/** Run one hook command as its own process group (a timeout kills the group); output capped, not waited for past its exit. */
export async function runCommand(command: string, options: CommandOptions): Promise<CommandRun> {
  const started = performance.now()
  let child: Child
  try {
    child = await startCommand(command, options, 'pipe')
  } catch (error) {
    return notStarted(error, options.cwd, started)
  }
  return new Promise((resolvePromise) => {
    const proc = child
    const stdout = collect(proc.stdout, OUTPUT_CAPS.stdout)
    const stderr = collect(proc.stderr, OUTPUT_CAPS.stderr)
    let timedOut = false
    let exit: { code: number | null; signal: string | null } | undefined
    const timers: ReturnType<typeof setTimeout>[] = []
    let settled = false

    /** Done with this process: no more timers, abort handling, input or output reading. */
    const settle = () => {
      settled = true
      for (const timer of timers) clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      proc.closeInput()
      stdout.stop()
      stderr.stop()
    }
    const finish = () => {
      if (settled) return
      settle()
      resolvePromise({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: { stdout: stdout.truncated(), stderr: stderr.truncated() },
        durationMs: Math.round(performance.now() - started),
      })
    }
    const terminate = () => {
      killGroup(proc.pid, 'SIGTERM')
      timers.push(setTimeout(() => killGroup(proc.pid, 'SIGKILL'), KILL_GRACE_MS))
      // Whatever happens to the group, hookrun answers: a process that survives SIGKILL no longer holds it up.
      timers.push(setTimeout(() => finish(), KILL_GRACE_MS + DRAIN_GRACE_MS * 4))
    }
    const onAbort = () => terminate()

    if (options.onLine) {
      forEachLine(proc.stdout, (line) => options.onLine!('stdout', line))
      forEachLine(proc.stderr, (line) => options.onLine!('stderr', line))
    }
    if (options.allowAsync) {
      watchFirstLine(proc.stdout, (line) => {
        const request = asyncRequest(line)
        if (request === undefined || exit !== undefined || settled) return
        watchReleased(proc.pid, request.asyncTimeout ?? options.timeoutMs)
        settle()
        proc.unref()
        resolvePromise({
          released: true,
          exitCode: null,
          signal: null,
          timedOut: false,
          stdout: line,
          stderr: stderr.text(),
          truncated: { stdout: false, stderr: false },
          durationMs: Math.round(performance.now() - started),
        })
      })
    }

    proc.exited.then((result) => {
      if (settled) return // released async hooks are the keeper's business now
      exit = result
      // The command is done; its pipes close as soon as no grandchild holds them.
      Promise.all([stdout.ended, stderr.ended]).then(() => finish())
      timers.push(
        setTimeout(() => {
          killGroup(proc.pid, 'SIGKILL') // what is left of the group holds our pipes: the hook is over
          finish()
        }, DRAIN_GRACE_MS),
      )
    })
    timers.push(
      setTimeout(() => {
        timedOut = true
        terminate()
      }, options.timeoutMs),
    )
    if (options.signal?.aborted) terminate()
    else options.signal?.addEventListener('abort', onAbort, { once: true })
    void proc.writeInput(options.input)
  })
}

/** Start a command detached (`blocking: false`); resolves once its input is handed over (at most 1 s). */
export async function startDetached(command: string, options: Omit<CommandOptions, 'timeoutMs' | 'signal'>): Promise<string | undefined> {
  let proc: Child
  try {
    proc = await startCommand(command, options, 'ignore')
  } catch (error) {
    return describeSpawnError(error, options.cwd)
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  const bound = new Promise<void>((resolveBound) => {
    timer = setTimeout(() => {
      proc.closeInput()
      resolveBound()
    }, 1000)
  })
  await Promise.race([proc.writeInput(options.input), bound])
  clearTimeout(timer)
  proc.unref()
  return undefined
}

/** Start the command without a shell when nothing needs one (src/run/argv.ts); else, or when that fails, as `sh -c`. */
async function startCommand(command: string, options: Pick<CommandOptions, 'cwd' | 'env'>, output: 'pipe' | 'ignore'): Promise<Child> {
  const request = { cwd: options.cwd, env: options.env, stdout: output, stderr: output } as const
  const direct = commandArgv(command, options.env.PATH, options.cwd)
  if (direct !== undefined) {
    try {
      return await startChild({ ...request, argv: direct })
    } catch {
      // Fall through to the shell, which says why the command cannot run.
    }
  }
  // SIGPIPE ignored: a released async hook must survive writing after hookrun has exited.
  return startChild({ ...request, argv: ['sh', '-c', `trap '' PIPE\n${command}`] })
}

/** `{"async": true, "asyncTimeout"?: ms}` on one line, or undefined. */
function asyncRequest(line: string): { asyncTimeout?: number } | undefined {
  if (!line.trimStart().startsWith('{')) return undefined
  try {
    const value = JSON.parse(line) as { async?: unknown; asyncTimeout?: unknown }
    if (value.async !== true) return undefined
    return typeof value.asyncTimeout === 'number' && value.asyncTimeout > 0 ? { asyncTimeout: value.asyncTimeout } : {}
  } catch {
    return undefined
  }
}

/** Enforce a released async hook's timeout after hookrun has gone: a detached `sh` that kills its group when time is up. */
function watchReleased(group: number, timeoutMs: number): void {
  const seconds = Math.max(1, Math.ceil(timeoutMs / 1000))
  const script = [
    'i=0',
    'while kill -0 -$GROUP 2>/dev/null && [ $i -lt $LIMIT ]; do sleep 1; i=$((i+1)); done',
    'kill -TERM -$GROUP 2>/dev/null && sleep 1 && kill -KILL -$GROUP 2>/dev/null',
    'exit 0',
  ].join('\n')
  const env = { PATH: process.env.PATH, GROUP: String(group), LIMIT: String(seconds) }
  startChild({ argv: ['sh', '-c', script], cwd: '/', env, stdout: 'ignore', stderr: 'ignore' }).then(
    (watcher) => {
      watcher.closeInput()
      watcher.unref()
    },
    () => {
      // No watcher: the hook's own timeout is then not enforced after hookrun exits.
    },
  )
}

/** Calls `onLine` with each line of `stream` (the last one too, without its newline). */
function forEachLine(stream: ChildOutput | undefined, onLine: (line: string) => void): void {
  if (!stream) return
  const decoder = new TextDecoder()
  let partial = ''
  stream.onData((chunk) => {
    const lines = (partial + decoder.decode(chunk, { stream: true })).split('\n')
    partial = lines.pop()!
    for (const line of lines) onLine(line)
  })
  void stream.ended.then(() => {
    partial += decoder.decode()
    if (partial !== '') onLine(partial)
  })
}

/** Call `onLine` once with the first line of `stream` (the text before the first newline). */
function watchFirstLine(stream: ChildOutput | undefined, onLine: (line: string) => void): void {
  if (!stream) return
  const decoder = new TextDecoder()
  let head = ''
  let done = false
  stream.onData((chunk) => {
    if (done) return
    head += decoder.decode(chunk, { stream: true })
    const newline = head.indexOf('\n')
    if (newline === -1 && head.length < 4096) return
    done = true
    onLine(newline === -1 ? head : head.slice(0, newline))
  })
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: the group is gone already.
  }
}

interface Collector {
  readonly ended: Promise<void>
  text(): string
  truncated(): boolean
  stop(): void
}

function collect(stream: ChildOutput | undefined, cap: number): Collector {
  const chunks: Uint8Array[] = []
  let size = 0
  let dropped = false
  stream?.onData((chunk) => {
    if (size >= cap) {
      dropped = true // keep draining so the writer never blocks, but keep nothing
      return
    }
    const room = cap - size
    if (chunk.length > room) dropped = true
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk
    chunks.push(kept)
    size += kept.length
  })
  return {
    ended: stream?.ended ?? Promise.resolve(),
    // Invalid UTF-8 becomes U+FFFD rather than an error: a hook's bytes never crash hookrun.
    text: () => (size === 0 ? '' : new TextDecoder().decode(Buffer.concat(chunks, size))),
    truncated: () => dropped,
    stop: () => stream?.stop(),
  }
}

function notStarted(error: unknown, cwd: string, started: number): CommandRun {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    spawnError: describeSpawnError(error, cwd),
    stdout: '',
    stderr: '',
    truncated: { stdout: false, stderr: false },
    durationMs: Math.round(performance.now() - started),
  }
}

function describeSpawnError(error: unknown, cwd: string): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return `cannot start: working directory ${cwd} does not exist, or sh is not on PATH`
  return `cannot start: ${(error as Error).message}`
}
