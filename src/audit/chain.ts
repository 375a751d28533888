// The tamper-evident audit log (`"chain": true`): every line carries `seq` and `prev`, the SHA-256 of the line before,
// appended under a lock. Lines cut off the end show only against the last hash `hookrun log verify` prints.
import { fstatSync, readSync } from 'node:fs'
import { nodeCrypto } from '../core/builtins.ts'
import { withLock } from '../core/lock.ts'
import { count } from '../core/words.ts'

/** `prev` of the first line. */
const GENESIS = '0'.repeat(64)
const LOCK_WAIT_MS = 2000
const STALE_LOCK_MS = 5000

function lineHash(line: string): string {
  return nodeCrypto().createHash('sha256').update(line).digest('hex')
}

/** The last complete line of an open file (without its newline), or undefined when it is empty. */
export function lastLine(fd: number): string | undefined {
  const size = fstatSync(fd).size
  if (size === 0) return undefined
  let chunk = 64 * 1024
  for (;;) {
    const start = Math.max(0, size - chunk)
    const buffer = Buffer.alloc(size - start)
    readSync(fd, buffer, 0, buffer.length, start)
    const text = buffer.toString('utf8')
    const body = text.endsWith('\n') ? text.slice(0, -1) : text
    const newline = body.lastIndexOf('\n')
    if (newline !== -1) return body.slice(newline + 1)
    if (start === 0) return body
    chunk *= 4
  }
}

/** Run `work` holding `<path>.lock`; a stale lock, or one held past LOCK_WAIT_MS, is broken (a fire must answer). */
export function withChainLock<T>(path: string, work: () => T): T {
  return withLock(`${path}.lock`, { staleMs: STALE_LOCK_MS, waitMs: LOCK_WAIT_MS }, work)
}

/** The chained form of `line`: `seq` and `prev` first, then the entry's own fields. */
export function chainLine(previous: string | undefined, line: string): string {
  let seq = 1
  if (previous !== undefined) {
    try {
      const parsed = JSON.parse(previous) as { seq?: unknown }
      seq = typeof parsed.seq === 'number' ? parsed.seq + 1 : 1
    } catch {
      seq = 1
    }
  }
  const prev = previous === undefined ? GENESIS : lineHash(previous)
  return `{"seq":${seq},"prev":"${prev}",${line.slice(1)}`
}

interface ChainCheck {
  /** Lines in the file. */
  readonly lines: number
  /** Lines that carry `seq` and `prev`. */
  readonly chained: number
  /** One sentence per break, naming the line numbers (1-based). */
  readonly problems: readonly string[]
  /** The hash of the last line: keep it elsewhere to notice lines cut off the end later. */
  readonly head?: string
  readonly lastSeq?: number
}

/** Walk the log and report every place where the chain does not hold. */
export function verifyChain(text: string): ChainCheck {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const problems: string[] = []
  let chained = 0
  let previous: { text: string; seq?: number; chained: boolean } | undefined
  lines.forEach((line, index) => {
    const number = index + 1
    let entry: { seq?: unknown; prev?: unknown } | undefined
    try {
      const parsed = JSON.parse(line) as unknown
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) entry = parsed as typeof entry
    } catch {
      // Not JSON: reported below.
    }
    if (entry === undefined) {
      problems.push(`line ${number} is not a JSON object: it was damaged or edited`)
      previous = { text: line, chained: previous?.chained ?? false }
      return
    }
    const { seq, prev } = entry
    if (typeof seq !== 'number' || typeof prev !== 'string') {
      if (previous?.chained)
        problems.push(`line ${number} has no seq/prev although the lines before it are chained: it was inserted or edited`)
      previous = { text: line, chained: previous?.chained ?? false }
      return
    }
    chained++
    const expected = previous === undefined ? GENESIS : lineHash(previous.text)
    if (seq === 1 && prev === GENESIS) {
      if (previous?.chained) problems.push(`line ${number} starts a new chain (seq 1): the log before it was cut or replaced`)
    } else if (previous === undefined || !previous.chained) {
      problems.push(
        `line ${number} has seq ${seq}: ${seq - 1 === 1 ? 'the line' : `the ${seq - 1} lines`} before it ${seq - 1 === 1 ? 'was' : 'were'} cut`,
      )
    } else if (prev !== expected) {
      const gap = previous.seq === undefined ? undefined : seq - previous.seq - 1
      problems.push(
        gap === 0
          ? `line ${number - 1} (seq ${previous.seq}) was changed after it was written: line ${number} holds the hash of another text`
          : `between line ${number - 1} and line ${number}: ${gap !== undefined && gap > 0 ? `${count(gap, 'line')} (seq ${previous.seq! + 1}–${seq - 1}) ${gap === 1 ? 'was' : 'were'} cut` : 'the chain is broken (lines cut or edited)'}`,
      )
    } else if (previous.seq !== undefined && seq !== previous.seq + 1) {
      problems.push(`line ${number} has seq ${seq} after seq ${previous.seq}: it was edited`)
    }
    previous = { text: line, seq, chained: true }
  })
  return {
    lines: lines.length,
    chained,
    problems,
    ...(previous !== undefined && { head: lineHash(previous.text), ...(previous.seq !== undefined && { lastSeq: previous.seq }) }),
  }
}
