// Where hook folders and plugins are, and which files they hold (read-only: nothing runs here).
import { type Dirent, readdirSync, statSync } from 'node:fs'
import { join, sep } from 'node:path'
import { userConfigDir } from '../core/places.ts'

/**
 * Hook folders and plugins (kodelet ADR 029 in hookrun's terms). Highest precedence first:
 *
 *   <project>/.hookrun/hooks/             project-folder   hooks named by file name
 *   <project>/.hookrun/plugins/*          project-plugin   hooks named org/repo/name
 *   $XDG_CONFIG_HOME/hookrun/hooks/       user-folder
 *   $XDG_CONFIG_HOME/hookrun/plugins/*    user-plugin
 *
 * A plugin is a folder holding a `hooks.json`, a `hooks/` folder of executables, or both; it is
 * installed as `org@repo` and its hooks are named `org/repo/<name>`.
 *
 * Discovery only reads folders and stats files; it runs nothing. It returns every file it found,
 * so that whoever must vouch for project material (trust) can hash exactly what would run.
 */

export type Scope = 'project' | 'user'
export type FolderLayer = 'project-folder' | 'project-plugin' | 'user-folder' | 'user-plugin'

type Env = Readonly<Record<string, string | undefined>>

export interface InstalledPlugin {
  /** `org/repo` (from the folder name `org@repo`), or the folder name when it has no `@`. */
  readonly name: string
  readonly dir: string
  readonly scope: Scope
}

/** An executable that speaks the `./hook hook` / `./hook run` protocol. */
export interface FoundExecutable {
  readonly kind: 'executable'
  readonly path: string
  /** The hook's name: the file name, prefixed `org/repo/` in a plugin. */
  readonly name: string
  readonly layer: FolderLayer
  readonly plugin?: InstalledPlugin
  readonly size: number
  readonly mtimeMs: number
}

/** A plugin's own `hooks.json`, or an Open Plugins `hooks/hooks.json` (src/folders/open-plugins.ts). */
export interface FoundPluginConfig {
  readonly kind: 'config'
  readonly file: string
  readonly layer: FolderLayer
  readonly plugin: InstalledPlugin
  readonly openPlugin?: true
}

/** Where an Open Plugins plugin keeps its hooks: `hooks/hooks.json`, Claude-shaped. */
export const OPEN_PLUGIN_HOOKS = join('hooks', 'hooks.json')

export type FoundSource = FoundExecutable | FoundPluginConfig

export interface SkippedFile {
  readonly path: string
  readonly why: string
}

export interface Discovery {
  /** In precedence order; a plugin's hooks.json comes before its executables. */
  readonly sources: readonly FoundSource[]
  /** Regular files in a hook folder that are not hooks because they are not executable. */
  readonly skipped: readonly SkippedFile[]
  /** Every file found (executables, plugin hooks.json, skipped files), for hashing. */
  readonly files: readonly string[]
}

/** `<project>/.hookrun/plugins` or `$XDG_CONFIG_HOME/hookrun/plugins`. */
export function pluginsDir(scope: Scope, projectRoot: string, env: Env = process.env): string {
  return scope === 'project' ? join(projectRoot, '.hookrun', 'plugins') : join(userConfigDir(env), 'plugins')
}

/** `<project>/.hookrun/hooks` or `$XDG_CONFIG_HOME/hookrun/hooks`. */
export function hooksDir(scope: Scope, projectRoot: string, env: Env = process.env): string {
  return scope === 'project' ? join(projectRoot, '.hookrun', 'hooks') : join(userConfigDir(env), 'hooks')
}

/** `org@repo` → `org/repo`: the first `@` of an install folder separates org and repo. */
export function pluginNameOf(dirName: string): string {
  return dirName.replace('@', '/')
}

/** The plugins installed in one scope, by folder name. Folders starting with `.` (installs in progress) are not plugins. */
export function installedPlugins(scope: Scope, projectRoot: string, env: Env = process.env): InstalledPlugin[] {
  const base = pluginsDir(scope, projectRoot, env)
  return sortedEntries(base)
    .filter((entry) => !entry.name.startsWith('.') && isDirectory(join(base, entry.name)))
    .map((entry) => ({ name: pluginNameOf(entry.name), dir: join(base, entry.name), scope }))
}

/** Find every folder hook and plugin of a project and the user, highest precedence first. */
export function discoverHookFolders(options: { readonly projectRoot: string; readonly env?: Env }): Discovery {
  const env = options.env ?? process.env
  const sources: FoundSource[] = []
  const skipped: SkippedFile[] = []
  for (const scope of ['project', 'user'] as const) {
    const folderLayer: FolderLayer = `${scope}-folder`
    const pluginLayer: FolderLayer = `${scope}-plugin`
    sources.push(...scanExecutables(hooksDir(scope, options.projectRoot, env), folderLayer, undefined, skipped))
    for (const plugin of installedPlugins(scope, options.projectRoot, env)) {
      const config = join(plugin.dir, 'hooks.json')
      if (isFile(config)) sources.push({ kind: 'config', file: config, layer: pluginLayer, plugin })
      const open = join(plugin.dir, OPEN_PLUGIN_HOOKS)
      if (isFile(open)) sources.push({ kind: 'config', file: open, layer: pluginLayer, plugin, openPlugin: true })
      sources.push(...scanExecutables(join(plugin.dir, 'hooks'), pluginLayer, plugin, skipped))
    }
  }
  const files = [...sources.map((source) => (source.kind === 'config' ? source.file : source.path)), ...skipped.map((file) => file.path)]
  return { sources, skipped, files }
}

/**
 * The executables of one folder, by name. Folders, hidden files and editor or VCS leftovers are
 * passed over without a word; a regular file that is not executable is reported as skipped
 * (a forgotten `chmod +x` is the usual reason a hook "does nothing").
 */
export function scanExecutables(dir: string, layer: FolderLayer, plugin: InstalledPlugin | undefined, skipped: SkippedFile[] = []): FoundExecutable[] {
  const found: FoundExecutable[] = []
  for (const entry of sortedEntries(dir)) {
    if (isLeftover(entry.name)) continue
    // A plugin's hooks/hooks.json is its Open Plugins config, read as such, not a hook.
    if (plugin !== undefined && entry.name === 'hooks.json') continue
    const path = join(dir, entry.name)
    let stat
    try {
      stat = statSync(path) // follows symlinks: a linked script is a hook like any other
    } catch {
      continue // a dangling symlink
    }
    if (!stat.isFile()) continue
    if ((stat.mode & 0o111) === 0) {
      skipped.push({ path, why: 'not executable (chmod +x it to make it a hook)' })
      continue
    }
    const name = plugin === undefined ? entry.name : `${plugin.name}/${entry.name}`
    found.push({ kind: 'executable', path, name, layer, plugin, size: stat.size, mtimeMs: stat.mtimeMs })
  }
  return found
}

/** Hidden files, editor back-ups and swap files, patch leftovers, switched-off (`.disable`) and sample hooks. */
const LEFTOVER = /^\.|~$|^#.*#$|\.(bak|orig|rej|swp|swo|tmp|disable|disabled|sample)$/i

export function isLeftover(name: string): boolean {
  return LEFTOVER.test(name)
}

function sortedEntries(dir: string): Dirent[] {
  try {
    // Code-point order, so the run order is the same on every machine and locale.
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch {
    return [] // no such folder: nothing installed there
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * The files of the project's hook folders and plugins that decide what they do: the executables
 * and skipped files of `.hookrun/hooks/`, and every file of each project plugin (its hooks.json
 * names scripts anywhere in it). Trust hashes these with the project's hooks.json.
 */
export function projectFolderMaterial(discovery: Discovery, projectRoot: string, env: Env = process.env): string[] {
  const files = new Set<string>()
  const projectDir = join(projectRoot, '.hookrun') + sep
  for (const file of discovery.files) if (file.startsWith(projectDir)) files.add(file)
  for (const plugin of installedPlugins('project', projectRoot, env)) for (const file of filesUnder(plugin.dir)) files.add(file)
  return [...files].sort()
}

/** Regular files below `dir` (not `.git`), at most 2,000: a plugin is small, and hashing is bounded. */
function filesUnder(dir: string): string[] {
  const out: string[] = []
  const walk = (folder: string) => {
    for (const entry of sortedEntries(folder)) {
      if (out.length >= 2000) return
      if (entry.name === '.git') continue
      const path = join(folder, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) out.push(path)
    }
  }
  walk(dir)
  return out
}
