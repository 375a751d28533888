// What `hookrun install` / `uninstall` are asked (InstallOptions) and answer, per agent file
// (`--json`), and where they read and write agents' files: the disk, with the files install
// created remembered so uninstall removes only those.
import { existsSync, readFileSync, rmdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { readJsonFile, writeJsonAtomic } from '../core/cache-file.ts'
import { stateDir } from '../core/places.ts'
import { count } from '../core/words.ts'
import type { AgentTarget, Scope } from './agent-target.ts'
import { SECRET_HEADER } from '../serve/state.ts'
import { type Edited, editAgentFile, linkTarget } from './agent-write.ts'
import type { NativeEntry } from './matchers.ts'
import type { UserRouting } from './user-routing.ts'

type Env = Readonly<Record<string, string | undefined>>

export interface InstallOptions {
  readonly agents: readonly string[]
  readonly scope: Scope
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** The command agents run for hookrun; default: this hookrun (src/install/self.ts). */
  readonly self?: string
  /** Only these of the agent's events (its own spelling, any case); default: every one it has. */
  readonly events?: readonly string[]
  /** Project installs: entries only where the project's hooks can fire (matchers.ts), unless `--all-events`; trust, init, plugin, a fire or `--sync` keep it up to date. */
  readonly narrow?: boolean
  /** `--sync`: every agent whose project config holds hookrun's entries, narrowed again from hooks.json. */
  readonly sync?: boolean
  /** `--sync --quiet`, a fire's background sync: prints nothing, syncs only followed agents, changes nothing while the hooks are untrusted. */
  readonly quiet?: boolean
  /** `--serve` (http handlers to hookrun serve on this port), false (command handlers), undefined (keep the file's: a `--sync`). */
  readonly serve?: { readonly port: number } | false
  /** Where agents' files are read and written: the disk, or the edits `hookrun import` plans first. */
  readonly files?: AgentFiles
  /** `hookrun import`: every event now, as the moved hooks are not in hooks.json yet; followed, so the trust they need narrows it. */
  readonly narrowAfterTrust?: boolean
  /** A narrowed user install: what every folder's hooks are (read once by the caller that syncs); default: read now. */
  readonly routing?: UserRouting
  /** `hookrun import --dry-run`: plan only, so the project's narrowed-install stamp is left as it is too. */
  readonly dryRun?: boolean
  /** Kiro and Vibe: which shape to write (`--agent-format`, or the installed version's: agent-formats.ts); left out: the one installed. */
  readonly formats?: Readonly<Record<string, 'current' | 'legacy'>>
  /** `--agent-format current|legacy`: for Kiro and Vibe, the shape to write whatever version is installed. */
  readonly agentFormat?: string
  /** A sync: per agent, the prints of the entries hookrun last wrote; an entry matching none was edited by hand and is left as it is. */
  readonly written?: Readonly<Record<string, readonly string[]>>
}

/** How install narrows an agent's entries: from the project's hooks, or from every hook that can run anywhere (a user install). */
export interface Narrowing {
  readonly kind: 'project' | 'user'
  /** The entries; undefined when which events the hooks fire on cannot be told (every event). */
  readonly native: Map<string, NativeEntry> | undefined
  /** A sync: the prints of the entries hookrun last wrote; an entry matching none was edited by hand, and its event is left as it is. */
  readonly written?: ReadonlySet<string>
}

/** What install or uninstall did to one agent's file (`--json`). */
export interface AgentFileResult {
  readonly agent: string
  readonly file: string
  /** install: created, updated, unchanged; uninstall: removed (entries), deleted (the file too), unchanged, absent; failed: left untouched. */
  readonly status: 'created' | 'updated' | 'unchanged' | 'removed' | 'deleted' | 'absent' | 'failed'
  /** Events that got an entry. */
  readonly eventsAdded: readonly string[]
  /** Events whose entries went. */
  readonly eventsRemoved: readonly string[]
  /** install: every event the file routes to hookrun now. */
  readonly events?: readonly string[]
  /** install: entries pointed at this hookrun (moved) or given its timeout. */
  readonly entriesUpdated?: number
  /** A sync: events whose entry of hookrun's was edited by hand, so the sync left them as they are. */
  readonly handEdited?: readonly string[]
  /** uninstall: entries removed (an event may have had several). */
  readonly entriesRemoved?: number
  readonly notes: readonly string[]
  readonly warnings: readonly string[]
  readonly error?: string
}

export interface InstallResult {
  readonly output: string
  readonly exitCode: number
  readonly results: readonly AgentFileResult[]
}

/**
 * An install's notes and warnings for `--json`: its note, warning and overlap lines, and the events it left out
 * (`not …`) as notes; the lines that restate the result's own fields (command, events, narrowed) are for a person.
 */
export function installNotesOf(lines: readonly string[]): { notes: string[]; warnings: string[] } {
  const told = lines.filter((line) => /^ {2}(note|warning|overlap|not )/.test(line))
  return notesOf(told.map((line) => (line.startsWith('  not ') ? `  note: ${line.slice(2)}` : line)))
}

/** `  note: …` and `  warning: …` lines (the human output) as the result's notes and warnings; any other line is a note. */
export function notesOf(lines: readonly string[]): { notes: string[]; warnings: string[] } {
  const notes: string[] = []
  const warnings: string[] = []
  for (const line of lines) {
    const [, kind, text] = /^ {2}(note|warning|overlap): ([\s\S]*)$/.exec(line) ?? [undefined, 'note', line.trim()]
    if (kind === 'note') notes.push(text!)
    else warnings.push(kind === 'overlap' ? `overlap: ${text}` : text!)
  }
  return { notes, warnings }
}

/** Where install reads and writes an agent's file. */
export interface AgentFiles {
  read(file: string): string | undefined
  /**
   * Edit the file: `change` maps its text (undefined: none) to the new one (undefined or the same: leave it); called again on a
   * newer text another program wrote meanwhile (agent-write.ts). A file it makes is remembered as install's unless `remember` is false.
   */
  edit(file: string, change: (text: string | undefined) => string | undefined, remember?: boolean): Edited
}

/** A file format install edits besides an agent's JSON event map (`AgentTarget.format`: own-formats.ts). */
export interface OwnFormat {
  /** hookrun's entries in the text, each with its event and command; throws when the file is not one install could edit. */
  routers(text: string, target: AgentTarget): Array<{ readonly event: unknown; readonly command: string }>
  install(
    target: AgentTarget,
    file: string,
    self: string,
    chosen: ReadonlySet<string> | undefined,
    narrowing: Narrowing | undefined,
    files: AgentFiles,
  ): { lines: string[]; result: AgentFileResult }
  uninstall(target: AgentTarget, file: string, env: Env, files: AgentFiles): { lines: string[]; result: AgentFileResult }
}

/** What install says of a file it edits whole as a list of entries; `leftOut`: the events narrowing left out; `noteUnchanged`: the note kept when nothing changed. */
export function installedLines(
  target: AgentTarget,
  file: string,
  self: string,
  edited: Edited,
  found: {
    readonly existed: boolean
    readonly events: readonly string[]
    readonly added: readonly string[]
    readonly removed: readonly string[]
  },
  leftOut: number | undefined,
  noteUnchanged: boolean,
): { lines: string[]; result: AgentFileResult } {
  const status = !edited.written ? 'unchanged' : found.existed ? 'updated' : 'created'
  const lines =
    status === 'unchanged'
      ? [`${target.name}: already installed in ${file} (${found.events.length} events)`]
      : [
          `${target.name}: ${status} ${file}${throughLink(edited)}: ${count(found.added.length, 'event')} added${found.removed.length > 0 ? `, ${count(found.removed.length, 'event')} removed` : ''}`,
          `  command: ${target.command(self, target.events[0]!)}`,
          `  events:  ${found.events.join(', ')}`,
          ...(leftOut === undefined
            ? []
            : [`  narrowed: only the events your hooks can fire on (${leftOut} left out; --all-events keeps every one)`]),
          ...Object.entries(target.skipped).map(([event, why]) => `  not ${event}: ${why}`),
          ...(target.note === undefined ? [] : [`  note: ${target.note}`]),
        ]
  const notes = target.note === undefined || (status === 'unchanged' && !noteUnchanged) ? [] : [target.note]
  return {
    lines,
    result: {
      agent: target.name,
      file,
      status,
      eventsAdded: found.added,
      eventsRemoved: found.removed,
      events: found.events,
      notes,
      warnings: [],
    },
  }
}

/** A settings file that holds hookrun serve's secret (install --serve) is written readable by the user alone, never wider for a moment. */
function keepSecretPrivate(text: string, mode: number): number {
  return text.includes(`"${SECRET_HEADER}"`) ? mode & 0o700 : mode
}

/** The disk: files written beside and renamed over (through a link, never over another writer's change), and the ones install created remembered. */
export function diskFiles(env: Env): AgentFiles {
  return {
    read: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
    edit: (file, change, remember = true) => {
      const folders = missingFolders(dirname(linkTarget(file) ?? file))
      const edited = editAgentFile(file, change, keepSecretPrivate)
      if (edited.created && remember) rememberCreated(file, env, true, folders)
      return edited
    },
  }
}

/** ` (through the link to TARGET)` after a file's name in a line, when what was written is the link's target. */
export function throughLink(edited: Pick<Edited, 'through'> | undefined): string {
  return edited?.through === undefined ? '' : ` (through the link to ${edited.through})`
}
/**
 * The agent files install created (not edited), with the folders it made, so uninstall removes only those: `add` records `file`,
 * else it is forgotten; the answer is the folders it was recorded with (undefined: not recorded).
 */
export function rememberCreated(file: string, env: Env, add: boolean, folders: readonly string[] = []): string[] | undefined {
  const record = join(stateDir(env), 'installed-files.json')
  let files: string[] = []
  let made: Record<string, string[]> = {}
  const parsed = readJsonFile(record) as { files?: unknown; folders?: unknown } | null | undefined // undefined: no record yet
  if (Array.isArray(parsed?.files)) files = parsed.files.filter((entry): entry is string => typeof entry === 'string')
  if (typeof parsed?.folders === 'object' && parsed.folders !== null) made = parsed.folders as Record<string, string[]>
  const had = files.includes(file) ? (Array.isArray(made[file]) ? made[file].filter((entry) => typeof entry === 'string') : []) : undefined
  if (add) {
    if (had === undefined)
      writeJsonAtomic(record, { files: [...files, file], folders: { ...made, ...(folders.length > 0 && { [file]: [...folders] }) } })
  } else if (had !== undefined) {
    const { [file]: _forgotten, ...rest } = made
    writeJsonAtomic(record, { files: files.filter((entry) => entry !== file), folders: rest })
  }
  return had
}

/** The folders that do not exist yet from `dir` up, deepest first (what writing a file there makes). */
export function missingFolders(dir: string): string[] {
  const missing: string[] = []
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.push(at)
  return missing
}

/** Remove a folder if it is empty; whether it went. */
export function removeIfEmpty(folder: string): boolean {
  try {
    rmdirSync(folder)
    return true
  } catch {
    return false
  }
}

/**
 * Uninstall as an edit (made again on a newer text): `split` gives hookrun's entries, the text without them and whether it is empty.
 * The file goes when install created it and nothing of the user's is left (never a link), with install's folders while empty.
 */
export function uninstallOwnEntries<T>(
  agent: string,
  file: string,
  env: Env,
  files: AgentFiles,
  split: (text: string | undefined) => { readonly ours: readonly T[]; readonly text: string; readonly empty: boolean },
  eventOf: (entry: T) => string,
): { lines: string[]; result: AgentFileResult } {
  const result = (status: AgentFileResult['status'], lines: string[], events: string[] = [], removed = 0) => ({
    lines,
    result: { agent, file, status, eventsAdded: [], eventsRemoved: events, entriesRemoved: removed, notes: [], warnings: [] },
  })
  const link = linkTarget(file) !== undefined
  if (files.read(file) === undefined && !link) return result('absent', [`${agent}: nothing to remove (${file} does not exist)`])
  let ours: readonly T[] = []
  let created: string[] | undefined
  const edited = files.edit(file, (before) => {
    const parts = split(before)
    ours = parts.ours
    // Asked once the file is known to be left empty: asking forgets the record (the edit may run again).
    if (!link && parts.empty && ours.length > 0) created ??= rememberCreated(file, env, false)
    if (ours.length === 0 || (!link && parts.empty && created !== undefined)) return undefined
    return parts.text
  })
  if (ours.length === 0) return result('unchanged', [`${agent}: nothing to remove (no hookrun entries in ${file})`])
  const events = [...new Set(ours.map(eventOf))]
  const removed = `${agent}: removed ${count(ours.length, 'entry', 'entries')} from ${file}${throughLink(edited)}`
  if (edited.written) return result('removed', [removed], events, ours.length)
  rmSync(file)
  const gone = (created ?? []).filter((folder) => removeIfEmpty(folder))
  const made = gone.length > 0 ? ` (and the empty ${gone.join(', ')} install made)` : ''
  return result('deleted', [`${removed}, and the file, which held only hookrun's entries${made}`], events, ours.length)
}
