// Reading stdin synchronously where the runtime's stream would cost more.
import { readSync } from 'node:fs'

/** Stdin is read into buffers of this size, each filled before the next is made. */
const CHUNK_BYTES = 1024 * 1024

/**
 * The CLI's stdin as chunks, read straight from file descriptor 0. Reading the pipe directly
 * costs nothing until the payload is asked for, where `process.stdin` builds a stream on first
 * touch (a few milliseconds under the compiled binary, on every event). A pipe gives at most
 * 64 KiB a read, so each buffer is filled before the next is made (a 10 MB payload: 11 buffers,
 * not 160). If the descriptor is non-blocking (a parent left O_NONBLOCK on a shared pipe), the
 * stream takes over from here.
 */
export async function* readStdin(): AsyncGenerator<Uint8Array> {
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES)
    let filled = 0
    let more = true
    while (more && filled < buffer.length) {
      let size: number
      try {
        size = readSync(0, buffer, filled, buffer.length - filled, null)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'EOF' && code !== 'EAGAIN') throw error
        if (filled > 0) yield buffer.subarray(0, filled)
        if (code === 'EAGAIN') yield* process.stdin
        return // EOF: Windows, the writer closed the pipe
      }
      if (size === 0) more = false
      filled += size
    }
    if (filled > 0) yield buffer.subarray(0, filled)
    if (!more) return
  }
}
