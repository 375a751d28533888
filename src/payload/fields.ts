// The fields agents name differently (tool input, session id): read in any agent's spelling.
import type { Payload } from '../core/types.ts'

/** Keys that hold a tool's input, in the order agents use them. */
export const TOOL_INPUT_KEYS = ['tool_input', 'toolInput', 'tool_args', 'toolArgs', 'input', 'args'] as const

/** The agent's session id, in any of the spellings agents use. */
export function sessionIdOf(payload: Payload): unknown {
  return pick(payload, 'session_id', 'sessionId', 'conv_id', 'conversation_id')
}

export function toolInput(payload: Payload): unknown {
  return pick(payload, ...TOOL_INPUT_KEYS)
}

/** The first of `keys` the payload has a value for. */
function pick(payload: Payload, ...keys: string[]): unknown {
  for (const key of keys) {
    const value = payload[key]
    if (value !== undefined && value !== null) return value
  }
  return undefined
}
