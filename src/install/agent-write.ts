// An agent's config file edited the way its other writers need: through a link to where the file
// really is, and never over what another program wrote to it while hookrun computed its edit.
import { lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { replaceIfUnchanged } from '../core/atomic-write.ts'
import { statSignature } from '../core/stat.ts'
import { JsonTextError } from './json-text.ts'

/** How many times an edit is computed again on a file another program keeps changing before hookrun gives up. */
const EDIT_TRIES = 64

/** What an edit did: wrote the file (made it, when there was none), and where, when the name is a link. */
export interface Edited {
  readonly written: boolean
  readonly created: boolean
  /** The file the link at the name points to, which was written instead of the link. */
  readonly through?: string
}

/** Where `file` really is, through its links (a dotfiles repository's stay links); a link to a missing file is refused. */
export function linkTarget(file: string): string | undefined {
  let link: boolean
  try {
    link = lstatSync(file).isSymbolicLink()
  } catch {
    return undefined
  }
  if (!link) return undefined
  try {
    return realpathSync(file)
  } catch {
    throw new JsonTextError(
      `is a link to ${resolve(dirname(file), readlinkSync(file))}, which does not exist; hookrun writes through links, so create that file or remove the link`,
    )
  }
}

/** The file's text, and its stat signature taken before reading it (what replaceIfUnchanged compares). */
function readNow(file: string): { text: string | undefined; seen: string } {
  const seen = statSignature(file)
  if (seen === 'missing') return { text: undefined, seen }
  return { text: readFileSync(file, 'utf8'), seen }
}

/**
 * Edit an agent's file: `change` maps its text (undefined: none) to the new one (undefined or the same: leave it). Written beside
 * and renamed over, keeping its mode (`narrow` may take bits away), through links. Read again right before the rename: when another
 * program changed it meanwhile (Claude Code's permission rules) the edit is computed again; a file that keeps changing is left.
 */
export function editAgentFile(
  file: string,
  change: (text: string | undefined) => string | undefined,
  narrow: (text: string, mode: number) => number = (_text, mode) => mode,
): Edited {
  const through = linkTarget(file)
  const path = through ?? file
  for (let tries = 0; tries < EDIT_TRIES; tries++) {
    let done: boolean
    let text: string | undefined
    try {
      const now = readNow(path)
      text = now.text
      const next = change(text)
      if (next === undefined || next === text) return { written: false, created: false, ...(through && { through }) }
      const mode = text === undefined ? 0o644 : statSync(path).mode & 0o777
      mkdirSync(dirname(path), { recursive: true })
      done = replaceIfUnchanged(path, text, now.seen, next, narrow(next, mode))
    } catch (error) {
      throw unwritable(error, through)
    }
    if (done) return { written: true, created: text === undefined, ...(through && { through }) }
  }
  throw new JsonTextError(
    `changed ${EDIT_TRIES} times while hookrun edited it (another program keeps writing it), so hookrun wrote nothing; run the command again`,
  )
}

/** A file system error as the one line a user reads: what could not be written, and why. */
function unwritable(error: unknown, through: string | undefined): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (code === undefined || !['EACCES', 'EPERM', 'EROFS', 'EISDIR', 'ENOTDIR'].includes(code)) return error
  const what = through === undefined ? 'it' : `the file its link points to, ${through},`
  return new JsonTextError(`hookrun cannot write ${what} (${(error as Error).message.split(', ')[0]})`)
}
