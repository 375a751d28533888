// Hermes Agent (NousResearch): shell hooks under `hooks:` in its config.yaml, snake_case events,
// only pre_tool_call blocks; hookrun's entries there fail closed.
import { agentOf, Answer, blockReason, contextText, jsonLine } from './shared.ts'
import type { AgentEvents, AgentTools, Dialect } from './types.ts'
import { homeOr, type InstallTarget } from './install.ts'
import { join } from 'node:path'

/**
 * Hermes Agent's hook events that shell hooks take (`VALID_HOOKS` in hermes_cli/plugins.py, less
 * the Python-plugin-only ones; NousResearch/hermes-agent agent/shell_hooks.py), and hookrun's
 * event for each. pre_llm_call runs before each model call, with the user's message: where its
 * context goes. pre_verify runs before the agent reports a task done, and can send it back to work.
 */
const EVENTS = {
  pre_tool_call: 'tool:pre_execute',
  post_tool_call: 'tool:post_execute',
  pre_llm_call: 'llm:pre_request',
  post_llm_call: 'llm:post_response',
  on_session_start: 'session:start',
  on_session_end: 'session:end',
  subagent_start: 'subagent:start',
  subagent_stop: 'subagent:stop',
  pre_verify: 'agent:stop',
} as const satisfies AgentEvents

/** Its file tools (tools/file_tools.py) and its shell (`terminal`). */
const TOOLS: AgentTools = {
  terminal: 'bash',
  read_file: 'read',
  write_file: 'write',
  patch: 'edit',
  search_files: 'grep',
}

const HERMES_EVENTS = new Set<string>(Object.keys(EVENTS))
/** Hermes kills a shell hook after its timeout, at most 300 s (MAX_TIMEOUT_SECONDS). */
const HERMES_MAX_TIMEOUT = 300

/**
 * Hermes Agent (agent/shell_hooks.py `_parse_response`): JSON on stdout. pre_tool_call takes
 * `{"decision": "block", "reason"}` or `{"decision": "modify", "tool_input"}` (merged over the
 * arguments), no allow or ask; pre_verify's block sends the agent back to work; other events take
 * `{"context"}`, which reaches the model on pre_llm_call. A crash, timeout or non-JSON stdout lets
 * the call through unless the entry says `fail_closed` (pre_tool_call only), as hookrun's does.
 */
export const hermes: Dialect = {
  name: 'hermes',
  label: 'Hermes Agent',
  source: 'hermes',
  carries: [],
  project: { variables: [], payloadField: 'cwd' },
  killsAfterSeconds: HERMES_MAX_TIMEOUT,
  caveats: [
    'only pre_tool_call can block a tool call; pre_verify can send the agent back to work',
    'a rewrite is merged over the tool arguments: a field the rewrite leaves out keeps its old value',
    "a hook's allow is not a grant: Hermes has none, its own approval still runs",
    "Hermes asks before it runs a new hook command: run it once at a terminal to approve hookrun's entries, or give non-interactive runs --accept-hooks or HERMES_ACCEPT_HOOKS=1; until then it skips them without a word",
    'from its source (agent/shell_hooks.py), not the agent lab (it installs from PyPI only, which cannot be reached here)',
  ],
  // Hermes' payload carries its `profile` and an `extra` object; no other agent's does.
  detectMarks: ['profile'],
  detect: (payload) =>
    typeof payload.hook_event_name === 'string' &&
    HERMES_EVENTS.has(payload.hook_event_name) &&
    'profile' in payload &&
    typeof payload.extra === 'object',
  eventName: (payload) =>
    typeof payload.hook_event_name === 'string' && HERMES_EVENTS.has(payload.hook_event_name) ? payload.hook_event_name : undefined,
  render(decision, payload, agentEvent) {
    const event = agentEvent ?? hermes.eventName(payload) ?? 'pre_tool_call'
    const answer = new Answer('Hermes Agent', event)
    const out: Record<string, unknown> = {}
    if (event === 'pre_tool_call') {
      if (decision.blocked || decision.decision === 'deny' || decision.decision === 'ask') {
        if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'answered block: a hook wanted a person to confirm')
        out.decision = 'block'
        out.reason = blockReason(decision)
      } else if (decision.updatedInput !== undefined) {
        out.decision = 'modify'
        out.tool_input = decision.updatedInput
      }
    } else if (event === 'pre_verify' && decision.blocked) {
      out.decision = 'block'
      out.reason = blockReason(decision)
    } else {
      if (decision.blocked) answer.cannot('a block', 'the event proceeds')
      else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
    }
    answer.take('additionalContext', contextText(decision), event === 'pre_llm_call', (context) => (out.context = context))
    answer.cannotTake(decision, ['updatedPrompt', 'continue', 'systemMessage', 'suppressOutput'])
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

/** Hermes Agent's hooks for `hookrun install` (src/install/yaml-hooks.ts edits the YAML). */
const hermesInstall: InstallTarget = {
  // hermes_constants.get_hermes_home: $HERMES_HOME, else ~/.hermes (one per profile).
  file: (_scope, places) => join(homeOr(places, 'HERMES_HOME', '.hermes'), 'config.yaml'),
  format: 'yaml',
  userOnly: true,
  shape: 'flat',
  comments: true,
  // Seconds, at most 300 (shell_hooks.py); a gate fails closed: a timeout, a crash or no JSON blocks.
  handler: (command, event) => ({
    command,
    timeout: HERMES_MAX_TIMEOUT,
    ...(event === 'pre_tool_call' && { fail_closed: true }),
  }),
  timeout: { field: 'timeout', perSecond: 1 },
  note: "Hermes runs a new hook command only once approved: start hermes once at a terminal and approve hookrun's entries, or give non-interactive runs --accept-hooks or HERMES_ACCEPT_HOOKS=1 (hooks_auto_accept: true in config.yaml); until then Hermes skips them without a word",
}

export const hermesAgent = agentOf(hermes, { events: EVENTS, tools: TOOLS, install: hermesInstall })
