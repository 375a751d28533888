import { agentOf, Answer, blockReason, contextText, decided, jsonLine, objectFrom } from './shared.ts'
import { claudeEvents } from './claude.ts'
import type { AgentTools, AnswerField, Dialect } from './types.ts'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { homeOr, type InstallTarget, ROUTER_TIMEOUT_SECONDS } from './install.ts'
import type { ProjectScan, NativeConfig } from './native-config.ts'

const EVENTS = claudeEvents('PreToolUse')

const TOOLS: AgentTools = {
  bash: 'bash',
  view: 'read',
  edit: 'edit',
  glob: 'glob',
  grep: 'grep',
  write: 'write',
  multiedit: 'multiedit',
  ls: 'ls',
  fetch: 'webfetch',
  agentic_fetch: 'webfetch',
  agent: 'agent',
  todos: 'todo',
}

/**
 * Crush (charmbracelet/crush docs/hooks/README.md): Claude Code's config, its own payload (the
 * event in `event`, which tells it apart) and answer `{decision: allow | deny, halt, reason,
 * context, updated_input}`. `allow` skips Crush's permission prompt; `halt` (or exit 49) ends the
 * turn; `updated_input` is merged over the input. Only PreToolUse exists; names are
 * case-insensitive and may be snake_case.
 */
const CRUSH_EVENTS = new Set<string>(Object.keys(EVENTS))
const BY_FOLDED = new Map([...CRUSH_EVENTS].map((name) => [fold(name), name]))

/** `PreToolUse`, `pretooluse`, `PRE_TOOL_USE` and `pre_tool_use` are one name to Crush. */
function fold(name: string): string {
  return name.replaceAll('_', '').toLowerCase()
}

function crushEvent(value: unknown): string | undefined {
  return typeof value === 'string' ? BY_FOLDED.get(fold(value)) : undefined
}

export const crush: Dialect = {
  name: 'crush',
  label: 'Crush',
  source: 'crush',
  project: { variables: ['CRUSH_PROJECT_DIR'] },
  // Crush has no message for the person: notices go to the model as context.
  notices: ['additionalContext'],
  detectMarks: ['event'],
  detect: (payload) =>
    payload.hook_event_name === undefined && crushEvent(payload.event) !== undefined && typeof payload.session_id === 'string',
  eventName: (payload) => crushEvent(payload.event) ?? (typeof payload.event === 'string' ? payload.event : undefined),
  render(decision, payload, agentEvent) {
    const event = (agentEvent !== undefined && CRUSH_EVENTS.has(agentEvent) ? agentEvent : crushEvent(payload.event)) ?? 'PreToolUse'
    const answer = new Answer('Crush', event)
    const out: Record<string, unknown> = {}
    if (decision.blocked) {
      out.decision = 'deny'
      out.reason = blockReason(decision)
    } else if (decision.decision === 'ask') {
      answer.cannot("decision 'ask'", "no decision was sent, so Crush's own permission prompt decides")
    } else if (decided(decision)) out.decision = 'allow'
    if (!decision.continue) {
      out.halt = true
      // A halt's reason is often the block's too (Crush's exit 49): said once.
      out.reason = [...new Set([out.reason, decision.stopReason].filter(Boolean))].join('\n') || blockReason(decision)
    }
    if (decision.updatedInput !== undefined) {
      if (event !== 'PreToolUse') answer.cannot('updatedInput')
      else {
        out.updated_input = decision.updatedInput
        // A patch cannot delete: keys a hook dropped keep their old values in Crush.
        const kept = Object.keys(objectFrom(payload.tool_input) ?? {}).filter((key) => !(key in decision.updatedInput!))
        if (kept.length > 0)
          answer.cannot(
            `the removal of ${kept.join(', ')} from the tool input`,
            'Crush merges updated_input over the input, so they keep their values',
          )
      }
    }
    answer.take('additionalContext', contextText(decision), event === 'PreToolUse', (context) => (out.context = context))
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Crush cannot rewrite a prompt')
    answer.cannotTake(decision, ['systemMessage', 'suppressOutput'])
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

const crushInstall: InstallTarget = {
  // charmbracelet/crush docs/hooks: crush.json or .crush.json in the project, ~/.config/crush/crush.json globally.
  file: (scope, places) => {
    if (scope === 'user') return join(homeOr(places, 'XDG_CONFIG_HOME', '.config'), 'crush', 'crush.json')
    const hidden = join(places.project, '.crush.json')
    return existsSync(hidden) && !existsSync(join(places.project, 'crush.json')) ? hidden : join(places.project, 'crush.json')
  },
  shape: 'flat',
  comments: true,
  // `name` is what Crush's TUI shows; its default timeout is 30 s.
  handler: (command) => ({ name: 'hookrun', command, timeout: ROUTER_TIMEOUT_SECONDS }),
  timeout: { field: 'timeout', perSecond: 1 },
}

const CRUSH_SCAN: ProjectScan = {
  sources: [
    { path: 'crush.json', reader: 'events', agents: ['Crush'], owners: ['crush'], hookrunFile: true },
    { path: '.crush.json', reader: 'events', agents: ['Crush'], owners: ['crush'], hookrunFile: true },
  ],
}

/** How Crush's crush.json reads: handlers flat under each event (default 30 s); a flat file no other agent's names claim is Crush's. */
const CRUSH_NATIVE: NativeConfig = {
  answersOnExitZero: true,
  haltExit: 49,
  reader: 'flat',
  defaultTimeout: 30,
  pasted: {},
  // Crush reads its event names without regard to case or underscores (`pre_tool_use`).
  eventSpelling: (eventName) => (eventName.replaceAll('_', '').toLowerCase() === 'pretooluse' ? 'PreToolUse' : eventName),
}

/**
 * Crush's answer fields (charmbracelet/crush docs/hooks): `halt: true` blocks the call and ends the turn;
 * `context` is a string or a list of strings for the model.
 */
const CRUSH_ANSWER_FIELDS: readonly AnswerField[] = [
  { field: 'halt', to: 'decision', ifTrue: 'deny', reasons: ['reason'] },
  { field: 'halt', to: 'continue', ifTrue: false },
  { field: 'reason', to: 'stopReason', with: 'halt' },
  { field: 'context', to: 'additionalContext', strings: true },
]

export const crushAgent = agentOf(crush, {
  answerFields: CRUSH_ANSWER_FIELDS,
  events: EVENTS,
  tools: TOOLS,
  install: crushInstall,
  scan: CRUSH_SCAN,
  nativeConfig: CRUSH_NATIVE,
})
