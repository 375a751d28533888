/**
 * One subject set for every agent's tools (docs/events.md). A tool event is qualified with the
 * canonical name of its tool, so `tool:pre_execute:bash` fires for Claude Code's `Bash`,
 * Cursor's `Shell`, Gemini CLI's `run_shell_command`, Codex's `Bash` and Copilot's `bash`.
 * The agent's own name stays what it was: in the payload, in `HOOKRUN_TOOL_NAME`, and as one of
 * the names a Claude-shape matcher is tested against.
 *
 * Rule for the table: no two of Claude Code's tools share a subject (PowerShell is not bash,
 * NotebookEdit is not edit), so a Claude matcher keeps Claude's meaning on Claude's payloads.
 * A name the table does not know is its own subject, lowercased (`mcp__memory__create`).
 */
import { AGENTS } from '../agents/registry.ts'

export interface ToolAlias {
  readonly name: string
  readonly subject: string
  /** The agents that use this name (src/agents/<agent>.ts). */
  readonly from: readonly string[]
}

// Built in one pass at start-up: one row per name, with every agent that uses it. Looked up
// without regard to case: `Bash`, `bash` and `BASH` are the same tool.
const BY_NAME = new Map<string, string>()
const ROWS = new Map<string, { name: string; subject: string; from: string[] }>()
for (const agent of AGENTS) {
  for (const [name, subject] of Object.entries(agent.tools ?? {})) {
    const row = ROWS.get(name)
    if (row !== undefined) row.from.push(agent.name)
    else ROWS.set(name, { name, subject, from: [agent.name] })
    if (!BY_NAME.has(name.toLowerCase())) BY_NAME.set(name.toLowerCase(), subject)
  }
}

/** Every agent's tool names, each with its subject and the agents that use it. */
export const TOOL_ALIASES: readonly ToolAlias[] = [...ROWS.values()]

/** The canonical subject for a tool name: `run_shell_command` → `bash`; unknown names lowercased. */
export function canonicalTool(name: string): string {
  const lower = name.toLowerCase()
  return BY_NAME.get(lower) ?? lower
}

/** Is this one of the agents' own tool names the table knows (any case)? */
export function isToolName(name: string): boolean {
  return BY_NAME.has(name.toLowerCase())
}

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
