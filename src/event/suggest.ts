// The known event name nearest to a typo (`tool:pre_exectue` → `tool:pre_execute`).
import { nearest } from '../core/suggest.ts'
import { CANONICAL_EVENTS, eventAliases, isKnownEvent, resolveAlias } from './events.ts'

/** The known name a name was surely meant to be; undefined when known, a pattern, or far from every name. */
export function nearestEvent(name: string): string | undefined {
  if (isKnownEvent(name) || /[*?[\]{}()!|,]/.test(name) || name.length < 4) return undefined
  return nearest(name, [...CANONICAL_EVENTS.map((event) => event.name), ...eventAliases().map((alias) => alias.alias)])
}

/** The canonical event a known name stands for. */
export function canonicalOf(name: string): string {
  return resolveAlias(name) ?? name
}
