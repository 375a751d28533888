import { CLAUDE_CORE_EVENTS, CLAUDE_EVENT_NAMES, claude, claudeEvents } from './claude.ts'
import { CLAUDE_MCP_NAMING, type AgentEvents, type AgentTools, type Dialect } from './types.ts'
import { agentOf, Answer, blockReason, hookEventName, jsonLine, ownEvent, renderAsClaude } from './shared.ts'
import { join } from 'node:path'
import { type InstallTarget, STREAMING, commandHandler } from './install.ts'
import type { ProjectScan } from './native-config.ts'
import type { HttpHooks } from './serve.ts'

const EVENTS = {
  ...claudeEvents(
    ...CLAUDE_CORE_EVENTS,
    'PermissionRequest',
    'PermissionDenied',
    'PostToolBatch',
    'UserPromptExpansion',
    'MessageDisplay',
    'StopFailure',
    'PostCompact',
    'InstructionsLoaded',
  ),
  SessionDelete: 'session:delete',
  TodoCreated: 'task:created',
  TodoCompleted: 'task:completed',
} as const satisfies AgentEvents

const TOOLS: AgentTools = {
  run_shell_command: 'bash',
  read_file: 'read',
  read_many_files: 'read',
  write_file: 'write',
  edit: 'edit',
  glob: 'glob',
  grep_search: 'grep',
  list_directory: 'ls',
  web_fetch: 'webfetch',
  web_search: 'websearch',
  task: 'agent',
  save_memory: 'memory',
  todo_write: 'todo',
}

/**
 * Qwen Code (QwenLM/qwen-code docs/users/features/hooks.md): Claude Code's format with more events
 * and an ISO `timestamp` Claude Code does not send. Answers are Claude Code's, but PreToolUse's
 * decision needs a reason; TodoCreated / TodoCompleted take `decision: "block"`; SessionDelete,
 * MessageDisplay and StopFailure ignore every answer.
 */
const QWEN_EVENTS = new Set<string>(Object.keys(EVENTS))
const CLAUDE_EVENTS = new Set<string>(Object.keys(CLAUDE_EVENT_NAMES))
const TODO_EVENTS = new Set(['TodoCreated', 'TodoCompleted'])
const FIRE_AND_FORGET = new Set(['SessionDelete', 'MessageDisplay', 'StopFailure'])

const asClaude = renderAsClaude(claude, 'Qwen Code')

export const qwen: Dialect = {
  name: 'qwen',
  label: 'Qwen Code',
  // Answered with Claude Code's renderer, which places the fields it carries.
  carries: claude.carries,
  source: 'qwen',
  project: { variables: ['QWEN_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'] },
  // Seen in the agent lab: headless Qwen Code shows no systemMessage from any event; the model's
  // context is what reaches someone (it tells the person).
  notices: ['additionalContext'],
  // Seen in Qwen Code 0.24.4 (shared/reference/real-agents.md); its source agrees: PreToolUse's
  // answer has no updatedInput, PermissionRequest's `decision` has.
  ignores: [
    {
      field: 'updatedInput',
      events: ['PreToolUse'],
      why: 'Qwen Code applies a rewrite only from a PermissionRequest allow, so the tool runs with its original input',
    },
    { field: 'systemMessage', events: ['SessionStart'], why: 'Qwen Code shows no SessionStart systemMessage, so nobody sees it' },
  ],
  // `mcp__<server>__<tool>` as Claude Code (a name it had to clean up gets a hash suffix: read as it is).
  mcpNaming: CLAUDE_MCP_NAMING,
  detectMarks: ['hook_event_name'],
  detect(payload) {
    const event = payload.hook_event_name
    if (typeof event !== 'string' || !QWEN_EVENTS.has(event)) return false
    return !CLAUDE_EVENTS.has(event) || typeof payload.timestamp === 'string'
  },
  eventName: hookEventName,
  render(decision, payload, agentEvent) {
    const event = ownEvent(payload, agentEvent, QWEN_EVENTS) ?? 'PreToolUse'
    if (TODO_EVENTS.has(event) || FIRE_AND_FORGET.has(event)) return renderOwn(decision, event)
    const rendered = asClaude(decision, payload, event)
    if (event !== 'PreToolUse' || decision.decidedBy === undefined) return rendered
    // Qwen requires a reason with every permissionDecision.
    const out = JSON.parse(rendered.stdout) as { hookSpecificOutput: Record<string, unknown> }
    out.hookSpecificOutput.permissionDecisionReason ??=
      decision.decision === 'deny'
        ? blockReason(decision)
        : `${decision.decision === 'allow' ? 'allowed' : 'asked for'} by hook '${decision.decidedBy}'`
    return { ...rendered, stdout: jsonLine(out) }
  },
}

/** Qwen Code's own events: the todo gates, and the ones that take no answer. */
function renderOwn(decision: Parameters<Dialect['render']>[0], event: string) {
  const answer = new Answer('Qwen Code', event)
  const out: Record<string, unknown> = {}
  const gate = TODO_EVENTS.has(event)
  if (decision.blocked) {
    if (gate) {
      out.decision = 'block'
      out.reason = blockReason(decision)
    } else answer.cannot('a block', 'the event proceeds')
  } else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
  answer.cannotTake(decision, ['updatedInput', 'updatedPrompt', 'additionalContext'])
  if (!decision.continue) {
    if (gate) {
      out.continue = false
      if (decision.stopReason !== undefined) out.stopReason = decision.stopReason
    } else answer.cannot('continue: false', 'the agent goes on')
  }
  answer.take('systemMessage', decision.systemMessage, gate, (message) => (out.systemMessage = message))
  if (decision.suppressOutput) answer.cannot('suppressOutput')
  return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
}

const qwenInstall: InstallTarget = {
  // QwenLM/qwen-code docs/users/features/hooks.md: hooks in .qwen/settings.json or the user's settings.
  file: (scope, places) => join(scope === 'user' ? join(places.home, '.qwen') : join(places.project, '.qwen'), 'settings.json'),
  shape: 'groups',
  comments: true,
  skipped: { MessageDisplay: STREAMING },
  // Qwen's command-hook timeout is in milliseconds.
  ...commandHandler(1000, 'hookrun'),
  // Qwen Code 0.24.4 honours `^(run_shell_command)$` on PreToolUse and PostToolUse (test/agents/qwen.lab.ts).
  toolMatchers: true,
  note: 'Qwen Code runs project hooks only in a trusted folder',
  projectFileOnlyWhereStarted: true,
  serves: true,
}

/**
 * Qwen Code's http hook handlers (0.24.4) let every failure through and have no `onFailure`: gates go
 * through a command client, whose exit 2 blocks (test/agents/family-serve.lab.ts).
 */
const HTTP: HttpHooks = {
  route: 'qwen',
  program: 'qwen',
  // Not UserPromptSubmit: 0.24.4 fires it after every tool result too (its sendMessageStream skips
  // it for retry, steer, cron, notification, teammate and goal messages only), so a command there
  // would be a process per tool call; it goes over http, and a new session starts the server again.
  commandEvents: ['SessionStart'],
  projectVariable: 'QWEN_PROJECT_DIR',
  // It sets Claude Code's variable for its hooks too: the server keeps no session's.
  sessionVariables: ['CLAUDE_PROJECT_DIR'],
  client: { blockExit: 2, everyEvent: false, why: 'its http handlers let a call through when the server does not answer' },
}

const QWEN_SCAN: ProjectScan = {
  projectVariables: ['QWEN_PROJECT_DIR'],
  sources: [{ path: '.qwen/settings.json', reader: 'events', agents: ['Qwen Code'], owners: ['qwen'], hookrunFile: true }],
}

export const qwenAgent = agentOf(qwen, { events: EVENTS, tools: TOOLS, install: qwenInstall, http: HTTP, scan: QWEN_SCAN })
