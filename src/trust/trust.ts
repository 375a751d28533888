/**
 * Trust for project material (DESIGN §8). A project's `.hookrun/hooks.json` and
 * `hooks.local.json` arrive with a cloned repository; their hooks run only once the user has
 * trusted that exact content (`hookrun trust`), or the project lies in a folder the user config
 * lists in `trustedFolders`. The user's own config and `--config` files are always trusted.
 *
 * A trust record is one small JSON file per project in the user's state folder, holding a
 * sha256 of every file of the project's material. Any change (a file edited, added or removed)
 * makes the hashes differ and the project untrusted again. So that a trusted project costs
 * `fire` no hashing, the record also keeps each file's stat signature (device, inode, mode,
 * size, modification and change times): while every signature is unchanged the content is too,
 * because no write, chmod or replacement leaves the change time as it was. When anything differs
 * the files are hashed, and only the hashes decide.
 *
 * The material is a list of files: `projectMaterial` builds it, `hashProjectMaterial` hashes any
 * such list. Other kinds of project material (hook folders, plugins) join by adding their files
 * to that list.
 */
import { readFileSync, realpathSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { writeFileAtomic } from '../core/atomic-write.ts'
import { nodeCrypto } from '../core/builtins.ts'
import { compileGlob, isGlob } from '../event/globs.ts'
import type { ConfigFileRef, Settings } from '../core/types.ts'
import { HookrunError } from '../core/errors.ts'
import { makeOwnFolder, stateDir } from '../core/places.ts'
import { statSignature } from '../core/stat.ts'
import type { TrustFootprint } from './footprint.ts'
import { linkedWorktreeOf, mainCheckoutOf } from './worktree.ts'
import { type Discovery, type PluginLayout, projectFolderMaterial } from '../discover/folders.ts'
import { collectFiles, collectMaterial, type CommandSource, commandMaterial, commandPaths, type Material, relativePath } from './material.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * What trust needs of a config file as loading read it (src/config/document.ts): where it is,
 * its text, and the commands and working folders of its entries.
 */
export interface ConfigDocument {
  readonly ref: ConfigFileRef
  readonly text?: string
  readonly entries: ReadonlyArray<{
    readonly entry: { readonly command?: string; readonly cwd?: string; readonly path?: string; readonly name?: string; readonly env?: Readonly<Record<string, string>> }
  }>
  /** The paths its commands name (`withCommandPaths`), worked out for the project at `root`. */
  readonly commandPaths?: { readonly root: string; readonly paths: readonly string[] }
}

function sha256(data: string | Uint8Array): string {
  return nodeCrypto().createHash('sha256').update(data).digest('hex')
}

export { needsTrust } from '../core/types.ts'

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
  if (documents.length === 0 && folderFiles.length === 0) return undefined
  const command = `hookrun trust ${shellQuote(projectRoot)}`
  const folder = trustedFolderOf(projectRoot, settings.trustedFolders)
  if (folder !== undefined) return { root: projectRoot, trusted: true, via: 'folder', folder, command }
  // A linked git worktree of a trusted repository is the same project: pinned by content, its
  // files are held to the main checkout's record (they hash, never match by signature).
  const record = readTrustRecord(projectRoot, env) ?? worktreeRecord(projectRoot, env)
  if (record === undefined) return { root: projectRoot, trusted: false, reason: 'never', command }
  const files = materialFiles(projectRoot, documents, folderFiles)
  if (unchangedSince(record, projectRoot, files)) return { root: projectRoot, trusted: true, via: 'record', command }
  const material = hashProjectMaterial(projectRoot, files, textsOf(documents))
  if (material.digest === record.digest) return { root: projectRoot, trusted: true, via: 'record', command }
  return { root: projectRoot, trusted: false, reason: 'changed', changed: changedFiles(record.files, material.files), command }
}

// ---------------------------------------------------------------------------------------------
// Material and hashing

/** Hashes of a project's material: one per file (path relative to the root) and one over all. */
export interface MaterialHash {
  readonly digest: string
  readonly files: Readonly<Record<string, FileHash>>
}

export interface FileHash {
  readonly sha256: string
  readonly executable: boolean
}

/**
 * The files whose content decides what a project's hooks do (src/trust/material.ts): its config
 * files, every file of its hook folders, and the files its commands name. `trust` and `fire` both
 * take the list from this one function; `notCovered` says what it cannot pin.
 */
export function projectMaterial(projectRoot: string, documents: readonly ConfigDocument[], folderFiles: readonly string[] = []): Material {
  const commands = documents.flatMap((document) => commandSources(projectRoot, document))
  return collectMaterial(projectRoot, [...documents.map((document) => document.ref.file), ...folderFiles], commands)
}

/**
 * `projectMaterial(…).files`, reading the commands' part from each document's `commandPaths`
 * when every document has them for this project: a trusted project's `fire` then parses none of
 * its commands (1,000 hooks cost 1,000 shell parses otherwise).
 */
function materialFiles(projectRoot: string, documents: readonly ConfigDocument[], folderFiles: readonly string[]): readonly string[] {
  if (!documents.every((document) => document.commandPaths?.root === projectRoot)) return projectMaterial(projectRoot, documents, folderFiles).files
  const configFiles = [...documents.map((document) => document.ref.file), ...folderFiles]
  return collectFiles(projectRoot, configFiles, documents.flatMap((document) => document.commandPaths!.paths))
}

/**
 * The document with the paths its commands name (src/trust/material.ts `commandPaths`), for
 * the project at `projectRoot`: text work done once per config content, kept in the config cache.
 */
export function withCommandPaths<T extends ConfigDocument>(document: T, projectRoot: string): T {
  const paths = new Set(commandSources(projectRoot, document).flatMap((source) => commandPaths(projectRoot, source)))
  return { ...document, commandPaths: { root: projectRoot, paths: [...paths] } }
}

/** The commands of a document's entries, each with where it starts and the variables it may use. */
function commandSources(projectRoot: string, document: ConfigDocument): CommandSource[] {
  const vars = commandVariables(projectRoot, dirname(document.ref.file))
  const file = relativePath(projectRoot, document.ref.file)
  return document.entries.flatMap(({ entry }) => {
    if (entry.command === undefined) return []
    const cwd = entry.cwd === undefined ? projectRoot : resolve(projectRoot, entry.cwd)
    const label = `${file} ${entry.path ?? ''}${entry.name === undefined ? '' : ` '${entry.name}'`}`
    // A hook's own `env` overrides the variables hookrun sets, for the expansion as when it runs.
    return [{ command: entry.command, cwd, vars: { ...vars, ...entry.env }, label, ...(entry.env !== undefined && { env: entry.env }) }]
  })
}

/** The variables hookrun sets for a project hook whose config file is in `configDir`. */
function commandVariables(projectRoot: string, configDir: string, pluginDir?: string): Record<string, string> {
  return {
    HOOKRUN_CONFIG_DIR: configDir,
    HOOKRUN_PROJECT_DIR: projectRoot,
    CLAUDE_PROJECT_DIR: projectRoot,
    GEMINI_PROJECT_DIR: projectRoot,
    CURSOR_PROJECT_DIR: projectRoot,
    ...(pluginDir !== undefined && { HOOKRUN_PLUGIN_DIR: pluginDir }),
  }
}

/**
 * Hash a list of project files with sha256: each file's content and executable bit, and a
 * digest over all of them in path order. `alreadyRead` supplies texts the caller has parsed, so
 * what is hashed is exactly what runs. A file that cannot be read hashes as `unreadable`.
 */
export function hashProjectMaterial(projectRoot: string, files: readonly string[], alreadyRead?: ReadonlyMap<string, string>): MaterialHash {
  const hashes: Record<string, FileHash> = {}
  for (const file of files) hashes[relativePath(projectRoot, file)] = hashFile(file, alreadyRead?.get(file))
  const lines = Object.keys(hashes)
    .sort()
    .map((path) => `${path}\0${hashes[path]!.executable ? 'x' : '-'}\0${hashes[path]!.sha256}\n`)
  return { digest: sha256(lines.join('')), files: hashes }
}

function hashFile(file: string, text: string | undefined): FileHash {
  try {
    const executable = (statSync(file).mode & 0o111) !== 0
    return { sha256: sha256(text === undefined ? readFileSync(file) : Buffer.from(text, 'utf8')), executable }
  } catch {
    return { sha256: 'unreadable', executable: false }
  }
}

function textsOf(documents: readonly ConfigDocument[]): Map<string, string> {
  return new Map(documents.flatMap((document) => (document.text === undefined ? [] : [[document.ref.file, document.text] as const])))
}

export function changedFiles(before: Readonly<Record<string, FileHash>>, after: Readonly<Record<string, FileHash>>): string[] {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
  return paths.flatMap((path) => {
    const was = before[path]
    const is = after[path]
    if (was === undefined) return [`${path} added`]
    if (is === undefined) return [`${path} removed`]
    return was.sha256 === is.sha256 && was.executable === is.executable ? [] : [`${path} edited`]
  })
}

/**
 * The hook-folder and plugin part of a project's material: the files of `.hookrun/hooks/` and of
 * each project plugin, and the project files its hooks.json commands run.
 */
export function folderMaterial(discovery: Discovery, projectRoot: string, env: Env): string[] {
  const configs = discovery.sources.flatMap((source) =>
    source.kind === 'config' && source.layer === 'project-plugin' ? [{ file: source.file, dir: source.plugin.dir, layout: source.layout }] : [],
  )
  return [...new Set([...projectFolderMaterial(discovery, projectRoot, env), ...pluginCommandFiles(projectRoot, configs)])]
}

/**
 * The files a project plugin's hooks.json commands run (`./tools/check.sh` runs from the project
 * root, outside the plugin folder). Read with JSON.parse alone: trust is checked on every fire.
 */
export function pluginCommandFiles(projectRoot: string, configs: ReadonlyArray<{ readonly file: string; readonly dir: string; readonly layout?: PluginLayout }>): string[] {
  const files: string[] = []
  for (const { file, dir, layout } of configs) {
    let json: unknown
    try {
      json = JSON.parse(readFileSync(file, 'utf8'))
    } catch {
      continue // the file itself is hashed; a broken one runs nothing
    }
    // `${CLAUDE_PLUGIN_ROOT}` and its kin are the plugin folder, and a Cursor plugin's hooks start
    // there, as when the hook runs (src/folders/plugin-config.ts).
    const vars = { ...commandVariables(projectRoot, dir, dir), ...Object.fromEntries((layout?.rootVariables ?? []).map((name) => [name, dir])) }
    const cwd = layout?.agent === 'cursor' ? dir : projectRoot
    for (const { command, env } of commandsUnder(json)) files.push(...commandMaterial(projectRoot, { command, cwd, vars: { ...vars, ...env }, ...(env !== undefined && { env }) }).files)
  }
  return files
}

/** Every object with a string `command` under `value`, with its `env` when that is an object of strings. */
function commandsUnder(value: unknown, out: Array<{ command: string; env?: Record<string, string> }> = []): Array<{ command: string; env?: Record<string, string> }> {
  if (Array.isArray(value)) for (const item of value) commandsUnder(item, out)
  else if (typeof value === 'object' && value !== null) {
    const { command, env } = value as { command?: unknown; env?: unknown }
    if (typeof command === 'string') {
      const strings = typeof env === 'object' && env !== null && Object.values(env).every((item) => typeof item === 'string')
      out.push({ command, ...(strings && { env: env as Record<string, string> }) })
    }
    for (const [name, item] of Object.entries(value)) if (name !== 'command' && name !== 'env') commandsUnder(item, out)
  }
  return out
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

// ---------------------------------------------------------------------------------------------
// Trust records

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
  if (record?.version !== 1 || typeof record.root !== 'string' || typeof record.digest !== 'string' || typeof record.files !== 'object' || record.files === null) return undefined
  const filesValid = Object.values(record.files).every(
    (file) => typeof file?.sha256 === 'string' && typeof file.executable === 'boolean' && (file.stat === null || typeof file.stat === 'string'),
  )
  return filesValid ? (record as TrustRecord) : undefined
}

/**
 * Whether a signature taken at `trustedAtMs` can stand in for the file's hash later. Timestamps
 * tick coarsely (a few ms; whole seconds on some file systems and runtimes), so a file changed
 * just before it was trusted could change again within the same tick without the signature
 * showing it. Such a file is hashed on every fire instead ("racy git" has the same problem).
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
 * Wait until every file just written (by `init`, or an editor a moment ago) has settled, so the
 * record can hold its signature: otherwise every fire after would hash it and no plan could be
 * made. At most 100 ms where timestamps are fine-grained, 2 s where they are whole seconds.
 */
function waitUntilSettled(files: readonly string[]): void {
  const latest = Math.max(0, ...files.map((file) => settledAt(statSignature(file)) ?? 0))
  const wait = Math.min(latest + 1 - Date.now(), 2500)
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait)
}

/** The fast path of `fire`: the same files as recorded, each with its recorded, settled signature. */
function unchangedSince(record: TrustRecord, projectRoot: string, files: readonly string[]): boolean {
  if (files.length !== Object.keys(record.files).length) return false
  return files.every((file) => {
    const recorded = record.files[relativePath(projectRoot, file)]
    return recorded?.stat != null && recorded.stat === statSignature(file)
  })
}

/**
 * What the project's trust by record rests on while nothing needs hashing (src/trust/footprint.ts),
 * for a fire's plan (src/config/plan.ts) to check instead of asking trust again: taken only when
 * trust holds without hashing now, exactly as `resolveTrust` finds it. The record's signature is
 * taken before it is read, so a record replaced or removed meanwhile (`hookrun untrust`) shows as
 * changed. `documents` are the project's config documents; undefined when there is no record or
 * trust would hash a file.
 */
export function trustFootprint(projectRoot: string, documents: readonly ConfigDocument[], env: Env = process.env): TrustFootprint | undefined {
  const recordFile = trustRecordFile(projectRoot, env)
  const recordSignature = statSignature(recordFile)
  const record = recordSignature === 'missing' ? undefined : readTrustRecord(projectRoot, env)
  const configFiles = documents.map((document) => document.ref.file)
  const paths = documents.flatMap((document) => (document.commandPaths?.root === projectRoot ? document : withCommandPaths(document, projectRoot)).commandPaths!.paths)
  const material = collectFiles(projectRoot, configFiles, paths)
  if (record === undefined) return worktreeFootprint(projectRoot, material, { configFiles, commandPaths: [...new Set(paths)] }, env)
  if (!unchangedSince(record, projectRoot, material)) return undefined
  const files = material.map((file): [string, string] => [file, record.files[relativePath(projectRoot, file)]!.stat!])
  return { record: [recordFile, recordSignature], files, configFiles, commandPaths: [...new Set(paths)] }
}

/**
 * A git worktree with no record of its own, held to its main checkout's record: what that trust
 * rests on once the material's hashes are found equal to the record's, each file's signature
 * settled (as a trust record takes them) and unchanged across the hashing; undefined otherwise
 * (then every fire hashes, as `resolveTrust` does).
 */
function worktreeFootprint(projectRoot: string, material: readonly string[], named: Pick<TrustFootprint, 'configFiles' | 'commandPaths'>, env: Env): TrustFootprint | undefined {
  const worktree = linkedWorktreeOf(projectRoot)
  if (worktree === undefined) return undefined
  const recordFile = trustRecordFile(worktree.main, env)
  const recordSignature = statSignature(recordFile)
  const record = recordSignature === 'missing' ? undefined : readTrustRecord(worktree.main, env)
  if (record === undefined || material.length !== Object.keys(record.files).length) return undefined
  const now = Date.now()
  const signatures = material.map(statSignature)
  if (!signatures.every((signature) => settled(signature, now))) return undefined
  if (hashProjectMaterial(projectRoot, material).digest !== record.digest) return undefined
  if (material.some((file, index) => statSignature(file) !== signatures[index])) return undefined
  const links = worktree.links.map((file): [string, string] => [file, statSignature(file)])
  return { record: [recordFile, recordSignature], files: material.map((file, index): [string, string] => [file, signatures[index]!]), ...named, links }
}

/**
 * One file per project, named by its real path (base64url; a hash of it for very long paths):
 * reading it costs one small read and no hashing.
 */
export function trustRecordFile(projectRoot: string, env: Env = process.env): string {
  const root = canonicalPath(projectRoot)
  const encoded = Buffer.from(root).toString('base64url')
  return join(stateDir(env), 'trust', `${encoded.length <= 200 ? encoded : sha256(root)}.json`)
}

/** The project's record, or undefined when there is none (an unreadable record trusts nothing). */
export function readTrustRecord(projectRoot: string, env: Env = process.env): TrustRecord | undefined {
  let text: string
  try {
    text = readFileSync(trustRecordFile(projectRoot, env), 'utf8')
  } catch {
    return undefined
  }
  try {
    const record = asTrustRecord(JSON.parse(text))
    return record?.root === canonicalPath(projectRoot) ? record : undefined
  } catch {
    return undefined
  }
}

/**
 * Record the project's current material as trusted. The files are read afresh (what is recorded
 * is what is on disk), between two stat signatures that must agree; the record is written
 * atomically (a temporary file, then a rename).
 */
export function writeTrustRecord(
  projectRoot: string,
  documents: readonly ConfigDocument[],
  env: Env = process.env,
  folderFiles: readonly string[] = [],
): TrustRecord {
  const { files, notCovered, refused } = projectMaterial(projectRoot, documents, folderFiles)
  if (refused.length > 0) throw new HookrunError(`cannot trust ${projectRoot}: ${refused[0]}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}`)
  waitUntilSettled(files)
  const trustedAt = Date.now()
  const before = files.map(statSignature)
  const material = hashProjectMaterial(projectRoot, files)
  files.forEach((file, index) => {
    if (statSignature(file) !== before[index]) throw new HookrunError(`${file} changed while it was being hashed; run 'hookrun trust' again`)
  })
  const recorded: Record<string, TrustRecord['files'][string]> = {}
  files.forEach((file, index) => {
    const path = relativePath(projectRoot, file)
    recorded[path] = { ...material.files[path]!, stat: settled(before[index]!, trustedAt) ? before[index]! : null }
  })
  const record: TrustRecord = { version: 1, root: canonicalPath(projectRoot), digest: material.digest, files: recorded, trustedAt: new Date(trustedAt).toISOString(), notCovered }
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
  try {
    return JSON.parse(readFileSync(trustedTextsFile(trustRecordFile(projectRoot, env)), 'utf8')) as Record<string, string>
  } catch {
    return {}
  }
}

/** The record a project is held to: its own, else (a git worktree) its main checkout's. */
export function trustRecordFor(projectRoot: string, env: Env = process.env): TrustRecord | undefined {
  return readTrustRecord(projectRoot, env) ?? worktreeRecord(projectRoot, env)
}

/** The trust record of the folder `projectRoot` is in the repository's main checkout, when it is in a linked worktree. */
function worktreeRecord(projectRoot: string, env: Env): TrustRecord | undefined {
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

// ---------------------------------------------------------------------------------------------

function canonicalPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

/** Quote a path for a POSIX shell when it needs it, so the printed command can be pasted. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`
}
