// A large payload parsed without decoding its long strings: they are read from the bytes when asked for.
import { PayloadError } from './payload-error.ts'

/** A string value at least this long (in bytes, quotes excluded) is left undecoded until read. */
export const LONG_STRING_BYTES = 64 * 1024

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

/** The long strings of each object parsed here, by key: what `leadingChars` reads. */
const LONG_STRINGS = new WeakMap<object, Map<string, LongString>>()

const QUOTE = 0x22
const BACKSLASH = 0x5c
const NUL_ESCAPE = '\\u0000'

/**
 * The payload's bytes parsed as `JSON.parse` would parse them, except that each string value of
 * `longString` bytes or more is not decoded: it becomes a property that decodes on first read. A
 * 10 MB file write is then held once, as the bytes that came in (which hooks are handed as they
 * are), instead of also as decoded text and as a parsed string; selection and the answer read only
 * short fields. Everything but the long strings' contents is checked to be UTF-8 JSON at once; a
 * long string's bytes, escapes and characters are checked when it is read (a bad one then fails
 * that read, naming it): checking a 10 MB string's UTF-8 up front would cost every such fire
 * ~0.5 ms. Undefined when the check fails or the JSON is not an object: the caller parses the
 * bytes whole, which says what is wrong exactly as for any payload.
 */
export function parseLeavingLongStrings(bytes: Uint8Array, { maxDepth, where, longString = LONG_STRING_BYTES }: { maxDepth: number; where: string; longString?: number }): Record<string, unknown> | undefined {
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
  if (!replaceMarkers(skeleton, marker, long.map(({ open, close }) => ({ bytes, open, close, where })), maxDepth)) return undefined
  return skeleton as Record<string, unknown>
}

/**
 * The index of the quote that closes the string whose text starts at `from` (the first quote not
 * escaped by an odd run of backslashes), or -1 when none does. Found with the runtime's own byte
 * search, never a loop over every byte: a JavaScript loop over 10 MB takes milliseconds and makes
 * the runtime compile it with its optimising JIT, which alone holds ~8 MB more (measured).
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

/**
 * Put each long string where its marker was parsed, as a property that decodes on first read;
 * false (and the caller gives up) when objects and arrays nest deeper than `maxDepth`.
 */
function replaceMarkers(root: object, marker: string, long: readonly LongString[], maxDepth: number): boolean {
  const stack: Array<[object, number]> = [[root, 1]]
  while (stack.length > 0) {
    const [holder, depth] = stack.pop()!
    if (depth > maxDepth) return false
    for (const key of Object.keys(holder)) {
      const value = (holder as Record<string, unknown>)[key]
      if (typeof value === 'object' && value !== null) stack.push([value, depth + 1])
      else if (long.length > 0 && typeof value === 'string' && value.startsWith(marker)) defineLongString(holder, key, long[Number(value.slice(marker.length))]!)
    }
  }
  return true
}

function defineLongString(holder: object, key: string, long: LongString): void {
  let byKey = LONG_STRINGS.get(holder)
  if (byKey === undefined) LONG_STRINGS.set(holder, (byKey = new Map()))
  byKey.set(key, long)
  Object.defineProperty(holder, key, {
    enumerable: true,
    configurable: true,
    get: () => (long.value ??= decode(long, key)),
    // Writing the property makes it a plain one, as it would be had the payload been parsed whole.
    set: (value: unknown) => {
      byKey.delete(key)
      Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true })
    },
  })
}

/**
 * `{ ...source, ...fields }`, except that a long string of `source` not decoded yet stays so: a
 * spread reads every property, and so would decode a 10 MB prompt just to add a field.
 */
export function spreadKeepingLongStrings<T extends object>(source: T, fields: Readonly<Record<string, unknown>> = {}): T {
  const byKey = LONG_STRINGS.get(source)
  if (byKey === undefined) return { ...source, ...fields }
  const copy = {} as Record<string, unknown>
  // Defined, not assigned: a key named __proto__ must stay a property, as in a spread.
  const define = (key: string, value: unknown) => Object.defineProperty(copy, key, { value, writable: true, enumerable: true, configurable: true })
  for (const key of Object.keys(source)) {
    const long = byKey.get(key)
    if (long !== undefined && long.value === undefined && !Object.hasOwn(fields, key)) defineLongString(copy, key, long)
    else define(key, (source as Record<string, unknown>)[key])
  }
  for (const key of Object.keys(fields)) define(key, fields[key])
  return copy as T
}

function decode(long: LongString, key: string): string {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(long.bytes.subarray(long.open, long.close + 1))) as string
  } catch (error) {
    // The runtime's words may quote the offending character itself: a control character is shown as its escape.
    const why = (error as Error).message.replace(/^JSON Parse error: /, '').replace(/[\u0000-\u001f\u007f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    // A PayloadError, like any payload that cannot be read: on a gate event the fire blocks (DESIGN §8).
    throw new PayloadError(`${long.where} is not valid JSON: the string '${key}' at byte ${long.open}: ${why}; send the event as valid JSON`)
  }
}

/**
 * The first `count` characters of `holder[key]` when it is a long string not decoded yet, read
 * from only as many bytes as they can take (at most 6 a character: `\uXXXX`); undefined for
 * anything else, which the caller reads as usual. Equal to `holder[key].slice(0, count)`.
 */
export function leadingChars(holder: object, key: string, count: number): string | undefined {
  const long = LONG_STRINGS.get(holder)?.get(key)
  if (long === undefined || long.value !== undefined) return undefined
  // Two characters more than asked for, so that stepping back below still leaves enough.
  let cut = Math.min(long.close, long.open + 1 + (count + 2) * 6)
  // An escape is at most 6 bytes: stepping back further means the text itself is not valid, which
  // reading the whole string reports.
  for (let step = 0; step <= 6; step++) {
    // Never inside a UTF-8 sequence (continuation bytes are 10xxxxxx) …
    while (cut < long.close && (long.bytes[cut]! & 0xc0) === 0x80) cut--
    let text: string
    try {
      // ignoreBOM: a string that starts with U+FEFF keeps it, as the whole parse does.
      text = JSON.parse(`"${new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(long.bytes.subarray(long.open + 1, cut))}"`) as string
    } catch {
      // … nor inside an escape: step back until the text before the cut is whole.
      cut--
      continue
    }
    // Fewer characters than asked for from a cut string: what follows the cut is not valid.
    if (text.length < count && cut < long.close) break
    return text.slice(0, count)
  }
  return ((holder as Record<string, string>)[key] ?? '').slice(0, count)
}

/**
 * Whether `holder[key]`, a long string not decoded yet, holds a NUL character, found in its bytes
 * as the escape `\u0000` (JSON has no other way to write one) not itself escaped; undefined for
 * anything else.
 */
export function hasNul(holder: object, key: string): boolean | undefined {
  const long = LONG_STRINGS.get(holder)?.get(key)
  if (long === undefined || long.value !== undefined) return undefined
  const text = Buffer.from(long.bytes.buffer, long.bytes.byteOffset, long.bytes.length)
  for (let at = text.indexOf(NUL_ESCAPE, long.open); at !== -1 && at < long.close; at = text.indexOf(NUL_ESCAPE, at + 1)) {
    if (!isEscaped(text, at)) return true
  }
  return false
}

/**
 * A copy of `value` without the long strings not decoded yet (nor decoded here): what is certainly
 * readable of a payload whose long string failed to decode, for telling its agent's event so that
 * a gate can block (the short fields name events and tools).
 */
export function withoutUndecodedStrings(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  const byKey = LONG_STRINGS.get(value)
  const undecoded = (key: string) => {
    const long = byKey?.get(key)
    return long !== undefined && long.value === undefined
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => (undecoded(String(index)) ? [] : [withoutUndecodedStrings(item)]))
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (!undecoded(key)) Object.defineProperty(copy, key, { value: withoutUndecodedStrings((value as Record<string, unknown>)[key]), writable: true, enumerable: true, configurable: true })
  }
  return copy
}

/** Whether `holder[key]` is a long string parsed here and not decoded yet (for tests and diagnostics). */
export function isUndecoded(holder: object, key: string): boolean {
  const long = LONG_STRINGS.get(holder)?.get(key)
  return long !== undefined && long.value === undefined
}
