import type { Hook } from './config/load.ts'
import type { FiredEvent } from './event.ts'
import { compilePattern } from './pattern.ts'

/** Why a configured hook does or does not run for an event (used by `list`). */
export type Selection = 'matched' | 'disabled' | 'no-match'

export function selectionOf(hook: Hook, event: FiredEvent): Selection {
  if (!compilePattern(hook.event).matches(event.segments)) return 'no-match'
  return hook.enabled ? 'matched' : 'disabled'
}

/** The hooks that run for this event, in config order. Nothing is spawned before this decision. */
export function selectHooks(hooks: readonly Hook[], event: FiredEvent): Hook[] {
  return hooks.filter((hook) => hook.enabled && compilePattern(hook.event).matches(event.segments))
}
