// node:child_process (via tinyexec) behind the Child contract, for Node and Deno.
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import type { Readable } from 'node:stream'
import { x } from 'tinyexec'
import type { Child, ChildOutput, SpawnRequest } from './child.ts'

/** tinyexec (node:child_process) behind the Child contract (src/run/spawn.ts), for Node and Deno. */
export async function startNodeChild(request: SpawnRequest): Promise<Child> {
  const [program, ...args] = request.argv
  const proc = x(program!, args, {
    // The node_modules/.bin of whatever repository the agent is in must not shadow user commands.
    nodePath: false,
    // detached: the command leads its own process group, which is what a timeout kills.
    persist: true,
    nodeOptions: { cwd: request.cwd, env: request.env as NodeJS.ProcessEnv, stdio: ['pipe', request.stdout, request.stderr] },
  }).process
  if (!proc) throw new Error('the process was not created')
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolveExit) => {
    proc.once('exit', (code, signal) => resolveExit({ code, signal }))
  })
  // A spawn error (a missing working directory) is an 'error' event instead of 'spawn'.
  await once(proc, 'spawn')
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

function writeInput(proc: ChildProcess, input: string | Uint8Array): Promise<void> {
  const stdin = proc.stdin
  if (!stdin) return Promise.resolve()
  return new Promise((resolveWrite) => {
    // A hook may exit without reading its input: that EPIPE is its business, not a crash of ours.
    stdin.on('error', () => resolveWrite())
    stdin.end(input, () => resolveWrite())
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
