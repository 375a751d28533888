// A hooks file of hookrun's own whose entries are a list, each naming its trigger (the target's
// `header` beside it; Kiro CLI v3's `.kiro/hooks/hookrun.json` is one): written whole, with any
// entry the user added to it kept; removed by uninstall when nothing of the user's is left.
import { count } from '../core/words.ts'
import type { AgentTarget } from './agent-target.ts'
import { type Entry, entriesOf, isRouter } from './hook-list-read.ts'
import { type AgentFileResult, type AgentFiles, throughLink, uninstallOwnEntries } from './results.ts'

const textOf = (target: AgentTarget, entries: readonly Entry[]) => `${JSON.stringify({ ...target.header, hooks: entries }, null, 2)}\n`

/** hookrun's entries for the events chosen (or narrowed to), after the user's own; the file rewritten only when that changes it. */
export function installHookList(
  target: AgentTarget,
  file: string,
  self: string,
  chosen: ReadonlySet<string> | undefined,
  narrowing: { readonly native: ReadonlyMap<string, unknown> | undefined } | undefined,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
  const native = narrowing?.native
  const events = target.events.filter((event) => (chosen === undefined || chosen.has(event)) && (native === undefined || native.has(event)))
  let existed = false
  let added: string[] = []
  let removed: string[] = []
  // Computed on the file's text, again if another program writes it meanwhile (src/install/agent-write.ts).
  const edited = files.edit(file, (before) => {
    existed = before !== undefined
    const entries = before === undefined ? [] : entriesOf(before, target)
    const routed = new Set(entries.filter((entry) => isRouter(entry, target.name)).map((entry) => String(entry.trigger)))
    const own = entries.filter((entry) => !isRouter(entry, target.name))
    added = events.filter((event) => !routed.has(event))
    removed = [...routed].filter((event) => !events.includes(event))
    const text = textOf(target, [...own, ...events.map((event) => target.handler(target.command(self, event), event))])
    return text === before ? undefined : text
  })
  const status = !edited.written ? 'unchanged' : existed ? 'updated' : 'created'
  const out =
    status === 'unchanged'
      ? [`${target.name}: already installed in ${file} (${events.length} events)`]
      : [
          `${target.name}: ${status} ${file}${throughLink(edited)}: ${count(added.length, 'event')} added${removed.length > 0 ? `, ${count(removed.length, 'event')} removed` : ''}`,
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
export function uninstallHookList(
  target: AgentTarget,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
  // The folders install made for the file go with it, while empty (`.kiro/hooks`, `.kiro`).
  return uninstallOwnEntries(
    target.name,
    file,
    env,
    files,
    (text) => {
      const entries = text === undefined ? [] : entriesOf(text, target)
      const left = entries.filter((entry) => !isRouter(entry, target.name))
      return { ours: entries.filter((entry) => isRouter(entry, target.name)), text: textOf(target, left), empty: left.length === 0 }
    },
    (entry) => String(entry.trigger),
  )
}
