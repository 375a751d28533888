// Every agent's tool names with their subjects and the agents that use each (docs/events.md,
// `hookrun events --tools`, install's matchers); a fire needs only src/event/tools.ts.
import { VOCABULARY } from '../agents/vocabulary.ts'

export interface ToolAlias {
  readonly name: string
  readonly subject: string
  /** The agents that use this name (src/agents/<agent>.ts). */
  readonly from: readonly string[]
}

const ROWS = new Map<string, { name: string; subject: string; from: string[] }>()
for (const [agent, tools] of VOCABULARY.tools) {
  for (const [name, subject] of Object.entries(tools)) {
    const row = ROWS.get(name)
    if (row !== undefined) row.from.push(agent)
    else ROWS.set(name, { name, subject, from: [agent] })
  }
}

/** Every agent's tool names, each with its subject and the agents that use it. */
export const TOOL_ALIASES: readonly ToolAlias[] = [...ROWS.values()]

/** The canonical subjects, each with the names agents give it (for `hookrun events --tools`). */
export function toolSubjects(): Array<{ subject: string; names: Array<{ name: string; from: readonly string[] }> }> {
  const subjects = new Map<string, Array<{ name: string; from: readonly string[] }>>()
  for (const entry of TOOL_ALIASES) {
    const names = subjects.get(entry.subject) ?? []
    names.push({ name: entry.name, from: entry.from })
    subjects.set(entry.subject, names)
  }
  return [...subjects].map(([subject, names]) => ({ subject, names }))
}
