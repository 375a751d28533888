// Replacing a file so that a reader never sees half of it, written once for every file hookrun writes whole.
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs'

/**
 * Replace `file` with `text`: a temporary file beside it, created afresh (O_EXCL: never written
 * through a link planted at its name) with `mode` (set again after creation, so the umask does
 * not narrow it), then renamed over the file, which replaces whatever is at the name, a link
 * included, without following it. A reader sees the old content or the new, never half. On any
 * failure the temporary file is removed and the error thrown; the file's folder must exist.
 */
export function writeFileAtomic(file: string, text: string, mode: number): void {
  // Named after the file and hookrun, so one left by a killed process says whose it is.
  const temporary = `${file}.hookrun-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`
  try {
    writeFileSync(temporary, text, { flag: 'wx', mode })
    chmodSync(temporary, mode)
    renameSync(temporary, file)
  } catch (error) {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // Nothing more to do: the error that matters is the write's.
    }
    throw error
  }
}
