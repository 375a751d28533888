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
import { sharedSources } from './shared-names.ts'
type ToolSource =
  | 'auggie'
  | 'devin'
  | 'letta'
  | 'claude'
  | 'cursor'
  | 'gemini'
  | 'codex'
  | 'copilot'
  | 'windsurf'
  | 'droid'
  | 'kiro'
  | 'crush'
  | 'qwen'
  | 'goose'
  | 'cline'
  | 'opencode'
  | 'kimi'
  | 'vibe'

export interface ToolAlias {
  readonly name: string
  readonly subject: string
  readonly from: readonly ToolSource[]
}

const tool = (name: string, subject: string, ...from: ToolSource[]): ToolAlias => ({ name, subject, from })

/** Sources: each agent's reference (shared/reference/agent-hook-protocols.md §2, §6) and the docs named there. */
const OWN_TOOLS: readonly ToolAlias[] = [
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
  // VS Code's own agent hooks (code.visualstudio.com/docs/agents/reference/hooks-reference), which
  // run Copilot's .github/hooks files and are answered by --format copilot
  tool('runTerminalCommand', 'bash', 'copilot'),
  tool('editFiles', 'edit', 'copilot'),
  tool('AskUserQuestion', 'ask', 'claude'),
  tool('ask_user', 'ask', 'gemini', 'copilot'),
  tool('save_memory', 'memory', 'gemini'),
  // Windsurf names no tool: src/dialects/windsurf.ts names them after its events
  tool('run_command', 'bash', 'windsurf'),
  tool('write_code', 'edit', 'windsurf'),
  tool('read_code', 'read', 'windsurf'),
  // Factory Droid (docs.factory.ai; the names its matchers take)
  tool('Execute', 'bash', 'droid'),
  tool('Create', 'write', 'droid'),
  tool('ApplyPatch', 'edit', 'droid'),
  tool('FetchUrl', 'webfetch', 'droid'),
  tool('AskUser', 'ask', 'droid'),
  // Kiro CLI (kiro.dev/docs/cli/reference/built-in-tools; fs_read, fs_write, execute_bash and use_aws are the older names)
  tool('read', 'read', 'kiro'),
  tool('write', 'write', 'kiro', 'crush'),
  tool('fs_read', 'read', 'kiro'),
  tool('fs_write', 'write', 'kiro'),
  tool('execute_bash', 'bash', 'kiro'),
  tool('use_aws', 'aws', 'kiro'),
  tool('aws', 'aws', 'kiro'),
  tool('todo_list', 'todo', 'kiro'),
  // Crush (charmbracelet/crush docs/hooks: bash, edit, write, multiedit, view, ls, grep, glob, …)
  tool('multiedit', 'multiedit', 'crush'),
  tool('ls', 'ls', 'crush'),
  tool('fetch', 'webfetch', 'crush'),
  tool('agentic_fetch', 'webfetch', 'crush'),
  tool('agent', 'agent', 'crush'),
  tool('todos', 'todo', 'crush'),
  // Qwen Code (runtime tool ids, as Gemini CLI's; docs/users/features/hooks.md)
  tool('todo_write', 'todo', 'qwen'),
  // Cline (sdk/packages/core/src/extensions/tools/constants.ts; run_commands takes a list of commands)
  tool('run_commands', 'bash', 'cline'),
  tool('read_files', 'read', 'cline'),
  tool('editor', 'edit', 'cline'),
  tool('search_codebase', 'grep', 'cline'),
  tool('fetch_web_content', 'webfetch', 'cline'),
  tool('ask_question', 'ask', 'cline'),
  tool('spawn_agent', 'agent', 'cline'),
  // The VS Code extension's tools (its hooks' preToolUse.toolName)
  tool('execute_command', 'bash', 'cline'),
  tool('write_to_file', 'write', 'cline'),
  tool('replace_in_file', 'edit', 'cline'),
  tool('list_files', 'ls', 'cline'),
  tool('search_files', 'grep', 'cline'),
  // Devin CLI (docs.devin.ai/cli/extensibility/hooks/lifecycle-hooks: `exec` runs a shell command;
  // from its docs). It runs Claude Code's entries, so --format claude meets these names.
  tool('exec', 'bash', 'devin'),
  // Auggie 0.36.0 (its bundle's tool names)
  tool('launch-process', 'bash', 'auggie'),
  tool('save-file', 'write', 'auggie'),
  tool('str-replace-editor', 'edit', 'auggie'),
  tool('remove-files', 'delete', 'auggie'),
  tool('grep-search', 'grep', 'auggie'),
  tool('web-fetch', 'webfetch', 'auggie'),
  tool('web-search', 'websearch', 'auggie'),
  tool('sub-agent', 'agent', 'auggie'),
  // Kimi Code CLI 1.49.0 (MoonshotAI/kimi-cli src/kimi_cli/tools: each tool's `name`)
  tool('ReadFile', 'read', 'kimi'),
  tool('WriteFile', 'write', 'kimi'),
  tool('StrReplaceFile', 'edit', 'kimi'),
  tool('FetchURL', 'webfetch', 'kimi'),
  tool('SearchWeb', 'websearch', 'kimi'),
  tool('SetTodoList', 'todo', 'kimi'),
  // Mistral Vibe 2.18.4 (vibe/core/tools/builtins: each class's name in snake_case)
  tool('todo', 'todo', 'vibe'),
]

/** Agents that use a name above spelled the same join its `from` (sources as above). */
const SHARED_NAMES: ReadonlyArray<readonly [ToolSource, readonly string[]]> = [
  ['cline', ['apply_patch', 'read_file']],
  ['droid', ['Read', 'Edit', 'MultiEdit', 'LS', 'Grep', 'Glob', 'WebSearch', 'Task', 'TodoWrite']],
  ['kiro', ['shell', 'web_search', 'web_fetch']],
  ['crush', ['bash', 'edit', 'view', 'grep', 'glob']],
  // OpenCode 1.18.33 (the tools its model is offered, seen in the agent lab)
  ['opencode', ['bash', 'edit', 'write', 'read', 'glob', 'grep', 'task']],
  ['auggie', ['view', 'apply_patch', 'shell']],
  ['devin', ['edit']],
  // Letta Code 0.30.29 (src/tools/tool-definitions.ts): its Claude Code-named toolset
  [
    'letta',
    ['Bash', 'Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'Grep', 'LS', 'Task', 'TodoWrite', 'AskUserQuestion', 'ApplyPatch', 'Shell'],
  ],
  ['kimi', ['Shell', 'Glob', 'Grep', 'Agent']],
  ['vibe', ['bash', 'edit', 'read', 'write_file', 'grep', 'web_fetch', 'web_search', 'task']],
  [
    'qwen',
    [
      'run_shell_command',
      'read_file',
      'read_many_files',
      'write_file',
      'edit',
      'glob',
      'grep_search',
      'list_directory',
      'web_fetch',
      'web_search',
      'save_memory',
      'task',
    ],
  ],
  // Goose 1.50.0's developer tools (seen in the agent lab: shell {command}, write {path, content}, edit {path, before, after})
  ['goose', ['shell', 'write', 'edit']],
]

const SHARED_BY_NAME = sharedSources(SHARED_NAMES)
// Looked up without regard to case: `Bash`, `bash` and `BASH` are the same tool.
const BY_NAME = new Map<string, string>()
export const TOOL_ALIASES: readonly ToolAlias[] = OWN_TOOLS.map((entry) => {
  BY_NAME.set(entry.name.toLowerCase(), entry.subject)
  const more = SHARED_BY_NAME.get(entry.name)
  return more === undefined ? entry : { ...entry, from: [...entry.from, ...more] }
})

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
export function toolSubjects(): Array<{ subject: string; names: Array<{ name: string; from: readonly ToolSource[] }> }> {
  const subjects = new Map<string, Array<{ name: string; from: readonly ToolSource[] }>>()
  for (const entry of TOOL_ALIASES) {
    const names = subjects.get(entry.subject) ?? []
    names.push({ name: entry.name, from: entry.from })
    subjects.set(entry.subject, names)
  }
  return [...subjects].map(([subject, names]) => ({ subject, names }))
}
