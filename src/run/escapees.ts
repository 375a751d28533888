// Processes a hook started that left its process group (setsid): found by a marker in their environment.
import { readdirSync, readFileSync } from 'node:fs'
import { procStatFields } from '../core/processes.ts'

/**
 * A group kill misses a descendant that started a session of its own (`setsid`): on Linux every blocking command hook
 * carries this marker, which descendants inherit, and every process still carrying it is killed after the chain.
 */
export const FIRE_ID_VARIABLE = 'HOOKRUN_FIRE_ID'

/** A marker for one fire, or undefined where escapees cannot be found (no /proc). */
export function newFireId(): string | undefined {
  if (process.platform !== 'linux') return undefined
  // The pid keeps it unique among live fires, the random part guards against reuse (node:crypto costs ~1 ms to load).
  return `${process.pid}-${Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0')}`
}

/** The last process id handed out and the processes created since boot: taken before the first hook, it bounds the sweep. */
interface PidClock {
  readonly lastPid: number
  readonly created: number
}

export function pidClock(): PidClock | undefined {
  try {
    // "0.10 0.20 0.30 1/123 4567": the last field is the id most recently handed out.
    const lastPid = Number(readFileSync('/proc/loadavg', 'latin1').trim().split(' ').at(-1))
    const created = Number(/^processes (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'))?.[1])
    return Number.isSafeInteger(lastPid) && Number.isSafeInteger(created) ? { lastPid, created } : undefined
  } catch {
    return undefined
  }
}

/** Above this many processes created during a fire, every process is checked, not a window of ids. */
const WINDOW_LIMIT = 2000

/** The ids to look at: only those handed out since `since` while the counter has not wrapped, else every process in /proc. */
function candidatePids(since: PidClock | undefined): string[] {
  const now = since === undefined ? undefined : pidClock()
  if (
    since !== undefined &&
    now !== undefined &&
    now.lastPid >= since.lastPid &&
    now.created - since.created <= WINDOW_LIMIT &&
    now.lastPid - since.lastPid <= WINDOW_LIMIT
  ) {
    return Array.from({ length: now.lastPid - since.lastPid }, (_, index) => String(since.lastPid + 1 + index))
  }
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name))
}

/** This process's thread ids; none where they cannot be listed (the sweep then reads them too). */
function ownThreads(): Set<string> {
  try {
    return new Set(readdirSync('/proc/self/task'))
  } catch {
    return new Set()
  }
}

/** Whether an environment block (`NAME=value\0…`) holds `entry` as one whole entry. */
function holdsVariable(environ: Buffer, entry: string): boolean {
  for (let at = environ.indexOf(entry); at !== -1; at = environ.indexOf(entry, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true
  }
  return false
}

/** Looks at processes whose environment read empty: one caught in the middle of exec shows none. */
const RETRIES_MS = [5, 20]

/** The kernel's flag for its own threads, which have no environment at all (include/linux/sched.h). */
const PF_KTHREAD = 0x00200000

/** A process that shows no environment may be in the middle of exec; a kernel thread or a zombie never gets one. */
export function mayBeExecuting(pid: string): boolean {
  const fields = procStatFields(pid)
  if (fields === undefined) return false
  const [state, , , , , , flags] = fields
  return state !== 'Z' && state !== 'X' && (Number(flags) & PF_KTHREAD) === 0
}

/** SIGKILL every process whose environment carries the fire's marker; their count. One caught mid-exec is looked at again. */
export async function killEscapees(fireId: string, since?: PidClock): Promise<number> {
  const needle = `${FIRE_ID_VARIABLE}=${fireId}\0`
  let killed = 0
  let pending: string[]
  try {
    // This process's own threads take ids from the same counter: reading their environment would find nothing.
    const own = ownThreads()
    pending = candidatePids(since).filter((name) => !own.has(name))
  } catch {
    return 0
  }
  for (let look = 0; pending.length > 0; look++) {
    const unread: string[] = []
    for (const pid of pending) {
      try {
        const environ = readFileSync(`/proc/${pid}/environ`)
        if (environ.length === 0) {
          if (mayBeExecuting(pid)) unread.push(pid)
        } else if (holdsVariable(environ, needle)) {
          process.kill(Number(pid), 'SIGKILL')
          killed++
        }
      } catch {
        // Gone already, or another user's process (unreadable): not ours.
      }
    }
    const wait = RETRIES_MS[look]
    if (wait === undefined) break
    pending = unread
    if (pending.length > 0) await new Promise((wake) => setTimeout(wake, wait))
  }
  return killed
}
