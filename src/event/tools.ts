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
import { VOCABULARY } from '../agents/vocabulary.ts'
import type { AgentTools } from '../agents/types.ts'

/**
 * The first subject of each tool name, looked up without regard to case (`Bash`, `bash` and `BASH`
 * are the same tool). Made by `vocabularyWithTables` and kept as data in the vocabulary, so no fire builds
 * it: pass the agents' tools (`VOCABULARY.tools`). The rows, with every agent that uses each name,
 * are src/event/tool-aliases.ts (no fire asks for them).
 */
export function toolNameTable(agentTools: ReadonlyArray<readonly [string, AgentTools]>): Record<string, string> {
  const table: Record<string, string> = {}
  for (const [, tools] of agentTools) {
    for (const name in tools) {
      const lower = name.toLowerCase()
      if (!Object.hasOwn(table, lower)) table[lower] = tools[name]!
    }
  }
  return table
}

/** The canonical subject for a tool name: `run_shell_command` → `bash`; unknown names lowercased. */
export function canonicalTool(name: string): string {
  const lower = name.toLowerCase()
  const table = VOCABULARY.toolNames
  return Object.hasOwn(table, lower) ? table[lower]! : lower
}

/** Is this one of the agents' own tool names the table knows (any case)? */
export function isToolName(name: string): boolean {
  return Object.hasOwn(VOCABULARY.toolNames, name.toLowerCase())
}
