// Stage payload: read stdin or a file once, size- and depth-checked, into a JSON object.
import { closeSync, createReadStream, fstatSync, openSync, readFileSync } from 'node:fs'
import { HookrunError } from '../core/errors.ts'
import { PayloadError } from './payload-error.ts'
import type { Payload } from '../core/types.ts'

/** Payloads larger than this are refused; a 10 MB file write must still pass. */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024

/** Deeper nesting is refused: it would overflow the stack of whatever walks the payload next. */
export const MAX_PAYLOAD_DEPTH = 512

/** Payloads at least this large leave their long strings undecoded until read; smaller ones cost less parsed whole. */
export const LARGE_PAYLOAD_BYTES = 1024 * 1024

/** Read the payload once: `-` is stdin, anything else a file path, nothing means `{}`. */
export async function readPayload(source: string | undefined, stdin: AsyncIterable<Uint8Array> = process.stdin): Promise<Payload> {
  if (source === undefined) return {}
  const where = source === '-' ? 'payload on stdin' : `payload file ${source}`
  const bytes = source === '-' ? await readLimited(stdin, where) : await readPayloadFile(source)
  if (bytes.length >= LARGE_PAYLOAD_BYTES) {
    // Anything it cannot take (not JSON, not an object, too deep) is parsed whole below, which says why.
    const parsed = (await import('./long-strings.ts')).parseLeavingLongStrings(bytes, { maxDepth: MAX_PAYLOAD_DEPTH, where })
    if (parsed !== undefined) {
      RAW_BYTES.set(parsed, bytes)
      return parsed
    }
  }
  try {
    return parsePayload(bytes, where)
  } catch (error) {
    if (!(error instanceof PayloadError) || error.text === undefined) throw error
    // The runtimes word syntax errors differently: the parser that locates it loads only here.
    const located = (await import('../core/json-error.ts')).locateJsonError(error.text)
    if (located === undefined) throw error
    const partial =
      typeof located.partial === 'object' && located.partial !== null && !Array.isArray(located.partial)
        ? (located.partial as Payload)
        : undefined
    const fix =
      source === '-' ? 'send the event as one JSON object, e.g. {"tool_name":"bash"}' : `fix ${source}: it must hold one JSON object`
    throw new PayloadError(`${where} is not valid JSON: ${located.message}; ${fix}`, partial)
  }
}

async function readPayloadFile(file: string): Promise<Uint8Array> {
  // A regular file is read at once (a stream costs a fire ~3 ms); a pipe or device as a stream with stdin's limit.
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    const stat = fstatSync(fd)
    if (stat.isFile()) {
      if (stat.size > MAX_PAYLOAD_BYTES) throw tooLarge(`payload file ${file}`)
      return readFileSync(fd)
    }
    if (stat.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' })
    return await readLimited(createReadStream('', { fd, autoClose: false }), `payload file ${file}`)
  } catch (error) {
    if (error instanceof HookrunError) throw error
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message
    throw new PayloadError(`cannot read payload file ${file}: ${why}; pass an existing file, or - for stdin`)
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

async function readLimited(stream: AsyncIterable<Uint8Array>, where: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of stream) {
    size += chunk.byteLength
    // Leaving the loop closes the stream: the rest is never read, so memory stays bounded.
    if (size > MAX_PAYLOAD_BYTES) throw tooLarge(where)
    chunks.push(chunk)
  }
  // One chunk (stdin read by src/payload/stdin.ts) is the payload as it is: a copy would double it.
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)
}

function tooLarge(where: string): HookrunError {
  return new PayloadError(`${where} is larger than ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB; pass large data by path instead`)
}

/** Decode and parse payload bytes; every way they can be wrong gets its own message. */
export function parsePayload(bytes: Uint8Array, where = 'payload'): Payload {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new PayloadError(`${where} is not valid UTF-8 text; send the event as UTF-8 JSON`)
  }
  if (text.trim() === '') throw new PayloadError(`${where} is empty; send a JSON object such as {"tool_name":"bash"}, or omit --payload`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // A parser that recurses gives up on deep nesting with a RangeError: same message as the check below.
    if (error instanceof RangeError) throw nestedTooDeeply(where)
    throw new PayloadError(`${where} is not valid JSON: ${(error as Error).message}`, undefined, text)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`
    throw new PayloadError(`${where} must be a JSON object, got ${kind}; send the event as one JSON object, e.g. {"tool_name":"bash"}`)
  }
  if (nestingDepth(value, MAX_PAYLOAD_DEPTH) > MAX_PAYLOAD_DEPTH) throw nestedTooDeeply(where)
  RAW_BYTES.set(value, bytes)
  return value as Payload
}

/** The bytes a payload object was parsed from, handed to hooks as they came; a new payload object has none. */
const RAW_BYTES = new WeakMap<object, Uint8Array>()

/** The bytes `payload` was parsed from by `parsePayload`, if it is that very object. */
export function payloadBytes(payload: Payload): Uint8Array | undefined {
  return RAW_BYTES.get(payload)
}

function nestedTooDeeply(where: string): HookrunError {
  return new PayloadError(`${where} is nested more than ${MAX_PAYLOAD_DEPTH} levels deep; send a flatter JSON object`)
}

/** How deep objects and arrays nest, walked without recursion; stops counting past `limit`. */
export function nestingDepth(root: object, limit: number): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[root, 1]]
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!
    if (depth > deepest) deepest = depth
    if (deepest > limit) return deepest
    for (const child of Object.values(value as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
    }
  }
  return deepest
}
