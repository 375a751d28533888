// Gemini CLI's dialect: its payloads in, its JSON answers and exit codes out.
import { agentOf, Answer, blockReason, carryFields, contextText, decided, hookEventName, jsonLine, ownEvent } from './shared.ts'
import type { AgentEvents, AgentTools, CarriedRow, Dialect } from './types.ts'
import { join } from 'node:path'
import { homeOr, type InstallTarget, STREAMING, commandHandler } from './install.ts'
import type { ProjectScan, NativeConfig, HooksImport } from './native-config.ts'
import type { HttpHooks } from './serve.ts'

const EVENTS = {
  Notification: 'notification',
  SessionStart: 'session:start',
  SessionEnd: 'session:end',
  BeforeTool: 'tool:pre_execute',
  AfterTool: 'tool:post_execute',
  BeforeAgent: 'user:prompt_submit',
  AfterAgent: 'agent:stop',
  BeforeModel: 'llm:pre_request',
  AfterModel: 'llm:post_response',
  BeforeToolSelection: 'llm:tool_selection',
  PreCompress: 'context:pre_compact',
} as const satisfies AgentEvents

const TOOLS: AgentTools = {
  run_shell_command: 'bash',
  read_file: 'read',
  read_many_files: 'read',
  write_file: 'write',
  replace: 'edit',
  glob: 'glob',
  grep_search: 'grep',
  search_file_content: 'grep',
  list_directory: 'ls',
  web_fetch: 'webfetch',
  google_web_search: 'websearch',
  delegate_to_agent: 'agent',
  write_todos: 'todo',
  ask_user: 'ask',
  save_memory: 'memory',
}

/**
 * Gemini CLI (google-gemini/gemini-cli docs/hooks/reference.md). Payloads carry a PascalCase
 * `hook_event_name` and an ISO `timestamp`; SessionStart, SessionEnd and Notification are Claude
 * Code's names too, so only a Gemini-only name or that `timestamp` means Gemini. Answers are JSON on
 * exit 0: `decision`, `reason`, `continue` + `stopReason`, `systemMessage`, `suppressOutput`;
 * BeforeTool's `hookSpecificOutput.tool_input` merges over the arguments; a deny on AfterAgent makes
 * the agent retry with `reason`; BeforeToolSelection takes none of the common fields.
 */
const GEMINI_EVENTS = new Set<string>(Object.keys(EVENTS))
/** The names Gemini shares with Claude Code: Gemini's only when the payload has its `timestamp`. */
const SHARED = new Set(['SessionStart', 'SessionEnd', 'Notification'])

const DECISION_EVENTS = new Set(['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel'])
const CONTEXT_EVENTS = new Set(['AfterTool', 'BeforeAgent', 'SessionStart'])
/** Events where `continue: false` stops the agent loop; elsewhere flow control is ignored. */
const FLOW_EVENTS = DECISION_EVENTS

/**
 * BeforeToolSelection answers `toolConfig {mode, allowedFunctionNames}`; BeforeModel may send a
 * request to use instead (`llm_request`) or a response that skips the model (`llm_response`);
 * AfterModel may replace the response (§6.1, §9.5).
 */
const GEMINI_CARRIES: readonly CarriedRow[] = [
  { field: 'toolConfig', events: ['BeforeToolSelection'], key: 'toolConfig' },
  { field: 'llmRequest', events: ['BeforeModel'], key: 'llm_request' },
  { field: 'llmResponse', events: ['BeforeModel', 'AfterModel'], key: 'llm_response' },
]

export const gemini: Dialect = {
  name: 'gemini',
  carries: GEMINI_CARRIES,
  label: 'Gemini CLI',
  source: 'gemini',
  project: { variables: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'] },
  // `mcp_<server>_<tool>`, and the exact parts in `mcp_context` when the server is in its settings (0.61.0).
  mcpNaming: { prefix: 'mcp_', separator: '_' },
  mcpCall(payload) {
    const context = payload.mcp_context as { server_name?: unknown; tool_name?: unknown } | null | undefined
    const server = context?.server_name
    const tool = context?.tool_name
    return typeof server === 'string' && server !== '' && typeof tool === 'string' && tool !== '' ? { server, tool } : undefined
  },
  detectMarks: ['hook_event_name'],
  detect(payload) {
    const event = payload.hook_event_name
    if (typeof event !== 'string' || !GEMINI_EVENTS.has(event)) return false
    return !SHARED.has(event) || typeof payload.timestamp === 'string'
  },
  eventName: hookEventName,
  render(decision, payload, agentEvent) {
    const event = ownEvent(payload, agentEvent, GEMINI_EVENTS) ?? 'BeforeTool'
    const answer = new Answer('Gemini CLI', event)
    const out: Record<string, unknown> = {}
    const specific: Record<string, unknown> = { hookEventName: event }

    if (event === 'BeforeTool') {
      if (decided(decision)) {
        out.decision = decision.decision
        if (decision.decision !== 'allow') out.reason = blockReason(decision)
      }
      if (decision.updatedInput !== undefined) specific.tool_input = decision.updatedInput
    } else {
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
      if ((decision.blocked || decision.decision === 'ask') && DECISION_EVENTS.has(event)) {
        if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'answered deny: a hook wanted a person to confirm')
        out.decision = 'deny'
        out.reason = blockReason(decision)
      } else if (decision.blocked) {
        answer.cannot('a block', decision.reason === undefined ? 'the event proceeds' : 'reported as a system message')
        if (decision.reason !== undefined && event !== 'BeforeToolSelection') out.systemMessage = decision.reason
      } else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
    }
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Gemini CLI cannot rewrite a prompt')
    answer.take('additionalContext', contextText(decision), CONTEXT_EVENTS.has(event), (context) => (specific.additionalContext = context))
    if (!decision.continue) {
      if (FLOW_EVENTS.has(event)) {
        out.continue = false
        if (decision.stopReason !== undefined) out.stopReason = decision.stopReason
      } else answer.cannot('continue: false', 'the agent goes on')
    }
    if (decision.systemMessage !== undefined) {
      if (event === 'BeforeToolSelection') answer.cannot('systemMessage')
      else out.systemMessage = [out.systemMessage, decision.systemMessage].filter(Boolean).join('\n')
    }
    if (decision.suppressOutput) {
      if (event === 'BeforeToolSelection') answer.cannot('suppressOutput')
      else out.suppressOutput = true
    }
    for (const field of carryFields(decision, event, GEMINI_CARRIES, (key, value) => (specific[key] = value))) answer.cannot(field)
    if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

const geminiInstall: InstallTarget = {
  file: (scope, places) => join(scope === 'user' ? homeOr(places, 'GEMINI_CLI_HOME', '') : places.project, '.gemini', 'settings.json'),
  shape: 'groups',
  comments: true,
  skipped: { AfterModel: STREAMING },
  // Gemini's timeout is in milliseconds; `name` is what `/hooks disable` takes.
  ...commandHandler(1000, 'hookrun'),
  toolMatchers: true,
  // Seen in the agent lab (0.61): hooks run with no setting at all (hooksConfig.enabled defaults
  // to true); headless, an untrusted folder stops Gemini before any model request.
  note: 'Gemini CLI runs hooks only in a folder it trusts, and not when hooksConfig.enabled is false in its settings (on by default)',
  projectFileOnlyWhereStarted: true,
  serves: true,
}

/**
 * Gemini CLI (0.61) has no http hook handlers: with `install --serve` every event gets the command
 * client (bash over /dev/tcp; Gemini runs command hooks with `bash -c` on Linux and macOS, its
 * bundle's getShellConfiguration, as Qwen Code does), whose exit 2 blocks a gate as a command
 * hook's does (test/agents/family-serve.lab.ts). It sets CLAUDE_PROJECT_DIR for its hooks too: the
 * server keeps no session's.
 */
const HTTP: HttpHooks = {
  route: 'gemini',
  program: 'gemini',
  commandEvents: ['SessionStart'],
  projectVariable: 'GEMINI_PROJECT_DIR',
  sessionVariables: ['CLAUDE_PROJECT_DIR'],
  client: { blockExit: 2, everyEvent: true, why: 'it has no http hook handlers' },
}

const GEMINI_SCAN: ProjectScan = {
  projectVariables: ['GEMINI_PROJECT_DIR'],
  sources: [
    {
      path: '.gemini/settings.json',
      reader: 'events',
      agents: ['Gemini CLI'],
      owners: ['gemini'],
      importAgent: 'gemini',
      hookrunFile: true,
    },
  ],
}

/**
 * How Gemini CLI's settings.json `hooks` reads (agent-hook-protocols.md §6.1, §9.5): Claude's
 * nesting with named handlers, `sequential` groups and timeouts in milliseconds (default 60000).
 * A pasted file is Gemini's when it has what only Gemini has: an event name Claude Code lacks, a
 * `sequential` group, or a named handler.
 */
const GEMINI_NATIVE: NativeConfig = {
  reader: 'named-groups',
  // Gemini CLI sets Claude Code's name too.
  handlerVariables: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  defaultTimeout: 60,
  timeoutUnit: 'ms',
  pasted: { ownEvents: true, sharesEventsWith: 'claude', groupKeys: ['sequential'], handlerKeys: ['name'] },
}

/** How `hookrun import` moves Gemini CLI's handlers: one named in `hooks.disabled` stays switched off, where it is. */
const GEMINI_IMPORT: HooksImport = {
  disabledKey: 'disabled',
  stays: (handler, disabled) =>
    typeof handler.name === 'string' && disabled.has(handler.name)
      ? `switched off in Gemini CLI (hooks.disabled names '${handler.name}')`
      : undefined,
}

export const geminiAgent = agentOf(gemini, {
  events: EVENTS,
  tools: TOOLS,
  install: geminiInstall,
  http: HTTP,
  scan: GEMINI_SCAN,
  nativeConfig: GEMINI_NATIVE,
  hooksImport: GEMINI_IMPORT,
})
