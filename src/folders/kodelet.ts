/**
 * kodelet's executable-hook vocabulary (ADR 029), in hookrun's terms. Kept in this one small
 * module so `fire` can read kodelet-style answers without loading folder discovery, and so the
 * event names can be folded into the full alias table of `src/events.ts`.
 */

/** kodelet's hook type names, as answered to `./hook hook`, and the canonical events they mean. */
export const KODELET_EVENT_ALIASES: Readonly<Record<string, string>> = {
  before_tool_call: 'tool:pre_execute',
  after_tool_call: 'tool:post_execute',
  user_message_send: 'user:prompt_submit',
  agent_stop: 'agent:stop',
  turn_end: 'turn:end',
}

/**
 * One alternative of a pattern with a kodelet type name as its first segment, made canonical:
 * `before_tool_call` → `tool:pre_execute`, `before_tool_call:bash` → `tool:pre_execute:bash`.
 * Anything else is returned as it is.
 */
export function canonicalPattern(pattern: string): string {
  return pattern
    .split(',')
    .map((alternative) => {
      const [first, ...rest] = alternative.trim().split(':')
      const canonical = KODELET_EVENT_ALIASES[first!.toLowerCase()]
      return canonical === undefined ? alternative.trim() : [canonical, ...rest].join(':')
    })
    .join(',')
}

/**
 * kodelet's answers in the protocol's fields: `{"blocked": true, "reason": …}` is a deny and
 * `{"input": {…}}` is `updatedInput`. Native fields win when a hook prints both.
 */
export function fromKodeletAnswer(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json
  const answer = json as Record<string, unknown>
  const { blocked, input } = answer
  const blocks = blocked === true && answer.decision === undefined
  const rewrites = isPlainObject(input) && answer.updatedInput === undefined
  if (!blocks && !rewrites) return json
  return { ...answer, ...(blocks && { decision: 'deny' }), ...(rewrites && { updatedInput: input }) }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
