// Reading stdin synchronously where the runtime's stream would cost more.
import { readSync } from 'node:fs'
import { MAX_PAYLOAD_BYTES } from './payload.ts'

/** Most payloads fit in the first buffer; a larger one moves to a buffer as large as a payload may be. */
const FIRST_BYTES = 1024 * 1024

/**
 * The CLI's stdin, read straight from fd 0 (`process.stdin` costs milliseconds an event), as one chunk: a larger
 * payload goes on in a buffer of MAX_PAYLOAD_BYTES + 1 (only written pages get memory; past it the reader refuses).
 * A non-blocking fd hands over to the stream; where the large buffer cannot be reserved, chunks come instead.
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
