// Parsed config documents cached by stat signature, so fire loads no zod while files are unchanged.
import { join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { fnv1a, readJsonFile, writeCacheEntry } from '../core/cache-file.ts'
import { userCacheDir } from '../core/places.ts'
import { signatureSettled, signatureTaker, statSignature } from '../core/stat.ts'
import type { ConfigDocument, ParsedEntry } from './document.ts'
import type { ConfigFileRef } from '../core/types.ts'

/**
 * Parsed config files, kept between fires: validating loads zod, which costs a compiled hookrun more
 * than the rest of `fire`, and a file whose stat signature is unchanged parses to the same document.
 * A file changed in the last two seconds is parsed until it settles.
 *
 * One small cache file per set of config files, named by a hash of their paths: a fire reads only its
 * own project's, in one read (one shared file cost 3.7–5.3 ms a fire). It is written only under
 * MAX_CACHE_BYTES, never with a document the caller did not keep (a repository cannot make hookrun
 * store what it wrote), bound to the hookrun version, atomically; a bad cache file costs one parse.
 */

type Env = Readonly<Record<string, string | undefined>>
type CachedDocument = Omit<ConfigDocument, 'ref' | 'text'>

// Raised whenever what a cached document holds changes.
const FORMAT = `${pkg.version}/6`

/** A cache file larger than this is not written: such configs are parsed on every fire. */
export const MAX_CACHE_BYTES = 1024 * 1024

interface DocumentCache {
  /** The cached document of a file whose signature is unchanged, else undefined. */
  get(ref: ConfigFileRef): ConfigDocument | undefined
  /**
   * Remember a document read from `ref`. `before` is the file's signature taken before it was
   * read: if the file changed while it was read, nothing is stored.
   */
  put(ref: ConfigFileRef, document: ConfigDocument, before: string | undefined): ConfigDocument
  /** The file's stat signature now (take it before reading the file). */
  signature(ref: ConfigFileRef): string | undefined
  /** The signature `get` compared the file's entry with (one stat per file and fire), else one taken now. */
  compared(ref: ConfigFileRef): string | undefined
  /** Write the cache if anything was put, with only the documents `keep` accepts. */
  save(keep?: (ref: ConfigFileRef) => boolean): void
}

/** The cache file for one set of config files. */
export function configCacheFile(env: Env, files: readonly ConfigFileRef[]): string {
  return join(userCacheDir(env), 'config', `${fnv1a(files.map((ref) => ref.file).join('\n'))}.json`)
}

/**
 * The cache for one set of config files. `signatureOf` is the fire's look (./observe.ts): a fire
 * asks for each file more than once (is everything cached? then each read; the plan's inputs),
 * and each path is stat'd once in it.
 */
export function openDocumentCache(
  env: Env,
  files: readonly ConfigFileRef[],
  signatureOf: (file: string) => string = signatureTaker(),
): DocumentCache {
  const file = configCacheFile(env, files)
  const entries = readEntries(file)
  const refs = new Map<string, ConfigFileRef>()
  const compared = (ref: ConfigFileRef) => {
    const signature = signatureOf(ref.file)
    return signature === 'missing' ? undefined : signature
  }
  // What `get` gave for each file, so asking again (a fire asks twice) builds no new entries.
  const served = new Map<string, ConfigDocument>()
  let changed = false
  return {
    get(ref) {
      const entry = entries[ref.file]
      if (entry === undefined || entry.signature !== compared(ref)) return undefined
      refs.set(ref.file, ref)
      const given = served.get(ref.file)
      if (given !== undefined && given.ref.layer === ref.layer) return given
      // Entries carry their file reference; the layer can differ between fires (--config). They
      // were parsed from the cache file for this fire alone, so the reference is set on them
      // (1,000 entries copied cost half a millisecond; `save` leaves it out again), unless they
      // were already given out under another layer.
      const parsedEntries = given === undefined ? entry.document.entries : entry.document.entries.map((parsed) => ({ ...parsed }))
      for (const parsed of parsedEntries) (parsed as { ref?: ConfigFileRef }).ref = ref
      const document = { ...entry.document, ref, entries: parsedEntries } as ConfigDocument
      served.set(ref.file, document)
      return document
    },
    signature: (ref) => fileSignature(ref.file),
    compared,
    put(ref, document, before) {
      const at = fileSignature(ref.file)
      refs.set(ref.file, ref)
      if (at !== undefined && at === before && signatureSettled(at)) {
        const { ref: _ref, text: _text, ...kept } = document
        entries[ref.file] = {
          signature: at,
          document: { ...kept, entries: kept.entries.map(({ ref: _entryRef, ...parsed }) => parsed) } as unknown as CachedDocument,
        }
        changed = true
      }
      return document
    },
    save(keep = () => true) {
      if (!changed) return
      // Only this set's files, and only those the caller keeps.
      const kept = Object.fromEntries(
        Object.entries(entries)
          .filter(([path]) => refs.has(path) && keep(refs.get(path)!))
          .map(([path, { signature, document }]) => [
            path,
            { signature, document: { ...document, entries: document.entries.map(({ ref: _ref, ...parsed }: ParsedEntry) => parsed) } },
          ]),
      )
      const value = { format: FORMAT, entries: kept }
      if (Object.keys(kept).length > 0 && Buffer.byteLength(JSON.stringify(value)) <= MAX_CACHE_BYTES) writeCacheEntry(file, value)
    },
  }
}

interface Entry {
  readonly signature: string
  readonly document: CachedDocument
}

function readEntries(file: string): Record<string, Entry> {
  const parsed = readJsonFile(file) as { format?: unknown; entries?: Record<string, Entry> } | null | undefined
  // Not there yet, or damaged: parse again and rewrite it.
  return parsed?.format === FORMAT && typeof parsed.entries === 'object' && parsed.entries !== null ? parsed.entries : {}
}

/** Whether a file was last modified more than SETTLE_MS ago (src/core/stat.ts, the one rule). */
export function settled(file: string): boolean {
  return signatureSettled(statSignature(file))
}

/** A file's stat signature (src/core/stat.ts, the one trust and plans take too); undefined when it is not there. */
export function fileSignature(file: string): string | undefined {
  const signature = statSignature(file)
  return signature === 'missing' ? undefined : signature
}
