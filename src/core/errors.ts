// Errors a user can cause: each with the exit code the CLI documents and a one-line message saying what to do.

/** Exit codes of `hookrun` (documented in docs/guarantees.md "Exit codes"). */
export const ExitCode = {
  /** Proceed: no hook blocked (also success for every non-`fire` command). */
  Proceed: 0,
  /** hookrun itself could not work: bad usage, unreadable payload, fatal config (`--strict`). */
  Failure: 1,
  /** A hook blocked the event. The code Claude Code, Cursor and Gemini CLI read as "block". */
  Blocked: 2,
} as const

export class HookrunError extends Error {
  readonly exitCode: number
  constructor(message: string, exitCode: number = ExitCode.Failure) {
    super(message)
    this.name = 'HookrunError'
    this.exitCode = exitCode
  }
}

/** One line for the terminal; the stack only when HOOKRUN_DEBUG=1. */
export function formatError(error: unknown, debug: boolean): string {
  const message = error instanceof Error ? error.message : String(error)
  const known = error instanceof HookrunError || (error instanceof Error && error.name === 'CACError')
  const line = known ? message : `internal error: ${message} (set HOOKRUN_DEBUG=1 for details)`
  if (debug && error instanceof Error && error.stack) return `hookrun: ${line}\n${error.stack}`
  return `hookrun: ${line}`
}
