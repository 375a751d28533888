/// <reference types="bun" />
// Bun.spawn behind the Child contract.
import { type Child, type ChildOutput, definedEnv, type SpawnRequest } from './child.ts'

/** The most bytes written to a child's stdin at once. */
const WRITE_SLICE = 1024 * 1024

/** `Bun.spawn` behind the Child contract (src/run/spawn.ts). */
export function startBunChild(request: SpawnRequest): Child {
  const proc = Bun.spawn({
    cmd: [...request.argv],
    cwd: request.cwd,
    env: definedEnv(request.env),
    stdin: 'pipe',
    stdout: request.stdout,
    stderr: request.stderr,
    // setsid(): the command leads its own process group, which is what a timeout kills.
    detached: true,
  })
  const stdin = proc.stdin
  let inputClosed = false
  const closeInput = () => {
    if (inputClosed) return
    inputClosed = true
    try {
      const ending = stdin.end()
      if (ending instanceof Promise) ending.catch(() => {})
    } catch {
      // The child closed its end first (EPIPE): nothing left to close.
    }
  }
  return {
    pid: proc.pid,
    stdout: request.stdout === 'pipe' ? bunOutput(proc.stdout as ReadableStream<Uint8Array>) : undefined,
    stderr: request.stderr === 'pipe' ? bunOutput(proc.stderr as ReadableStream<Uint8Array>) : undefined,
    exited: proc.exited.then(
      () => ({ code: proc.signalCode ? null : proc.exitCode, signal: proc.signalCode ? String(proc.signalCode) : null }),
      () => ({ code: null, signal: null }),
    ),
    async writeInput(input) {
      if (inputClosed) return
      inputClosed = true
      try {
        // A full pipe's promise rejects (EPIPE) when the hook exits unread: caught here. Large input goes in slices
        // (10 MiB in one write held 13 MiB more and took twice as long).
        if (typeof input === 'string') {
          if (input.length > 0) await stdin.write(input)
        } else {
          for (const piece of input instanceof Uint8Array ? [input] : input) {
            for (let at = 0; at < piece.length; at += WRITE_SLICE) await stdin.write(piece.subarray(at, at + WRITE_SLICE))
          }
        }
        await stdin.end()
      } catch {
        // A hook may exit without reading its input: that EPIPE is its business.
      }
    },
    closeInput,
    unref: () => proc.unref(),
  }
}

function bunOutput(stream: ReadableStream<Uint8Array>): ChildOutput {
  const listeners: Array<(chunk: Uint8Array) => void> = []
  const reader = stream.getReader()
  let stopped = false
  let resolveEnded!: () => void
  const ended = new Promise<void>((resolve) => (resolveEnded = resolve))
  const pump = async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        for (const listener of listeners) listener(value)
      }
    } catch {
      // Cancelled or failed: the output ends here.
    }
    resolveEnded()
  }
  return {
    onData(listener) {
      // Reading starts once the caller's listeners are all in place, so none misses the first chunk.
      if (listeners.push(listener) === 1) queueMicrotask(() => void pump())
    },
    ended,
    stop() {
      if (stopped) return
      stopped = true
      reader.cancel().catch(() => {})
    },
  }
}
