// Trust records: one file per trusted project in the user's state folder (read, written,
// removed), the texts kept beside it for `hookrun trust --diff`, and what a fire's plan checks
// instead of asking trust again (`trustFootprint`).
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { writeFileAtomic } from '../core/atomic-write.ts'
import { readJsonFile } from '../core/cache-file.ts'
import { HookrunError } from '../core/errors.ts'
import { makeOwnFolder, stateDir } from '../core/places.ts'
import { realPath } from '../discover/folders.ts'
import { statSignature } from '../core/stat.ts'
import type { TrustFootprint } from './footprint.ts'
import { type ConfigDocument, type FileHash, hashProjectMaterial, projectMaterial, sha256, withCommandPaths } from './material-hash.ts'
import { collectFiles, relativePath } from './material.ts'
import { linkedWorktreeOf, mainCheckoutOf } from './worktree.ts'

type Env = Readonly<Record<string, string | undefined>>

export interface TrustRecord {
  readonly version: 1
  /** The project root's real path. */
  readonly root: string
  readonly digest: string
  /** Per file: its hash, and its stat signature when that can stand in for hashing (see `settled`). */
  readonly files: Readonly<Record<string, FileHash & { readonly stat: string | null }>>
  readonly trustedAt: string
  /** What the material did not pin when it was trusted (see src/trust/material.ts). */
  readonly notCovered?: readonly string[]
}

/** The record file is hookrun's own; a light check keeps the cold start of `fire` short. */
function asTrustRecord(value: unknown): TrustRecord | undefined {
  const record = value as Partial<TrustRecord> | null
  if (
    record?.version !== 1 ||
    typeof record.root !== 'string' ||
    typeof record.digest !== 'string' ||
    typeof record.files !== 'object' ||
    record.files === null
  )
    return undefined
  const filesValid = Object.values(record.files).every(
    (file) =>
      typeof file?.sha256 === 'string' && typeof file.executable === 'boolean' && (file.stat === null || typeof file.stat === 'string'),
  )
  return filesValid ? (record as TrustRecord) : undefined
}

/**
 * Whether a signature taken at `trustedAtMs` can stand in for the file's hash later: a file changed
 * within the clock's grain of its trust could change again unseen, so it is hashed on every fire ("racy git").
 */
function settled(signature: string, trustedAtMs: number): boolean {
  const at = settledAt(signature)
  return at !== undefined && at < trustedAtMs
}

/** When a file with this signature counts as settled (its change time plus the clock's grain), if it exists. */
function settledAt(signature: string): number | undefined {
  const changed = signature === 'missing' ? undefined : BigInt(signature.slice(signature.lastIndexOf(':') + 1))
  if (changed === undefined) return undefined
  const coarse = changed % 1_000_000_000n === 0n
  return Number(changed / 1_000_000n) + (coarse ? 2000 : 100)
}

/**
 * Wait until every file just written has settled, so the record can hold its signature (else every fire
 * would hash it and no plan be made): at most 100 ms, 2 s where timestamps are whole seconds.
 */
function waitUntilSettled(files: readonly string[]): void {
  const latest = Math.max(0, ...files.map((file) => settledAt(statSignature(file)) ?? 0))
  const wait = Math.min(latest + 1 - Date.now(), 2500)
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait)
}

/** The fast path of `fire`: the same files as recorded, each with its recorded, settled signature. */
export function unchangedSince(record: TrustRecord, projectRoot: string, files: readonly string[]): boolean {
  if (files.length !== Object.keys(record.files).length) return false
  return files.every((file) => {
    const recorded = record.files[relativePath(projectRoot, file)]
    return recorded?.stat != null && recorded.stat === statSignature(file)
  })
}

/**
 * What the project's trust by record rests on (src/trust/footprint.ts), for a fire's plan to check
 * instead of asking trust again; undefined when there is no record or trust would hash a file now. The
 * record's signature is taken before it is read, so one replaced or removed meanwhile shows as changed.
 */
export function trustFootprint(
  projectRoot: string,
  documents: readonly ConfigDocument[],
  env: Env = process.env,
): TrustFootprint | undefined {
  const seen = recordSeen(projectRoot, env)
  const configFiles = documents.map((document) => document.ref.file)
  const paths = documents.flatMap(
    (document) => (document.commandPaths?.root === projectRoot ? document : withCommandPaths(document, projectRoot)).commandPaths!.paths,
  )
  const material = collectFiles(projectRoot, configFiles, paths)
  if (seen === undefined) return worktreeFootprint(projectRoot, material, { configFiles, commandPaths: [...new Set(paths)] }, env)
  if (!unchangedSince(seen.record, projectRoot, material)) return undefined
  const files = material.map((file): [string, string] => [file, seen.record.files[relativePath(projectRoot, file)]!.stat!])
  return { record: [seen.file, seen.signature], files, configFiles, commandPaths: [...new Set(paths)] }
}

/**
 * A git worktree held to its main checkout's record: what that trust rests on once the material hashes
 * to the record's digest, each signature settled and unchanged across the hashing; else undefined.
 */
function worktreeFootprint(
  projectRoot: string,
  material: readonly string[],
  named: Pick<TrustFootprint, 'configFiles' | 'commandPaths'>,
  env: Env,
): TrustFootprint | undefined {
  const worktree = linkedWorktreeOf(projectRoot)
  if (worktree === undefined) return undefined
  const seen = recordSeen(worktree.main, env)
  if (seen === undefined || material.length !== Object.keys(seen.record.files).length) return undefined
  const now = Date.now()
  const signatures = material.map(statSignature)
  if (!signatures.every((signature) => settled(signature, now))) return undefined
  if (hashProjectMaterial(projectRoot, material).digest !== seen.record.digest) return undefined
  if (material.some((file, index) => statSignature(file) !== signatures[index])) return undefined
  const links = worktree.links.map((file): [string, string] => [file, statSignature(file)])
  return {
    record: [seen.file, seen.signature],
    files: material.map((file, index): [string, string] => [file, signatures[index]!]),
    ...named,
    links,
  }
}

/** One file per project, named by its real path (base64url; a hash of it when very long). */
export function trustRecordFile(projectRoot: string, env: Env = process.env): string {
  return recordFileOf(canonicalPath(projectRoot), env)
}

function recordFileOf(root: string, env: Env): string {
  const encoded = Buffer.from(root).toString('base64url')
  return join(stateDir(env), 'trust', `${encoded.length <= 200 ? encoded : sha256(root)}.json`)
}

/** The roots of every project with a trust record (for a user install's routing, src/install/user-routing.ts). */
export function trustedRoots(env: Env = process.env): string[] {
  const dir = join(stateDir(env), 'trust')
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json') && !name.endsWith('.texts.json'))
  } catch {
    return [] // no project trusted yet
  }
  return names.flatMap((name) => {
    const record = asTrustRecord(readJsonFile(join(dir, name)))
    return record === undefined ? [] : [record.root]
  })
}

/** The project's record, or undefined when there is none (an unreadable record trusts nothing). */
export function readTrustRecord(projectRoot: string, env: Env = process.env): TrustRecord | undefined {
  const root = canonicalPath(projectRoot)
  return readRecordAt(recordFileOf(root, env), root)
}

/**
 * The project's own record with the file it is in and that file's signature, taken before it is
 * read (a record replaced or removed meanwhile shows as changed); undefined when there is none.
 */
export function recordSeen(projectRoot: string, env: Env): { file: string; signature: string; record: TrustRecord } | undefined {
  const root = canonicalPath(projectRoot)
  const file = recordFileOf(root, env)
  const signature = statSignature(file)
  const record = signature === 'missing' ? undefined : readRecordAt(file, root)
  return record === undefined ? undefined : { file, signature, record }
}

function readRecordAt(file: string, root: string): TrustRecord | undefined {
  const record = asTrustRecord(readJsonFile(file))
  return record?.root === root ? record : undefined
}

/**
 * Record the project's current material as trusted: read afresh between two stat signatures that must
 * agree, written atomically.
 */
export function writeTrustRecord(
  projectRoot: string,
  documents: readonly ConfigDocument[],
  env: Env = process.env,
  folderFiles: readonly string[] = [],
): TrustRecord {
  const { files, notCovered, refused } = projectMaterial(projectRoot, documents, folderFiles)
  if (refused.length > 0)
    throw new HookrunError(`cannot trust ${projectRoot}: ${refused[0]}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}`)
  waitUntilSettled(files)
  const trustedAt = Date.now()
  const before = files.map(statSignature)
  const material = hashProjectMaterial(projectRoot, files)
  files.forEach((file, index) => {
    if (statSignature(file) !== before[index])
      throw new HookrunError(`${file} changed while it was being hashed; run 'hookrun trust' again`)
  })
  const recorded: Record<string, TrustRecord['files'][string]> = {}
  files.forEach((file, index) => {
    const path = relativePath(projectRoot, file)
    recorded[path] = { ...material.files[path]!, stat: settled(before[index]!, trustedAt) ? before[index]! : null }
  })
  const record: TrustRecord = {
    version: 1,
    root: canonicalPath(projectRoot),
    digest: material.digest,
    files: recorded,
    trustedAt: new Date(trustedAt).toISOString(),
    notCovered,
  }
  const file = trustRecordFile(projectRoot, env)
  makeOwnFolder(dirname(file), env)
  // The texts go beside the record, for `hookrun trust --diff`; `fire` never reads them.
  writeFileAtomic(trustedTextsFile(file), `${JSON.stringify(trustedTexts(projectRoot, files))}\n`, 0o600)
  writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, 0o600)
  return record
}

/** Text files up to this size are kept for `--diff`, up to TEXTS_TOTAL in all. */
const TEXT_MAX = 64 * 1024
const TEXTS_TOTAL = 4 * 1024 * 1024

function trustedTextsFile(recordFile: string): string {
  return recordFile.replace(/\.json$/, '.texts.json')
}

/** The small text files of the material, by relative path, as they were when trusted. */
function trustedTexts(projectRoot: string, files: readonly string[]): Record<string, string> {
  const texts: Record<string, string> = {}
  let total = 0
  for (const file of files) {
    try {
      const bytes = readFileSync(file)
      if (bytes.length > TEXT_MAX || total + bytes.length > TEXTS_TOTAL || bytes.includes(0)) continue
      texts[relativePath(projectRoot, file)] = bytes.toString('utf8')
      total += bytes.length
    } catch {
      // unreadable: hashed as such, nothing to show
    }
  }
  return texts
}

/** The texts recorded with the project's trust (empty when there are none). */
export function readTrustedTexts(projectRoot: string, env: Env = process.env): Record<string, string> {
  const texts = readJsonFile(trustedTextsFile(trustRecordFile(projectRoot, env)))
  return texts === undefined ? {} : (texts as Record<string, string>)
}

/** The record a project is held to: its own, else (a git worktree) its main checkout's. */
export function trustRecordFor(projectRoot: string, env: Env = process.env): TrustRecord | undefined {
  return readTrustRecord(projectRoot, env) ?? worktreeRecord(projectRoot, env)
}

/** The trust record of the folder `projectRoot` is in the repository's main checkout, when it is in a linked worktree. */
export function worktreeRecord(projectRoot: string, env: Env): TrustRecord | undefined {
  const main = mainCheckoutOf(projectRoot)
  return main === undefined ? undefined : readTrustRecord(main, env)
}

/** Forget the project's record; false when there was none. */
export function removeTrustRecord(projectRoot: string, env: Env = process.env): boolean {
  try {
    rmSync(trustedTextsFile(trustRecordFile(projectRoot, env)), { force: true })
    rmSync(trustRecordFile(projectRoot, env))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}

/** The path with its links resolved (the record's key). */
export const canonicalPath = realPath
