// Replacing a file so that a reader never sees half of it, written once for every file hookrun writes whole.
import { chmodSync, linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { statSignature } from './stat.ts'

/** The temporary file beside `file`: named after it and hookrun, so one left by a killed process says whose it is. */
function temporaryFor(file: string): string {
  return `${file}.hookrun-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`
}

/** Write `text` to a fresh temporary file (O_EXCL: never through a link planted at its name) with `mode`, set again so the umask does not narrow it. */
function writeTemporary(temporary: string, text: string, mode: number): void {
  writeFileSync(temporary, text, { flag: 'wx', mode })
  chmodSync(temporary, mode)
}

function removeQuietly(temporary: string): void {
  try {
    rmSync(temporary, { force: true })
  } catch {
    // Nothing more to do: the error that matters is the write's.
  }
}

/**
 * Replace `file` with `text`: a temporary file beside it, created afresh (O_EXCL: never written
 * through a link planted at its name) with `mode` (set again after creation, so the umask does
 * not narrow it), then renamed over the file, which replaces whatever is at the name, a link
 * included, without following it. A reader sees the old content or the new, never half. On any
 * failure the temporary file is removed and the error thrown; the file's folder must exist.
 */
export function writeFileAtomic(file: string, text: string, mode: number): void {
  const temporary = temporaryFor(file)
  try {
    writeTemporary(temporary, text, mode)
    renameSync(temporary, file)
  } catch (error) {
    removeQuietly(temporary)
    throw error
  }
}

function readOrMissing(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/**
 * Replace `file` with `text` as `writeFileAtomic` does, but only while it still holds `expected`
 * (undefined: no file there) and its stat signature is still `seen` (src/core/stat.ts, taken before
 * `expected` was read): another program that writes the file too (an agent adding its own
 * settings) is never overwritten by text computed from what it held before. The temporary file is
 * written first and the text compared, so what is left between the last look (one stat) and the rename is as short as it can be: an agent takes no lock hookrun could wait for. A new
 * file is made by a hard link, which fails when one appeared meanwhile. False, with nothing
 * written, when the file changed: the caller reads it again and redoes its edit.
 */
export function replaceIfUnchanged(file: string, expected: string | undefined, seen: string, text: string, mode: number): boolean {
  const temporary = temporaryFor(file)
  try {
    writeTemporary(temporary, text, mode)
    if (expected !== undefined && readOrMissing(file) !== expected) return false
    if (expected === undefined) return createFrom(temporary, file)
    if (statSignature(file) !== seen) return false
    renameSync(temporary, file)
    return true
  } finally {
    removeQuietly(temporary)
  }
}

/** `file` made from the temporary file, unless something is at its name already. */
function createFrom(temporary: string, file: string): boolean {
  try {
    linkSync(temporary, file)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    // A file system without hard links: the last look, then the rename.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error
    if (statSignature(file) !== 'missing') return false
    renameSync(temporary, file)
    return true
  }
}
