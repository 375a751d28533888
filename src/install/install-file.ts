// One agent's JSON file on install: hookrun's router entries added, pointed at this hookrun,
// narrowed to the events its hooks can fire on (or to --events), and the lines install prints for it.
import { count } from '../core/words.ts'
import { type AgentTarget, groupsAt, hooksPathOf, type Places, type Scope, targetForFile } from './agent-target.ts'
import { checkShape, entryPrints, freshText, parse, rebased, routerEntries, withHandlerKeys, withRouterTimeout } from './agent-file.ts'
import { describeOverlap, findOverlaps, routedEvents } from './overlaps.ts'
import { appendAt, child, JsonTextError, nodeAt, nodeValue, removeAt, replaceAt, styleOf } from './json-text.ts'
import { narrowsUserInstall } from './user-routing.ts'
import { type AgentFileResult, type AgentFiles, type Narrowing, installNotesOf, throughLink } from './results.ts'

export function installInto(
  agent: AgentTarget,
  file: string,
  self: string,
  scope: Scope,
  places: Places,
  chosen: ReadonlySet<string> | undefined,
  narrowing: Narrowing | undefined,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
  // Where this file keeps its event map (Droid's hooks.json: at its top level).
  const target = targetForFile(agent, file)
  // Events not chosen lose hookrun's entry; one another agent's file answers too keeps it, so the gate never hangs on the other
  // agent's setting (the router answers "no opinion" there: overlaps.ts).
  const left = (event: string) => chosen !== undefined && !chosen.has(event)
  // Narrowed: a project install knows the project's hooks, so entries go only where they can fire
  // (src/install/matchers.ts).
  const native = narrowing?.native
  for (const event of target.alwaysRouted ?? []) if (native !== undefined && !native.has(event)) native.set(event, {})
  // Computed on the file's text, again if another program writes it meanwhile (src/install/agent-write.ts).
  let edit: EntriesEdit = { text: '', addedEvents: [], removedEvents: [], handEdited: [], updated: 0, dropped: 0, pruned: 0 }
  let existed = false
  const edited = files.edit(
    file,
    rebased(target, (before) => {
      existed = before !== undefined
      edit = editEntries(target, before ?? freshText(target), self, left, narrowing)
      return edit.addedEvents.length + edit.updated + edit.dropped + edit.pruned === 0 ? undefined : edit.text
    }),
  )
  const { addedEvents, removedEvents, handEdited, updated, dropped, pruned } = edit
  const events = target.events.filter((event) => !left(event) && (native === undefined || native.has(event)))
  const unwanted = native === undefined ? 0 : target.events.filter((event) => !left(event) && !native.has(event)).length
  const added = addedEvents.length
  const unchanged = added === 0 && updated === 0 && dropped === 0 && pruned === 0
  // Goose's plugin.json beside hooks/: written when missing (uninstall removes it if install made it).
  const manifest = target.manifest?.file(file)
  if (manifest !== undefined)
    files.edit(manifest, (text) => (text === undefined ? `${JSON.stringify(target.manifest!.content, null, 2)}\n` : undefined))
  // Read after writing: this file may be the one another agent runs too.
  const overlapLines = findOverlaps(places)
    .filter((overlap) => (overlap.owner === target.name || overlap.reader === target.name) && overlap.twice.length > 0)
    .map((overlap) => `  overlap: ${describeOverlap(overlap)}`)
  const startFolder = scope === 'project' && target.projectFileOnlyWhereStarted ? [startFolderNote(target, places)] : []
  const result = (lines: string[]) => {
    const status = unchanged ? 'unchanged' : existed ? 'updated' : 'created'
    return {
      lines,
      result: {
        agent: target.name,
        file,
        status,
        eventsAdded: addedEvents,
        eventsRemoved: removedEvents,
        events,
        entriesUpdated: updated,
        ...(handEdited.length > 0 && { handEdited }),
        ...installNotesOf(lines.slice(1)),
      } as const,
    }
  }
  const edits = handEdited.map(
    (event) =>
      `  warning: hookrun's entry for ${event} in ${file} was edited by hand, so this sync left it as it is; run \`hookrun install --agent ${target.name} --project\` to rewrite it`,
  )
  if (unchanged)
    return result([`${target.name}: already installed in ${file} (${events.length} events)`, ...edits, ...overlapLines, ...startFolder])
  const lines = [
    `${target.name}: ${existed ? 'updated' : 'created'} ${file}${throughLink(edited)}: ${count(added, 'event')} added${updated > 0 ? `, ${count(updated, 'entry', 'entries')} pointed at this hookrun` : ''}${dropped > 0 ? `, removed ${count(dropped, 'entry', 'entries')} for events not chosen` : ''}`,
    // A script (serve's bash client) by its first line, which says what it is: the file holds it whole.
    `  command: ${target.command(self, target.events[0]!).replace(/\n[\s\S]*/, ' …')}`,
    ...(target.served === undefined ? [] : [`  served:  ${target.served(self)}`]),
    `  events:  ${events.map((event) => (native?.get(event)?.matcher === undefined ? event : `${event} (${native.get(event)!.matcher})`)).join(', ')}`,
    ...(native === undefined
      ? []
      : [
          `  narrowed: only the events and tools ${narrowing!.kind === 'user' ? "your hooks and your trusted projects' hooks can fire on, and the session start" : "this project's hooks can fire on"} (${unwanted} left out${pruned > 0 ? `, ${count(pruned, 'entry', 'entries')} removed` : ''}; --all-events keeps every one)`,
          `  after editing hooks.json: ${afterEditing(target, chosen, narrowing!.kind)}`,
        ]),
    ...(native === undefined && narrowing?.kind === 'project'
      ? [
          "  every event: which events this project's hooks fire on cannot be told from its config (no hooks.json yet, or hook folders or plugins, known only by running them); hookrun init or trust narrows it once it can",
        ]
      : []),
    ...(native === undefined && narrowing?.kind === 'user'
      ? [
          '  every event: which events your hooks fire on cannot be told (trustedFolders, hook folders or plugins, known only where they run)',
        ]
      : []),
    ...(scope === 'user' && chosen === undefined && narrowing === undefined
      ? [
          `  every event: ${narrowsUserInstall(target) ? `hookrun install --agent ${target.name} without --all-events routes only what your hooks can fire on` : `${target.label} stops running a changed entry until you review it, so hookrun keeps one on every event`}`,
        ]
      : []),
  ]
  for (const [event, why] of Object.entries(target.skipped)) lines.push(`  not ${event}: ${why}`)
  lines.push(...edits)
  lines.push(...overlapLines)
  if (scope === 'project' && target.localProjectFile)
    lines.push(`  note: ${file} is this machine's own settings (keep it out of git); teammates run the same install`)
  else if (scope === 'project')
    lines.push('  note: the command runs hookrun from PATH, so the file can be committed; everyone who uses it needs hookrun on PATH')
  if (target.note !== undefined) lines.push(`  note: ${target.note}`)
  lines.push(...startFolder)
  return result(lines)
}

/** What install's pass over an agent's events did to the file's text. */
interface EntriesEdit {
  readonly text: string
  readonly addedEvents: string[]
  readonly removedEvents: string[]
  /** Events left as they are: hookrun's entry there was edited by hand (Narrowing.written). */
  readonly handEdited: string[]
  readonly updated: number
  readonly dropped: number
  readonly pruned: number
}

/** hookrun's entries in one text of the file: added, pointed at `self`, narrowed to `native`, out of events `left` out; all else kept. */
function editEntries(
  target: AgentTarget,
  from: string,
  self: string,
  left: (event: string) => boolean,
  narrowing: Narrowing | undefined,
): EntriesEdit {
  const native = narrowing?.native
  const written = narrowing?.written
  const prints = written === undefined ? undefined : entryPrints(target, from)
  const handEdited: string[] = []
  let text = from
  const root = parse(target, text)
  checkShape(target, root)
  // JSON the agent still drops whole (Antigravity CLI): entries added there would never run.
  const discarded = target.discards?.(nodeValue(root))
  if (discarded !== undefined) throw new JsonTextError(`${discarded}, so ${target.label} drops the whole file`)
  const style = styleOf(text)
  const addedEvents: string[] = []
  const removedEvents: string[] = []
  let updated = 0
  let dropped = 0
  let pruned = 0
  for (const event of target.events) {
    if (prints?.get(event)?.some((print) => !written!.has(print))) {
      handEdited.push(event)
      continue
    }
    const found = routerEntries(target, parse(target, text), event)
    // No hook can fire on it (the agent need not start hookrun at all), or --events left it out: hookrun's entries go.
    if (left(event) || (native !== undefined && !native.has(event))) {
      for (const entry of found.reverse()) text = removeAt(text, entry.remove)
      if (found.length > 0 && nodeAt(parse(target, text), [...hooksPathOf(target), event])?.children?.length === 0)
        text = removeAt(text, [...hooksPathOf(target), event])
      if (left(event)) dropped += found.length
      else pruned += found.length
      if (found.length > 0) removedEvents.push(event)
      continue
    }
    const matcher = native?.get(event)?.matcher ?? target.allMatcher
    const command = target.command(self, event)
    const group = (handler: Record<string, unknown>) => (matcher === undefined ? { hooks: [handler] } : { matcher, hooks: [handler] })
    if (found.length === 0) {
      const handler = target.handler(command, event)
      text = appendAt(text, style, [...hooksPathOf(target), event], groupsAt(target, event) ? group(handler) : handler)
      addedEvents.push(event)
      continue
    }
    // A group of hookrun's own carries the compiled matcher (a user's group keeps theirs).
    for (const entry of found) {
      if (!groupsAt(target, event) || entry.remove.length !== hooksPathOf(target).length + 2) continue
      const current = child(nodeAt(parse(target, text), entry.remove), 'matcher')?.value
      if (current === matcher) continue
      // Another tool list: only the string changes, so the file keeps its layout.
      text =
        typeof current === 'string' && matcher !== undefined
          ? replaceAt(text, [...entry.remove, 'matcher'], matcher)
          : replaceAt(text, entry.remove, group(target.handler(command, event)))
      updated++
    }
    // Already there: keep it, but point it at this hookrun if it moved.
    for (const handler of found.flatMap((entry) => entry.handlers)) {
      // A command where an http handler is wanted, or the other way (install with or without
      // --serve), or an http handler to another port or with another secret: replaced whole.
      const wanted = target.handler(command, event)
      if (otherHandler(nodeValue(nodeAt(parse(target, text), handler)!), wanted)) {
        text = replaceAt(text, handler, wanted)
        updated++
        continue
      }
      const path = [...handler, target.commandField]
      if (wanted.type !== 'http' && nodeAt(parse(target, text), path)?.value !== command) {
        text = replaceAt(text, path, command)
        updated++
      }
      const raised = withRouterTimeout(target, text, handler)
      if (raised !== text) {
        text = raised
        updated++
      }
      const completed = withHandlerKeys(target, text, handler, target.handler(command, event))
      if (completed !== text) {
        text = completed
        updated++
      }
    }
  }
  return { text, addedEvents, removedEvents, handEdited, updated, dropped, pruned }
}

/** Whether an installed handler is of another kind than the one wanted, or an http handler that differs in what it sends. */
function otherHandler(installed: unknown, wanted: Record<string, unknown>): boolean {
  const have = installed as Record<string, unknown>
  if ((have.type ?? 'command') !== (wanted.type ?? 'command')) return true
  if (wanted.type !== 'http') return false
  return ['url', 'headers', 'onFailure'].some((key) => JSON.stringify(have[key]) !== JSON.stringify(wanted[key]))
}

/** Gemini CLI and Qwen Code read project settings only in the folder they start in: in a subfolder the file runs no hook. */
function startFolderNote(target: AgentTarget, places: Places): string {
  const userFile = target.file('user', places)
  const where = `${target.label} reads ${target.file('project', places)} only when it is started in ${places.project}; started in a subfolder it runs no hook at all`
  if (routedEvents(userFile, target.name).length > 0) return `  note: ${where}, and your user install (${userFile}) routes those folders`
  return `  warning: ${where}. Install for your user instead: hookrun install --agent ${target.name} (it routes every folder, and does nothing where no hooks are configured)`
}

/** What keeps a narrowed config up to date after hooks.json changes (src/config/narrowed.ts). */
function afterEditing(target: AgentTarget, chosen: ReadonlySet<string> | undefined, kind: Narrowing['kind']): string {
  if (chosen !== undefined) return 'run this install again (fires leave a config narrowed with --events as it is)'
  if (kind === 'user')
    return "hookrun trust (which a project's edit needs), init, plugin add or validate bring this file up to date, or the next fire does; the agent sees the change in its next session"

  if (target.reviewsChangedHooks)
    return `run hookrun install --project --sync, then review the changed entries in ${target.label} (hookrun trust and fires leave this file: ${target.label} stops running a changed entry until you review it)`
  return 'hookrun trust (which the edit needs) brings this file up to date, or in a trusted folder the next fire does; an agent that reads its hooks when a session starts (Claude Code does) sees the change in its next session'
}
