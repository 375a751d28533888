// The SHARED_NAMES tables of events.ts and tools.ts, read into one lookup each.

/** name → the systems in a SHARED_NAMES table that use it too (one pass, for start-up's sake). */
export function sharedSources<Source>(table: ReadonlyArray<readonly [Source, readonly string[]]>): Map<string, Source[]> {
  const sources = new Map<string, Source[]>()
  for (const [source, names] of table) {
    for (const name of names) {
      const known = sources.get(name)
      if (known === undefined) sources.set(name, [source])
      else known.push(source)
    }
  }
  return sources
}
