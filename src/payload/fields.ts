// The fields agents name differently (tool input, prompt, session id): read in any agent's spelling, and rewritten.
import type { FiredEvent, Payload } from '../core/types.ts'
import { spreadKeepingLongStrings } from './long-strings.ts'

/** Keys that hold a tool's input, in the order agents use them. */
const TOOL_INPUT_KEYS = ['tool_input', 'toolInput', 'tool_args', 'toolArgs', 'input', 'args'] as const

/** Keys that hold the user's prompt, in the order agents use them. */
export const PROMPT_KEYS = ['prompt', 'user_prompt', 'userPrompt', 'message'] as const

/** The agent's session id, in any of the spellings agents use. */
export function sessionIdOf(payload: Payload): unknown {
  return pick(payload, 'session_id', 'sessionId', 'conv_id', 'conversation_id')
}

export function toolInput(payload: Payload): unknown {
  return pick(payload, ...TOOL_INPUT_KEYS)
}

/** The prompt field a rewrite replaces (`withRewrite`). */
export function promptOf(payload: Payload): unknown {
  const key = PROMPT_KEYS.find((name) => name in payload)
  return key === undefined ? undefined : payload[key]
}

/** The payload with a hook's rewrite: its tool input and prompt replaced under the keys the payload uses. */
export function withRewrite(
  payload: Payload,
  updatedInput: Record<string, unknown> | undefined,
  updatedPrompt: string | undefined,
): Payload {
  const next = spreadKeepingLongStrings(payload)
  if (updatedInput !== undefined) next[TOOL_INPUT_KEYS.find((key) => key in payload) ?? 'tool_input'] = updatedInput
  if (updatedPrompt !== undefined) next[PROMPT_KEYS.find((key) => key in payload) ?? 'prompt'] = updatedPrompt
  return next
}

/** Hooks get the event name in the payload too (unless the agent put its own), and an MCP call's parts in `mcp`. */
export function withEventName(payload: Payload, event: FiredEvent): Payload {
  const mcp = event.mcp !== undefined && !('mcp' in payload)
  if ('event' in payload && 'hook_event_name' in payload && !mcp) return payload
  return spreadKeepingLongStrings(payload, {
    event: payload.event ?? event.qualified,
    hook_event_name: payload.hook_event_name ?? event.name,
    ...(mcp && { mcp: { server: event.mcp!.server, tool: event.mcp!.tool } }),
  })
}

/** Whether two versions of the payload hold the same tool input and prompt: what a gate's judgement of it rests on. */
export function sameJudgedInput(a: Payload, b: Payload): boolean {
  if (a === b) return true
  return JSON.stringify(toolInput(a) ?? null) === JSON.stringify(toolInput(b) ?? null) && promptOf(a) === promptOf(b)
}

/** The first of `keys` the payload has a value for. */
function pick(payload: Payload, ...keys: string[]): unknown {
  for (const key of keys) {
    const value = payload[key]
    if (value !== undefined && value !== null) return value
  }
  return undefined
}
