// Small JSON files hookrun keeps for itself (caches, records), written so readers never see half.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { writeFileAtomic } from './atomic-write.ts'
import { dirname, join } from 'node:path'
import { makeFolders } from './places.ts'

/** Replace a JSON file atomically; true when written (failing only costs speed: caches are rebuilt). */
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

/** 32-bit FNV-1a as 8 hex digits, to name a cache or state file (node:crypto costs ~4 ms to load; contents tell collisions apart). */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, '0')
}

/** Cache files not written for this long are removed when a new one is made beside them. */
const STALE_CACHE_MS = 30 * 24 * 60 * 60 * 1000

/** Write a cache file that is one of many in its folder; a new one prunes the folder's stale files, so it stays bounded. */
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
