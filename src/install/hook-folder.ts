// Agents whose hooks are executable files named after their events in a folder (Cline): hookrun's
// router there is one small wrapper per event that execs `hookrun fire --format <agent>`.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../core/atomic-write.ts'
import { count } from '../core/words.ts'
import { namesOf } from '../event/events.ts'
import type { ResolvedConfig } from '../config/load.ts'
import type { Places, Scope } from './agent-target.ts'
import { projectNativeMatchers } from './matchers.ts'
import { type AgentFileResult, missingFolders, rememberCreated, removeIfEmpty, installNotesOf } from './results.ts'
import { AGENTS } from '../agents/registry.ts'
import type { HookFolderFacts } from '../agents/hook-folders.ts'

export interface FolderAgent extends HookFolderFacts {
  readonly name: string
  readonly label: string
  /** The events it has a hook file for. */
  readonly events: readonly string[]
}

/** Every agent with a hook folder (each agent's `hookFolder`: src/agents/hook-folders.ts). */
export const FOLDER_AGENTS: readonly FolderAgent[] = AGENTS.flatMap((agent) =>
  agent.hookFolder === undefined ? [] : [{ ...agent.hookFolder, name: agent.name, label: agent.label, events: [...namesOf(agent.name)] }],
)

/** The agent whose hook folder src/install/scan-read.ts reads (the first: one agent has one today). */
export const HOOK_FOLDER_AGENT: FolderAgent = FOLDER_AGENTS[0]!

export function folderAgent(name: string): FolderAgent | undefined {
  return FOLDER_AGENTS.find((agent) => agent.name === name)
}

const MARK = '# hookrun router:'

/** The events whose wrapper must fail closed itself: Cline reads no exit code, so a hookrun that cannot start would be an allow. */
const GATES = new Set(['PreToolUse'])

/**
 * One event's wrapper: a shell script that execs hookrun, so Cline waits for it. On a gate, when hookrun cannot start or was killed
 * (exit 126 and up), it cancels the call itself: Cline would read the empty answer as "go ahead".
 */
export function wrapperText(agent: FolderAgent, self: string, event: string): string {
  const head = ['#!/bin/sh', `${MARK} ${agent.label} runs this file for ${event}; \`hookrun uninstall --agent ${agent.name}\` removes it.`]
  if (!GATES.has(event)) return [...head, `exec ${self} fire --format ${agent.name}`, ''].join('\n')
  const why = 'hookrun could not answer (exit %s), so the call was blocked: run hookrun doctor'
  return [
    ...head,
    `${self} fire --format ${agent.name}`,
    'status=$?',
    '[ "$status" -lt 126 ] && exit 0',
    // Cline reads the last HOOK_CONTROL line over the rest of stdout: this cancel wins whatever
    // hookrun printed (on a line of its own: hookrun's answer may lack its newline).
    `printf '\\nHOOK_CONTROL\\t{"cancel":true,"errorMessage":"${why}"}\\n' "$status"`,
    `{ printf '${agent.label}: ${why}\\n' "$status" > /dev/tty; } 2>/dev/null`,
    '',
  ].join('\n')
}

/** Is this file's text one of hookrun's wrappers for the agent (whatever hookrun it runs)? */
function isWrapper(agent: FolderAgent, text: string): boolean {
  return text.startsWith(`#!/bin/sh\n${MARK}`) && new RegExp(`\\n(?:exec )?.+ fire --format ${agent.name}\\n`).test(text)
}

/** The file names the wrapper may take: the event's own, else with `.sh` where the user has a file of that name. */
const candidates = (event: string) => [event, `${event}.sh`]

/** A regular file's text; undefined for anything else, a link included (Cline skips links, so one is never a wrapper hookrun rewrites or removes). */
function readText(file: string): string | undefined {
  try {
    return lstatSync(file).isFile() ? readFileSync(file, 'utf8') : undefined
  } catch {
    return undefined
  }
}

/** hookrun's wrappers in the folder, by event. */
export function wrappersIn(agent: FolderAgent, dir: string): Map<string, string> {
  const found = new Map<string, string>()
  let names: string[] = []
  try {
    names = readdirSync(dir)
  } catch {
    return found
  }
  for (const event of [...agent.events, ...Object.keys(agent.skipped)]) {
    for (const name of candidates(event)) {
      if (!names.includes(name)) continue
      const text = readText(join(dir, name))
      if (text !== undefined && isWrapper(agent, text)) found.set(event, join(dir, name))
    }
  }
  return found
}

function isExecutable(file: string): boolean {
  try {
    return (statSync(file).mode & 0o111) !== 0
  } catch {
    return false
  }
}

/** Is something at this name, a link included (one whose target is missing too)? */
function occupied(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

function resultOf(agent: FolderAgent, dir: string, status: AgentFileResult['status'], lines: string[], extra: Partial<AgentFileResult>) {
  const told = installNotesOf(lines.slice(1))
  return {
    lines,
    result: { agent: agent.name, file: dir, status, eventsAdded: [], eventsRemoved: [], ...told, ...extra } as AgentFileResult,
  }
}

/**
 * Wrappers for the events chosen, else those the project's hooks can fire on, else every event: one running another hookrun is
 * rewritten, one no longer routed goes; a user's own file of the event's name is left alone.
 */
export function installWrappers(
  agent: FolderAgent,
  scope: Scope,
  places: Places,
  self: string,
  chosen: ReadonlySet<string> | undefined,
  config: ResolvedConfig | undefined,
): { lines: string[]; result: AgentFileResult } {
  const dir = agent.dir(scope, places)
  const native = config === undefined ? undefined : projectNativeMatchers(agent, config)
  const wanted = agent.events.filter((event) => (chosen === undefined || chosen.has(event)) && (native === undefined || native.has(event)))
  const existing = wrappersIn(agent, dir)
  const missing = missingFolders(dir)
  const added: string[] = []
  const removed: string[] = []
  const blocked: string[] = []
  let updated = 0
  for (const [event, file] of existing) {
    if (wanted.includes(event)) continue
    rmSync(file)
    removed.push(event)
  }
  for (const event of wanted) {
    const text = wrapperText(agent, self, event)
    const file =
      existing.get(event) ??
      candidates(event)
        .map((name) => join(dir, name))
        .find((path) => !occupied(path))
    if (file === undefined) {
      blocked.push(event)
      continue
    }
    if (readText(file) === text && isExecutable(file)) continue
    mkdirSync(dir, { recursive: true })
    writeFileAtomic(file, text, 0o755)
    // The mode asked for is masked by the umask: a wrapper Cline cannot execute would never run.
    chmodSync(file, 0o755)
    if (existing.has(event)) updated++
    else added.push(event)
  }
  if (missing.length > 0 && existsSync(dir)) rememberCreated(dir, places.env, true, missing)
  const changed = added.length + updated + removed.length > 0
  const lines = [
    changed
      ? `${agent.name}: ${dir}: ${count(added.length, 'wrapper')} added${updated > 0 ? `, ${updated} pointed at this hookrun` : ''}${removed.length > 0 ? `, ${count(removed.length, 'wrapper')} removed (${removed.join(', ')})` : ''}`
      : `${agent.name}: already installed in ${dir} (${count(wanted.length, 'event')})`,
    `  command: exec ${self} fire --format ${agent.name} (one executable file per event)`,
    `  events:  ${wanted.join(', ') || '(none)'}`,
    ...(native === undefined
      ? []
      : [
          `  narrowed: only the events this project's hooks can fire on (${agent.events.length - wanted.length} left out; --all-events keeps every one)`,
          '  after editing hooks.json: hookrun trust (which the edit needs) writes the wrappers again, or in a trusted folder the next fire does',
        ]),
    ...Object.entries(agent.skipped).map(([event, why]) => `  not ${event}: ${why}`),
    ...blocked.map(
      (event) =>
        `  warning: ${event}: ${join(dir, event)} and ${join(dir, `${event}.sh`)} are files (or links) of yours; hookrun wrote no wrapper for it`,
    ),
    ...(scope === 'project'
      ? ['  note: the wrappers run hookrun from PATH, so they can be committed; everyone who uses them needs hookrun on PATH']
      : []),
    `  note: ${agent.note}`,
  ]
  return resultOf(agent, dir, changed ? (missing.length > 0 ? 'created' : 'updated') : 'unchanged', lines, {
    eventsAdded: added,
    eventsRemoved: removed,
    events: wanted.filter((event) => !blocked.includes(event)),
    entriesUpdated: updated,
  })
}

/** hookrun's wrappers out of the folder, nothing else; the folders install made go while empty. */
export function removeWrappers(agent: FolderAgent, scope: Scope, places: Places): { lines: string[]; result: AgentFileResult } {
  const dir = agent.dir(scope, places)
  if (!existsSync(dir)) return resultOf(agent, dir, 'absent', [`${agent.name}: nothing to remove (${dir} does not exist)`], {})
  const found = wrappersIn(agent, dir)
  if (found.size === 0) return resultOf(agent, dir, 'unchanged', [`${agent.name}: nothing to remove (no hookrun wrappers in ${dir})`], {})
  for (const file of found.values()) rmSync(file)
  const made = rememberCreated(dir, places.env, false) ?? []
  const gone = made.filter((folder) => removeIfEmpty(folder))
  return resultOf(
    agent,
    dir,
    'removed',
    [
      `${agent.name}: removed ${count(found.size, 'wrapper')} from ${dir}${gone.length > 0 ? ` (and the empty ${gone.join(', ')} install made)` : ''}`,
    ],
    { eventsRemoved: [...found.keys()], entriesRemoved: found.size },
  )
}

/** What doctor reports for one folder: the wrappers a narrowed or full install expects but that are missing or not executable. */
export function wrapperProblems(agent: FolderAgent, dir: string): { routed: string[]; problems: string[] } {
  const found = wrappersIn(agent, dir)
  const problems: string[] = []
  for (const file of found.values())
    if (!isExecutable(file))
      problems.push(`${file} is not executable (hookrun install --agent ${agent.name} sets it again, or chmod +x it)`)
  return { routed: [...found.keys()], problems }
}
