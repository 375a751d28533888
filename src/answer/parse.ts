// A hook's JSON answer parsed with the protocol's zod schema (loaded only when a hook prints JSON).
import type { CommandRun, FiredEvent, Hook, HookResult, ParsedAnswer } from '../core/types.ts'
import { fromAgentAnswer } from './agent-answers.ts'
import { fromKodeletAnswer } from './kodelet.ts'
import { interpretRun } from './interpret.ts'
import { HookAnswerSchema } from '../core/protocol.ts'
import { MAX_PAYLOAD_DEPTH, nestingDepth } from '../payload/payload.ts'

/** Parse a hook's stdout with the protocol's zod schema (loaded lazily by `readAnswer`). */
export function parseAnswer(stdout: string): ParsedAnswer {
  const text = stdout.trim()
  if (!text.startsWith('{')) return {}
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
  // kodelet's `{"blocked": true}` / `{"input": …}`, Cursor's `{"permission": "deny"}` and
  // Copilot's `{"permissionDecision": "deny"}` are read as the protocol's own fields.
  const result = HookAnswerSchema.safeParse(fromAgentAnswer(fromKodeletAnswer(json)))
  if (result.success) return { answer: result.data }
  const issue = result.error.issues[0]!
  return { invalid: `${issue.path.join('.') || '(answer)'}: ${issue.message.replace(/^Invalid input: /, '')}` }
}

/** `interpretRun` with the answer parsed here: for callers that do not mind loading zod. */
export function interpretCommandRun(hook: Hook, event: FiredEvent, run: CommandRun, env: { PATH?: string }): HookResult {
  return interpretRun(hook, event, run, env, parseAnswer(run.stdout))
}
