// Stage select: the hooks that run for an event, in config order, before anything is spawned.
import type { FiredEvent, Hook, Payload } from '../core/types.ts'
import { passesFilters } from './filters.ts'
import { compilePattern, eventKeys, hooksMatching, sharesKey, usesGlobs } from '../event/pattern.ts'
import { loadGlobs } from '../event/globs.ts'

/** Why a configured hook does or does not run for an event (used by `list`). */
type Selection = 'matched' | 'disabled' | 'no-match' | 'filtered'

export function selectionOf(hook: Hook, event: FiredEvent, payload: Payload = {}): Selection {
  if (!compilePattern(hook.event).matchesEvent(event)) return 'no-match'
  if (!passesFilters(hook, event, payload)) return 'filtered'
  return hook.enabled ? 'matched' : 'disabled'
}

/** The hooks that run for this event, in config order; `matched`: they are the event's already (only filters are asked). */
export function selectHooks(
  hooks: readonly Hook[],
  event: FiredEvent,
  payload: Payload = {},
  { matched = false }: { readonly matched?: boolean } = {},
): Hook[] {
  const selected: Hook[] = []
  for (const hook of matched ? hooks : hooksMatching(hooks, event)) if (passesFilters(hook, event, payload)) selected.push(hook)
  return selected
}

/** The select stage as a fire runs it: picomatch loaded first when selecting needs a glob. */
export async function select(
  hooks: readonly Hook[],
  event: FiredEvent,
  payload: Payload,
  options: { readonly matched?: boolean } = {},
): Promise<Hook[]> {
  if (selectionUsesGlobs(hooks, event, options)) await loadGlobs()
  return selectHooks(hooks, event, payload, options)
}

/** Would selecting among these hooks match a glob (a pattern `selectHooks` would compile, or an `if` rule)? */
export function selectionUsesGlobs(
  hooks: readonly Hook[],
  event: FiredEvent,
  { matched = false }: { readonly matched?: boolean } = {},
): boolean {
  if (matched) return hooks.some((hook) => hook.when !== undefined)
  const keys = eventKeys(event.segments, event.alternates)
  return hooks.some((hook) => hook.enabled && sharesKey(hook.eventKeys, keys) && (hook.when !== undefined || usesGlobs(hook.event)))
}
