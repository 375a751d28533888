// Reading stdin synchronously where the runtime's stream would cost more.
import { readSync } from 'node:fs'
import { MAX_PAYLOAD_BYTES } from './payload.ts'

/** Most payloads fit in the first buffer; a larger one moves to a buffer as large as a payload may be. */
const FIRST_BYTES = 1024 * 1024

/**
 * The CLI's stdin, read straight from file descriptor 0. Reading the pipe directly costs nothing
 * until the payload is asked for, where `process.stdin` builds a stream on first touch (a few
 * milliseconds under the compiled binary, on every event). It comes as one chunk: a payload
 * larger than the first buffer goes on in one of MAX_PAYLOAD_BYTES + 1, of which the system
 * gives memory only to the pages written (a 10 MB payload is held once, not as chunks and their
 * concatenation); a chunk over MAX_PAYLOAD_BYTES is the reader's cue to refuse it. If the
 * descriptor is non-blocking (a parent left O_NONBLOCK on a shared pipe), the stream takes over
 * from there. Where the system will not reserve the large buffer (strict overcommit), the rest
 * comes in first-buffer-sized chunks instead, as before.
 */
export async function* readStdin(allocate: (size: number) => Buffer = Buffer.allocUnsafe): AsyncGenerator<Uint8Array> {
  let buffer = allocate(FIRST_BYTES)
  let filled = 0
  for (;;) {
    if (filled === buffer.length) {
      if (buffer.length > MAX_PAYLOAD_BYTES) break
      let larger: Buffer | undefined
      try {
        larger = buffer.length === FIRST_BYTES ? allocate(MAX_PAYLOAD_BYTES + 1) : undefined
      } catch {
        larger = undefined
      }
      if (larger === undefined) {
        // Chunks: the reader joins them, and stops reading once they pass MAX_PAYLOAD_BYTES.
        yield buffer
        buffer = allocate(FIRST_BYTES)
        filled = 0
        continue
      }
      larger.set(buffer)
      buffer = larger
    }
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
    if (size === 0) break
    filled += size
  }
  if (filled > 0) yield buffer.subarray(0, filled)
}
