// node:child_process behind the Child contract, for Node and Deno.
import type { ChildProcess } from 'node:child_process'
import type { Readable } from 'node:stream'
import { type Child, type ChildInput, type ChildOutput, definedEnv, type SpawnRequest } from './child.ts'
import { nodeChildProcess } from '../core/builtins.ts'

/**
 * `child_process.spawn` behind the Child contract (src/run/spawn.ts), for Node and Deno; the module
 * is loaded lazily (src/core/builtins.ts): the compiled binary never takes this path.
 */
export async function startNodeChild(request: SpawnRequest): Promise<Child> {
  const { spawn } = nodeChildProcess()
  const [program, ...args] = request.argv
  // detached: the command leads its own process group, which is what a timeout kills.
  const proc = spawn(program!, args, {
    cwd: request.cwd,
    env: definedEnv(request.env),
    stdio: ['pipe', request.stdout, request.stderr],
    detached: true,
    windowsHide: true,
  })
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolveExit) => {
    proc.once('exit', (code, signal) => resolveExit({ code, signal }))
  })
  // A spawn error (a missing working directory, a missing program) comes as 'error' instead of 'spawn'.
  await new Promise<void>((resolveSpawn, rejectSpawn) => {
    proc.once('spawn', () => resolveSpawn())
    proc.once('error', rejectSpawn)
  })
  return {
    pid: proc.pid!,
    stdout: nodeOutput(proc.stdout),
    stderr: nodeOutput(proc.stderr),
    exited,
    writeInput: (input) => writeInput(proc, input),
    closeInput: () => proc.stdin?.destroy(),
    unref: () => proc.unref(),
  }
}
function writeInput(proc: ChildProcess, input: ChildInput): Promise<void> {
  const stdin = proc.stdin
  if (!stdin) return Promise.resolve()
  return new Promise((resolveWrite) => {
    // A hook may exit without reading its input: that EPIPE is its business, not a crash of ours.
    stdin.on('error', () => resolveWrite())
    if (typeof input === 'string' || input instanceof Uint8Array) stdin.end(input, () => resolveWrite())
    else {
      for (const piece of input) stdin.write(piece)
      stdin.end(() => resolveWrite())
    }
  })
}

function nodeOutput(stream: Readable | null): ChildOutput | undefined {
  if (!stream) return undefined
  const ended = new Promise<void>((resolveEnded) => {
    stream.once('end', () => resolveEnded())
    stream.once('close', () => resolveEnded())
    stream.once('error', () => resolveEnded())
  })
  return {
    onData: (listener) => void stream.on('data', listener),
    ended,
    stop: () => stream.destroy(),
  }
}
