// Reading a hook's stdout as an answer; the zod parser (./parse.ts) loads only for answers that are not plain.
import type { ParsedAnswer } from '../core/types.ts'
import { plainAnswer, prepareAnswer } from './json-answer.ts'

/**
 * Read a hook's stdout as an answer. Only output that starts with `{` is parsed; a plain answer
 * (a decision, a reason, a few strings and flags) is taken as it is, and only anything else loads
 * the protocol's zod schema: a hook that answers by exit code or plainly costs `fire` no zod.
 */
export async function readAnswer(stdout: string): Promise<ParsedAnswer> {
  const prepared = prepareAnswer(stdout)
  if (prepared === undefined) return {}
  if (!('json' in prepared)) return prepared
  const plain = plainAnswer(prepared.json)
  if (plain !== undefined) return { answer: plain }
  return (await import('./parse.ts')).checkAnswer(prepared.json)
}
