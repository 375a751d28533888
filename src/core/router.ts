// How the commands of hookrun's router entries in agents' files end (install writes them).

/**
 * `<hookrun> fire [event] --format <agent>` at the end of a command: the entry through which an
 * agent asks hookrun (any hookrun path, any event). `agent` defaults to any dialect name; `serves`:
 * the agent's `install --serve` also runs `serve --start` on SessionStart and UserPromptSubmit
 * (`--format <agent>` but for Claude Code's, an event first for Copilot's); the default, any agent's tail, takes it too.
 */
export function routerTail(agent = '[a-z]+', serves = agent === '[a-z]+'): RegExp {
  const served = serves ? `|\\sserve\\s+--start(?:\\s+[A-Za-z_]+)?(?:\\s+--port[= ]\\d+)?(?:\\s+--format[= ]${agent})?\\s*$` : ''
  return new RegExp(`\\sfire(?:\\s+[A-Za-z_:.-]+)?\\s+--format[= ]${agent}\\s*$${served}`)
}

/**
 * Is this command an agent's entry into hookrun rather than a hook? Read as a hook (hookrun's own
 * Goose plugin added with `hookrun plugin add`), it would fire hookrun inside itself on every event.
 */
export function isRouterInvocation(command: unknown): boolean {
  return typeof command === 'string' && routerTail().test(command)
}
