// The opt-in audit log: one JSON line per fire, secrets redacted, bounded; each line one O_APPEND write(2), so
// concurrent fires never interleave on a local file system.
import { closeSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Payload } from '../core/types.ts'
import type { Decision } from '../core/protocol.ts'
import { makeFolders } from '../core/places.ts'
import { openOwnFile } from '../core/own-file.ts'
import { chainLine, lastLine, withChainLock } from './chain.ts'
import { redactText, redactValue } from './redact.ts'

/** A logged payload larger than this (after cutting strings) is left out, with its size. */
const MAX_LOGGED_PAYLOAD = 16 * 1024
const PAYLOAD_LIMITS = { maxString: 1000, maxValues: 2000 }
const MAX_TEXT = 2000

interface AuditEntry {
  readonly decision: Decision
  readonly payload: Payload
  readonly cwd: string
  readonly projectRoot: string
  /** The signal that interrupted the fire, if one did. */
  readonly interrupted?: string
  /** The agent that fired the event (its dialect's name: claude, cursor, …), when known. */
  readonly agent?: string
}

/** A payload as hookrun keeps it anywhere (the audit log, `fire --record`): secrets redacted, strings cut. */
export function redactPayload(payload: Payload): unknown {
  return redactValue(payload, PAYLOAD_LIMITS)
}

/** The line for one fire (without the newline). */
export function auditLine(entry: AuditEntry, now = new Date()): string {
  const { decision } = entry
  const text = (value: string) => redactText(value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value)
  const payload = JSON.stringify(redactPayload(entry.payload))
  return JSON.stringify({
    time: now.toISOString(),
    pid: process.pid,
    ...(entry.agent !== undefined && { agent: entry.agent }),
    cwd: entry.cwd,
    project: entry.projectRoot,
    event: decision.event,
    decision: decision.decision,
    blocked: decision.blocked,
    ...(decision.reason !== undefined && { reason: text(decision.reason) }),
    ...(decision.decidedBy !== undefined && { decidedBy: decision.decidedBy }),
    continue: decision.continue,
    ...(decision.stopReason !== undefined && { stopReason: text(decision.stopReason) }),
    ...(entry.interrupted !== undefined && { interrupted: entry.interrupted }),
    hooks: decision.hooks.map((hook) => ({
      name: hook.name,
      source: hook.source,
      outcome: hook.outcome,
      exitCode: hook.exitCode,
      ...(hook.httpStatus !== undefined && { httpStatus: hook.httpStatus }),
      ...(hook.signal && { signal: hook.signal }),
      durationMs: hook.durationMs,
      timedOut: hook.timedOut,
      ...(hook.reason !== undefined && { reason: text(hook.reason) }),
    })),
    warnings: decision.warnings.map(text),
    payload: payload.length > MAX_LOGGED_PAYLOAD ? { omitted: `${payload.length} characters; too large to log` } : JSON.parse(payload),
  })
}

/** Append one line (with `chain`, chained under a lock); a warning when the log cannot be written (the fire goes on). */
export function appendAuditLine(path: string, line: string, chain = false): string | undefined {
  try {
    makeFolders(dirname(path), 0o700)
    const append = () => {
      // Never through a link planted at its name, and only a file of the user's (src/core/own-file.ts).
      const fd = openOwnFile(path, chain ? 'append-read' : 'append')
      try {
        const bytes = Buffer.from(`${chain ? chainLine(lastLine(fd), line) : line}\n`)
        const written = writeSync(fd, bytes)
        return written === bytes.length ? undefined : `audit log ${path}: only ${written} of ${bytes.length} bytes written`
      } finally {
        closeSync(fd)
      }
    }
    return chain ? withChainLock(path, append) : append()
  } catch (error) {
    // A warning, never a throw: the decision is made and stands (a gate's block included).
    return `cannot write audit log ${path}: ${(error as Error).message}`
  }
}
