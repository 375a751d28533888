// The error of a payload that cannot be read: its own module, so the payload's readers share it without import circles.
import { HookrunError } from '../core/errors.ts'
import type { Payload } from '../core/types.ts'

/**
 * A payload that cannot be read or is not one JSON object. The CLI blocks a gate event on it
 * (docs/guarantees.md): an agent reads exit 1 as "proceed". `partial` holds the fields a tolerant parse
 * found before a syntax error, so the agent's event can still be told from them.
 */
export class PayloadError extends HookrunError {
  readonly partial?: Payload
  /** The text that did not parse (set until `readPayload` has located the error). */
  readonly text?: string
  constructor(message: string, partial?: Payload, text?: string) {
    super(message)
    this.partial = partial
    this.text = text
  }
}
