// Other agents' answer fields read as the protocol's own: which ones, each agent's module says (`Agent.answerFields`).
import type { AnswerField } from '../agents/types.ts'
import { VOCABULARY } from '../agents/vocabulary.ts'
import { outranks } from '../core/decisions.ts'
import { stringsOf } from '../core/types.ts'

/** A message for the user (Cursor's): the reason when there is no other, else a message shown to the user. */
const USER_MESSAGE_FIELDS = ['userMessage', 'user_message'] as const

/**
 * The answer with other agents' fields copied into the protocol's, or the same object when it has none: so a deny in
 * any form denies wherever the hook runs (never a gate failing open). The protocol's own field wins, except a
 * decision: the strictest counts, and an unknown one (`"DENY"`) over any, so the answer does not fit and a gate blocks.
 */
export function fromAgentAnswer(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json
  const answer = json as Record<string, unknown>
  const added: Record<string, unknown> = {}
  for (const row of VOCABULARY.answerFields) {
    if (!(row.field in answer)) continue
    if (row.with !== undefined && !(row.with in answer)) continue
    const value = protocolValue(row, answer[row.field])
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

/** What the agent's value of `row.field` fills the protocol's field with; undefined: nothing. */
function protocolValue(row: AnswerField, value: unknown): unknown {
  if ('always' in row) return row.always
  if ('ifTrue' in row) return value === true ? row.ifTrue : undefined
  if (row.strings) {
    const kept = stringsOf(value)?.filter((text) => text !== '')
    return kept === undefined || kept.length === 0 ? undefined : kept.join('\n\n')
  }
  return value
}
