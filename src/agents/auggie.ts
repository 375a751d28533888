import { agentOf, Answer, blockReason, contextText, hookEventName, jsonLine, knownEvent } from './shared.ts'
import { claudeEvents } from './claude.ts'
import type { AgentEvents, AgentTools, Dialect } from './types.ts'
import { join } from 'node:path'
import { type InstallTarget, commandHandler } from './install.ts'
import type { ProjectScan } from './native-config.ts'

const EVENTS = {
  ...claudeEvents('PreToolUse', 'PostToolUse', 'Notification', 'SessionStart', 'SessionEnd', 'Stop'),
  PromptSubmit: 'user:prompt_submit',
} as const satisfies AgentEvents

const TOOLS: AgentTools = {
  shell: 'bash',
  view: 'read',
  apply_patch: 'edit',
  'launch-process': 'bash',
  'save-file': 'write',
  'str-replace-editor': 'edit',
  'remove-files': 'delete',
  'grep-search': 'grep',
  'web-fetch': 'webfetch',
  'web-search': 'websearch',
  'sub-agent': 'agent',
}

/**
 * Augment's CLI, Auggie (npm `@augmentcode/auggie` 0.36.0, its bundled hook runner; not run in the
 * agent lab, it needs an Augment login): Claude Code's settings shape, timeouts in milliseconds; its
 * own payload (`conversation_id`, `workspace_roots`, no `session_id`) and `PromptSubmit` for
 * UserPromptSubmit. It reads `systemMessage`, PreToolUse's deny and `updatedInput`, PostToolUse's
 * block and `additionalContext`, SessionStart's `additionalContext`; PromptSubmit hooks are not
 * waited for, so nothing they answer counts.
 */
const AUGGIE_EVENTS = new Set<string>(Object.keys(EVENTS))
const CONTEXT_EVENTS = new Set(['PostToolUse', 'SessionStart'])

export const auggie: Dialect = {
  name: 'auggie',
  label: 'Auggie',
  source: 'auggie',
  project: { variables: ['AUGMENT_PROJECT_DIR'] },
  caveats: [
    'Auggie starts PromptSubmit hooks without waiting for them: a block or rewrite there cannot stop the prompt',
    "what Auggie does with each answer field is read from its 0.36.0 bundle's hook runner, not seen in the agent lab (it needs an Augment login)",
  ],
  // Its own payload: a PascalCase event with `conversation_id` and a `workspace_roots` list
  // (Cursor's has the two as well, but camelCase events and a `cursor_version`).
  detectMarks: ['workspace_roots'],
  detect: (payload) =>
    typeof payload.hook_event_name === 'string' &&
    AUGGIE_EVENTS.has(payload.hook_event_name) &&
    typeof payload.conversation_id === 'string' &&
    Array.isArray(payload.workspace_roots) &&
    payload.cursor_version === undefined &&
    payload.session_id === undefined,
  eventName: hookEventName,
  render(decision, payload, agentEvent) {
    const event = knownEvent(agentEvent ?? payload.hook_event_name, AUGGIE_EVENTS, 'PreToolUse')
    const answer = new Answer('Auggie', event)
    const out: Record<string, unknown> = {}
    const specific: Record<string, unknown> = { hookEventName: event }
    if (decision.blocked) {
      if (event === 'PreToolUse') Object.assign(specific, { permissionDecision: 'deny', permissionDecisionReason: blockReason(decision) })
      else if (event === 'PostToolUse') Object.assign(specific, { decision: 'block', reason: blockReason(decision) })
      else answer.cannot('a block', 'the event proceeds')
    } else if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'the call goes ahead')
    answer.rewrite(decision, 'updatedInput', event === 'PreToolUse', (input) => (specific.updatedInput = input))
    answer.take('additionalContext', contextText(decision), CONTEXT_EVENTS.has(event), (context) => (specific.additionalContext = context))
    answer.cannotTake(decision, ['updatedPrompt', 'continue'])
    answer.take('systemMessage', decision.systemMessage, event !== 'PromptSubmit', (message) => (out.systemMessage = message))
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

const auggieInstall: InstallTarget = {
  // @augmentcode/auggie 0.36.0 reads `hooks` from /etc/augment/settings.json, then
  // <workspace>/.augment/settings.local.json and settings.json, then ~/.augment/settings.json
  // (its bundle's hook config loader); hookrun writes the project's local file, as Claude Code's.
  file: (scope, places) =>
    scope === 'user' ? join(places.home, '.augment', 'settings.json') : join(places.project, '.augment', 'settings.local.json'),
  localProjectFile: true,
  shape: 'groups',
  // Auggie's timeout is in milliseconds (its default 60 000).
  ...commandHandler(1000),
  note: 'what Auggie does with an answer is from its 0.36.0 bundle, not the agent lab (it needs an Augment login)',
}

const AUGGIE_SCAN: ProjectScan = {
  sources: [
    { path: '.augment/settings.json', reader: 'events', agents: ['Auggie'], owners: ['auggie'] },
    { path: '.augment/settings.local.json', reader: 'events', agents: ['Auggie'], owners: ['auggie'], hookrunFile: true },
  ],
}

export const auggieAgent = agentOf(auggie, { events: EVENTS, tools: TOOLS, install: auggieInstall, scan: AUGGIE_SCAN })
