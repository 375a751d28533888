// `hookrun trust` / `untrust`: record or remove a project's trust.
import { count } from '../core/words.ts'
import { type Paint, PLAIN } from '../core/paint.ts'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { diffLines } from 'diff'
import { findConfigFiles, findProjectRoot } from '../config/files.ts'
import type { ConfigDocument } from '../config/document.ts'
import { loadConfig, readConfigDocument } from '../config/parse.ts'
import { HookrunError } from '../core/errors.ts'
import { needsTrust, projectRootOf as layerProjectRoot } from '../core/types.ts'
import { discoverHookFolders } from '../discover/folders.ts'
import { mainCheckoutOf } from '../trust/worktree.ts'
import { changedFiles, folderMaterial, hashProjectMaterial, projectMaterial } from '../trust/material-hash.ts'
import { readTrustedTexts, readTrustRecord, removeTrustRecord, writeTrustRecord } from '../trust/records.ts'
import { shellQuote } from '../trust/trust.ts'
import { relativePath } from '../trust/material.ts'
import { syncNarrowedConfigs } from '../install/narrowed-sync.ts'

type Env = Readonly<Record<string, string | undefined>>

interface TrustOptions {
  /** The project folder (or any folder inside it); default: the working directory. */
  readonly dir?: string
  readonly cwd: string
  readonly env: Env
  readonly paint?: Paint
  /** Bring the project's narrowed agent configs up to date too (install.ts syncNarrowedConfigs); default true. */
  readonly syncAgents?: boolean
}

/** What `hookrun trust` did (`--json`): the files it pinned, or the hooks that made it refuse. */
interface TrustResult {
  readonly project: string
  readonly trusted: boolean
  /** Project hooks that run from now on (commands and executables). */
  readonly hooks: number
  /** Every file the trust pins, by its path from the project (absolute when outside it). */
  readonly files: ReadonlyArray<{ readonly path: string; readonly sha256: string; readonly executable: boolean }>
  /** What the hooks may run that trust cannot pin (a program found on PATH, a URL). */
  readonly notCovered: readonly string[]
  /** Hooks trust cannot pin (their env sets a search path): nothing was trusted. */
  readonly refused: ReadonlyArray<{ readonly file: string; readonly path: string; readonly message: string }>
  /** Config problems (hookrun validate names them). */
  readonly problems: number
  /** The project's narrowed agent configs brought up to date (or still out of date), one line each. */
  readonly agentConfigs: readonly string[]
}

/** Record the project's current material as trusted, unless a hook cannot be pinned (then nothing is). */
export function trustProjectResult(options: TrustOptions): TrustResult {
  const root = projectRootOf(options)
  const { documents, folderFiles, executables } = projectInputs(root, options.env)
  const problems = documents.reduce((count, document) => count + document.problems.length, 0)
  // A hook trust cannot pin (its env sets a search path) is refused, not trusted with a caveat.
  const untrustable = documents.flatMap((document) => document.problems.filter((problem) => problem.untrustable))
  if (untrustable.length > 0) {
    const refused = untrustable.map((problem) => ({
      file: relativePath(root, problem.file),
      path: problem.path,
      message: problem.message.replace(/; hook skipped$/, ''),
    }))
    return { project: root, trusted: false, hooks: 0, files: [], notCovered: [], refused, problems, agentConfigs: [] }
  }
  const record = writeTrustRecord(root, documents, options.env, folderFiles)
  const hooks = documents.reduce(
    (count, document) => count + document.entries.filter((parsed) => parsed.entry.command !== undefined).length,
    executables,
  )
  // A file outside the project is shown by its absolute path (the record keys it relative to the root).
  const files = Object.entries(record.files).map(([path, hash]) => ({
    path: path.startsWith('../') ? resolve(root, path) : path,
    sha256: hash.sha256,
    executable: hash.executable === true,
  }))
  // Every edit of hooks.json revokes the trust, so this is where agents' routes follow the edit.
  const agentConfigs = options.syncAgents === false ? [] : agentConfigLines(root, options.env)
  return { project: root, trusted: true, hooks, files, notCovered: [...(record.notCovered ?? [])], refused: [], problems, agentConfigs }
}

/** `hookrun trust [DIR]`: record the project's current material as trusted; what it pinned, for a person. */
export function trustProject(options: TrustOptions): string {
  const result = trustProjectResult(options)
  const [first, ...more] = result.refused
  if (first !== undefined)
    throw new HookrunError(
      `cannot trust ${result.project}: ${first.file}: ${first.path}: ${first.message}${more.length > 0 ? ` (and ${more.length} more)` : ''}`,
    )
  // A large plugin or hook folder is summarised: one line per folder instead of per file.
  const files =
    result.files.length <= 40
      ? result.files.map((file) => `  ${file.path}  sha256:${file.sha256.slice(0, 16)}${file.executable ? '  (executable)' : ''}`)
      : summariseByFolder(result.files.map((file) => file.path))
  const paint = options.paint ?? PLAIN
  return [
    paint.good(`trusted ${result.project}: its ${count(result.hooks, 'project hook')} run from now on.`),
    `The trust covers ${count(result.files.length, 'file')}:`,
    ...files.map(paint.dim),
    ...result.notCovered.map((line) => paint.warn(`not covered: ${line}`)),
    `Any change to these files revokes the trust ('hookrun trust --diff' shows it); 'hookrun untrust' revokes it now.`,
    ...(result.problems > 0 ? [paint.warn(`note: the config has ${count(result.problems, 'problem')}; run 'hookrun validate'`)] : []),
    ...result.agentConfigs,
    '',
  ].join('\n')
}

/** `hookrun trust --diff [DIR]`: what changed since the project was trusted. */
export function trustDiff(options: TrustOptions): string {
  const root = projectRootOf(options)
  // A git worktree with no record of its own is held to its main checkout's (src/trust/worktree.ts).
  const main = readTrustRecord(root, options.env) === undefined ? mainCheckoutOf(root) : undefined
  const recordRoot = main !== undefined && readTrustRecord(main, options.env) !== undefined ? main : root
  const record = readTrustRecord(recordRoot, options.env)
  if (record === undefined)
    throw new HookrunError(
      `${root} has not been trusted with 'hookrun trust'; there is nothing to compare with. Review its hooks ('hookrun list'), then run: hookrun trust ${shellQuote(root)}`,
    )
  const changes = changedSince(record.files, root, options.env)
  const held = recordRoot === root ? '' : ` (a git worktree of ${recordRoot}, held to its trust)`
  if (changes.length === 0) return `nothing changed in ${root}${held} since it was trusted\n`
  const texts = readTrustedTexts(recordRoot, options.env)
  const paint = options.paint ?? PLAIN
  const lines = [`changed in ${root}${held} since it was trusted (${record.trustedAt}):`]
  for (const change of changes) {
    const [, path, how] = /^(.*) (added|removed|edited)$/.exec(change)!
    lines.push(`${paint.warn(how!.padEnd(7))} ${path}`)
    const before = texts[path!]
    const after = how === 'removed' ? undefined : readText(join(root, path!))
    const patch = lineDiff(how === 'added' ? '' : before, after ?? '', paint)
    if (patch !== undefined) lines.push(patch)
  }
  lines.push(`Review the changes, then run: hookrun trust ${shellQuote(root)}`)
  return `${lines.join('\n')}\n`
}

/** The project's narrowed agent configs compiled again from its hooks (trust, init, plugin): a line per config; a failed sync is a line too. */
export function agentConfigLines(cwd: string, env: Env): string[] {
  try {
    return syncNarrowedConfigs(cwd, env)
  } catch (error) {
    if (!(error instanceof HookrunError)) throw error
    return [`note: hookrun's entries in agent configs were not brought up to date: ${error.message}; run hookrun install --project --sync`]
  }
}

function projectRootOf(options: TrustOptions): string {
  const start = resolve(options.cwd, options.dir ?? '.')
  const root = findProjectRoot(start)
  if (root === undefined) {
    throw new HookrunError(`no .hookrun/ with hooks.json, hooks.local.json, hooks/ or plugins/ at or above ${start}; nothing to trust`)
  }
  return root
}

function summariseByFolder(paths: readonly string[]): string[] {
  const counts = new Map<string, number>()
  for (const path of paths) {
    const folder = path.split('/').slice(0, 3).join('/')
    const key = folder === path ? path : `${folder}/`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([folder, count]) => (count === 1 && !folder.endsWith('/') ? `  ${folder}` : `  ${folder}  (${count} files)`))
}

function readText(file: string): string | undefined {
  try {
    const bytes = readFileSync(file)
    return bytes.length > 64 * 1024 || bytes.includes(0) ? undefined : bytes.toString('utf8')
  } catch {
    return undefined
  }
}

/** The changed lines of a text file (`-` before, `+` now), when both sides are known texts. */
function lineDiff(before: string | undefined, after: string, paint: Paint): string | undefined {
  if (before === undefined) return undefined
  const changes = diffLines(before, after)
  const out = changes.flatMap((change) =>
    change.added ? withPrefix('+', change.value).map(paint.good) : change.removed ? withPrefix('-', change.value).map(paint.bad) : [],
  )
  return out.length === 0 ? undefined : out.join('')
}

function withPrefix(prefix: string, text: string): string[] {
  return text
    .split(/(?<=\n)/)
    .filter((line) => line !== '')
    .map((line) => `${prefix}${line.endsWith('\n') ? line : `${line}\n`}`)
}

/** What trust covers in a project: its hooks.json documents and its hook-folder and plugin files. */
function projectInputs(root: string, env: Env): { documents: ConfigDocument[]; folderFiles: string[]; executables: number } {
  const documents = projectDocuments(root, env)
  const discovery = discoverHookFolders({ projectRoot: root, env: discoveryEnv(env) })
  const executables = discovery.sources.filter((source) => source.kind === 'executable' && needsTrust(source.layer)).length
  return { documents, folderFiles: folderMaterial(discovery, root, discoveryEnv(env)), executables }
}

/** Every file `hookrun trust` would hash for the project at `root`. */
export function projectMaterialFiles(root: string, env: Env): string[] {
  const { documents, folderFiles } = projectInputs(root, env)
  return [...projectMaterial(root, documents, folderFiles).files]
}

/** The files changed since a trust record pinned them. */
function changedSince(pinned: Parameters<typeof changedFiles>[0], root: string, env: Env): string[] {
  return changedFiles(pinned, hashProjectMaterial(root, projectMaterialFiles(root, env)).files)
}

/** Whether the project's trust record (its own) matches every file it pins now: `init` keeps a trusted project trusted. */
export function trustedNow(root: string, env: Env): boolean {
  const record = readTrustRecord(root, env)
  return record !== undefined && changedSince(record.files, root, env).length === 0
}

/** `hookrun untrust [DIR]`: forget the project's trust record. */
export function untrustProject(options: TrustOptions): string {
  const start = resolve(options.cwd, options.dir ?? '.')
  const root = findProjectRoot(start) ?? start
  const removed = removeTrustRecord(root, options.env)
  const lines = [
    removed ? `untrusted ${root}: its project hooks no longer run` : `${root} was not trusted by 'hookrun trust'; nothing to undo`,
  ]
  const config = loadConfig({ cwd: root, env: discoveryEnv(options.env) })
  if (config.trust?.via === 'folder') {
    const listed = config.settings.trustedFolders.find((folder) => folder.pattern === config.trust?.folder)
    lines.push(
      `note: it is still trusted by the trustedFolders entry '${config.trust.folder}' in ${listed?.file}; remove it there to stop these hooks`,
    )
  }
  return `${lines.join('\n')}\n`
}

/** The project's own config documents, as `fire` would find them from its root (an enclosing project's are its own). */
function projectDocuments(root: string, env: Env): ConfigDocument[] {
  return findConfigFiles({ cwd: root, env: discoveryEnv(env) })
    .files.filter((ref) => needsTrust(ref.layer) && layerProjectRoot(ref) === root)
    .map(readConfigDocument)
}

/** Trust is about the discovered project, whatever HOOKRUN_CONFIG the caller has set. */
function discoveryEnv(env: Env): Env {
  return { ...env, HOOKRUN_CONFIG: undefined }
}
