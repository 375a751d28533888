/**
 * One subject set for every agent's tools (DESIGN §3). A tool event is qualified with the
 * canonical name of its tool, so `tool:pre_execute:bash` fires for Claude Code's `Bash`,
 * Cursor's `Shell`, Gemini CLI's `run_shell_command`, Codex's `Bash` and Copilot's `bash`.
 * The agent's own name stays what it was: in the payload, in `HOOKRUN_TOOL_NAME`, and as one of
 * the names a Claude-shape matcher is tested against.
 *
 * Rule for the table: no two of Claude Code's tools share a subject (PowerShell is not bash,
 * NotebookEdit is not edit), so a Claude matcher keeps Claude's meaning on Claude's payloads.
 * A name the table does not know is its own subject, lowercased (`mcp__memory__create`).
 */
export type ToolSource = 'claude' | 'cursor' | 'gemini' | 'codex' | 'copilot'

export interface ToolAlias {
  readonly name: string
  readonly subject: string
  readonly from: readonly ToolSource[]
}

const tool = (name: string, subject: string, ...from: ToolSource[]): ToolAlias => ({ name, subject, from })

/** Sources: each agent's reference (shared/reference/agent-hook-protocols.md §2, §6) and the docs named there. */
export const TOOL_ALIASES: readonly ToolAlias[] = [
  tool('Bash', 'bash', 'claude', 'codex'),
  tool('Shell', 'bash', 'cursor'),
  tool('run_shell_command', 'bash', 'gemini'),
  tool('bash', 'bash', 'copilot'),
  tool('shell', 'bash', 'codex'),
  tool('local_shell', 'bash', 'codex'),
  tool('PowerShell', 'powershell', 'claude'),
  tool('powershell', 'powershell', 'copilot'),
  tool('Read', 'read', 'claude', 'cursor'),
  tool('read_file', 'read', 'gemini'),
  tool('read_many_files', 'read', 'gemini'),
  tool('view', 'read', 'copilot'),
  tool('Write', 'write', 'claude', 'cursor'),
  tool('write_file', 'write', 'gemini'),
  tool('create', 'write', 'copilot'),
  tool('Edit', 'edit', 'claude', 'cursor'),
  tool('StrReplace', 'edit', 'cursor'),
  tool('replace', 'edit', 'gemini'),
  tool('edit', 'edit', 'copilot'),
  tool('str_replace_editor', 'edit', 'copilot'),
  tool('apply_patch', 'edit', 'codex', 'copilot'),
  tool('MultiEdit', 'multiedit', 'claude'),
  tool('NotebookEdit', 'notebookedit', 'claude'),
  tool('Delete', 'delete', 'cursor'),
  tool('Glob', 'glob', 'claude', 'cursor'),
  tool('glob', 'glob', 'gemini', 'copilot'),
  tool('Grep', 'grep', 'claude', 'cursor'),
  tool('grep_search', 'grep', 'gemini'),
  tool('search_file_content', 'grep', 'gemini'),
  tool('grep', 'grep', 'copilot'),
  tool('rg', 'grep', 'copilot'),
  tool('LS', 'ls', 'claude', 'cursor'),
  tool('list_directory', 'ls', 'gemini'),
  tool('WebFetch', 'webfetch', 'claude', 'cursor'),
  tool('web_fetch', 'webfetch', 'gemini', 'copilot'),
  tool('WebSearch', 'websearch', 'claude', 'cursor'),
  tool('google_web_search', 'websearch', 'gemini'),
  tool('web_search', 'websearch', 'codex', 'copilot'),
  tool('Agent', 'agent', 'claude'),
  tool('Task', 'agent', 'claude', 'cursor'),
  tool('task', 'agent', 'copilot'),
  tool('delegate_to_agent', 'agent', 'gemini'),
  tool('TodoWrite', 'todo', 'claude'),
  tool('write_todos', 'todo', 'gemini'),
  tool('update_todo', 'todo', 'copilot'),
  tool('AskUserQuestion', 'ask', 'claude'),
  tool('ask_user', 'ask', 'gemini', 'copilot'),
  tool('save_memory', 'memory', 'gemini'),
]

// Looked up without regard to case: `Bash`, `bash` and `BASH` are the same tool.
const BY_NAME = new Map(TOOL_ALIASES.map((entry) => [entry.name.toLowerCase(), entry.subject]))

/** The canonical subject for a tool name: `run_shell_command` → `bash`; unknown names lowercased. */
export function canonicalTool(name: string): string {
  const lower = name.toLowerCase()
  return BY_NAME.get(lower) ?? lower
}

/** The canonical subjects, each with the names agents give it (for `hookrun events --tools`). */
export function toolSubjects(): Array<{ subject: string; names: Array<{ name: string; from: readonly ToolSource[] }> }> {
  const subjects = new Map<string, Array<{ name: string; from: readonly ToolSource[] }>>()
  for (const entry of TOOL_ALIASES) {
    const names = subjects.get(entry.subject) ?? []
    names.push({ name: entry.name, from: entry.from })
    subjects.set(entry.subject, names)
  }
  return [...subjects].map(([subject, names]) => ({ subject, names }))
}
