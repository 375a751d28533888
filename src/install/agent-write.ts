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

/**
 * Where `file` really is: itself, or the file its link (or chain of links) points to, so that a
 * settings file kept in a dotfiles repository stays the link the user made. A link whose target
 * is missing is refused: writing there would make a file in a place the user may not expect.
 */
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
 * Edit an agent's file: `change` gets its text (undefined: no file) and gives the new text
 * (undefined or the same: leave it). Written beside the file and renamed over it, keeping the
 * file's mode (`narrow` may take bits away: a file holding a secret), through a link to its target.
 * Another program may write the file meanwhile (Claude Code adds permission rules to
 * `.claude/settings.local.json`): right before the rename the file is read again, and when it
 * changed the edit is computed again from what it holds now, so nothing that program wrote is lost.
 * A file that keeps changing is left untouched, with one line.
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
