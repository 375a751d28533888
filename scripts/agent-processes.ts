/**
 * How many hookrun processes an agent starts in a session, with router entries on every event
 * (what `hookrun install` writes by default) and with the entries and matchers
 * `hookrun install --project --narrow` compiles from the project's hooks (src/install/matchers.ts).
 *
 *   bun scripts/agent-processes.ts        (also printed by npm run bench)
 *
 * The session is Claude Code's event stream for a coding session of 100 tool calls, in the mix
 * of tools such sessions show (reads and searches most, then shell, edits, writes); the project
 * has two hooks: a gate on shell commands and a formatter after edits and writes.
 */
import { agentTarget } from '../src/install/agents.ts'
import { compileNativeMatchers } from '../src/install/matchers.ts'
import type { Hook } from '../src/core/types.ts'
import { mergeHooks } from '../src/config/load.ts'
import { parseConfigDocument } from '../src/config/parse.ts'

const TOOL_MIX: ReadonlyArray<readonly [tool: string, calls: number]> = [
  ['Read', 30],
  ['Grep', 14],
  ['Glob', 6],
  ['Bash', 24],
  ['Edit', 18],
  ['Write', 5],
  ['WebFetch', 3],
]

/** Claude's events for 10 prompts of 10 tool calls each (tools dealt round-robin from the mix). */
export function sessionEvents(): Array<{ event: string; tool?: string }> {
  const tools = TOOL_MIX.flatMap(([tool, calls]) => Array.from({ length: calls }, () => tool))
  const dealt = tools.map((_, index) => tools[(index * 37) % tools.length]!)
  const events: Array<{ event: string; tool?: string }> = [{ event: 'SessionStart' }]
  for (let turn = 0; turn < 10; turn++) {
    events.push({ event: 'UserPromptSubmit' })
    for (const tool of dealt.slice(turn * 10, turn * 10 + 10)) events.push({ event: 'PreToolUse', tool }, { event: 'PostToolUse', tool })
    events.push({ event: 'Stop' })
  }
  events.push({ event: 'Notification' }, { event: 'SessionEnd' })
  return events
}

/** The session's hooks, read the way fire reads a project's hooks.json. */
const SESSION_CONFIG = {
  hooks: [
    { name: 'no-rm-rf', event: 'tool:pre_execute:bash', command: 'true' },
    { name: 'format', event: 'tool:post_execute:edit|write', command: 'true' },
  ],
}
export const SESSION_HOOKS: readonly Hook[] = mergeHooks(
  parseConfigDocument({ layer: 'project', file: '.hookrun/hooks.json' }, JSON.stringify(SESSION_CONFIG)).entries,
  [],
)

/** Processes Claude Code starts for hookrun in the session, before and after compiled matchers. */
export function processesPer100ToolCalls(): { before: number; after: number; events: number } {
  const claude = agentTarget('claude')!
  const entries = compileNativeMatchers(claude, SESSION_HOOKS, false)!
  const events = sessionEvents()
  const routed = new Set(claude.events)
  const before = events.filter(({ event }) => routed.has(event)).length
  const after = events.filter(({ event, tool }) => {
    const entry = entries.get(event)
    if (entry === undefined) return false
    return entry.matcher === undefined || tool === undefined || new RegExp(entry.matcher).test(tool)
  }).length
  return { before, after, events: events.length }
}

if (import.meta.main) {
  const { before, after, events } = processesPer100ToolCalls()
  console.log(
    `a session of 100 tool calls (${events} events): hookrun started ${before} times with an entry on every event, ${after} times with compiled matchers`,
  )
}
