// hookrun's own files (the audit log, the telemetry spool, lock files), opened without following links others planted.
import { closeSync, constants, fstatSync, openSync } from 'node:fs'

// In a folder others can write, a link planted at the name could point at `~/.bashrc`: these files are opened with
// O_NOFOLLOW and used only as a regular file with one name, the user's own, that no one else can write.

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

/** Open `path` as one of hookrun's own files (0600 when created); OwnFileError when it is not one, other errors as they are. */
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
