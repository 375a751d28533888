// Agents whose hooks can POST each event to one warm `hookrun serve` on loopback (Claude Code's
// http handlers; a bash command client where http handlers fail open, Qwen Code's and Copilot
// CLI's, or are missing, Gemini CLI's), and what serve and `install --serve` must know of them.

/** How an agent's hooks reach hookrun serve: its http hook handlers, or the command client. */
export interface HttpHooks {
  /** The path its events are posted to on hookrun serve (`/claude`). */
  readonly route: string
  /**
   * The first version whose http handlers take `onFailure` (without it a dead server lets every
   * gate through); absent where gates go through `client` instead.
   */
  readonly minVersion?: string
  /** Its program on PATH, to read that version (`<program> --version`). */
  readonly program: string
  /**
   * Events that keep a command, which starts the server when none answers (an http handler
   * cannot start it): one process per session and per prompt, none per tool call.
   */
  readonly commandEvents: readonly string[]
  /** The variable it sets for its hooks with the session's project (none: the payload's `cwd` is the project). */
  readonly projectVariable?: string
  /** Variables of one session's that the server, which answers every session, must not keep. */
  readonly sessionVariables: readonly string[]
  /** The payload field naming the session (default `session_id`). */
  readonly sessionField?: string
  /**
   * Its `serve --start` commands carry no `--format`, and `serve --start` without one is its: they
   * were written before a second agent was served, and installs keep writing them so.
   */
  readonly startWithoutFormat?: boolean
  /** Its payloads do not name the event: the url does (`/copilot/preToolUse`). */
  readonly eventInUrl?: boolean
  /**
   * Its http handlers let a failure through: gate events get a bash client that exits `blockExit` when the
   * server does not answer; `everyEvent`: every event gets it (loopback needs a variable in its environment).
   */
  readonly client?: {
    readonly blockExit: number
    readonly everyEvent: boolean
    readonly why: string
    /**
     * Its command handlers run in the user's own shell (`$SHELL -c`, else `/bin/sh`), not bash: the
     * client's first line is its mark, and the rest runs as `exec bash -c '…'`.
     */
    readonly inUserShell?: boolean
    /**
     * A gate's answer that blocks, printed with that exit where the agent tells the model only
     * the exit code otherwise (Copilot CLI 1.0.102: "hook exited with code 2"), by event.
     */
    readonly blockAnswers?: Readonly<Record<string, (reason: string) => Record<string, unknown>>>
  }
}
