// `hookrun trust` / `untrust`: record or remove a project's trust.
import { resolve } from 'node:path'
import { findConfigFiles, findProjectRoot } from '../config/load.ts'
import type { ConfigDocument } from '../config/document.ts'
import { loadConfig, readConfigDocument } from '../config/parse.ts'
import { HookrunError } from '../core/errors.ts'
import { discoverHookFolders } from '../discover/folders.ts'
import { folderMaterial, needsTrust, projectMaterial, removeTrustRecord, writeTrustRecord } from '../trust/trust.ts'

type Env = Readonly<Record<string, string | undefined>>

export interface TrustOptions {
  /** The project folder (or any folder inside it); default: the working directory. */
  readonly dir?: string
  readonly cwd: string
  readonly env: Env
}

/** `hookrun trust [DIR]`: record the project's current material as trusted. */
export function trustProject(options: TrustOptions): string {
  const start = resolve(options.cwd, options.dir ?? '.')
  const root = findProjectRoot(start)
  if (root === undefined) {
    throw new HookrunError(`no .hookrun/ with hooks.json, hooks.local.json, hooks/ or plugins/ at or above ${start}; nothing to trust`)
  }
  const { documents, folderFiles, executables } = projectInputs(root, options.env)
  const record = writeTrustRecord(root, documents, options.env, folderFiles)
  const hooks = documents.reduce((count, document) => count + document.entries.filter((parsed) => parsed.entry.command !== undefined).length, executables)
  const problems = documents.reduce((count, document) => count + document.problems.length, 0)
  const files = Object.entries(record.files).map(([path, hash]) => `  ${path}  sha256:${hash.sha256.slice(0, 16)}${hash.executable ? '  (executable)' : ''}`)
  return [
    `trusted ${root}: its ${hooks} project hook(s) run from now on.`,
    ...files,
    `Any change to these files revokes the trust; 'hookrun untrust' revokes it now.`,
    ...(problems > 0 ? [`note: the config has ${problems} problem(s); run 'hookrun validate'`] : []),
    '',
  ].join('\n')
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
  return projectMaterial(root, documents, folderFiles)
}

/** `hookrun untrust [DIR]`: forget the project's trust record. */
export function untrustProject(options: TrustOptions): string {
  const start = resolve(options.cwd, options.dir ?? '.')
  const root = findProjectRoot(start) ?? start
  const removed = removeTrustRecord(root, options.env)
  const lines = [removed ? `untrusted ${root}: its project hooks no longer run` : `${root} was not trusted by 'hookrun trust'; nothing to undo`]
  const config = loadConfig({ cwd: root, env: discoveryEnv(options.env) })
  if (config.trust?.via === 'folder') {
    const listed = config.settings.trustedFolders.find((folder) => folder.pattern === config.trust?.folder)
    lines.push(`note: it is still trusted by the trustedFolders entry '${config.trust.folder}' in ${listed?.file}; remove it there to stop these hooks`)
  }
  return `${lines.join('\n')}\n`
}

/** The project's own config documents, as `fire` would find them from its root. */
function projectDocuments(root: string, env: Env): ConfigDocument[] {
  return findConfigFiles({ cwd: root, env: discoveryEnv(env) })
    .files.filter((ref) => needsTrust(ref.layer))
    .map(readConfigDocument)
}

/** Trust is about the discovered project, whatever HOOKRUN_CONFIG the caller has set. */
function discoveryEnv(env: Env): Env {
  return { ...env, HOOKRUN_CONFIG: undefined }
}
