// Reading a hook's stdout as an answer, loading the zod parser (./parse.ts) only for JSON output.
import type { ParsedAnswer } from '../core/types.ts'

/**
 * Read a hook's stdout as an answer. Only output that starts with `{` is parsed, and only then is
 * the protocol's zod schema loaded: a hook that answers by exit code costs `fire` no zod.
 */
export async function readAnswer(stdout: string): Promise<ParsedAnswer> {
  if (!stdout.trimStart().startsWith('{')) return {}
  return (await import('./parse.ts')).parseAnswer(stdout)
}
