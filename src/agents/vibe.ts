import { Answer, blockReason, contextText, jsonLine } from './shared.ts'
import type { Agent, AgentEvents, AgentTools, Dialect } from './types.ts'
import type { ProjectScan } from './native-config.ts'

/** Mistral Vibe's hook events, in its own spelling, and hookrun's event for each (the first name of an event is the one hookrun answers as). */
const EVENTS = {
  before_tool: 'tool:pre_execute',
  after_tool: 'tool:post_execute',
  post_agent_turn: 'agent:stop',
  pre_tool: 'tool:pre_execute',
  post_tool: 'tool:post_execute',
  post_agent: 'agent:stop',
} as const satisfies AgentEvents

/** Mistral Vibe's tool names and hookrun's subject for each. */
const TOOLS: AgentTools = {
  bash: 'bash',
  write_file: 'write',
  edit: 'edit',
  grep: 'grep',
  web_fetch: 'webfetch',
  web_search: 'websearch',
  task: 'agent',
  read: 'read',
  todo: 'todo',
}

/**
 * Mistral Vibe (mistralai/mistral-vibe 2.18.4, `vibe/core/hooks/`; shared reference §10.7): hooks
 * are `[[hooks]]` tables (`name`, `type`, `command`, `match`, `timeout`, `strict`) in
 * `<project>/.vibe/hooks.toml` (trusted folders only) and `~/.vibe/hooks.toml`, read only with
 * `enable_experimental_hooks`. Three events, named in `hook_event_name`: `before_tool`,
 * `after_tool`, `post_agent_turn`; payloads carry `session_id`, `transcript_path`, `cwd` and the
 * tool's `tool_name`, `tool_call_id`, `tool_input` (after_tool: `tool_status`, `tool_output_text`,
 * `tool_error`, …). Not run in the agent lab (PyPI is out of reach): from its source.
 *
 * The answer is exit 0 and `{decision: allow | deny, reason, system_message,
 * hook_specific_output: {tool_input, additional_context}}`: on before_tool a deny is the tool's
 * error for the model and `tool_input` replaces the input (validated again by Vibe); on after_tool
 * a deny replaces the output the model sees with `reason` and `additional_context` is appended to
 * it; on post_agent_turn a deny sends `reason` as a new user message (at most 3 times a turn).
 * `system_message` is shown to the person. Anything else a hook does (another exit code, stdout
 * that is not that JSON, a timeout) is a failure: a warning, or a deny for a tool hook marked
 * `strict`, which hookrun's entries are.
 *
 * Vibe 2.21 took hooks out of experimental (no `enable_experimental_hooks`) and renamed the events
 * `pre_tool`, `post_tool`, `post_agent`, rejecting the old names; subagents inherit the hooks
 * (docs.mistral.ai/vibe/code/cli/hooks; the version is from a survey, not the docs). Both spellings
 * are read here; install writes the ones the user's Vibe reads (src/install/agent-formats.ts).
 */
const VIBE_EVENTS = new Set<string>(Object.keys(EVENTS))
/** The names before 2.21 and after, one event each. */
const CURRENT_NAME: Readonly<Record<string, string>> = { before_tool: 'pre_tool', after_tool: 'post_tool', post_agent_turn: 'post_agent' }

export const vibe: Dialect = {
  name: 'vibe',
  label: 'Mistral Vibe',
  source: 'vibe',
  // Vibe names no project variable: its hooks get the session's folder in `cwd`.
  project: { variables: [], payloadField: 'cwd' },
  detect: (payload) => typeof payload.hook_event_name === 'string' && VIBE_EVENTS.has(payload.hook_event_name),
  eventName: (payload) => (typeof payload.hook_event_name === 'string' ? payload.hook_event_name : undefined),
  render(decision, payload, agentEvent) {
    const named = agentEvent ?? payload.hook_event_name
    const asNamed = typeof named === 'string' && VIBE_EVENTS.has(named) ? named : 'pre_tool'
    const answer = new Answer('Mistral Vibe', asNamed)
    const event = CURRENT_NAME[asNamed] ?? asNamed
    const out: Record<string, unknown> = {}
    const specific: Record<string, unknown> = {}
    if (decision.blocked) {
      out.decision = 'deny'
      out.reason = blockReason(decision)
    } else if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'the call goes ahead')
    if (decision.updatedInput !== undefined) {
      if (event === 'pre_tool' && !decision.blocked) specific.tool_input = decision.updatedInput
      else if (event !== 'pre_tool') answer.cannot('updatedInput')
    }
    const context = contextText(decision)
    if (context !== undefined) {
      if (event === 'post_tool') specific.additional_context = context
      else answer.cannot('additionalContext')
    }
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt')
    if (!decision.continue) answer.cannot('continue: false', 'the agent goes on')
    if (decision.systemMessage !== undefined) out.system_message = decision.systemMessage
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    if (Object.keys(specific).length > 0) out.hook_specific_output = specific
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

/** The files of a project Mistral Vibe reads hooks from (`hookrun scan`; shared/reference/agent-hook-protocols.md §6, §9–§11). */
const VIBE_SCAN: ProjectScan = {
  sources: [{ path: '.vibe/hooks.toml', reader: 'toml-tables', agents: ['Mistral Vibe'], owners: ['vibe'], hookrunFile: true }],
}

export const vibeAgent: Agent = {
  name: vibe.name,
  label: vibe.label,
  events: EVENTS,
  tools: TOOLS,
  dialect: vibe,
  scan: VIBE_SCAN,
}
