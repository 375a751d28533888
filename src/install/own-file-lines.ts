// What install says of an agent's file it edits whole as a list of entries (Deep Agents Code's
// argv list, Hermes Agent's YAML), and the result it records: one wording for both.
import { count } from '../core/words.ts'
import type { AgentTarget } from './agent-target.ts'
import type { Edited } from './agent-write.ts'
import { type AgentFileResult, throughLink } from './results.ts'

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
): { lines: string[]; result: AgentFileResult } {
  const status = !edited.written ? 'unchanged' : found.existed ? 'updated' : 'created'
  const lines =
    status === 'unchanged'
      ? [`${target.name}: already installed in ${file} (${found.events.length} events)`]
      : [
          `${target.name}: ${status} ${file}${throughLink(edited)}: ${count(found.added.length, 'event')} added${found.removed.length > 0 ? `, ${count(found.removed.length, 'event')} removed` : ''}`,
          `  command: ${target.command(self, target.events[0]!)}`,
          `  events:  ${found.events.join(', ')}`,
          ...Object.entries(target.skipped).map(([event, why]) => `  not ${event}: ${why}`),
          ...(target.note === undefined ? [] : [`  note: ${target.note}`]),
        ]
  return {
    lines,
    result: {
      agent: target.name,
      file,
      status,
      eventsAdded: found.added,
      eventsRemoved: found.removed,
      events: found.events,
      notes: target.note === undefined ? [] : [target.note],
      warnings: [],
    },
  }
}
