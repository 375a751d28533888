import { readFile } from 'node:fs/promises'
import { HookrunError } from './errors.ts'

/** The event JSON an agent hands to `fire`: always a JSON object. */
export type Payload = Record<string, unknown>

/** Payloads larger than this are refused; a 10 MB file write must still pass. */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024

/**
 * Read the payload once: `-` is stdin, anything else a file path, nothing means `{}`.
 * The bytes must be UTF-8 JSON text of one object.
 */
export async function readPayload(source: string | undefined, stdin: AsyncIterable<Uint8Array> = process.stdin): Promise<Payload> {
  if (source === undefined) return {}
  const where = source === '-' ? 'payload on stdin' : `payload file ${source}`
  const bytes = source === '-' ? await readLimited(stdin, where) : await readPayloadFile(source)
  return parsePayload(bytes, where)
}

async function readPayloadFile(file: string): Promise<Uint8Array> {
  try {
    const bytes = await readFile(file)
    if (bytes.byteLength > MAX_PAYLOAD_BYTES) throw tooLarge(`payload file ${file}`)
    return bytes
  } catch (error) {
    if (error instanceof HookrunError) throw error
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message
    throw new HookrunError(`cannot read payload file ${file}: ${why}`)
  }
}

async function readLimited(stream: AsyncIterable<Uint8Array>, where: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of stream) {
    size += chunk.byteLength
    if (size > MAX_PAYLOAD_BYTES) throw tooLarge(where)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size)
}

function tooLarge(where: string): HookrunError {
  return new HookrunError(`${where} is larger than ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB; pass large data by path instead`)
}

/** Decode and parse payload bytes; every way they can be wrong gets its own message. */
export function parsePayload(bytes: Uint8Array, where = 'payload'): Payload {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new HookrunError(`${where} is not valid UTF-8 text; send the event as UTF-8 JSON`)
  }
  if (text.trim() === '') throw new HookrunError(`${where} is empty; send a JSON object such as {"tool_name":"bash"}, or omit --payload`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const why = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message
    throw new HookrunError(`${where} is not valid JSON: ${why}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`
    throw new HookrunError(`${where} must be a JSON object, got ${kind}`)
  }
  return value as Payload
}
