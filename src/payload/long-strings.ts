// A large payload parsed without decoding its long strings: they are read from the bytes when asked for.
import { PayloadError } from './payload-error.ts'

/** A string value at least this long (in bytes, quotes excluded) is left undecoded until read. */
const LONG_STRING_BYTES = 64 * 1024

/** Where a long string's JSON literal sits in the payload's bytes, and its value once decoded. */
interface LongString {
  readonly bytes: Uint8Array
  /** The payload's source, for the message when the string is not valid JSON. */
  readonly where: string
  /** The opening and closing quote. */
  readonly open: number
  readonly close: number
  value?: string
}

/** The long strings of each object parsed here, by key: what `boundedText` reads. */
const LONG_STRINGS = new WeakMap<object, Map<string, LongString>>()

const QUOTE = 0x22
const BACKSLASH = 0x5c
const NUL_ESCAPE = '\\u0000'

/**
 * The payload's bytes parsed as `JSON.parse` would, except that each string value of `longString` bytes or more
 * becomes a property that decodes (and is checked) on first read: a 10 MB file write is held once, as its bytes.
 * Undefined when the rest is not UTF-8 JSON or not an object: the caller's whole parse then says what is wrong.
 */
export function parseLeavingLongStrings(
  bytes: Uint8Array,
  { maxDepth, where, longString = LONG_STRING_BYTES }: { maxDepth: number; where: string; longString?: number },
): Record<string, unknown> | undefined {
  const long: Array<{ open: number; close: number }> = []
  for (let at = bytes.indexOf(QUOTE); at !== -1; ) {
    const close = stringEnd(bytes, at + 1)
    if (close === -1) return undefined
    if (close - at - 1 >= longString && !isKey(bytes, close + 1)) long.push({ open: at, close })
    at = bytes.indexOf(QUOTE, close + 1)
  }
  // The JSON with each long string replaced by a marker no payload can hold by accident.
  const marker = `\0hookrun-long-string:${Math.random().toString(36).slice(2)}:`
  const pieces: Uint8Array[] = []
  let from = 0
  long.forEach(({ open, close }, index) => {
    pieces.push(bytes.subarray(from, open), new TextEncoder().encode(JSON.stringify(`${marker}${index}`)))
    from = close + 1
  })
  pieces.push(bytes.subarray(from))
  let skeleton: unknown
  try {
    skeleton = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(pieces)))
  } catch {
    return undefined
  }
  // Not an object (an array, one long string): the caller's whole parse says what it is instead.
  if (typeof skeleton !== 'object' || skeleton === null || Array.isArray(skeleton)) return undefined
  // Too deep: the whole parse refuses it (the depth is checked here, where no long string is read).
  if (
    !replaceMarkers(
      skeleton,
      marker,
      long.map(({ open, close }) => ({ bytes, open, close, where })),
      maxDepth,
    )
  )
    return undefined
  return skeleton as Record<string, unknown>
}

/**
 * The index of the unescaped quote that closes the string whose text starts at `from`, or -1. Found with the
 * runtime's byte search: a JavaScript loop over 10 MB takes milliseconds and ~8 MB more for its JIT (measured).
 */
function stringEnd(bytes: Uint8Array, from: number): number {
  for (let quote = bytes.indexOf(QUOTE, from); quote !== -1; quote = bytes.indexOf(QUOTE, quote + 1)) {
    if (!isEscaped(bytes, quote)) return quote
  }
  return -1
}

/** Whether the byte at `at` is escaped: an odd run of backslashes comes right before it. */
function isEscaped(bytes: Uint8Array, at: number): boolean {
  let backslashes = 0
  while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++
  return backslashes % 2 === 1
}

/** Whether the string that closed before `at` is an object key (a colon follows it). */
function isKey(bytes: Uint8Array, at: number): boolean {
  while (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09) at++
  return bytes[at] === 0x3a
}

/** Put each long string where its marker was parsed; false when objects and arrays nest deeper than `maxDepth`. */
function replaceMarkers(root: object, marker: string, long: readonly LongString[], maxDepth: number): boolean {
  const stack: Array<[object, number]> = [[root, 1]]
  while (stack.length > 0) {
    const [holder, depth] = stack.pop()!
    if (depth > maxDepth) return false
    for (const key of Object.keys(holder)) {
      const value = (holder as Record<string, unknown>)[key]
      if (typeof value === 'object' && value !== null) stack.push([value, depth + 1])
      else if (long.length > 0 && typeof value === 'string' && value.startsWith(marker))
        defineLongString(holder, key, long[Number(value.slice(marker.length))]!)
    }
  }
  return true
}

function defineLongString(holder: object, key: string, long: LongString): void {
  let byKey = LONG_STRINGS.get(holder)
  if (byKey === undefined) {
    byKey = new Map()
    LONG_STRINGS.set(holder, byKey)
  }
  byKey.set(key, long)
  Object.defineProperty(holder, key, {
    enumerable: true,
    configurable: true,
    get: () => (long.value ??= decode(long, key)),
    // Writing the property makes it a plain one, as it would be had the payload been parsed whole.
    set: (value: unknown) => {
      byKey.delete(key)
      defineValue(holder, key, value)
    },
  })
}

/** `{ ...source, ...fields }`, except that a long string of `source` not decoded yet stays so (a spread would decode it). */
export function spreadKeepingLongStrings<T extends object>(source: T, fields: Readonly<Record<string, unknown>> = {}): T {
  const byKey = LONG_STRINGS.get(source)
  if (byKey === undefined) return { ...source, ...fields }
  const copy = {} as Record<string, unknown>
  for (const key of Object.keys(source)) {
    const long = undecoded(source, key)
    if (long !== undefined && !Object.hasOwn(fields, key)) defineLongString(copy, key, long)
    else defineValue(copy, key, (source as Record<string, unknown>)[key])
  }
  for (const key of Object.keys(fields)) defineValue(copy, key, fields[key])
  return copy as T
}

/** Defined, not assigned: a key named __proto__ must stay a property, as in a spread. */
function defineValue(holder: object, key: string, value: unknown): void {
  Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true })
}

/** `holder[key]` when it is a long string parsed here and not decoded yet. */
function undecoded(holder: object, key: string): LongString | undefined {
  const long = LONG_STRINGS.get(holder)?.get(key)
  return long?.value === undefined ? long : undefined
}

function decode(long: LongString, key: string): string {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(long.bytes.subarray(long.open, long.close + 1))) as string
  } catch (error) {
    // The runtime's words may quote the offending character itself: a control character is shown as its escape.
    const why = (error as Error).message
      .replace(/^JSON Parse error: /, '')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is escaped here
      .replace(/[\u0000-\u001f\u007f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    // A PayloadError, like any payload that cannot be read: on a gate event the fire blocks (docs/guarantees.md).
    throw new PayloadError(
      `${long.where} is not valid JSON: the string '${key}' at byte ${long.open}: ${why}; send the event as valid JSON`,
    )
  }
}

/** A long string of a large payload, not decoded: a variable reads only as much as it holds from its bytes. */
export class LongStringField {
  readonly holder: object
  readonly key: string
  constructor(holder: object, key: string) {
    this.holder = holder
    this.key = key
  }
}

/**
 * `value` (not a string) as text of at most about `maxBytes` bytes: a long string read from its bytes only that far,
 * anything else as its JSON with every long string in it cut; and whether that is all of it.
 */
export function textWithin(value: unknown, maxBytes: number, maxDepth: number): { text: string; complete: boolean } {
  if (value instanceof LongStringField) return boundedText(value.holder, value.key, maxBytes)!
  const cut = { any: false }
  return { text: JSON.stringify(cutLongStrings(value, maxBytes, maxDepth, cut)), complete: !cut.any }
}

/**
 * `value` with every string longer than `maxBytes` characters cut there (`cut.any` then set): the JSON is cut to
 * that many bytes anyway (an environment variable's value), so a 10 MB file write is neither serialised once per
 * hook nor decoded further than fits.
 */
function cutLongStrings(value: unknown, maxBytes: number, maxDepth: number, cut: { any: boolean }, depth = 0): unknown {
  if (typeof value === 'string') {
    if (value.length <= maxBytes) return value
    cut.any = true
    return value.slice(0, maxBytes)
  }
  // What JSON.stringify serialises its own way (toJSON) is left to it, as is anything nested past any payload's depth.
  if (typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function' || depth > maxDepth)
    return value
  const source = value as Record<string, unknown>
  // No prototype: a key named __proto__ is then a property like any other, as JSON.stringify sees it.
  const copy = (Array.isArray(value) ? new Array<unknown>(value.length) : Object.create(null)) as Record<string, unknown>
  for (const key of Object.keys(source)) {
    const bounded = boundedText(source, key, maxBytes)
    if (bounded !== undefined && !bounded.complete) cut.any = true
    copy[key] = cutLongStrings(bounded === undefined ? source[key] : bounded.text, maxBytes, maxDepth, cut, depth + 1)
  }
  return copy
}

/**
 * A long string not decoded yet, as much of it as `maxBytes` bytes of UTF-8 hold (an environment variable), read
 * from the bytes only about as far as fits, and whether that is all of it; undefined for anything else.
 */
export function boundedText(holder: object, key: string, maxBytes: number): { text: string; complete: boolean } | undefined {
  const long = undecoded(holder, key)
  if (long === undefined) return undefined
  let text = ''
  let room = maxBytes
  let from = long.open + 1
  while (from < long.close) {
    if (room < 64) {
      // The last few bytes: a window that holds `room` bytes of text whatever its escapes, fitted character by character.
      const { piece, end } = decodedBefore(long, key, from, Math.min(long.close, from + 6 * room + 12))
      const { read, written } = new TextEncoder().encodeInto(piece, new Uint8Array(room))
      text += piece.slice(0, read)
      if (read < piece.length) return { text, complete: false }
      room -= written
      from = end
      continue
    }
    // A piece of `room` bytes of JSON is at most `room` bytes of text: escapes only make it shorter.
    const { piece, end } = decodedBefore(long, key, from, Math.min(long.close, from + room))
    text += piece
    room -= Buffer.byteLength(piece)
    from = end
  }
  return { text, complete: true }
}

/** The text of the string's bytes from `from` to about `cut`, stepped back so no UTF-8 sequence, escape or surrogate pair is split. */
function decodedBefore(long: LongString, key: string, from: number, cut: number): { piece: string; end: number } {
  for (let step = 0; step <= 12; step++) {
    while (cut < long.close && (long.bytes[cut]! & 0xc0) === 0x80) cut--
    // Nothing before the cut is valid: not a boundary problem.
    if (cut <= from) break
    let piece: string
    try {
      // ignoreBOM: a string that starts with U+FEFF keeps it, as the whole parse does.
      piece = JSON.parse(`"${new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(long.bytes.subarray(from, cut))}"`) as string
    } catch {
      cut--
      continue
    }
    const last = piece.charCodeAt(piece.length - 1)
    // A high surrogate last (`\ud83d` of `\ud83d\ude00`): its pair is read with the next piece.
    if (cut < long.close && last >= 0xd800 && last <= 0xdbff && piece.length > 1) return { piece: piece.slice(0, -1), end: cut - 6 }
    return { piece, end: cut }
  }
  // Not valid JSON before the cut: reading the whole string says where (a PayloadError).
  decode(long, key)
  throw new PayloadError(`${long.where} is not valid JSON: the string '${key}' at byte ${long.open}; send the event as valid JSON`)
}

/** Whether a long string not decoded yet holds a NUL (an unescaped `\u0000` in its bytes); undefined for anything else. */
export function hasNul(holder: object, key: string): boolean | undefined {
  const long = undecoded(holder, key)
  if (long === undefined) return undefined
  const text = Buffer.from(long.bytes.buffer, long.bytes.byteOffset, long.bytes.length)
  for (let at = text.indexOf(NUL_ESCAPE, long.open); at !== -1 && at < long.close; at = text.indexOf(NUL_ESCAPE, at + 1)) {
    if (!isEscaped(text, at)) return true
  }
  return false
}

/**
 * A copy of `value` without the long strings not decoded yet: what is certainly readable of a payload whose long
 * string failed to decode, so that its event can still be told and a gate block.
 */
export function withoutUndecodedStrings(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value))
    return value.flatMap((item, index) => (isUndecoded(value, String(index)) ? [] : [withoutUndecodedStrings(item)]))
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (!isUndecoded(value, key)) defineValue(copy, key, withoutUndecodedStrings((value as Record<string, unknown>)[key]))
  }
  return copy
}

/** Whether `holder[key]` is a long string parsed here and not decoded yet (for tests and diagnostics). */
export function isUndecoded(holder: object, key: string): boolean {
  return undecoded(holder, key) !== undefined
}
