// hookrun's own files (the audit log, the telemetry spool, lock files), opened without following links others planted.
import { closeSync, constants, fstatSync, openSync } from 'node:fs'

/**
 * A file hookrun writes for itself may sit in a folder others can write too (a shared `log.path`,
 * an XDG folder on a shared disk). Whoever can write there can plant a link at the file's name,
 * pointing at a file of the user's (`~/.bashrc`), and hookrun would append to it; or create the
 * file themselves first, and read or rewrite what hookrun logs. So these files are opened with
 * O_NOFOLLOW (a link at the name fails, ELOOP), and used only when what was opened is a regular
 * file with one name (no hard link to another file), owned by the user hookrun runs as, that no
 * one else can write. Folders above the file are the user's choice and are followed.
 */

/** O_NOFOLLOW where the system has it (Windows has none: links there need privileges to make). */
const O_NOFOLLOW: number = constants.O_NOFOLLOW ?? 0

/** How an own file is opened: appended to, appended to and read (a chained log reads its last line), read, or created anew (a lock). */
type OwnFileMode = 'append' | 'append-read' | 'read' | 'create'

const FLAGS: Readonly<Record<OwnFileMode, number>> = {
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW,
  'append-read': constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW,
  read: constants.O_RDONLY | O_NOFOLLOW,
  create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
}

/** Why an own file cannot be used: a sentence about "it", for the caller to name the file before it. */
class OwnFileError extends Error {
  readonly code: string | undefined
  constructor(message: string, code?: string) {
    super(message)
    this.code = code
  }
}

/**
 * Open `path` as one of hookrun's own files (mode 0600 when it is created). Throws OwnFileError
 * (a sentence about "it") when the file is a link, not a regular file, has other names, belongs
 * to someone else or can be written by others; other errors (ENOENT, EACCES, EEXIST) as they are.
 */
export function openOwnFile(path: string, mode: OwnFileMode): number {
  let fd: number
  try {
    fd = openSync(path, FLAGS[mode], 0o600)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // Linux answers ELOOP for a link at the name; some BSDs EMLINK, macOS sometimes EFTYPE.
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') {
      throw new OwnFileError(
        'it is a symbolic link, which hookrun does not follow at its own files (someone else may have put it there); remove it',
        code,
      )
    }
    throw error
  }
  const problem = ownFileProblem(fd)
  if (problem === undefined) return fd
  try {
    closeSync(fd)
  } catch {
    // Closing is all that is left to do.
  }
  throw new OwnFileError(problem)
}

/** What is wrong with an open file for hookrun to use as its own, if anything. */
function ownFileProblem(fd: number): string | undefined {
  const stat = fstatSync(fd)
  if (!stat.isFile()) return 'it is not a regular file'
  if (stat.nlink > 1) return `it has ${stat.nlink} names (a hard link may make it another file of yours); remove it`
  const uid = process.getuid?.()
  if (uid === undefined) return undefined // Windows: no owner or mode bits to compare
  if (stat.uid !== uid)
    return `it belongs to another user (uid ${stat.uid}), who could read or rewrite what hookrun writes there; remove it or choose another path`
  if ((stat.mode & 0o022) !== 0) return `others can write it (mode ${(stat.mode & 0o777).toString(8)}); run chmod go-w on it`
  return undefined
}
