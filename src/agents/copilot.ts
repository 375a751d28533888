// GitHub Copilot's dialect: its payloads in, its JSON answers and exit codes out.
import { join } from 'node:path'
import { spreadKeepingLongStrings } from '../payload/long-strings.ts'
import { agentOf, Answer, blockReason, carryFields, contextText, decided, jsonLine, objectFrom, ownEvent } from './shared.ts'
import type { AgentEvents, AgentTools, AnswerField, Dialect, Normalized } from './types.ts'
import { fromVSCode, renderForVSCode } from './vscode.ts'
import { homeOr, type InstallTarget, ROUTER_TIMEOUT_SECONDS } from './install.ts'
import type { Caller } from './callers.ts'
import { fromCopilotCli, renderForCopilotCli } from './copilot-claude.ts'
import { JSON_FILES, type ProjectScan, type HooksImport } from './native-config.ts'
import type { HttpHooks } from './serve.ts'

const EVENTS = {
  sessionStart: 'session:start',
  sessionEnd: 'session:end',
  preToolUse: 'tool:pre_execute',
  postToolUse: 'tool:post_execute',
  postToolUseFailure: 'tool:error',
  subagentStart: 'subagent:start',
  subagentStop: 'subagent:stop',
  preCompact: 'context:pre_compact',
  userPromptSubmitted: 'user:prompt_submit',
  agentStop: 'agent:stop',
  errorOccurred: 'agent:error',
  permissionRequest: 'permission:prompt',
  notification: 'notification',
} as const satisfies AgentEvents

const TOOLS: AgentTools = {
  bash: 'bash',
  powershell: 'powershell',
  view: 'read',
  create: 'write',
  edit: 'edit',
  str_replace_editor: 'edit',
  apply_patch: 'edit',
  glob: 'glob',
  grep: 'grep',
  rg: 'grep',
  web_fetch: 'webfetch',
  web_search: 'websearch',
  task: 'agent',
  update_todo: 'todo',
  runTerminalCommand: 'bash',
  editFiles: 'edit',
  ask_user: 'ask',
}

/**
 * GitHub Copilot CLI and cloud agent (docs.github.com/en/copilot/reference/hooks-reference). Hooks
 * on camelCase event names get camelCase payloads with no event name, so the installed command names
 * it (`hookrun fire preToolUse --format copilot`); a `sessionId` string with a numeric `timestamp`
 * is Copilot's. PascalCase hooks get Claude-shaped payloads, answered as Claude Code. Answers are
 * JSON on exit 0; a `{"type":"progress"}` line before it is shown to the user. VS Code's own hooks
 * read the same files and are answered in VS Code's shape (src/agents/vscode.ts).
 */
const COPILOT_EVENTS = new Set<string>(Object.keys(EVENTS))

const CONTEXT_EVENTS = new Set([
  'sessionStart',
  'subagentStart',
  'postToolUse',
  'postToolUseFailure',
  'notification',
  'userPromptSubmitted',
])
const BLOCK_EVENTS = new Set(['agentStop', 'subagentStop'])

export const copilot: Dialect = {
  name: 'copilot',
  // It takes none of the fields hookrun carries (toolConfig, llm_request, updatedMCPToolOutput, …).
  carries: [],
  label: 'Copilot',
  source: 'copilot',
  // Copilot runs hooks in the project root (real-agents.md): hookrun's own folder is the project.
  project: { variables: [] },
  // Its progress line shows only in text output; with --output-format json the model's context is
  // what reaches anyone (sessionStart, userPromptSubmitted, postToolUse): notices take both.
  notices: ['systemMessage', 'additionalContext'],
  alsoAnswers:
    "VS Code's own agent hooks (Local harness), which run .github/hooks/*.json with a payload of their own (hookEventName, tool_name, tool_input): answered in VS Code's Claude-style JSON (hookSpecificOutput); from VS Code's docs (not lab-verified)",
  // Copilot CLI 1.0.102 names an MCP tool `<server>-<tool>` and sends no server field (seen in the
  // agent lab, test/agents/copilot.lab.ts mcp-gate).
  mcpNaming: { prefix: '', separator: '-' },
  // Its servers: the user's mcp-config.json, a trusted folder's .mcp.json / .github/mcp.json, and its own GitHub server.
  mcpServers: {
    files: (cwd, home, env) => [
      join(env.COPILOT_HOME || join(home, '.copilot'), 'mcp-config.json'),
      join(cwd, '.mcp.json'),
      join(cwd, '.github', 'mcp.json'),
    ],
    key: 'mcpServers',
    builtIn: ['github-mcp-server'],
  },
  detectMarks: ['sessionId'],
  detect: (payload) => typeof payload.sessionId === 'string' && (typeof payload.timestamp === 'number' || fromVSCode(payload)),
  // Only its notification payload names itself (`Notification`); the command line names the rest.
  // VS Code names every event (`hookEventName`).
  eventName: (payload) =>
    typeof payload.hook_event_name === 'string'
      ? payload.hook_event_name
      : fromVSCode(payload)
        ? (payload.hookEventName as string)
        : undefined,
  normalize(payload): Normalized {
    // toolArgs arrives as a JSON string from the CLI: hooks and `if` rules get it as an object.
    const added: Record<string, unknown> = {}
    const input = objectFrom(payload.toolArgs)
    if (!('tool_input' in payload) && input !== undefined) added.tool_input = input
    if (!('tool_response' in payload) && payload.toolResult !== undefined) added.tool_response = payload.toolResult
    return { payload: Object.keys(added).length > 0 ? spreadKeepingLongStrings(payload, added) : payload }
  },
  render(decision, payload, agentEvent) {
    if (fromVSCode(payload)) return renderForVSCode(decision, payload, agentEvent)
    const named = ownEvent(payload, agentEvent, COPILOT_EVENTS) ?? (payload.hook_event_name === 'Notification' ? 'notification' : undefined)
    const event = named ?? 'preToolUse'
    const answer = new Answer('Copilot', event)
    const out: Record<string, unknown> = {}
    const context = contextText(decision)
    const forModel: string[] = context === undefined ? [] : [context]

    if (event === 'preToolUse') {
      if (decided(decision)) {
        out.permissionDecision = decision.decision
        if (decision.decision !== 'allow') out.permissionDecisionReason = blockReason(decision)
      }
      if (decision.updatedInput !== undefined) out.modifiedArgs = decision.updatedInput
    } else if (event === 'permissionRequest') {
      if (decided(decision) && decision.decision !== 'ask') {
        out.behavior = decision.decision
        if (decision.decision === 'deny') {
          out.message = blockReason(decision)
          if (!decision.continue) out.interrupt = true
        }
      } else if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'no decision was sent; Copilot asks as it would')
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
    } else {
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
      if (decision.blocked && BLOCK_EVENTS.has(event)) {
        out.decision = 'block'
        out.reason = blockReason(decision)
      } else if (decision.blocked && event === 'postToolUse') {
        answer.cannot('a block', 'the tool already ran; the reason goes to the model as additionalContext')
        if (decision.reason !== undefined) forModel.push(decision.reason)
      } else if (decision.blocked) {
        answer.cannot('a block', 'the event proceeds')
      } else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
    }
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: only Copilot SDK hooks can rewrite a prompt')
    const joined = forModel.length > 0 ? forModel.join('\n\n') : undefined
    answer.take('additionalContext', joined, CONTEXT_EVENTS.has(event), (text) => (out.additionalContext = text))
    if (!decision.continue && out.interrupt === undefined) answer.cannot('continue: false', 'the agent goes on')
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    for (const field of carryFields(decision, event, [], () => {})) answer.cannot(field)
    // The one display-only channel every Copilot command hook has: a progress line.
    const progress =
      decision.systemMessage === undefined ? '' : jsonLine({ type: 'progress', message: decision.systemMessage.replace(/\s*\n\s*/g, ' ') })
    return { stdout: `${progress}${jsonLine(out)}`, exitCode: 0, warnings: answer.warnings }
  },
}

const copilotInstall: InstallTarget = {
  // Copilot reads every *.json in its hooks folders, so hookrun gets a file of its own.
  file: (scope, places) =>
    join(
      scope === 'user' ? join(homeOr(places, 'COPILOT_HOME', '.copilot'), 'hooks') : join(places.project, '.github', 'hooks'),
      'hookrun.json',
    ),
  shape: 'flat',
  commandField: 'bash',
  header: { version: 1 },
  // Copilot's camelCase payloads do not name the event, so the command does.
  command: (self, event) => `${self} fire ${event} --format copilot`,
  handler: (command) => ({ type: 'command', bash: command, timeoutSec: ROUTER_TIMEOUT_SECONDS }),
  timeout: { field: 'timeoutSec', perSecond: 1 },
  // github/docs hooks-reference (via shared reference §11; not seen in the lab).
  note: "Copilot lets a call through when a hook's timeoutSec runs out, even a policy hook's: keep this entry's timeoutSec, which is above hookrun's budget for one fire",
  serves: true,
}

/**
 * Copilot CLI with `install --serve` (1.0.102): its http handlers fail open and reach loopback only with
 * COPILOT_HOOK_ALLOW_LOCALHOST=1 in its environment, so every event gets the command client instead.
 */
const HTTP: HttpHooks = {
  route: 'copilot',
  program: 'copilot',
  commandEvents: ['sessionStart', 'userPromptSubmitted'],
  sessionVariables: [],
  sessionField: 'sessionId',
  eventInUrl: true,
  client: {
    blockExit: 2,
    everyEvent: true,
    why: 'its http handlers let a call through when the server does not answer, and reach loopback only with COPILOT_HOOK_ALLOW_LOCALHOST=1 in its own environment',
    // 1.0.102 gives the model "Denied by preToolUse hook: hook exited with code 2" and no stderr
    // (test/agents/copilot-serve.lab.ts): the reason goes on stdout too, in its answer's shape.
    blockAnswers: {
      preToolUse: (reason) => ({ permissionDecision: 'deny', permissionDecisionReason: reason }),
      permissionRequest: (reason) => ({ behavior: 'deny', message: reason }),
    },
  },
}

/**
 * Copilot CLI runs Claude Code's entries too, always, in a trusted folder, beside .github/hooks
 * (hookrun's Claude Code entry tells it apart: src/agents/callers.ts).
 */
const RUNS_CLAUDE: Caller = {
  label: 'Copilot CLI',
  when: 'always, in a trusted folder, beside .github/hooks',
  // Copilot sets COPILOT_CLI=1 (and CLAUDE_PROJECT_DIR) for these hooks; its payload has an ISO
  // timestamp and no transcript_path, which Claude Code always sends (./copilot-claude.ts).
  detect: (payload, env) => env.COPILOT_CLI === '1' && fromCopilotCli(payload),
  // Its reading too: fromCopilotCli needs the ISO timestamp.
  marks: { fields: ['timestamp'] },
  // It runs .github/hooks first, then .claude: hookrun's Copilot entry answers, the Claude Code one stands aside.
  ownAnswer: { kind: 'router', agent: 'copilot' },
  // It reads Claude's answer but for the context, which it takes only at the top level.
  reading: { from: fromCopilotCli, render: renderForCopilotCli },
  source: 'github/docs copilot hooks-reference; seen in Copilot CLI 1.0.102 (real-agents.md)',
}

/** Copilot's payloads do not name their event: a fire names it on the command line, as in `hookrun fire preToolUse --format copilot`. */
const EVENT_ON_COMMAND_LINE = 'preToolUse'

const COPILOT_SCAN: ProjectScan = {
  label: 'Copilot CLI',
  sources: [
    {
      path: '.github/hooks',
      entries: JSON_FILES,
      reader: 'events',
      agents: ['Copilot CLI', 'Copilot cloud agent', 'VS Code'],
      owners: ['copilot'],
      importAgent: 'copilot',
      hookrunFile: true,
    },
    { path: '.github/copilot/settings.json', reader: 'events', agents: ['Copilot CLI'], owners: ['copilot'] },
    { path: '.github/copilot/settings.local.json', reader: 'events', agents: ['Copilot CLI'], owners: ['copilot'] },
  ],
}

/**
 * How `hookrun import` moves Copilot's handlers (`{type, bash, powershell, cwd, env, timeoutSec}`) from
 * every *.json of its folder: a failed preToolUse denies, 30 s default; Cursor shares the event names.
 */
const COPILOT_IMPORT: HooksImport = {
  commands: {
    who: 'Copilot',
    fields: ['type', 'bash', 'powershell', 'cwd', 'env', 'timeoutSec', 'matcher'],
    command: 'bash',
    noCommand: 'it has no bash command (PowerShell only)',
    otherCommand: { field: 'powershell', what: 'the command Copilot runs on Windows' },
    timeoutField: 'timeoutSec',
    defaultTimeout: 30,
    failsClosedOn: 'preToolUse',
  },
  namePrefixed: true,
  folder: true,
}

/** Copilot CLI's answer fields: preToolUse answers at the top level; permissionRequest answers `behavior`. */
const COPILOT_ANSWER_FIELDS: readonly AnswerField[] = [
  { field: 'permissionDecision', to: 'decision', reasons: ['permissionDecisionReason'] },
  { field: 'permissionDecisionReason', to: 'reason' },
  { field: 'modifiedArgs', to: 'updatedInput' },
  { field: 'behavior', to: 'decision', reasons: ['message'] },
  { field: 'message', to: 'reason', with: 'behavior' },
  { field: 'interrupt', to: 'continue', with: 'behavior', ifTrue: false },
]

export const copilotAgent = agentOf(copilot, {
  answerFields: COPILOT_ANSWER_FIELDS,
  events: EVENTS,
  tools: TOOLS,
  install: copilotInstall,
  http: HTTP,
  caller: RUNS_CLAUDE,
  eventOnCommandLine: EVENT_ON_COMMAND_LINE,
  scan: COPILOT_SCAN,
  hooksImport: COPILOT_IMPORT,
})
