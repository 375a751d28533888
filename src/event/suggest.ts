// The known event name nearest to a typo (`tool:pre_exectue` → `tool:pre_execute`).
import { distance } from 'fastest-levenshtein'
import { CANONICAL_EVENTS, EVENT_ALIASES, isKnownEvent, resolveAlias } from './events.ts'

/** At most this many edits away counts as a typo of a known name; farther is a custom event. */
const MAX_EDITS = 2

const KNOWN_NAMES = [...CANONICAL_EVENTS.map((event) => event.name), ...EVENT_ALIASES.map((alias) => alias.alias)]

/**
 * The known name a name was surely meant to be, or undefined when it is known, holds pattern
 * characters, or is far from every known name (hookrun serves any agent's own events).
 */
export function nearestEvent(name: string): string | undefined {
  if (isKnownEvent(name) || /[*?[\]{}()!|,]/.test(name) || name.length < 4) return undefined
  let best: string | undefined
  let bestDistance = MAX_EDITS + 1
  for (const known of KNOWN_NAMES) {
    const edits = distance(name.toLowerCase(), known.toLowerCase())
    if (edits < bestDistance) {
      best = known
      bestDistance = edits
    }
  }
  return best
}

/** The canonical event a known name stands for. */
export function canonicalOf(name: string): string {
  return resolveAlias(name) ?? name
}
