// A project's material as trust reads it from its config documents, and its hashes.
import { HANDLER_VARIABLES } from '../agents/vocabulary.ts'
import { readFileSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { nodeCrypto } from '../core/builtins.ts'
import type { ConfigFileRef } from '../core/types.ts'
import { type Discovery, type PluginLayout, projectFolderMaterial } from '../discover/folders.ts'
import {
  collectFiles,
  collectMaterial,
  type CommandSource,
  commandMaterial,
  commandPaths,
  type Material,
  relativePath,
} from './material.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * What trust needs of a config file as loading read it (src/config/document.ts): where it is,
 * its text, and the commands and working folders of its entries.
 */
export interface ConfigDocument {
  readonly ref: ConfigFileRef
  readonly text?: string
  readonly entries: ReadonlyArray<{
    readonly entry: {
      readonly command?: string
      readonly cwd?: string
      readonly path?: string
      readonly name?: string
      readonly env?: Readonly<Record<string, string>>
    }
  }>
  /** The paths its commands name (`withCommandPaths`), worked out for the project at `root`. */
  readonly commandPaths?: { readonly root: string; readonly paths: readonly string[] }
}

export function sha256(data: string | Uint8Array): string {
  return nodeCrypto().createHash('sha256').update(data).digest('hex')
}

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
export function materialFiles(
  projectRoot: string,
  documents: readonly ConfigDocument[],
  folderFiles: readonly string[],
): readonly string[] {
  if (!documents.every((document) => document.commandPaths?.root === projectRoot))
    return projectMaterial(projectRoot, documents, folderFiles).files
  const configFiles = [...documents.map((document) => document.ref.file), ...folderFiles]
  return collectFiles(
    projectRoot,
    configFiles,
    documents.flatMap((document) => document.commandPaths!.paths),
  )
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
    ...Object.fromEntries(HANDLER_VARIABLES.map((name) => [name, projectRoot])),
    ...(pluginDir !== undefined && { HOOKRUN_PLUGIN_DIR: pluginDir }),
  }
}

/**
 * Hash a list of project files with sha256: each file's content and executable bit, and a
 * digest over all of them in path order. `alreadyRead` supplies texts the caller has parsed, so
 * what is hashed is exactly what runs. A file that cannot be read hashes as `unreadable`.
 */
export function hashProjectMaterial(
  projectRoot: string,
  files: readonly string[],
  alreadyRead?: ReadonlyMap<string, string>,
): MaterialHash {
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

export function textsOf(documents: readonly ConfigDocument[]): Map<string, string> {
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
    source.kind === 'config' && source.layer === 'project-plugin'
      ? [{ file: source.file, dir: source.plugin.dir, layout: source.layout }]
      : [],
  )
  return [...new Set([...projectFolderMaterial(discovery, projectRoot, env), ...pluginCommandFiles(projectRoot, configs)])]
}

/**
 * The files a project plugin's hooks.json commands run (`./tools/check.sh` runs from the project
 * root, outside the plugin folder). Read with JSON.parse alone: trust is checked on every fire.
 */
function pluginCommandFiles(
  projectRoot: string,
  configs: ReadonlyArray<{ readonly file: string; readonly dir: string; readonly layout?: PluginLayout }>,
): string[] {
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
    const vars = {
      ...commandVariables(projectRoot, dir, dir),
      ...Object.fromEntries((layout?.rootVariables ?? []).map((name) => [name, dir])),
    }
    const cwd = layout?.runsInPluginFolder === true ? dir : projectRoot
    for (const { command, env } of commandsUnder(json))
      files.push(...commandMaterial(projectRoot, { command, cwd, vars: { ...vars, ...env }, ...(env !== undefined && { env }) }).files)
  }
  return files
}

/** Every object with a string `command` under `value`, with its `env` when that is an object of strings. */
function commandsUnder(
  value: unknown,
  out: Array<{ command: string; env?: Record<string, string> }> = [],
): Array<{ command: string; env?: Record<string, string> }> {
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
