/**
 * The event vocabulary (docs/events.md). Canonical names are `domain:action`, lowercase; a tool event
 * is qualified with its subject when fired (`tool:pre_execute:bash`). Every name a seed or an
 * agent uses is an alias of one canonical name: firing or matching an alias is the same as
 * using the canonical name.
 */
import { sharedSources } from './shared-names.ts'
import { type AliasSource, SHARED_EVENT_NAMES } from './shared-events.ts'
export interface CanonicalEvent {
  readonly name: string
  /**
   * A failing blocking hook blocks by default here (fail closed): the agent can still stop the
   * action. Elsewhere a failure only warns (fail open).
   */
  readonly gate: boolean
  /** A block has an effect on this event (Claude Code's "exit 2 blocks" column). */
  readonly canBlock: boolean
  readonly description: string
}

export type { AliasSource }

interface EventAlias {
  readonly alias: string
  readonly canonical: string
  readonly from: readonly AliasSource[]
  /**
   * The tool subject the agent's event implies (Cursor's `beforeShellExecution` is
   * `tool:pre_execute` for shell tools): a handler configured on it runs for that tool only.
   */
  readonly subject?: string
}

const event = (name: string, gate: boolean, canBlock: boolean, description: string): CanonicalEvent => ({
  name,
  gate,
  canBlock,
  description,
})

export const CANONICAL_EVENTS: readonly CanonicalEvent[] = [
  event('tool:pre_execute', true, true, 'before a tool runs; a block cancels the call'),
  event('tool:post_execute', false, true, 'after a tool succeeded; a block sends the reason back to the model'),
  event('tool:error', false, false, 'after a tool failed'),
  event('tool:post_batch', false, true, 'after a batch of parallel tool calls'),
  event('llm:pre_request', true, true, 'before a model request'),
  event('llm:post_response', false, false, 'after a model response'),
  event('llm:stream_start', false, false, 'a model response starts streaming'),
  event('llm:stream_end', false, false, 'a model response finished streaming'),
  event('llm:message_display', false, false, 'assistant text is shown to the user'),
  event('llm:thought', false, false, 'the model finished a thinking block'),
  event('llm:tool_selection', false, false, 'before the model picks which tools it may call'),
  event('llm:pre_model_switch', true, true, 'before the session switches to another model; a block keeps the current one'),
  event('llm:post_model_switch', false, false, 'after the session switched to another model'),
  event('session:start', false, false, 'a session starts or resumes'),
  event('session:end', false, false, 'a session ends'),
  event('session:message', false, false, 'a message is added to the session'),
  event('session:setup', false, false, 'one-time setup or maintenance run'),
  event('session:cwd_changed', false, false, 'the working directory changed'),
  event('session:directory_added', false, false, 'a directory was added to the workspace'),
  event('session:delete', false, false, 'a saved session was deleted'),
  event('permission:check', true, true, 'a permission is checked'),
  event('permission:prompt', true, true, 'the user is about to be asked for a permission'),
  event('permission:granted', false, false, 'a permission was granted'),
  event('permission:denied', false, false, 'a permission was denied'),
  event('user:prompt_submit', true, true, 'the user submitted a prompt; a block erases it'),
  event('user:prompt_expansion', true, true, 'a slash command or MCP prompt expands'),
  event('user:interrupt', false, false, 'the user interrupted the agent'),
  event('user:trigger', false, false, "the user ran a hook by hand (Kiro's Manual trigger)"),
  event('agent:start', false, false, 'the agent begins processing user input'),
  event('agent:stop', false, true, 'the agent finished; a block asks it to keep going'),
  event('agent:stop_failure', false, false, 'the turn ended on an API error'),
  event('agent:error', false, false, 'an error occurred while the agent ran'),
  event('turn:start', false, false, 'before each model turn'),
  event('turn:end', false, false, 'after each model turn'),
  event('subagent:start', false, false, 'a subagent was started'),
  event('subagent:stop', false, true, 'a subagent finished; a block asks it to keep going'),
  event('task:created', false, true, 'a task is being created'),
  event('task:completed', false, true, 'a task is being marked complete'),
  event('task:start', true, true, 'a planned task (a Kiro spec task) is about to start; a block keeps it from starting'),
  event('teammate:idle', false, true, 'a teammate agent is about to go idle'),
  event('notification', false, false, 'the agent shows a notification'),
  event('context:pre_compact', false, true, 'before the conversation is compacted'),
  event('context:post_compact', false, false, 'after the conversation was compacted'),
  event('context:instructions_loaded', false, false, 'instruction files (CLAUDE.md, rules) were loaded'),
  event('config:change', false, true, 'a settings file changed'),
  event('file:changed', false, false, 'a watched file changed on disk'),
  event('file:created', false, false, 'a file was created'),
  event('file:deleted', false, false, 'a file was deleted'),
  event('worktree:create', false, true, 'a git worktree is being created'),
  event('worktree:remove', false, false, 'a git worktree was removed'),
  event('worktree:setup', false, false, 'a git worktree was set up for the agent'),
  event('mcp:elicitation', false, true, 'an MCP server asks the user for input'),
  event('mcp:elicitation_result', false, true, 'the user answered an MCP elicitation'),
]

const alias = (name: string, canonical: string, ...from: AliasSource[]): EventAlias => ({ alias: name, canonical, from })
/** An alias whose event implies a tool (pattern subject syntax: `bash`, `edit|write`, `mcp__*`). */
const toolAlias = (name: string, canonical: string, subject: string, ...from: AliasSource[]): EventAlias => ({
  alias: name,
  canonical,
  from,
  subject,
})

/** Every other name, with who uses it. The SDK spec's 15 events are Claude Code's names too. */
const OWN_ALIASES: readonly EventAlias[] = [
  // pigo (seed 000)
  alias('agent_start', 'agent:start', 'pigo'),
  alias('turn_start', 'turn:start', 'pigo'),
  alias('tool_start', 'tool:pre_execute', 'pigo'),
  alias('tool_end', 'tool:post_execute', 'pigo'),
  alias('turn_end', 'turn:end', 'pigo', 'kodelet'),
  alias('agent_end', 'agent:stop', 'pigo'),
  // kodelet (seed 002)
  alias('before_tool_call', 'tool:pre_execute', 'kodelet'),
  alias('after_tool_call', 'tool:post_execute', 'kodelet'),
  alias('user_message_send', 'user:prompt_submit', 'kodelet'),
  alias('agent_stop', 'agent:stop', 'kodelet'),
  // Claude Code; the SDK spec (seed 001) names 15 of these, the Rust plan (seed 004) four
  alias('PreToolUse', 'tool:pre_execute', 'claude', 'codex', 'sdk', 'rust'),
  alias('PostToolUse', 'tool:post_execute', 'claude', 'codex', 'sdk', 'rust'),
  alias('PostToolUseFailure', 'tool:error', 'claude', 'sdk', 'rust'),
  alias('UserPromptSubmit', 'user:prompt_submit', 'claude', 'codex', 'sdk', 'rust'),
  alias('Notification', 'notification', 'claude', 'sdk', 'gemini'),
  alias('SessionStart', 'session:start', 'claude', 'codex', 'sdk', 'gemini'),
  alias('SessionEnd', 'session:end', 'claude', 'codex', 'sdk', 'gemini'),
  alias('Stop', 'agent:stop', 'claude', 'codex', 'sdk'),
  alias('SubagentStart', 'subagent:start', 'claude', 'codex', 'sdk'),
  alias('SubagentStop', 'subagent:stop', 'claude', 'codex', 'sdk'),
  alias('PreCompact', 'context:pre_compact', 'claude', 'codex', 'sdk'),
  alias('PermissionRequest', 'permission:prompt', 'claude', 'codex', 'sdk'),
  alias('Setup', 'session:setup', 'claude', 'sdk'),
  alias('TeammateIdle', 'teammate:idle', 'claude', 'sdk'),
  alias('TaskCompleted', 'task:completed', 'claude', 'sdk'),
  alias('TaskCreated', 'task:created', 'claude'),
  alias('PermissionDenied', 'permission:denied', 'claude'),
  alias('PostToolBatch', 'tool:post_batch', 'claude'),
  alias('UserPromptExpansion', 'user:prompt_expansion', 'claude'),
  alias('MessageDisplay', 'llm:message_display', 'claude'),
  // Claude Code 2.1.251 (agent-hook-protocols.md §9.1)
  alias('PreModelSwitch', 'llm:pre_model_switch', 'claude'),
  alias('PostModelSwitch', 'llm:post_model_switch', 'claude'),
  // Codex (§9.3): the user interrupted a turn; Codex gives its hooks 3 s
  alias('Interrupt', 'user:interrupt', 'codex'),
  alias('StopFailure', 'agent:stop_failure', 'claude', 'codex'),
  alias('PostCompact', 'context:post_compact', 'claude', 'codex'),
  alias('InstructionsLoaded', 'context:instructions_loaded', 'claude'),
  alias('ConfigChange', 'config:change', 'claude'),
  alias('CwdChanged', 'session:cwd_changed', 'claude'),
  alias('DirectoryAdded', 'session:directory_added', 'claude'),
  alias('FileChanged', 'file:changed', 'claude'),
  alias('WorktreeCreate', 'worktree:create', 'claude'),
  alias('WorktreeRemove', 'worktree:remove', 'claude'),
  alias('Elicitation', 'mcp:elicitation', 'claude'),
  alias('ElicitationResult', 'mcp:elicitation_result', 'claude'),
  // Gemini CLI (docs/hooks/reference.md); SessionStart, SessionEnd and Notification are Claude's names too
  alias('BeforeTool', 'tool:pre_execute', 'gemini'),
  alias('AfterTool', 'tool:post_execute', 'gemini'),
  alias('BeforeAgent', 'user:prompt_submit', 'gemini'),
  alias('AfterAgent', 'agent:stop', 'gemini'),
  alias('BeforeModel', 'llm:pre_request', 'gemini'),
  alias('AfterModel', 'llm:post_response', 'gemini'),
  alias('BeforeToolSelection', 'llm:tool_selection', 'gemini'),
  alias('PreCompress', 'context:pre_compact', 'gemini'),
  // Cursor (cursor.com/docs/agent/hooks): camelCase. The generic tool events come first, so
  // they are what `aliasFor` gives; the shell, MCP and file events are the same events with a
  // fixed tool (src/dialects/cursor.ts).
  alias('sessionStart', 'session:start', 'cursor', 'copilot'),
  alias('sessionEnd', 'session:end', 'cursor', 'copilot'),
  alias('preToolUse', 'tool:pre_execute', 'cursor', 'copilot'),
  alias('postToolUse', 'tool:post_execute', 'cursor', 'copilot'),
  alias('postToolUseFailure', 'tool:error', 'cursor', 'copilot'),
  alias('subagentStart', 'subagent:start', 'cursor', 'copilot'),
  alias('subagentStop', 'subagent:stop', 'cursor', 'copilot'),
  alias('preCompact', 'context:pre_compact', 'cursor', 'copilot'),
  alias('stop', 'agent:stop', 'cursor'),
  alias('beforeSubmitPrompt', 'user:prompt_submit', 'cursor'),
  toolAlias('beforeShellExecution', 'tool:pre_execute', 'bash', 'cursor'),
  toolAlias('afterShellExecution', 'tool:post_execute', 'bash', 'cursor'),
  toolAlias('beforeMCPExecution', 'tool:pre_execute', 'mcp__*', 'cursor'),
  toolAlias('afterMCPExecution', 'tool:post_execute', 'mcp__*', 'cursor'),
  toolAlias('beforeReadFile', 'tool:pre_execute', 'read', 'cursor'),
  toolAlias('afterFileEdit', 'tool:post_execute', 'edit|write', 'cursor'),
  alias('afterAgentResponse', 'llm:post_response', 'cursor'),
  alias('afterAgentThought', 'llm:thought', 'cursor'),
  // Cursor Tab (§6.3, §9.2): Tab reads a file for a completion / Tab's edit was accepted
  toolAlias('beforeTabFileRead', 'tool:pre_execute', 'read', 'cursor'),
  toolAlias('afterTabFileEdit', 'tool:post_execute', 'edit', 'cursor'),
  // GitHub Copilot (docs.github.com/en/copilot/reference/hooks-reference), camelCase; the names
  // it shares with Cursor are above
  alias('userPromptSubmitted', 'user:prompt_submit', 'copilot'),
  alias('agentStop', 'agent:stop', 'copilot'),
  alias('errorOccurred', 'agent:error', 'copilot'),
  alias('permissionRequest', 'permission:prompt', 'copilot'),
  alias('notification', 'notification', 'copilot'),
  // Windsurf Cascade (docs.windsurf.com/windsurf/cascade/hooks): snake_case, `agent_action_name`
  alias('pre_run_command', 'tool:pre_execute', 'windsurf'),
  alias('post_run_command', 'tool:post_execute', 'windsurf'),
  alias('pre_write_code', 'tool:pre_execute', 'windsurf'),
  alias('post_write_code', 'tool:post_execute', 'windsurf'),
  alias('pre_read_code', 'tool:pre_execute', 'windsurf'),
  alias('post_read_code', 'tool:post_execute', 'windsurf'),
  alias('pre_mcp_tool_use', 'tool:pre_execute', 'windsurf'),
  alias('post_mcp_tool_use', 'tool:post_execute', 'windsurf'),
  alias('pre_user_prompt', 'user:prompt_submit', 'windsurf'),
  alias('post_cascade_response', 'llm:post_response', 'windsurf'),
  // Mistral Vibe 2.18.4 (mistralai/mistral-vibe vibe/core/hooks/models.py HookType): three events,
  // renamed when hooks left experimental (2.21, docs.mistral.ai/vibe/code/cli/hooks)
  alias('before_tool', 'tool:pre_execute', 'vibe'),
  alias('after_tool', 'tool:post_execute', 'vibe'),
  alias('post_agent_turn', 'agent:stop', 'vibe'),
  alias('pre_tool', 'tool:pre_execute', 'vibe'),
  alias('post_tool', 'tool:post_execute', 'vibe'),
  alias('post_agent', 'agent:stop', 'vibe'),
  alias('post_setup_worktree', 'worktree:setup', 'windsurf'),
  // Kiro CLI (kiro.dev/docs/cli/hooks); preToolUse, postToolUse and stop are below
  alias('agentSpawn', 'agent:start', 'kiro'),
  alias('userPromptSubmit', 'user:prompt_submit', 'kiro'),
  // Kiro CLI v3's standalone hook files (kiro.dev/docs/cli/v3/hooks): PascalCase triggers; the ones
  // Claude Code has too are below (agentSpawn became SessionStart, fileEdited PostFileSave)
  alias('PreTaskExec', 'task:start', 'kiro'),
  alias('PostTaskExec', 'task:completed', 'kiro'),
  alias('PostFileCreate', 'file:created', 'kiro'),
  alias('PostFileSave', 'file:changed', 'kiro'),
  alias('PostFileDelete', 'file:deleted', 'kiro'),
  alias('Manual', 'user:trigger', 'kiro'),
  // Qwen Code's own (QwenLM/qwen-code docs/users/features/hooks.md); its Claude Code names are below
  // Auggie's name for UserPromptSubmit (@augmentcode/auggie 0.36.0); its other six are below
  alias('PromptSubmit', 'user:prompt_submit', 'auggie'),
  alias('SessionDelete', 'session:delete', 'qwen'),
  alias('TodoCreated', 'task:created', 'qwen'),
  alias('TodoCompleted', 'task:completed', 'qwen'),
  // Cline's hook files (cline/cline sdk/packages/core/src/hooks/hook-file-config.ts): a task is
  // one run of the agent; its PreToolUse, PostToolUse and UserPromptSubmit are below
  alias('TaskStart', 'session:start', 'cline'),
  alias('TaskResume', 'session:start', 'cline'),
  alias('TaskCancel', 'user:interrupt', 'cline'),
  alias('TaskComplete', 'agent:stop', 'cline'),
  alias('TaskError', 'agent:error', 'cline'),
  alias('SessionShutdown', 'session:end', 'cline'),
  // OpenCode (and Kilo Code, its fork): the plugin hooks and bus events hookrun's plugin forwards
  // (anomalyco/opencode packages/plugin/src/index.ts; src/install/opencode-plugin.ts)
  alias('tool.execute.before', 'tool:pre_execute', 'opencode'),
  alias('tool.execute.after', 'tool:post_execute', 'opencode'),
  alias('chat.message', 'user:prompt_submit', 'opencode'),
  alias('session.created', 'session:start', 'opencode'),
  alias('session.idle', 'agent:stop', 'opencode'),
  alias('session.compacted', 'context:post_compact', 'opencode'),
  alias('session.error', 'agent:error', 'opencode'),
]

// Built in one pass at start-up, which every event pays for (a loop, not a filter per row).
const SHARED_BY_NAME = sharedSources(SHARED_EVENT_NAMES)
// Aliases are looked up without regard to case: `pretooluse`, `PreToolUse` and `TOOL_START` all work.
const BY_ALIAS = new Map<string, string>()
const SUBJECTS = new Map<string, string>()
export const EVENT_ALIASES: readonly EventAlias[] = OWN_ALIASES.map((entry) => {
  const key = entry.alias.toLowerCase()
  BY_ALIAS.set(key, entry.canonical)
  if (entry.subject !== undefined) SUBJECTS.set(key, entry.subject)
  const more = SHARED_BY_NAME.get(entry.alias)
  return more === undefined ? entry : { ...entry, from: [...entry.from, ...more] }
})

const BY_NAME = new Map(CANONICAL_EVENTS.map((canonical) => [canonical.name, canonical]))

export function canonicalEvent(name: string): CanonicalEvent | undefined {
  return BY_NAME.get(name)
}

/**
 * The pattern a config entry written for an agent's event name stands for: the canonical name,
 * with the tool the event implies (`beforeShellExecution` → `tool:pre_execute:bash`); a name
 * hookrun does not know stays as it is.
 */
export function eventPattern(name: string): string {
  const canonical = resolveAlias(name)
  if (canonical === undefined) return name
  const subject = SUBJECTS.get(name.toLowerCase())
  return subject === undefined ? canonical : `${canonical}:${subject}`
}

/** The canonical name for an alias (any case), or undefined if `name` is not an alias. */
export function resolveAlias(name: string): string | undefined {
  return BY_ALIAS.get(name.toLowerCase())
}

/** Whether a failing blocking hook on this event blocks by default (see `gate`). */
export function isGate(name: string): boolean {
  return BY_NAME.get(name)?.gate ?? false
}

/** Whether a block means anything on this event (unknown events: yes, the agent decides). */
export function canBlock(name: string): boolean {
  return BY_NAME.get(name)?.canBlock ?? true
}

/** The name a given system uses for a canonical event (for example pigo's `tool_start`). */
export function aliasFor(canonical: string, source: AliasSource): string | undefined {
  return EVENT_ALIASES.find((entry) => entry.canonical === canonical && entry.from.includes(source))?.alias
}

let NAMES_BY_SOURCE: Map<AliasSource, Set<string>> | undefined

/**
 * Every event name a system uses, spelled as it spells it (`PreToolUse`, `beforeShellExecution`).
 * Every dialect asks at start-up: the index is built once, in one pass, on the first question.
 */
export function namesOf(source: AliasSource): ReadonlySet<string> {
  if (NAMES_BY_SOURCE === undefined) {
    NAMES_BY_SOURCE = new Map()
    for (const entry of EVENT_ALIASES) {
      for (const from of entry.from) {
        const names = NAMES_BY_SOURCE.get(from)
        if (names === undefined) NAMES_BY_SOURCE.set(from, new Set([entry.alias]))
        else names.add(entry.alias)
      }
    }
  }
  return NAMES_BY_SOURCE.get(source) ?? new Set()
}

/** Is this an event hookrun knows, by canonical name or alias? */
export function isKnownEvent(name: string): boolean {
  return BY_NAME.has(name) || BY_ALIAS.has(name.toLowerCase())
}
