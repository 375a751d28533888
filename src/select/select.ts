// Stage select: the hooks that run for an event, in config order, before anything is spawned.
import type { FiredEvent, Hook, Payload } from '../core/types.ts'
import { passesFilters } from './filters.ts'
import { compilePattern, eventKeys } from '../event/pattern.ts'

/** Why a configured hook does or does not run for an event (used by `list`). */
export type Selection = 'matched' | 'disabled' | 'no-match' | 'filtered'

export function selectionOf(hook: Hook, event: FiredEvent, payload: Payload = {}): Selection {
  if (!compilePattern(hook.event).matches(event.segments)) return 'no-match'
  if (!passesFilters(hook, event, payload)) return 'filtered'
  return hook.enabled ? 'matched' : 'disabled'
}

/**
 * The hooks that run for this event, in config order. Nothing is spawned before this decision.
 * A hook whose index keys the event lacks cannot match: its pattern is not even compiled.
 */
export function selectHooks(hooks: readonly Hook[], event: FiredEvent, payload: Payload = {}): Hook[] {
  const keys = eventKeys(event.segments)
  const mayMatch = (hook: Hook) => hook.eventKeys === undefined || hook.eventKeys.some((key) => keys.includes(key))
  return hooks.filter((hook) => hook.enabled && mayMatch(hook) && compilePattern(hook.event).matches(event.segments) && passesFilters(hook, event, payload))
}
