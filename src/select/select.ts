// Stage select: the hooks that run for an event, in config order, before anything is spawned.
import type { FiredEvent, Hook, Payload } from '../core/types.ts'
import { passesFilters } from './filters.ts'
import { compilePattern, eventKeys, usesGlobs } from '../event/pattern.ts'

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
  // Plain loops: this runs once per configured hook on every event.
  const selected: Hook[] = []
  for (const hook of hooks) {
    if (!hook.enabled || !sharesKey(hook.eventKeys, keys)) continue
    if (compilePattern(hook.event).matches(event.segments) && passesFilters(hook, event, payload)) selected.push(hook)
  }
  return selected
}

/** Does a hook with these index keys (none stored: it may) share one with the event? */
function sharesKey(hookKeys: readonly string[] | undefined, keys: readonly string[]): boolean {
  if (hookKeys === undefined) return true
  for (const key of hookKeys) if (keys.includes(key)) return true
  return false
}

/**
 * Would selecting among these hooks for this event match a glob: an event pattern's, or a Claude
 * `if` rule's? Only hooks `selectHooks` would compile are looked at. picomatch is loaded only then
 * (src/event/globs.ts; a fire of plain patterns never loads it).
 */
export function selectionUsesGlobs(hooks: readonly Hook[], event: FiredEvent): boolean {
  const keys = eventKeys(event.segments)
  return hooks.some((hook) => hook.enabled && sharesKey(hook.eventKeys, keys) && (hook.when !== undefined || usesGlobs(hook.event)))
}
