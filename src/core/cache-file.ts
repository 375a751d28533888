// Small JSON files hookrun keeps for itself (caches, records), written so readers never see half.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { writeFileAtomic } from './atomic-write.ts'
import { dirname, join } from 'node:path'
import { makeFolders } from './places.ts'

/**
 * Replace a JSON file atomically (`writeFileAtomic`), so a fire running at the same time reads
 * the old content or the new, never half of either. Failing to
 * write (a read-only home) only costs speed: caches are rebuilt. True when it was written.
 */
export function writeJsonAtomic(file: string, value: unknown): boolean {
  try {
    makeFolders(dirname(file))
    writeFileAtomic(file, `${JSON.stringify(value)}\n`, 0o600)
    return true
  } catch {
    return false
  }
}

/** A JSON file's value; undefined when it is missing, cannot be read or is not JSON. */
export function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}

/**
 * 32-bit FNV-1a, as 8 hex digits: names a cache or state file, nothing more (node:crypto costs the
 * compiled binary ~4 ms to load; a collision only makes two keys share a file, which its content
 * tells apart).
 */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, '0')
}

/** Cache files not written for this long are removed when a new one is made beside them. */
const STALE_CACHE_MS = 30 * 24 * 60 * 60 * 1000

/**
 * Write a cache file that is one of many in its folder (one per project or set of config files):
 * when it is new, the folder's files not written for STALE_CACHE_MS go (projects long gone or
 * unused cost a read-modify-write of nothing; a fire that needs one again rebuilds it), so the
 * folder does not grow without bound. Runs only when a file is first made, never on a read.
 */
export function writeCacheEntry(file: string, value: unknown): boolean {
  const isNew = !existsSync(file)
  const written = writeJsonAtomic(file, value)
  if (written && isNew) pruneStale(dirname(file), Date.now() - STALE_CACHE_MS)
  return written
}

function pruneStale(dir: string, before: number): void {
  try {
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.json')) continue
      const path = join(dir, name)
      if (statSync(path).mtimeMs < before) rmSync(path, { force: true })
    }
  } catch {
    // A folder that cannot be read or a file removed meanwhile: nothing to prune now.
  }
}
