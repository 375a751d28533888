// kodelet's executable-hook answers (ADR 029), in hookrun's terms, without loading folder discovery.
import { outranks } from '../core/decisions.ts'

/** `{"blocked": true}` is a deny (it outvotes a native allow or ask), `{"input": {…}}` is `updatedInput` unless one is given. */
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
