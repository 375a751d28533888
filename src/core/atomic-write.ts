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

/** Replace `file` with `text` through a fresh temporary file renamed over it (a link at the name is replaced, not followed). */
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
 * `writeFileAtomic`, only while `file` still holds `expected` (undefined: none) and its stat signature is `seen`, so
 * another program's edit is never overwritten; a new file is made by a hard link. False, nothing written, when changed.
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
