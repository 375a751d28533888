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
 * The enabled hooks whose event pattern matches the event, in config order, before their filters:
 * what a fire's plan remembers per event (src/config/plan.ts). A hook whose index keys the event
 * lacks cannot match: its pattern is not even compiled.
 */
export function hooksMatching(hooks: readonly Hook[], event: FiredEvent): Hook[] {
  const keys = eventKeys(event.segments)
  // Plain loops: this runs once per configured hook on every event the plan does not answer.
  const matching: Hook[] = []
  for (const hook of hooks) {
    if (hook.enabled && sharesKey(hook.eventKeys, keys) && compilePattern(hook.event).matches(event.segments)) matching.push(hook)
  }
  return matching
}

/**
 * The hooks that run for this event, in config order: those whose pattern matches and whose
 * filters pass. Nothing is spawned before this decision. `matched`: the hooks are already the
 * event's (a plan's answer), so only their filters are asked.
 */
export function selectHooks(hooks: readonly Hook[], event: FiredEvent, payload: Payload = {}, { matched = false }: { readonly matched?: boolean } = {}): Hook[] {
  const selected: Hook[] = []
  for (const hook of matched ? hooks : hooksMatching(hooks, event)) if (passesFilters(hook, event, payload)) selected.push(hook)
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
 * `if` rule's? Only hooks `selectHooks` would compile are looked at; with `matched` (a plan's
 * answer) no pattern is, so only `if` rules count. picomatch is loaded only then
 * (src/event/globs.ts; a fire of plain patterns never loads it, nor a planned fire without `if`).
 */
export function selectionUsesGlobs(hooks: readonly Hook[], event: FiredEvent, { matched = false }: { readonly matched?: boolean } = {}): boolean {
  if (matched) return hooks.some((hook) => hook.when !== undefined)
  const keys = eventKeys(event.segments)
  return hooks.some((hook) => hook.enabled && sharesKey(hook.eventKeys, keys) && (hook.when !== undefined || usesGlobs(hook.event)))
}
