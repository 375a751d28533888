// Processes a hook started that left its process group (setsid): found by a marker in their environment.
import { readdirSync, readFileSync } from 'node:fs'

/**
 * Killing a hook's process group misses a descendant that started a session of its own
 * (`setsid`, a daemonising tool). A subreaper (prctl) is out of reach from JavaScript and cgroups
 * are rarely writable, so on Linux every blocking command hook of a fire carries
 * `HOOKRUN_FIRE_ID` in its environment, which its descendants inherit, and when the chain is over
 * every process still carrying it is killed. Where `/proc` is missing (macOS, Windows) nothing is
 * swept: there the process-group kill is all that holds. A descendant that clears its environment
 * (`env -i`) escapes too.
 */
export const FIRE_ID_VARIABLE = 'HOOKRUN_FIRE_ID'

/** A marker for one fire, or undefined where escapees cannot be found (no /proc). */
export function newFireId(): string | undefined {
  if (process.platform !== 'linux') return undefined
  // The pid keeps it unique among live fires; the random part guards against a reused pid. Nothing
  // here needs to be unguessable, and node:crypto costs a compiled hookrun ~1 ms to load.
  return `${process.pid}-${Math.random().toString(36).slice(2, 12)}`
}

/** SIGKILL every process (of this user) whose environment carries the fire's marker; their count. */
export function killEscapees(fireId: string): number {
  const needle = Buffer.from(`\0${FIRE_ID_VARIABLE}=${fireId}\0`)
  let killed = 0
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
  } catch {
    return 0
  }
  for (const pid of pids) {
    try {
      // Prefixed with NUL so the first variable matches like the others.
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)])
      if (environ.includes(needle)) {
        process.kill(Number(pid), 'SIGKILL')
        killed++
      }
    } catch {
      // Gone already, or another user's process (unreadable): not ours.
    }
  }
  return killed
}
