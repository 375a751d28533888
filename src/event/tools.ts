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

// Built in one pass at start-up, which every event pays for: the first subject of each name,
// looked up without regard to case (`Bash`, `bash` and `BASH` are the same tool). The rows, with
// every agent that uses each name, are src/event/tool-aliases.ts (no fire asks for them).
const BY_NAME = new Map<string, string>()
for (const [, tools] of VOCABULARY.tools) {
  for (const name in tools) {
    const lower = name.toLowerCase()
    if (!BY_NAME.has(lower)) BY_NAME.set(lower, tools[name]!)
  }
}

/** The canonical subject for a tool name: `run_shell_command` → `bash`; unknown names lowercased. */
export function canonicalTool(name: string): string {
  const lower = name.toLowerCase()
  return BY_NAME.get(lower) ?? lower
}

/** Is this one of the agents' own tool names the table knows (any case)? */
export function isToolName(name: string): boolean {
  return BY_NAME.has(name.toLowerCase())
}
