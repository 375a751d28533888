// On a terminal, one stderr line naming the hook that has been running a while (never stdout).
import type { ProgressRecord } from '../run/hook.ts'

/** On a terminal: a hook still running after `delayMs` gets `hookrun: running NAME…`, erased when it finishes. */
export function terminalProgress(write: (text: string) => void, delayMs = 1000): (record: ProgressRecord) => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  let shown = false
  const clear = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (shown) write('\r\u001b[K')
    shown = false
  }
  return (record) => {
    if (record.type === 'hook_started') {
      clear()
      timer = setTimeout(() => {
        write(`hookrun: running ${record.hook} (${record.event})…`)
        shown = true
      }, delayMs)
      // The line is a courtesy: it never keeps hookrun from exiting.
      timer.unref?.()
    } else if (record.type === 'hook_finished') {
      clear()
    }
  }
}
