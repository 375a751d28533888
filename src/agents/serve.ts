// Agents whose hooks can be http handlers that POST each event to one warm `hookrun serve` on
// loopback (Claude Code), and what serve and `install --serve` must know of them.

/** How an agent takes http hook handlers. */
export interface HttpHooks {
  /** The path its events are posted to on hookrun serve (`/claude`). */
  readonly route: string
  /** The first version whose http handlers take `onFailure` (without it a dead server lets every gate through). */
  readonly minVersion: string
  /** Its program on PATH, to read that version (`<program> --version`). */
  readonly program: string
  /**
   * Events that keep a command, which starts the server when none answers (an http handler
   * cannot start it): one process per session and per prompt, none per tool call.
   */
  readonly commandEvents: readonly string[]
  /** The variable it sets for its hooks with the session's project. */
  readonly projectVariable: string
  /** Variables of one session's that the server, which answers every session, must not keep. */
  readonly sessionVariables: readonly string[]
}
