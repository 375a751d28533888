// Reading stdin synchronously where the runtime's stream would cost more.
import { readSync } from 'node:fs'

/**
 * The CLI's stdin as chunks, read straight from file descriptor 0. Reading the pipe directly
 * costs nothing until the payload is asked for, where `process.stdin` builds a stream on first
 * touch (a few milliseconds under the compiled binary, on every event). If the descriptor is
 * non-blocking (a parent left O_NONBLOCK on a shared pipe), the stream takes over from here.
 */
export async function* readStdin(): AsyncGenerator<Uint8Array> {
  for (;;) {
    const buffer = Buffer.allocUnsafe(1024 * 1024)
    let size: number
    try {
      size = readSync(0, buffer, 0, buffer.length, null)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EOF') return // Windows: the writer closed the pipe
      if (code !== 'EAGAIN') throw error
      yield* process.stdin
      return
    }
    if (size === 0) return
    yield buffer.subarray(0, size)
  }
}
