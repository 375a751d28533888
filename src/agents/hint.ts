// Which dialect a payload is written in, guessed cheaply before any dialect code loads.
import type { Payload } from '../core/types.ts'

/**
 * Might this payload come from an agent with a protocol of its own? A cheap look at field
 * shapes, so that `fire` loads the dialect modules only when they can matter: most agents name
 * their event in `hook_event_name`, Windsurf in `agent_action_name`, Cline in `hookName`, Letta Code in `event_type` beside a `working_directory`, Crush and Goose in `event`
 * beside a `session_id`, Reasonix in `event` beside a camelCase `sessionId`, and Copilot's camelCase payloads have a `sessionId` with a numeric `timestamp`.
 * Which agent it is, is decided in ./index.ts.
 */
export function mayBeAgentPayload(payload: Payload): boolean {
  return (
    typeof payload.hook_event_name === 'string' ||
    typeof payload.agent_action_name === 'string' ||
    typeof payload.hookName === 'string' ||
    (typeof payload.event_type === 'string' && typeof payload.working_directory === 'string') ||
    (typeof payload.event === 'string' && (typeof payload.session_id === 'string' || typeof payload.sessionId === 'string')) ||
    (typeof payload.sessionId === 'string' && (typeof payload.timestamp === 'number' || typeof payload.hookEventName === 'string'))
  )
}
