// Stage run: one hook command as a process group, with timeout, closed stdin and bounded output.
import type { ChildProcess } from 'node:child_process'
import type { Readable } from 'node:stream'
import { x } from 'tinyexec'
import type { CommandRun } from '../core/types.ts'

export interface CommandOptions {
  readonly cwd: string
  /** The complete environment; keys with `undefined` values are removed. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Written to the command's own stdin pipe, which is then closed. */
  readonly input: string
  readonly timeoutMs: number
  /** Aborting kills the command's process group (hookrun itself got SIGINT/SIGTERM). */
  readonly signal?: AbortSignal
  /** Each output line as it comes (for `--events`). */
  readonly onLine?: (stream: 'stdout' | 'stderr', line: string) => void
  /**
   * Honour a first stdout line `{"async": true, "asyncTimeout": ms}`: release the hook to run on
   * detached. Its later output is discarded: hooks run with SIGPIPE ignored, so writing to the
   * closed pipe is an EPIPE error, not death.
   */
  readonly allowAsync?: boolean
}

export const OUTPUT_CAPS = { stdout: 16 * 1024 * 1024, stderr: 1024 * 1024 }
/** After SIGTERM, how long a command gets before SIGKILL. */
export const KILL_GRACE_MS = 500
/** After the command exits, how long its output pipes may stay open (a grandchild holding them). */
export const DRAIN_GRACE_MS = 250

/**
 * Spawn `sh -c command` as its own process group, so a timeout (or hookrun being interrupted)
 * can kill the whole group. tinyexec does the spawning (env merge, Windows normalisation); the
 * output is read here instead of through its promise, because that promise buffers without a cap
 * and waits until every process holding the pipes has exited.
 */
export function runCommand(command: string, options: CommandOptions): Promise<CommandRun> {
  const started = performance.now()
  return new Promise((resolvePromise) => {
    let child: ChildProcess | undefined
    try {
      child = spawnGroup(command, options, ['pipe', 'pipe', 'pipe'])
    } catch (error) {
      resolvePromise(notStarted(error, started))
      return
    }
    const proc = child
    const stdout = collect(proc.stdout, OUTPUT_CAPS.stdout)
    const stderr = collect(proc.stderr, OUTPUT_CAPS.stderr)
    let timedOut = false
    let exit: { code: number | null; signal: string | null } | undefined
    const timers: ReturnType<typeof setTimeout>[] = []
    let settled = false

    const finish = (spawnError?: string) => {
      if (settled) return
      settled = true
      for (const timer of timers) clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      stdout.stop()
      stderr.stop()
      resolvePromise({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        spawnError,
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: { stdout: stdout.truncated(), stderr: stderr.truncated() },
        durationMs: Math.round(performance.now() - started),
      })
    }
    const terminate = () => {
      killGroup(proc, 'SIGTERM')
      timers.push(setTimeout(() => killGroup(proc, 'SIGKILL'), KILL_GRACE_MS))
      // Whatever happens to the group, hookrun answers: a process that survives SIGKILL
      // (uninterruptible, or escaped with setsid) no longer holds hookrun up.
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
        watchReleased(proc, request.asyncTimeout ?? options.timeoutMs)
        settled = true
        for (const timer of timers) clearTimeout(timer)
        options.signal?.removeEventListener('abort', onAbort)
        proc.stdin?.destroy()
        stdout.stop()
        stderr.stop()
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

    proc.once('error', (error) => {
      if (exit === undefined) finish(describeSpawnError(error, options.cwd))
    })
    proc.once('exit', (code, signal) => {
      if (settled) return // released async hooks are the keeper's business now
      exit = { code, signal }
      // The command is done; its pipes close as soon as no grandchild holds them.
      Promise.all([stdout.ended, stderr.ended]).then(() => finish())
      timers.push(
        setTimeout(() => {
          killGroup(proc, 'SIGKILL') // what is left of the group holds our pipes: the hook is over
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
    writeInput(proc, options.input)
  })
}

/**
 * Start a command detached and do not wait for it (`blocking: false`). The promise resolves once
 * its input is handed over (bounded, so a hook that never reads stdin cannot hold hookrun).
 */
export function startDetached(command: string, options: Omit<CommandOptions, 'timeoutMs' | 'signal'>): Promise<string | undefined> {
  let proc: ChildProcess
  try {
    proc = spawnGroup(command, options, ['pipe', 'ignore', 'ignore'])
  } catch (error) {
    return Promise.resolve(describeSpawnError(error, options.cwd))
  }
  return new Promise((resolvePromise) => {
    let spawnError: string | undefined
    proc.once('error', (error) => {
      spawnError = describeSpawnError(error, options.cwd)
    })
    const done = () => {
      clearTimeout(timer)
      proc.unref()
      resolvePromise(spawnError)
    }
    const timer = setTimeout(() => {
      proc.stdin?.destroy()
      done()
    }, 1000)
    writeInput(proc, options.input, done)
  })
}

function spawnGroup(command: string, options: Pick<CommandOptions, 'cwd' | 'env'>, stdio: ['pipe', 'pipe' | 'ignore', 'pipe' | 'ignore']): ChildProcess {
  // SIGPIPE ignored: a released async hook must survive writing after hookrun has exited.
  const result = x('sh', ['-c', `trap '' PIPE\n${command}`], {
    // The node_modules/.bin of whatever repository the agent is in must not shadow user commands.
    nodePath: false,
    // detached: the command leads its own process group, which is what a timeout kills.
    persist: true,
    nodeOptions: { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio },
  })
  if (!result.process) throw new Error('the process was not created')
  return result.process
}

function writeInput(proc: ChildProcess, input: string, done?: () => void): void {
  const stdin = proc.stdin
  if (!stdin) {
    done?.()
    return
  }
  // A hook may exit without reading its input: that EPIPE is its business, not a crash of ours.
  stdin.on('error', () => done?.())
  stdin.end(input, () => done?.())
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

/**
 * Enforce a released async hook's timeout after hookrun has gone: a detached `sh` that checks
 * every second whether the hook's process group still exists, and kills it when time is up.
 */
function watchReleased(proc: ChildProcess, timeoutMs: number): void {
  const seconds = Math.max(1, Math.ceil(timeoutMs / 1000))
  const script = [
    'i=0',
    'while kill -0 -$GROUP 2>/dev/null && [ $i -lt $LIMIT ]; do sleep 1; i=$((i+1)); done',
    'kill -TERM -$GROUP 2>/dev/null && sleep 1 && kill -KILL -$GROUP 2>/dev/null',
    'exit 0',
  ].join('\n')
  const watcher = x('sh', ['-c', script], {
    nodePath: false,
    persist: true,
    nodeOptions: { stdio: 'ignore', env: { PATH: process.env.PATH, GROUP: String(proc.pid), LIMIT: String(seconds) } },
  }).process
  watcher?.unref()
}

function forEachLine(stream: Readable | null, onLine: (line: string) => void): void {
  if (!stream) return
  let partial = ''
  stream.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n')
    partial = lines.pop()!
    for (const line of lines) onLine(line)
  })
  stream.once('end', () => {
    if (partial !== '') onLine(partial)
  })
}

/** Call `onLine` once with the first line of `stream` (the text before the first newline). */
function watchFirstLine(stream: Readable | null, onLine: (line: string) => void): void {
  if (!stream) return
  let head = ''
  const onData = (chunk: Buffer) => {
    head += chunk.toString()
    const newline = head.indexOf('\n')
    if (newline === -1 && head.length < 4096) return
    stream.off('data', onData)
    onLine(newline === -1 ? head : head.slice(0, newline))
  }
  stream.on('data', onData)
}

function killGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (proc.pid === undefined) return
  try {
    process.kill(-proc.pid, signal)
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

function collect(stream: Readable | null, cap: number): Collector {
  const chunks: Buffer[] = []
  let size = 0
  let dropped = false
  const ended = new Promise<void>((resolveEnded) => {
    if (!stream) return resolveEnded()
    stream.on('data', (chunk: Buffer) => {
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
    stream.once('end', () => resolveEnded())
    stream.once('close', () => resolveEnded())
    stream.once('error', () => resolveEnded())
  })
  return {
    ended,
    // Invalid UTF-8 becomes U+FFFD rather than an error: a hook's bytes never crash hookrun.
    text: () => new TextDecoder().decode(Buffer.concat(chunks, size)),
    truncated: () => dropped,
    stop: () => stream?.destroy(),
  }
}

function notStarted(error: unknown, started: number): CommandRun {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    spawnError: describeSpawnError(error, undefined),
    stdout: '',
    stderr: '',
    truncated: { stdout: false, stderr: false },
    durationMs: Math.round(performance.now() - started),
  }
}

function describeSpawnError(error: unknown, cwd: string | undefined): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT' && cwd !== undefined) return `cannot start: working directory ${cwd} does not exist, or sh is not on PATH`
  return `cannot start: ${(error as Error).message}`
}
