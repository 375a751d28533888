/**
 * The canonical event vocabulary (DESIGN §3). Names are `domain:action`, lowercase; a tool
 * event is qualified with its subject (`tool:pre_execute:bash`) when it is fired.
 *
 * `gate` marks the events an agent can still stop: a blocking hook that fails on one of them
 * blocks by default (fail closed), on any other event it only warns (fail open).
 */
export interface CanonicalEvent {
  readonly name: string
  readonly gate: boolean
  readonly description: string
}

export const CANONICAL_EVENTS: readonly CanonicalEvent[] = [
  { name: 'tool:pre_execute', gate: true, description: 'before a tool runs; a block cancels the call' },
  { name: 'tool:post_execute', gate: false, description: 'after a tool succeeded' },
  { name: 'tool:error', gate: false, description: 'after a tool failed' },
  { name: 'llm:pre_request', gate: true, description: 'before a model request' },
  { name: 'llm:post_response', gate: false, description: 'after a model response' },
  { name: 'llm:stream_start', gate: false, description: 'a model response starts streaming' },
  { name: 'llm:stream_end', gate: false, description: 'a model response finished streaming' },
  { name: 'session:start', gate: false, description: 'a session starts or resumes' },
  { name: 'session:end', gate: false, description: 'a session ends' },
  { name: 'session:message', gate: false, description: 'a message is added to the session' },
  { name: 'permission:check', gate: true, description: 'a permission is checked' },
  { name: 'permission:prompt', gate: true, description: 'the user is about to be asked for a permission' },
  { name: 'permission:granted', gate: false, description: 'a permission was granted' },
  { name: 'permission:denied', gate: false, description: 'a permission was denied' },
  { name: 'user:prompt_submit', gate: true, description: 'the user submitted a prompt; a block erases it' },
  { name: 'user:interrupt', gate: false, description: 'the user interrupted the agent' },
  { name: 'agent:start', gate: false, description: 'the agent begins processing user input' },
  { name: 'agent:stop', gate: false, description: 'the agent finished; a block asks it to keep going' },
  { name: 'turn:start', gate: false, description: 'before each model turn' },
  { name: 'turn:end', gate: false, description: 'after each model turn' },
  { name: 'subagent:start', gate: false, description: 'a subagent was started' },
  { name: 'subagent:stop', gate: false, description: 'a subagent finished' },
  { name: 'notification', gate: false, description: 'the agent shows a notification' },
  { name: 'context:pre_compact', gate: false, description: 'before the conversation is compacted' },
]

const BY_NAME = new Map(CANONICAL_EVENTS.map((event) => [event.name, event]))

export function canonicalEvent(name: string): CanonicalEvent | undefined {
  return BY_NAME.get(name)
}

/** Whether a failing blocking hook on this event blocks by default (see `gate`). */
export function isGate(name: string): boolean {
  return BY_NAME.get(name)?.gate ?? false
}
