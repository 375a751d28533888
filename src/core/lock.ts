// Lock files for hookrun's own files (the audit chain, the telemetry shipper), written once.
import { closeSync, lstatSync, unlinkSync } from 'node:fs'
import { openOwnFile } from './own-file.ts'

interface LockTerms {
  /** A lock not touched for this long is its holder's who crashed, and is broken. */
  readonly staleMs: number
  /** How long to wait for a live holder (0: not at all). */
  readonly waitMs?: number
  /** When the wait is over: break the lock anyway (true; a fire must answer its agent), or give up (false, the default). */
  readonly breakWhenDue?: boolean
}

/**
 * Take the lock file `lock`: created afresh, never through a link at its name (`openOwnFile`).
 * True when taken; false when a live holder keeps it past the wait. A lock that cannot be taken
 * or removed once the wait is over (planted by someone else, a folder in its place) is an error
 * naming it, never a wait without end.
 */
export function takeLock(lock: string, { staleMs, waitMs = 0, breakWhenDue = false }: LockTerms): boolean {
  const deadline = Date.now() + waitMs
  let pause: Int32Array | undefined
  for (;;) {
    try {
      closeSync(openOwnFile(lock, 'create'))
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const age = lockAge(lock)
    if (age === undefined) continue // released meanwhile
    const due = Date.now() > deadline
    if (age > staleMs || (due && breakWhenDue)) {
      try {
        unlinkSync(lock)
        continue
      } catch (unlinkError) {
        // Another taker broke it first (look again), or it cannot be removed (give up once due).
        const code = (unlinkError as NodeJS.ErrnoException).code
        if (code !== 'ENOENT' && Date.now() > deadline) throw new Error(`its lock ${lock} cannot be taken or removed (${code}); remove it`)
      }
    } else if (due) {
      return false
    }
    pause ??= new Int32Array(new SharedArrayBuffer(4))
    Atomics.wait(pause, 0, 0, 5)
  }
}

/** Whether someone holds `lock` now: it is there and was touched within `staleMs`. */
export function lockHeld(lock: string, staleMs: number): boolean {
  const age = lockAge(lock)
  return age !== undefined && age <= staleMs
}

/** How long ago `lock` was touched (the lock file's own time, never a planted link's target's), or undefined when there is none. */
function lockAge(lock: string): number | undefined {
  try {
    return Date.now() - lstatSync(lock).mtimeMs
  } catch {
    return undefined
  }
}

/** Let go of a lock taken with `takeLock` (one already broken by another taker is let go too). */
export function releaseLock(lock: string): void {
  try {
    unlinkSync(lock)
  } catch {
    // Broken by a taker that thought we had crashed: nothing to release.
  }
}

/** Run `work` holding `lock`; a lock still held when the wait is over is broken (see takeLock). */
export function withLock<T>(lock: string, terms: Omit<LockTerms, 'breakWhenDue'>, work: () => T): T {
  takeLock(lock, { ...terms, breakWhenDue: true })
  try {
    return work()
  } finally {
    releaseLock(lock)
  }
}
