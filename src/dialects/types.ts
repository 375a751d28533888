import type { Payload } from '../payload.ts'
import type { Decision } from '../protocol.ts'
import type { Rendered } from '../render.ts'

/** An agent's hook protocol: how its payload names the event, and how it reads a decision. */
export interface Dialect {
  readonly name: string
  /** Does this payload come from this agent? */
  detect(payload: Payload): boolean
  /** The event the payload is about, in any name hookrun resolves (an alias is fine). */
  eventName(payload: Payload): string | undefined
  /** The decision in the agent's own JSON and exit code; `warnings` name what it cannot honour. */
  render(decision: Decision, payload: Payload): Rendered & { readonly warnings: readonly string[] }
}
