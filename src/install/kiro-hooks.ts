// Kiro CLI v3's hooks file of hookrun's own (`.kiro/hooks/hookrun.json`, `{version: "v1", hooks:
// [{name, trigger, action, timeout, enabled}]}`, kiro.dev/docs/cli/v3/hooks): written whole, with
// any entry the user added to it kept; removed by uninstall when nothing of the user's is left.
import { rmSync } from 'node:fs'
import { count } from '../core/words.ts'
import type { AgentTarget } from './agent-target.ts'
import { type Entry, entriesOf, isRouter } from './kiro-hooks-read.ts'
import { type AgentFileResult, type AgentFiles, rememberCreated, removeIfEmpty } from './results.ts'

const textOf = (entries: readonly Entry[]) => `${JSON.stringify({ version: 'v1', hooks: entries }, null, 2)}\n`

/** hookrun's entries for the events chosen (or narrowed to), after the user's own; the file rewritten only when that changes it. */
export function installKiroFile(
  target: AgentTarget,
  file: string,
  self: string,
  chosen: ReadonlySet<string> | undefined,
  narrowing: { readonly native: ReadonlyMap<string, unknown> | undefined } | undefined,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
  const before = files.read(file)
  const entries = before === undefined ? [] : entriesOf(before)
  const routed = new Set(entries.filter((entry) => isRouter(entry, target.name)).map((entry) => String(entry.trigger)))
  const native = narrowing?.native
  const events = target.events.filter((event) => (chosen === undefined || chosen.has(event)) && (native === undefined || native.has(event)))
  const own = entries.filter((entry) => !isRouter(entry, target.name))
  const text = textOf([...own, ...events.map((event) => target.handler(target.command(self, event), event))])
  const added = events.filter((event) => !routed.has(event))
  const removed = [...routed].filter((event) => !events.includes(event))
  const status = before === undefined ? 'created' : text === before ? 'unchanged' : 'updated'
  if (status !== 'unchanged') files.write(file, text, before === undefined)
  const out =
    status === 'unchanged'
      ? [`${target.name}: already installed in ${file} (${events.length} events)`]
      : [
          `${target.name}: ${status} ${file}: ${count(added.length, 'event')} added${removed.length > 0 ? `, ${count(removed.length, 'event')} removed` : ''}`,
          `  command: ${target.command(self, target.events[0]!)}`,
          `  events:  ${events.join(', ')}`,
          ...(native === undefined
            ? []
            : [
                `  narrowed: only the events your hooks can fire on (${target.events.length - events.length} left out; --all-events keeps every one)`,
              ]),
          ...Object.entries(target.skipped).map(([event, why]) => `  not ${event}: ${why}`),
          ...(target.note === undefined ? [] : [`  note: ${target.note}`]),
        ]
  const notes = out.slice(1).flatMap((line) => (line.startsWith('  note: ') ? [line.slice(8)] : []))
  return {
    lines: out,
    result: { agent: target.name, file, status, eventsAdded: added, eventsRemoved: removed, events, notes, warnings: [] },
  }
}

/** hookrun's entries out; the file goes when install created it and nothing of the user's is in it. */
export function uninstallKiroFile(
  target: AgentTarget,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
  const result = (status: AgentFileResult['status'], lines: string[], events: string[] = [], removed = 0) => ({
    lines,
    result: { agent: target.name, file, status, eventsAdded: [], eventsRemoved: events, entriesRemoved: removed, notes: [], warnings: [] },
  })
  const text = files.read(file)
  if (text === undefined) return result('absent', [`${target.name}: nothing to remove (${file} does not exist)`])
  const entries = entriesOf(text)
  const ours = entries.filter((entry) => isRouter(entry, target.name))
  if (ours.length === 0) return result('unchanged', [`${target.name}: nothing to remove (no hookrun entries in ${file})`])
  const events = [...new Set(ours.map((entry) => String(entry.trigger)))]
  const left = entries.filter((entry) => !isRouter(entry, target.name))
  const removed = `${target.name}: removed ${count(ours.length, 'entry', 'entries')} from ${file}`
  const created = left.length === 0 ? rememberCreated(file, env, false) : undefined
  if (created !== undefined) {
    rmSync(file)
    // The folders install made for it go too, while they are empty (`.kiro/hooks`, `.kiro`).
    const gone = created.filter((folder) => removeIfEmpty(folder))
    return result(
      'deleted',
      [
        `${removed}, and the file, which held only hookrun's entries${gone.length > 0 ? ` (and the empty ${gone.join(', ')} install made)` : ''}`,
      ],
      events,
      ours.length,
    )
  }
  files.write(file, textOf(left), false)
  return result('removed', [removed], events, ours.length)
}
