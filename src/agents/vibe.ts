import { agentOf, Answer, blockReason, contextText, hookEventName, jsonLine, knownEvent } from './shared.ts'
import type { AgentEvents, AgentTools, Dialect } from './types.ts'
import { join } from 'node:path'
import { type InstallTarget, type Places, ROUTER_TIMEOUT_SECONDS, type Scope } from './install.ts'
import type { ProjectScan } from './native-config.ts'

const EVENTS = {
  before_tool: 'tool:pre_execute',
  after_tool: 'tool:post_execute',
  post_agent_turn: 'agent:stop',
  pre_tool: 'tool:pre_execute',
  post_tool: 'tool:post_execute',
  post_agent: 'agent:stop',
} as const satisfies AgentEvents

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
 * Mistral Vibe (mistralai/mistral-vibe 2.18.4 `vibe/core/hooks/`; from its source): `[[hooks]]` in
 * `.vibe/hooks.toml`. Its answer is exit 0 and `{decision: allow | deny, reason, system_message,
 * hook_specific_output: {tool_input, additional_context}}`: on before_tool a deny is the tool's
 * error and `tool_input` replaces the input; on after_tool a deny replaces the output and
 * `additional_context` is appended; on post_agent_turn a deny is a new user message. Anything else
 * is a failure, a deny for a `strict` tool hook (hookrun's are). Vibe 2.21 renamed the events
 * `pre_tool`, `post_tool`, `post_agent` (docs.mistral.ai/vibe/code/cli/hooks): both are read.
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
  detectMarks: ['hook_event_name'],
  detect: (payload) => typeof payload.hook_event_name === 'string' && VIBE_EVENTS.has(payload.hook_event_name),
  eventName: hookEventName,
  render(decision, payload, agentEvent) {
    const asNamed = knownEvent(agentEvent ?? payload.hook_event_name, VIBE_EVENTS, 'pre_tool')
    const answer = new Answer('Mistral Vibe', asNamed)
    const event = CURRENT_NAME[asNamed] ?? asNamed
    const out: Record<string, unknown> = {}
    const specific: Record<string, unknown> = {}
    if (decision.blocked) {
      out.decision = 'deny'
      out.reason = blockReason(decision)
    } else if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'the call goes ahead')
    answer.rewrite(decision, 'updatedInput', event === 'pre_tool', (input) => (specific.tool_input = input))
    answer.take('additionalContext', contextText(decision), event === 'post_tool', (context) => (specific.additional_context = context))
    answer.cannotTake(decision, ['updatedPrompt', 'continue'])
    if (decision.systemMessage !== undefined) out.system_message = decision.systemMessage
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    if (Object.keys(specific).length > 0) out.hook_specific_output = specific
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

function vibeFile(scope: Scope, places: Places): string {
  return join(scope === 'user' ? places.env.VIBE_HOME || join(places.home, '.vibe') : join(places.project, '.vibe'), 'hooks.toml')
}

/** hookrun's `[[hooks]]` table for one of Vibe's events; every one but the turn's end is `strict`. */
function vibeTable(turnEnd: string) {
  return (event: string, command: string) => ({
    name: `hookrun-${event}`,
    type: event,
    command,
    timeout: ROUTER_TIMEOUT_SECONDS,
    ...(event !== turnEnd && { strict: true }),
  })
}

/** Mistral Vibe before 2.21: experimental hooks with the old event names (install --agent-format legacy). */
const VIBE_EXPERIMENTAL: InstallTarget = {
  file: vibeFile,
  format: 'toml',
  tomlTable: vibeTable('post_agent_turn'),
  tomlEventKey: 'type',
  shape: 'flat',
  events: ['before_tool', 'after_tool', 'post_agent_turn'],
  handler: (command) => ({ command, timeout: ROUTER_TIMEOUT_SECONDS }),
  note: "Vibe before 2.21 runs hooks only with enable_experimental_hooks = true in ~/.vibe/config.toml (or VIBE_ENABLE_EXPERIMENTAL_HOOKS=true), and a project's .vibe/hooks.toml only in a folder it trusts; from its 2.18.4 source, not the agent lab",
  appliesOnly: {
    when: 'only when Vibe runs with enable_experimental_hooks = true (in ~/.vibe/config.toml, or VIBE_ENABLE_EXPERIMENTAL_HOOKS=true); a project file only in a folder Vibe trusts',
    fix: 'add enable_experimental_hooks = true to ~/.vibe/config.toml',
  },
}

/** Mistral Vibe's hooks config for `hookrun install` (src/agents/install.ts): 2.21's, and as `legacy` the one before. */
const vibeInstall: InstallTarget = {
  // docs.mistral.ai/vibe/code/cli/hooks (Vibe 2.21: hooks out of experimental, events renamed, the
  // old names refused); mistralai/mistral-vibe 2.18.4 (vibe/core/config/harness_files,
  // vibe/core/paths): .vibe/hooks.toml in a trusted project, and hooks.toml in $VIBE_HOME (~/.vibe).
  file: vibeFile,
  format: 'toml',
  // Names are unique across Vibe's files (a second `hookrun-pre_tool` is skipped: hooks run
  // once); `strict`: a tool hook that fails (hookrun killed, a crash) denies instead of warning.
  tomlTable: vibeTable('post_agent'),
  tomlEventKey: 'type',
  shape: 'flat',
  events: ['pre_tool', 'post_tool', 'post_agent'],
  handler: (command) => ({ command, timeout: ROUTER_TIMEOUT_SECONDS }),
  note: "Vibe 2.21 runs hooks with no setting (subagents too), and a project's .vibe/hooks.toml only in a folder it trusts; from its docs, not the agent lab",
  appliesOnly: {
    when: 'a project file only in a folder Vibe trusts; before Vibe 2.21, only with enable_experimental_hooks = true (in ~/.vibe/config.toml, or VIBE_ENABLE_EXPERIMENTAL_HOOKS=true)',
    fix: 'trust the folder in Vibe; before 2.21, add enable_experimental_hooks = true to ~/.vibe/config.toml',
  },
  legacy: VIBE_EXPERIMENTAL,
  versions: {
    program: 'vibe',
    current: 'the event names Vibe 2.21 reads (pre_tool, post_tool, post_agent)',
    legacy: 'the event names Vibe reads before 2.21 (before_tool, after_tool, post_agent_turn)',
    older: 'Vibe before 2.21',
    since: [2, 21, 0],
    old: 'reads the event names before 2.21 (install again after upgrading Vibe)',
  },
}

const VIBE_SCAN: ProjectScan = {
  sources: [{ path: '.vibe/hooks.toml', reader: 'toml-tables', agents: ['Mistral Vibe'], owners: ['vibe'], hookrunFile: true }],
}

export const vibeAgent = agentOf(vibe, { events: EVENTS, tools: TOOLS, install: vibeInstall, scan: VIBE_SCAN })
