// `hookrun uninstall` on one agent file: hookrun's router entries out, and a file install created with them.
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { count } from '../core/words.ts'
import { agentTarget } from './agents.ts'
import { type AgentTarget, hooksPathOf, type Places, targetForFile } from './agent-target.ts'
import { checkShape, eventMap, freshText, parse, rebased, routerEntries, sameJson } from './agent-file.ts'
import { linkTarget } from './agent-write.ts'
import { JsonTextError, keysOf, nodeAt, removeAt } from './json-text.ts'
import { FOREIGN_READS, routedEvents } from './overlaps.ts'
import { type AgentFileResult, diskFiles, rememberCreated, removeIfEmpty, notesOf, throughLink } from './results.ts'

export function uninstallFrom(agent: AgentTarget, file: string, places: Places): { lines: string[]; result: AgentFileResult } {
  // Where this file keeps its event map (Droid's hooks.json: at its top level).
  const target = targetForFile(agent, file)
  const env = places.env
  const removedEvents: string[] = []
  const result = (status: AgentFileResult['status'], lines: string[], entriesRemoved = 0) => ({
    lines,
    result: { agent: target.name, file, status, eventsAdded: [], eventsRemoved: removedEvents, entriesRemoved, ...notesOf(lines.slice(1)) },
  })
  if (!existsSync(file) && linkTarget(file) === undefined)
    return result('absent', [`${target.name}: nothing to remove (${file} does not exist)`])
  // A file install created that ends up holding nothing but its starting keys goes too (a file the
  // user had, even an empty one, stays, and so does a link: it is the user's); otherwise the file
  // is edited, again on its newer text if another program writes it meanwhile.
  const files = diskFiles(env)
  let removed = 0
  let keep = linkTarget(file) !== undefined
  for (let tries = 0; tries < 64; tries++) {
    let empty: string | undefined
    const edited = files.edit(
      file,
      rebased(target, (before) => {
        if (before === undefined) return undefined
        const out = withoutEntries(target, before)
        removed = out.removed
        removedEvents.splice(0, removedEvents.length, ...out.events)
        if (out.removed > 0 && !keep && sameJson(out.text, freshText(target))) empty = before
        return out.removed === 0 || empty !== undefined ? undefined : out.text
      }),
    )
    if (removed === 0) return result('unchanged', [`${target.name}: nothing to remove (no hookrun entries in ${file})`])
    const notes = readersLeftShort(target, places)
    if (empty === undefined)
      return result(
        'removed',
        [`${target.name}: removed ${count(removed, 'entry', 'entries')} from ${file}${throughLink(edited)}`, ...notes],
        removed,
      )
    if (!existsSync(file) || readFileSync(file, 'utf8') !== empty) continue
    const created = rememberCreated(file, env, false)
    if (created === undefined) {
      keep = true
      continue
    }
    rmSync(file)
    // The plugin manifest install wrote beside it (Goose's plugin.json) goes first, so its folder empties.
    const manifest = target.manifest?.file(file)
    if (manifest !== undefined && existsSync(manifest) && rememberCreated(manifest, env, false) !== undefined) rmSync(manifest)
    // The folders install made for it go too, while they are empty (`.github/hooks`, `.claude`).
    const gone = created.filter((folder) => removeIfEmpty(folder))
    return result(
      'deleted',
      [
        `${target.name}: removed ${count(removed, 'entry', 'entries')} and ${file}, which held only hookrun's entries${gone.length > 0 ? ` (and the empty ${gone.join(', ')} install made)` : ''}`,
        ...notes,
      ],
      removed,
    )
  }
  throw new JsonTextError(
    'changed 64 times while hookrun edited it (another program keeps writing it), so hookrun wrote nothing; run the command again',
  )
}

/** The text with hookrun's router entries out (and an event list, or the event map, they alone filled). */
function withoutEntries(target: AgentTarget, from: string): { text: string; removed: number; events: string[] } {
  const at = hooksPathOf(target)
  let text = from
  checkShape(target, parse(target, text))
  let removed = 0
  const events: string[] = []
  for (const event of keysOf(eventMap(target, parse(target, text)))) {
    const entries = routerEntries(target, parse(target, text), event)
    // Back to front, so the paths still to remove keep their indexes.
    for (const entry of entries.reverse()) {
      text = removeAt(text, entry.remove)
      removed++
    }
    if (entries.length > 0) events.push(event)
    // An event list that only held hookrun's entries goes with them.
    if (entries.length > 0 && nodeAt(parse(target, text), [...at, event])?.children?.length === 0) text = removeAt(text, [...at, event])
  }
  if (removed > 0 && at.length > 0 && keysOf(eventMap(target, parse(target, text))).length === 0) text = removeAt(text, at)
  return { text, removed, events }
}

/** Agents that answered some events through the entries just removed, and have hookrun entries of their own. */
function readersLeftShort(target: AgentTarget, places: Places): string[] {
  return FOREIGN_READS.filter((read) => read.owner === target.name)
    .filter((read) =>
      (['project', 'user'] as const).some((scope) => routedEvents(agentTarget(read.reader)!.file(scope, places), read.reader).length > 0),
    )
    .map(
      (read) =>
        `  note: ${agentTarget(read.reader)!.label} answered some events through these entries; run \`hookrun install --agent ${read.reader}\` again to give them entries of its own`,
    )
}
