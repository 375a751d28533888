/**
 * kodelet's executable-hook answers (ADR 029), in hookrun's terms. Kept in this one small module
 * so `fire` can read kodelet-style answers without loading folder discovery. kodelet's hook type
 * names (`before_tool_call`, …) are aliases in `src/event/events.ts`.
 */
import { outranks } from '../core/decisions.ts'

/**
 * kodelet's answers in the protocol's fields: `{"blocked": true, "reason": …}` is a deny and
 * `{"input": {…}}` is `updatedInput`. Native fields win when a hook prints both, except that
 * `blocked: true` outvotes a native allow or ask: the strictest decision counts, by the rule
 * other agents' answers follow (src/core/decisions.ts `outranks`).
 */
export function fromKodeletAnswer(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json
  const answer = json as Record<string, unknown>
  const { blocked, input } = answer
  const blocks = blocked === true && (answer.decision === undefined || outranks('deny', answer.decision))
  const rewrites = isPlainObject(input) && answer.updatedInput === undefined
  if (!blocks && !rewrites) return json
  return { ...answer, ...(blocks && { decision: 'deny' }), ...(rewrites && { updatedInput: input }) }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
