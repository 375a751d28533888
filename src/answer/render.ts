// Stage render: a Decision as hookrun's own JSON and exit code (dialects render agents' JSON).
import { ExitCode } from '../core/errors.ts'
import type { Decision } from '../core/protocol.ts'

export interface Rendered {
  readonly stdout: string
  readonly exitCode: number
  /** For agents that read the reason of a block from stderr (Windsurf, Kiro). */
  readonly stderr?: string
  /**
   * For the person at the keyboard, where the agent shows nothing of a hook's output (Cline):
   * written to the terminal the agent runs in, when it runs in one.
   */
  readonly terminal?: string
}

/** hookrun's own answer: one JSON object; exit 2 when blocked, else 0 (docs/protocol.md). */
export function renderNative(decision: Decision): Rendered {
  return {
    stdout: `${JSON.stringify(decision)}\n`,
    exitCode: decision.blocked ? ExitCode.Blocked : ExitCode.Proceed,
  }
}
