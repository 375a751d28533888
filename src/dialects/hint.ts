// Which dialect a payload is written in, guessed cheaply before any dialect code loads.
import type { Payload } from '../core/types.ts'

/**
 * Might this payload come from an agent with a protocol of its own? A cheap look at two field
 * shapes, so that `fire` loads the dialect modules only when they can matter: every agent but
 * Copilot names its event in `hook_event_name`, and Copilot's camelCase payloads have a
 * `sessionId` with a numeric `timestamp`. Which agent it is, is decided in ./index.ts.
 */
export function mayBeAgentPayload(payload: Payload): boolean {
  return typeof payload.hook_event_name === 'string' || (typeof payload.sessionId === 'string' && typeof payload.timestamp === 'number')
}
