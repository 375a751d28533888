// Parsed config documents cached by stat signature, so fire loads no zod while files are unchanged.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { writeJsonAtomic } from '../core/cache-file.ts'
import { userCacheDir } from '../core/places.ts'
import type { ConfigDocument } from './document.ts'
import type { ConfigFileRef } from '../core/types.ts'

/**
 * Parsed config files, kept between fires. Validating a config means loading zod and its schemas,
 * which costs a compiled hookrun more than everything else `fire` does; a file whose stat
 * signature (inode, size, modification and change time) is unchanged parses to the same
 * document, so `fire` reads it from here and never loads zod. A file changed in the last two
 * seconds is parsed every time until it settles. The cache is bound to the hookrun
 * version (a newer one may read configs differently) and rewritten atomically; a missing or
 * damaged cache only costs one parse.
 */

type Env = Readonly<Record<string, string | undefined>>
type CachedDocument = Omit<ConfigDocument, 'ref' | 'text'>

const FORMAT = `${pkg.version}/1`

export interface DocumentCache {
  /** The cached document of a file whose signature is unchanged, else undefined. */
  get(ref: ConfigFileRef): ConfigDocument | undefined
  /**
   * Remember a document read from `ref`. `before` is the file's signature taken before it was
   * read: if the file changed while it was read, nothing is stored.
   */
  put(ref: ConfigFileRef, document: ConfigDocument, before: string | undefined): ConfigDocument
  /** The file's stat signature now (take it before reading the file). */
  signature(ref: ConfigFileRef): string | undefined
  /** Write the cache if anything was put. */
  save(): void
}

export function configCacheFile(env: Env): string {
  return join(userCacheDir(env), 'config-documents.json')
}

export function openDocumentCache(env: Env): DocumentCache {
  const file = configCacheFile(env)
  const entries = readEntries(file)
  let changed = false
  return {
    get(ref) {
      const entry = entries[ref.file]
      if (entry === undefined || entry.signature !== signature(ref.file)) return undefined
      // Entries carry their file reference; the layer can differ between fires (--config).
      return { ...entry.document, ref, entries: entry.document.entries.map((parsed) => ({ ...parsed, ref })) }
    },
    signature: (ref) => signature(ref.file),
    put(ref, document, before) {
      const at = signature(ref.file)
      if (at !== undefined && at === before && settled(ref.file)) {
        const { ref: _ref, text: _text, ...kept } = document
        entries[ref.file] = { signature: at, document: { ...kept, entries: kept.entries.map(({ ref: _entryRef, ...parsed }) => parsed) } as unknown as CachedDocument }
        changed = true
      }
      return document
    },
    save() {
      if (changed) writeJsonAtomic(file, { format: FORMAT, entries })
    },
  }
}

interface Entry {
  readonly signature: string
  readonly document: CachedDocument
}

function readEntries(file: string): Record<string, Entry> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; entries?: Record<string, Entry> }
    if (parsed.format === FORMAT && typeof parsed.entries === 'object' && parsed.entries !== null) return parsed.entries
  } catch {
    // Not there yet, or damaged: parse again and rewrite it.
  }
  return {}
}

/**
 * Only a file untouched for a while is cached: an edit within the same timestamp tick as the
 * cached one (same size, same times on a coarse file system) would otherwise go unseen.
 */
const SETTLE_MS = 2000

function settled(file: string): boolean {
  try {
    const stat = statSync(file)
    return Date.now() - stat.mtimeMs > SETTLE_MS
  } catch {
    return false
  }
}

function signature(file: string): string | undefined {
  try {
    const stat = statSync(file)
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`
  } catch {
    return undefined
  }
}
