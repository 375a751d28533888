// A hook's JSON answer parsed with the protocol's zod schema (loaded only when a hook prints JSON).
import type { CommandRun, FiredEvent, Hook, HookResult, ParsedAnswer } from '../core/types.ts'
import { prepareAnswer } from './json-answer.ts'
import { interpretRun } from './interpret.ts'
import { HookAnswerSchema } from '../core/protocol.ts'

/** Parse a hook's stdout with the protocol's zod schema (`readAnswer` loads this only when it must). */
export function parseAnswer(stdout: string): ParsedAnswer {
  const prepared = prepareAnswer(stdout)
  if (prepared === undefined) return {}
  return 'json' in prepared ? checkAnswer(prepared.json) : prepared
}

/** An answer's JSON, its fields already the protocol's (prepareAnswer), checked with the schema. */
export function checkAnswer(json: unknown): ParsedAnswer {
  const result = HookAnswerSchema.safeParse(json)
  if (result.success) return { answer: result.data }
  const issue = result.error.issues[0]!
  return { invalid: `${issue.path.join('.') || '(answer)'}: ${issue.message.replace(/^Invalid input: /, '')}` }
}

/** `interpretRun` with the answer parsed here: for callers that do not mind loading zod. */
export function interpretCommandRun(hook: Hook, event: FiredEvent, run: CommandRun, env: { PATH?: string }): HookResult {
  return interpretRun(hook, event, run, env, parseAnswer(run.stdout))
}
