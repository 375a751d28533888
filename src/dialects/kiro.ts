import { namesOf } from '../event/events.ts'
import { Answer, blockReason, contextText, decided, ownEvent } from './shared.ts'
import type { Dialect } from './types.ts'

/**
 * Kiro CLI (kiro.dev/docs/cli/hooks; the same text as aws/amazon-q-developer-cli docs/hooks.md).
 * Hooks live in an agent's configuration file and get `{hook_event_name, cwd}` plus `tool_name`,
 * `tool_input` (and `tool_response` after the tool) on stdin. The event names are camelCase:
 * agentSpawn, userPromptSubmit, preToolUse, postToolUse, stop. preToolUse, postToolUse and stop
 * are Cursor's names too, but Cursor sends `conversation_id` and `cursor_version` with every event
 * and Kiro never does, so those payloads are Kiro's only without them.
 *
 * Kiro reads no JSON: exit 2 blocks on preToolUse only, with stderr returned to the model; on
 * agentSpawn and userPromptSubmit stdout (exit 0) is added to the agent's context; any other exit
 * shows stderr to the user as a warning and lets the action through.
 */
const KIRO_EVENTS = namesOf('kiro')
const KIRO_ONLY = new Set(['agentSpawn', 'userPromptSubmit'])
const CONTEXT_EVENTS = new Set(['agentSpawn', 'userPromptSubmit'])

export const kiro: Dialect = {
  name: 'kiro',
  label: 'Kiro',
  source: 'kiro',
  // No project variable known; hookrun's own folder, as the hook runs there.
  project: { variables: [] },
  // Kiro shows no message of a hook's: notices go to the model where stdout is context.
  notices: ['additionalContext'],
  detect(payload) {
    const event = payload.hook_event_name
    if (typeof event !== 'string' || !KIRO_EVENTS.has(event)) return false
    return KIRO_ONLY.has(event) || (payload.conversation_id === undefined && payload.cursor_version === undefined)
  },
  eventName: (payload) => (typeof payload.hook_event_name === 'string' ? payload.hook_event_name : undefined),
  render(decision, payload, agentEvent) {
    const event = ownEvent(payload, agentEvent, KIRO_EVENTS) ?? 'preToolUse'
    const answer = new Answer('Kiro', event)
    let exitCode = 0
    let stderr = ''
    if (event === 'preToolUse' && (decision.blocked || decision.decision === 'ask')) {
      if (!decision.blocked) answer.cannot("decision 'ask'", 'answered with a block (exit 2): a hook wanted a person to confirm')
      exitCode = 2
      stderr = `${blockReason(decision)}\n`
    } else if (decision.blocked) answer.cannot('a block', event === 'postToolUse' ? 'the tool already ran' : 'the event proceeds')
    else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
    else if (decided(decision)) answer.cannot("decision 'allow'", 'Kiro has no pre-approval; its tool permissions apply')
    if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Kiro cannot rewrite a prompt')
    const context = contextText(decision)
    let stdout = ''
    if (context !== undefined) {
      if (CONTEXT_EVENTS.has(event)) stdout = `${context}\n`
      else answer.cannot('additionalContext')
    }
    if (!decision.continue) answer.cannot('continue: false', 'the agent goes on')
    if (decision.systemMessage !== undefined) answer.cannot('systemMessage')
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    return { stdout, stderr, exitCode, warnings: answer.warnings }
  },
}
