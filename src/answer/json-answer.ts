// A hook's JSON answer read without zod: parsed, bounded, other agents' forms mapped, and the
// plain answers most hooks print taken as they are. The rest goes to the protocol's zod schema.
import type { HookAnswer } from '../core/types.ts'
import { MAX_PAYLOAD_DEPTH, nestingDepth } from '../payload/payload.ts'
import { fromAgentAnswer } from './agent-answers.ts'
import { fromKodeletAnswer } from './kodelet.ts'
import { decisionOf } from '../core/decisions.ts'

/** JSON that is an answer to check, or why it is not one. */
type PreparedAnswer = { readonly json: unknown } | { readonly notJson: string } | { readonly invalid: string }

/** Parse a hook's stdout and bring other agents' answer fields to the protocol's names. */
export function prepareAnswer(stdout: string): PreparedAnswer | undefined {
  const text = stdout.trim()
  if (!text.startsWith('{')) return undefined
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { notJson: (error as Error).message }
  }
  // The same bound as a payload's: deeper nesting would overflow the stack of what reads it next.
  if (typeof json === 'object' && json !== null && nestingDepth(json, MAX_PAYLOAD_DEPTH) > MAX_PAYLOAD_DEPTH) {
    return { invalid: `(answer): nested more than ${MAX_PAYLOAD_DEPTH} levels deep` }
  }
  return { json: fromAgentAnswer(fromKodeletAnswer(json)) }
}

/** The fields of the plain answers most hooks print, read without zod (which costs more than the rest of a fire); a test holds it to the schema. */
export const PLAIN_FIELDS = {
  reason: 'string',
  stopReason: 'string',
  systemMessage: 'string',
  additionalContext: 'string',
  updatedPrompt: 'string',
  continue: 'boolean',
  suppressOutput: 'boolean',
} as const
/** Claude Code's `hookSpecificOutput`, plain when it holds only these. */
export const PLAIN_SPECIFIC_FIELDS = { hookEventName: 'string', permissionDecisionReason: 'string', additionalContext: 'string' } as const
export const PERMISSION_DECISIONS: readonly string[] = ['allow', 'deny', 'ask', 'defer']

const has = (table: object, key: string) => Object.hasOwn(table, key)

/** The answer as HookAnswerSchema would give it, when it is a plain one; undefined means: ask the schema. */
export function plainAnswer(json: unknown): HookAnswer | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const answer: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(json)) {
    if (key === 'decision') {
      answer.decision = decisionOf(value)
      if (answer.decision === undefined) return undefined
    } else if (key === 'hookSpecificOutput') {
      if (!plainSpecificOutput(value)) return undefined
      answer[key] = { ...value }
    } else if (has(PLAIN_FIELDS, key) && typeof value === PLAIN_FIELDS[key as keyof typeof PLAIN_FIELDS]) {
      answer[key] = value
    } else {
      return undefined
    }
  }
  return answer as HookAnswer
}

function plainSpecificOutput(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  return Object.entries(value).every(([key, field]) =>
    key === 'permissionDecision'
      ? typeof field === 'string' && PERMISSION_DECISIONS.includes(field)
      : has(PLAIN_SPECIFIC_FIELDS, key) && typeof field === PLAIN_SPECIFIC_FIELDS[key as keyof typeof PLAIN_SPECIFIC_FIELDS],
  )
}
