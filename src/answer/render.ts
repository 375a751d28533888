// Stage render: a Decision as hookrun's own JSON and exit code (dialects render agents' JSON).
import { ExitCode } from '../core/errors.ts'
import type { Decision, Rendered } from '../core/protocol.ts'

export type { Rendered }

/** hookrun's own answer: one JSON object; exit 2 when blocked, else 0 (docs/protocol.md). */
export function renderNative(decision: Decision): Rendered {
  return {
    stdout: `${JSON.stringify(decision)}\n`,
    exitCode: decision.blocked ? ExitCode.Blocked : ExitCode.Proceed,
  }
}
