// Other agents' answer fields read as the protocol's own.
import { outranks } from '../core/decisions.ts'
import { stringsOf } from '../core/types.ts'

/**
 * Answers written for another agent, read as the protocol's own fields wherever the hook runs, so a deny in any form
 * denies (never a gate failing open). The protocol's own field wins, except a decision: the strictest counts, and an
 * unknown one (`"DENY"`) over any, so the answer does not fit and a gate blocks. One row per field.
 */
interface AgentField {
  /** The agent's field, top level in its answer. */
  readonly field: string
  /** The protocol's field it fills (src/core/protocol.ts). */
  readonly to: 'decision' | 'reason' | 'systemMessage' | 'additionalContext' | 'updatedInput' | 'continue' | 'stopReason'
  /** Only when the answer also has this field (Copilot's `message` means something only beside `behavior`). */
  readonly with?: string
  /** The value the protocol field gets, when it is not the agent's value as it is. */
  readonly value?: (value: unknown) => unknown
  /** For a decision: the agent's fields that hold its reason, the first one present counting. */
  readonly reasons?: readonly string[]
}

const AGENT_ANSWER_FIELDS: readonly AgentField[] = [
  // Cursor: permission events answer `permission` with a message for the agent and one for the user.
  { field: 'permission', to: 'decision', reasons: ['agentMessage', 'agent_message', 'userMessage', 'user_message'] },
  { field: 'agentMessage', to: 'reason' },
  { field: 'agent_message', to: 'reason' },
  // stop / subagentStop: a follow-up message makes the agent go on, which is a block on agent:stop.
  { field: 'followup_message', to: 'decision', value: () => 'deny', reasons: ['followup_message'] },
  { field: 'followup_message', to: 'reason' },
  { field: 'additional_context', to: 'additionalContext' },
  { field: 'updated_input', to: 'updatedInput' },
  // Copilot: preToolUse answers at the top level; permissionRequest answers `behavior`.
  { field: 'permissionDecision', to: 'decision', reasons: ['permissionDecisionReason'] },
  { field: 'permissionDecisionReason', to: 'reason' },
  { field: 'modifiedArgs', to: 'updatedInput' },
  { field: 'behavior', to: 'decision', reasons: ['message'] },
  { field: 'message', to: 'reason', with: 'behavior' },
  { field: 'interrupt', to: 'continue', with: 'behavior', value: (value) => (value === true ? false : undefined) },
  // Crush (charmbracelet/crush docs/hooks): `halt: true` blocks the call and ends the turn;
  // `context` is a string or a list of strings for the model.
  { field: 'halt', to: 'decision', value: (value) => (value === true ? 'deny' : undefined), reasons: ['reason'] },
  { field: 'halt', to: 'continue', value: (value) => (value === true ? false : undefined) },
  { field: 'reason', to: 'stopReason', with: 'halt' },
  { field: 'context', to: 'additionalContext', value: crushContext },
]

/** Crush's `context`: a string, or strings (empty ones dropped); anything else is not Crush's. */
function crushContext(value: unknown): string | undefined {
  const kept = stringsOf(value)?.filter((text) => text !== '')
  return kept === undefined || kept.length === 0 ? undefined : kept.join('\n\n')
}

/** Cursor's message for the user: the reason when there is no other, else a message shown to the user. */
const USER_MESSAGE_FIELDS = ['userMessage', 'user_message'] as const

/** The answer with other agents' fields copied into the protocol's, or the same object when it has none. */
export function fromAgentAnswer(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json
  const answer = json as Record<string, unknown>
  const added: Record<string, unknown> = {}
  for (const row of AGENT_ANSWER_FIELDS) {
    if (!(row.field in answer)) continue
    if (row.with !== undefined && !(row.with in answer)) continue
    const value = row.value === undefined ? answer[row.field] : row.value(answer[row.field])
    if (value === undefined) continue
    const current = row.to in added ? added[row.to] : answer[row.to]
    if (current === undefined) added[row.to] = value
    else if (row.to === 'decision' && outranks(value, current)) {
      added.decision = value
      // The reason is the one that goes with the decision that counts, not the outvoted one's.
      added.reason = row.reasons?.map((field) => answer[field]).find((text) => typeof text === 'string')
    }
  }
  const reason = () => ('reason' in added ? added.reason : answer.reason)
  for (const field of USER_MESSAGE_FIELDS) {
    const message = answer[field]
    if (typeof message !== 'string') continue
    if (reason() === undefined) added.reason = message
    else if (answer.systemMessage === undefined && added.systemMessage === undefined && message !== reason()) added.systemMessage = message
  }
  return Object.keys(added).length === 0 ? json : { ...answer, ...added }
}
