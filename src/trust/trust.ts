/**
 * Trust for project material (docs/guarantees.md). A project's hooks.json files arrive with a cloned
 * repository; their hooks run only once the user trusted that exact content (`hookrun trust`), or the
 * project lies in a `trustedFolders` folder. The user's own config and `--config` files are always trusted.
 *
 * A trust record (one small file per project in the state folder) holds a sha256 of every file of the
 * project's material (`projectMaterial`): any edit, addition or removal untrusts it. It also keeps each
 * file's stat signature, so that a trusted project costs `fire` no hashing: no write, chmod or
 * replacement leaves the change time as it was. When anything differs, the hashes decide.
 */
import { dirname, resolve } from 'node:path'
import { compileGlob, isGlob } from '../event/globs.ts'
import type { Settings } from '../core/types.ts'
import { changedFiles, type ConfigDocument, hashProjectMaterial, materialFiles, textsOf } from './material-hash.ts'
import { canonicalPath, recordSeen, unchangedSince, worktreeRecord } from './records.ts'
import type { TrustFootprint } from './footprint.ts'
import { relativePath } from './material.ts'

type Env = Readonly<Record<string, string | undefined>>

/** Whether a project's hooks may run, and why. */
export interface ProjectTrust {
  /** The project root (the folder holding `.hookrun/`). */
  readonly root: string
  readonly trusted: boolean
  /** Trusted by a `trustedFolders` entry (no hashing), or by a trust record that matches. */
  readonly via?: 'folder' | 'record'
  /** The `trustedFolders` entry that matched. */
  readonly folder?: string
  /** Untrusted: no record, or the material changed since it was trusted. */
  readonly reason?: 'never' | 'changed'
  /** What changed: `.hookrun/hooks.json edited`, `scripts/gate.sh added`, … */
  readonly changed?: readonly string[]
  /** The exact command that trusts this project. */
  readonly command: string
}

/**
 * Decide whether the project's documents may run. Nothing is hashed when a trusted folder
 * covers the project, when there is no record, or when every file's stat signature matches the
 * record; otherwise the files are hashed once and the hashes decide.
 */
export function resolveTrust(
  projectRoot: string,
  documents: readonly ConfigDocument[],
  settings: Settings,
  env: Env,
  folderFiles: readonly string[] = [],
): ProjectTrust | undefined {
  return decideTrust(projectRoot, documents, settings, env, folderFiles).trust
}

/** A project's trust, and what it rests on when its own record holds by signature (src/trust/footprint.ts). */
interface TrustDecided {
  readonly trust: ProjectTrust | undefined
  readonly footprint?: TrustFootprint
}

/**
 * `resolveTrust` in one pass with its footprint: the record's signature taken before it is read,
 * the material walked once, so a fire's plan rests on exactly what trust looked at (no second
 * walk, no second read of the record). A worktree held to its repository's record has no
 * footprint here (trust hashes it; `trustFootprint` says what a plan may rest on).
 */
export function decideTrust(
  projectRoot: string,
  documents: readonly ConfigDocument[],
  settings: Settings,
  env: Env,
  folderFiles: readonly string[] = [],
): TrustDecided {
  if (documents.length === 0 && folderFiles.length === 0) return { trust: undefined }
  const command = `hookrun trust ${shellQuote(projectRoot)}`
  const folder = trustedFolderOf(projectRoot, settings.trustedFolders)
  if (folder !== undefined) return { trust: { root: projectRoot, trusted: true, via: 'folder', folder, command } }
  // A linked git worktree of a trusted repository is the same project: pinned by content, its
  // files are held to the main checkout's record (they hash, never match by signature).
  const seen = recordSeen(projectRoot, env)
  const record = seen?.record ?? worktreeRecord(projectRoot, env)
  if (record === undefined) return { trust: { root: projectRoot, trusted: false, reason: 'never', command } }
  const files = materialFiles(projectRoot, documents, folderFiles)
  if (unchangedSince(record, projectRoot, files)) {
    const trust: ProjectTrust = { root: projectRoot, trusted: true, via: 'record', command }
    const paths = documents.every((document) => document.commandPaths?.root === projectRoot)
      ? documents.flatMap((document) => document.commandPaths!.paths)
      : undefined
    if (seen === undefined || folderFiles.length > 0 || paths === undefined) return { trust }
    const footprint: TrustFootprint = {
      record: [seen.file, seen.signature],
      files: files.map((file): [string, string] => [file, record.files[relativePath(projectRoot, file)]!.stat!]),
      configFiles: documents.map((document) => document.ref.file),
      commandPaths: [...new Set(paths)],
    }
    return { trust, footprint }
  }
  const material = hashProjectMaterial(projectRoot, files, textsOf(documents))
  if (material.digest === record.digest) return { trust: { root: projectRoot, trusted: true, via: 'record', command } }
  return { trust: { root: projectRoot, trusted: false, reason: 'changed', changed: changedFiles(record.files, material.files), command } }
}

// ---------------------------------------------------------------------------------------------
// Trusted folders

/** The `trustedFolders` entry that covers the project: it matches the root or a folder above it. */
export function trustedFolderOf(projectRoot: string, folders: Settings['trustedFolders']): string | undefined {
  if (folders.length === 0) return undefined
  const candidates = new Set([...foldersUp(resolve(projectRoot)), ...foldersUp(canonicalPath(projectRoot))])
  for (const { pattern } of folders) {
    const trimmed = pattern.length > 1 ? pattern.replace(/\/+$/, '') : pattern
    // A folder named as it is (the usual entry) is compared, not compiled into a glob: every fire checks it.
    const matches = isGlob(trimmed) ? compileGlob(trimmed, { dot: true }) : (folder: string) => folder === trimmed
    for (const folder of candidates) if (matches(folder)) return pattern
  }
  return undefined
}

function foldersUp(start: string): string[] {
  const folders: string[] = []
  for (let folder = start; ; folder = dirname(folder)) {
    folders.push(folder)
    if (dirname(folder) === folder) return folders
  }
}

/** Quote a path for a POSIX shell when it needs it, so the printed command can be pasted. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`
}
