// Cursor's dialect: its payloads in, its JSON answers and exit codes out.
import { spreadKeepingLongStrings } from '../payload/long-strings.ts'
import { agentOf, Answer, blockReason, carryFields, contextText, decided, jsonLine, objectFrom, ownEvent } from './shared.ts'
import type { AgentEvents, AgentTools, AnswerField, Dialect, Normalized } from './types.ts'
import { join } from 'node:path'
import { type InstallTarget, ROUTER_TIMEOUT_SECONDS } from './install.ts'
import type { Caller } from './callers.ts'
import type { ProjectScan, NativeConfig, HooksImport } from './native-config.ts'
import { fromGrok, grokEventName } from './grok-payload.ts'

const EVENTS = {
  sessionStart: 'session:start',
  sessionEnd: 'session:end',
  preToolUse: 'tool:pre_execute',
  postToolUse: 'tool:post_execute',
  postToolUseFailure: 'tool:error',
  subagentStart: 'subagent:start',
  subagentStop: 'subagent:stop',
  preCompact: 'context:pre_compact',
  stop: 'agent:stop',
  beforeSubmitPrompt: 'user:prompt_submit',
  beforeShellExecution: { event: 'tool:pre_execute', subject: 'bash' },
  afterShellExecution: { event: 'tool:post_execute', subject: 'bash' },
  beforeMCPExecution: { event: 'tool:pre_execute', subject: 'mcp__*' },
  afterMCPExecution: { event: 'tool:post_execute', subject: 'mcp__*' },
  beforeReadFile: { event: 'tool:pre_execute', subject: 'read' },
  afterFileEdit: { event: 'tool:post_execute', subject: 'edit|write' },
  afterAgentResponse: 'llm:post_response',
  afterAgentThought: 'llm:thought',
  beforeTabFileRead: { event: 'tool:pre_execute', subject: 'read' },
  afterTabFileEdit: { event: 'tool:post_execute', subject: 'edit' },
} as const satisfies AgentEvents

const TOOLS: AgentTools = {
  Shell: 'bash',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  StrReplace: 'edit',
  Delete: 'delete',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'ls',
  WebFetch: 'webfetch',
  WebSearch: 'websearch',
  Task: 'agent',
}

/**
 * Cursor (cursor.com/docs/agent/hooks; cross-checked against eqtylab cupcake and CorridorSecurity
 * hookshot): `hook_event_name` in camelCase with `cursor_version`. Answers are one JSON object on
 * exit 0, on every path (no opinion is `{}`). Permission events take `permission` (`ask` only on
 * beforeShellExecution and beforeMCPExecution) with `user_message` and `agent_message`;
 * beforeSubmitPrompt `continue`; stop and subagentStop `followup_message` (sent as the next
 * message, so the agent goes on).
 */
const CURSOR_EVENTS = new Set<string>(Object.keys(EVENTS))

const PERMISSION_EVENTS = new Set([
  'preToolUse',
  'beforeShellExecution',
  'beforeMCPExecution',
  'beforeReadFile',
  'beforeTabFileRead',
  'subagentStart',
])
const ASK_EVENTS = new Set(['beforeShellExecution', 'beforeMCPExecution'])
const CONTEXT_EVENTS = new Set(['sessionStart', 'postToolUse'])
const FOLLOWUP_EVENTS = new Set(['stop', 'subagentStop'])
/** Events with a message for the person at the keyboard. */
const USER_MESSAGE_EVENTS = new Set([...PERMISSION_EVENTS, 'beforeSubmitPrompt', 'preCompact'])

/** The tool behind Cursor's tool-specific events, as its generic preToolUse names it. */
const EVENT_TOOLS: Readonly<Record<string, string>> = {
  beforeShellExecution: 'Shell',
  afterShellExecution: 'Shell',
  beforeReadFile: 'Read',
  afterFileEdit: 'Edit',
  beforeTabFileRead: 'Read',
  afterTabFileEdit: 'Edit',
}

export const cursor: Dialect = {
  name: 'cursor',
  // It takes none of the fields hookrun carries (toolConfig, llm_request, updatedMCPToolOutput, …).
  carries: [],
  label: 'Cursor',
  source: 'cursor',
  project: { variables: ['CURSOR_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'], payloadField: 'workspace_roots' },
  // `user_message` where the event has one, else the model's context (sessionStart, postToolUse).
  notices: ['systemMessage', 'additionalContext'],
  detectMarks: ['cursor_version', 'hook_event_name'],
  detect: (payload) =>
    typeof payload.cursor_version === 'string' ||
    (typeof payload.hook_event_name === 'string' && CURSOR_EVENTS.has(payload.hook_event_name)),
  // Grok Build runs Cursor's entries with its own payload: its event, in Cursor's name.
  eventName: (payload) =>
    typeof payload.hook_event_name === 'string'
      ? payload.hook_event_name
      : fromGrok(payload)
        ? cursorName(grokEventName(payload))
        : undefined,
  normalize(payload, agentEvent): Normalized {
    const tool = agentEvent === undefined ? undefined : EVENT_TOOLS[agentEvent]
    // Cursor sends tool_input as a JSON string: hooks (and HOOKRUN_BASH_COMMAND, and gates that
    // read the command) must see the object, or a command would slip past them.
    if (typeof payload.tool_input === 'string') {
      const parsed = objectFrom(payload.tool_input)
      if (parsed !== undefined) return { tool, payload: spreadKeepingLongStrings(payload, { tool_input: parsed }) }
    }
    if (tool === undefined || 'tool_input' in payload) return { tool, payload }
    // The shell and file events carry the command or path at the top level; hooks and `if`
    // rules read them from tool_input, as they do for every other agent.
    const input =
      tool === 'Shell'
        ? { command: payload.command, ...(payload.cwd !== undefined && { cwd: payload.cwd }) }
        : { file_path: payload.file_path, ...(payload.edits !== undefined && { edits: payload.edits }) }
    return { tool, payload: spreadKeepingLongStrings(payload, { tool_input: input }) }
  },
  render(decision, payload, agentEvent) {
    const event = ownEvent(payload, agentEvent, CURSOR_EVENTS) ?? 'preToolUse'
    const answer = new Answer('Cursor', event)
    const out: Record<string, unknown> = {}
    const context = contextText(decision)

    if (PERMISSION_EVENTS.has(event)) {
      if (decided(decision)) {
        let permission = decision.decision
        if (permission === 'ask' && !ASK_EVENTS.has(event)) {
          answer.cannot("permission 'ask'", 'answered deny: a hook wanted a person to confirm')
          permission = 'deny'
        }
        out.permission = permission
        if (permission !== 'allow') {
          out.user_message = blockReason(decision)
          out.agent_message = blockReason(decision)
        }
      }
      answer.take('updatedInput', decision.updatedInput, event === 'preToolUse', (input) => (out.updated_input = input))
    } else {
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
      if (event === 'beforeSubmitPrompt' && (decision.blocked || decision.decision === 'ask' || !decision.continue)) {
        if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'the prompt was stopped: a hook wanted a person to confirm')
        out.continue = false
        out.user_message = decision.reason ?? decision.stopReason ?? blockReason(decision)
      } else if (decision.blocked && FOLLOWUP_EVENTS.has(event)) {
        out.followup_message = blockReason(decision)
      } else if (decision.blocked && event === 'postToolUse') {
        answer.cannot('a block', 'the tool already ran; the reason goes to the model as additional_context')
      } else if (decision.blocked) {
        answer.cannot('a block', 'the event proceeds')
      } else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
    }
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Cursor cannot rewrite a prompt')
    const forModel = [context, event === 'postToolUse' && decision.blocked ? decision.reason : undefined].filter(Boolean).join('\n\n')
    answer.take('additionalContext', forModel || undefined, CONTEXT_EVENTS.has(event), (text) => (out.additional_context = text))
    if (!decision.continue && event !== 'beforeSubmitPrompt') answer.cannot('continue: false', 'the agent goes on')
    if (decision.systemMessage !== undefined) {
      if (USER_MESSAGE_EVENTS.has(event)) out.user_message = [out.user_message, decision.systemMessage].filter(Boolean).join('\n')
      else answer.cannot('systemMessage')
    }
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    for (const field of carryFields(decision, event, [], () => {})) answer.cannot(field)
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

/** Claude Code's name of an event (Grok's, read from its payload) as Cursor's. */
function cursorName(event: string | undefined): string | undefined {
  if (event === undefined) return undefined
  if (event === 'UserPromptSubmit') return 'beforeSubmitPrompt'
  const camel = event.charAt(0).toLowerCase() + event.slice(1)
  return CURSOR_EVENTS.has(camel) ? camel : undefined
}

const CURSOR_SPECIFIC =
  'preToolUse / postToolUse already fire for this tool; a second entry would run your hooks twice (hookrun --format cursor still reads it if you wire it by hand)'

const cursorInstall: InstallTarget = {
  file: (scope, places) => join(scope === 'user' ? join(places.home, '.cursor') : join(places.project, '.cursor'), 'hooks.json'),
  shape: 'flat',
  header: { version: 1 },
  skipped: {
    beforeShellExecution: CURSOR_SPECIFIC,
    afterShellExecution: CURSOR_SPECIFIC,
    beforeMCPExecution: CURSOR_SPECIFIC,
    afterMCPExecution: CURSOR_SPECIFIC,
    beforeReadFile: CURSOR_SPECIFIC,
    afterFileEdit: CURSOR_SPECIFIC,
  },
  handler: (command) => ({ command, timeout: ROUTER_TIMEOUT_SECONDS }),
  timeout: { field: 'timeout', perSecond: 1 },
}

/** Cursor runs Claude Code's entries too (hookrun's Claude Code entry tells it apart: src/agents/callers.ts). */
const RUNS_CLAUDE: Caller = {
  when: 'third-party hooks setting on',
  // Cursor's payloads carry cursor_version and conversation_id; Claude Code's never do. (Not
  // CURSOR_VERSION: Claude Code started in Cursor's terminal may inherit it, and its gates must still run.)
  detect: (payload) => typeof payload.cursor_version === 'string' || typeof payload.conversation_id === 'string',
  marks: { fields: ['cursor_version', 'conversation_id'] },
  ownAnswer: { kind: 'reader-entry' },
  project: { variables: ['CURSOR_PROJECT_DIR'], payloadField: 'workspace_roots' },
  // Every matching hook from every source, once "third-party configs" is on.
  files: (places) => [
    { file: join(places.project, '.claude', 'settings.local.json'), scope: 'project' },
    { file: join(places.project, '.claude', 'settings.json'), scope: 'project' },
    { file: join(places.env.CLAUDE_CONFIG_DIR || join(places.home, '.claude'), 'settings.json'), scope: 'user' },
  ],
  source: 'cursor.com/docs/reference/third-party-hooks',
}

const CURSOR_SCAN: ProjectScan = {
  projectVariables: ['CURSOR_PROJECT_DIR'],
  sources: [
    {
      path: '.cursor/hooks.json',
      reader: 'events',
      agents: ['Cursor', 'Grok Build'],
      owners: ['cursor', 'grok'],
      importAgent: 'cursor',
      hookrunFile: true,
    },
  ],
}

/** How Cursor's own file reads (agent-hook-protocols.md §6.3, §9.2): handlers flat under each event, beside `version`; hookrun's default timeout. */
const CURSOR_NATIVE: NativeConfig = {
  answersOnExitZero: true,
  reader: 'versioned',
  // Cursor sets Claude Code's name too.
  handlerVariables: ['CURSOR_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  pasted: { versioned: true },
}

/** How `hookrun import` moves Cursor's handlers: Cursor runs user-level hooks in ~/.cursor, where their relative paths point. */
const CURSOR_IMPORT: HooksImport = {
  stays: (handler) =>
    handler.loop_limit !== undefined ? "its loop_limit caps Cursor's own follow-ups; the router entry could not carry it" : undefined,
  userHooksRunInFileFolder: true,
}

/** Cursor's answer fields, read as hookrun's wherever a hook written for Cursor runs. */
const CURSOR_ANSWER_FIELDS: readonly AnswerField[] = [
  // Permission events answer `permission` with a message for the agent and one for the user.
  { field: 'permission', to: 'decision', reasons: ['agentMessage', 'agent_message', 'userMessage', 'user_message'] },
  { field: 'agentMessage', to: 'reason' },
  { field: 'agent_message', to: 'reason' },
  // stop / subagentStop: a follow-up message makes the agent go on, which is a block on agent:stop.
  { field: 'followup_message', to: 'decision', always: 'deny', reasons: ['followup_message'] },
  { field: 'followup_message', to: 'reason' },
  { field: 'additional_context', to: 'additionalContext' },
  { field: 'updated_input', to: 'updatedInput' },
]

export const cursorAgent = agentOf(cursor, {
  answerFields: CURSOR_ANSWER_FIELDS,
  events: EVENTS,
  tools: TOOLS,
  install: cursorInstall,
  caller: RUNS_CLAUDE,
  // Grok Build runs a project's .cursor/hooks.json (docs.x.ai; src/agents/grok.ts).,
  callers: ['grok'],
  scan: CURSOR_SCAN,
  nativeConfig: CURSOR_NATIVE,
  hooksImport: CURSOR_IMPORT,
  pluginLayout: { manifest: ['.cursor-plugin', 'plugin.json'], rootVariables: ['CURSOR_PLUGIN_ROOT'], runsInPluginFolder: true },
})
