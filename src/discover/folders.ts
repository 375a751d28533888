// Where hook folders and plugins are, and which files they hold (read-only: nothing runs here).
import { type Dirent, readdirSync, readFileSync, realpathSync, type Stats, statSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { userConfigDir } from '../core/places.ts'
import type { ConfigProblem } from '../core/types.ts'
import { VOCABULARY } from '../agents/vocabulary.ts'
import type { PluginLayoutFacts } from '../agents/plugins.ts'

/**
 * Hook folders and plugins (kodelet ADR 029 in hookrun's terms). Highest precedence first:
 *
 *   <project>/.hookrun/hooks/             project-folder   hooks named by file name
 *   <project>/.hookrun/plugins/*          project-plugin   hooks named org/repo/name (installed as org@repo)
 *   $XDG_CONFIG_HOME/hookrun/hooks/       user-folder
 *   $XDG_CONFIG_HOME/hookrun/plugins/*    user-plugin
 *
 * Discovery reads folders and stats files, runs nothing, and returns every file it found, so that
 * trust can hash exactly what would run.
 */

export type Scope = 'project' | 'user'
type FolderLayer = 'project-folder' | 'project-plugin' | 'user-folder' | 'user-plugin'

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

/** A plugin's hooks file: its own hookrun-shaped `hooks.json`, or one of an agent's plugin layout (`layout` says whose). */
export interface FoundPluginConfig {
  readonly kind: 'config'
  readonly file: string
  readonly layer: FolderLayer
  readonly plugin: InstalledPlugin
  readonly layout?: PluginLayout
  /** The hooks written inline in the manifest (`file`), as the text of a hooks file. */
  readonly text?: string
}

/** A plugin's layout: an agent's (its module's `pluginLayout`), or `open`, Open Plugins (Goose and others). */
export interface PluginLayout extends Omit<PluginLayoutFacts, 'manifest'> {
  /** The agent whose layout it is, or `open`. */
  readonly agent: string
  /** The manifest it was found by; absent for a bare `hooks/hooks.json`. */
  readonly manifest?: string
}

/** Where a plugin layout keeps its hooks by default: `hooks/hooks.json`, Claude-shaped. */
const PLUGIN_HOOKS_FILE = join('hooks', 'hooks.json')

/** Open Plugins' layout: the variables it sets to the plugin folder. */
const OPEN_LAYOUT = { agent: 'open', rootVariables: ['PLUGIN_ROOT', 'CLAUDE_PLUGIN_ROOT'] } as const

/**
 * The manifests, in the order one is chosen when a plugin ships several (the agents' first, then Open
 * Plugins'). Each layout sets only its agent's variables to the plugin folder (agent-hook-protocols.md §1.6).
 */
let MANIFESTS: ReadonlyArray<{ readonly file: string; readonly layout: Omit<PluginLayout, 'manifest'> }> | undefined
const manifests = () =>
  (MANIFESTS ??= [
    ...VOCABULARY.pluginLayouts.map(([agent, { manifest, ...facts }]) => ({ file: join(...manifest), layout: { ...facts, agent } })),
    { file: 'plugin.json', layout: OPEN_LAYOUT },
    { file: join('.plugin', 'plugin.json'), layout: OPEN_LAYOUT },
  ])

export type FoundSource = FoundExecutable | FoundPluginConfig

interface SkippedFile {
  readonly path: string
  readonly why: string
}

export interface Discovery {
  /** In precedence order; a plugin's hooks.json comes before its executables. */
  readonly sources: readonly FoundSource[]
  /** Regular files in a hook folder that are not hooks because they are not executable. */
  readonly skipped: readonly SkippedFile[]
  /** Every file found (executables, plugin hooks files and manifests, skipped files), for hashing. */
  readonly files: readonly string[]
  /** Plugin manifests that cannot be read as they are; one that took hooks away blocks gates. */
  readonly problems: readonly ConfigProblem[]
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
  const problems: ConfigProblem[] = []
  const manifests: string[] = []
  for (const scope of ['project', 'user'] as const) {
    const folderLayer: FolderLayer = `${scope}-folder`
    const pluginLayer: FolderLayer = `${scope}-plugin`
    sources.push(...scanExecutables(hooksDir(scope, options.projectRoot, env), folderLayer, undefined, skipped))
    for (const plugin of installedPlugins(scope, options.projectRoot, env)) {
      const found = pluginSources(plugin, pluginLayer, skipped, problems)
      sources.push(...found)
      for (const source of found)
        if (source.kind === 'config' && source.layout?.manifest !== undefined) manifests.push(source.layout.manifest)
    }
  }
  const files = [
    ...new Set([
      ...sources.map((source) => (source.kind === 'config' ? source.file : source.path)),
      ...manifests,
      ...skipped.map((file) => file.path),
    ]),
  ]
  return { sources, skipped, files, problems }
}

/**
 * One plugin's hooks, read as its agent reads them:
 * - a manifest: the hooks files its `hooks` field names (paths, or the hooks inline), else
 *   `hooks/hooks.json`; Claude Code reads `hooks/hooks.json` besides the files it names;
 * - no manifest but a `hooks/hooks.json`: that file, with the Open Plugins variables;
 * - neither: the executables of `hooks/`, each asked which events it serves (kodelet's layout).
 *   With a manifest or hooks file they are only scripts those name: asking them `hook` on every
 *   event would run a stop script where it does not belong.
 * A hookrun-shaped `hooks.json` at the top comes first in every case, unless a manifest names it.
 */
export function pluginSources(
  plugin: InstalledPlugin,
  layer: FolderLayer,
  skipped: SkippedFile[] = [],
  problems: ConfigProblem[] = [],
): FoundSource[] {
  const manifest = manifests().find((candidate) => isFile(join(plugin.dir, candidate.file)))
  const defaultHooks = join(plugin.dir, PLUGIN_HOOKS_FILE)
  const configs: FoundPluginConfig[] = []
  if (manifest !== undefined) {
    const layout: PluginLayout = { ...manifest.layout, manifest: join(plugin.dir, manifest.file) }
    const named = manifestHooks(layout.manifest!, plugin.dir, problems)
    if (named === undefined) return native(plugin, layer, [])
    const files = named.files.filter((file) => file !== defaultHooks)
    const withDefault =
      layout.defaultHooksAlso === true || named.files.length > files.length || (files.length === 0 && named.text === undefined)
    if (withDefault && isFile(defaultHooks)) files.unshift(defaultHooks)
    for (const file of files) configs.push({ kind: 'config', file, layer, plugin, layout })
    if (named.text !== undefined) configs.push({ kind: 'config', file: layout.manifest!, layer, plugin, layout, text: named.text })
  } else if (isFile(defaultHooks)) {
    configs.push({ kind: 'config', file: defaultHooks, layer, plugin, layout: OPEN_LAYOUT })
  }
  if (configs.length > 0 || manifest !== undefined) return [...native(plugin, layer, configs), ...configs]
  return [...native(plugin, layer, configs), ...scanExecutables(join(plugin.dir, 'hooks'), layer, plugin, skipped)]
}

/** A plugin's own hookrun-shaped `hooks.json`, unless a manifest names it. */
function native(plugin: InstalledPlugin, layer: FolderLayer, configs: readonly FoundPluginConfig[]): FoundSource[] {
  const own = join(plugin.dir, 'hooks.json')
  return isFile(own) && !configs.some((config) => config.file === own) ? [{ kind: 'config', file: own, layer, plugin }] : []
}

/**
 * The hooks files a manifest names (inside the plugin), or its inline hooks as text. A manifest that
 * cannot be read, or names a file outside the plugin, took hooks away: gates block (src/answer/blocks.ts).
 */
function manifestHooks(manifest: string, dir: string, problems: ConfigProblem[]): { files: string[]; text?: string } | undefined {
  const broken = (path: string, message: string) => {
    problems.push({ severity: 'error', file: manifest, path, message, brokenHook: {} })
    return undefined
  }
  let json: unknown
  try {
    json = JSON.parse(readFileSync(manifest, 'utf8'))
  } catch (error) {
    return broken('', `cannot be read as JSON (${(error as Error).message}); the plugin's hooks are not run`)
  }
  const hooks = typeof json === 'object' && json !== null ? (json as Record<string, unknown>).hooks : undefined
  if (hooks === undefined) return { files: [] }
  if (typeof hooks === 'object' && hooks !== null && !Array.isArray(hooks)) {
    // Inline: the events themselves, or a hooks file's whole object.
    const events = 'hooks' in hooks ? hooks : { hooks }
    return { files: [], text: JSON.stringify(events) }
  }
  const paths = Array.isArray(hooks) ? hooks : [hooks]
  const files: string[] = []
  for (const [index, path] of paths.entries()) {
    const at = Array.isArray(hooks) ? `hooks[${index}]` : 'hooks'
    if (typeof path !== 'string') return broken(at, "must be a path to a hooks file (or the hooks inline); the plugin's hooks are not run")
    const file = resolve(dir, path)
    // Through links too: a hooks file must be the plugin's own.
    if (!isInside(dir, file) || !isInside(realPath(dir), realPath(file)))
      return broken(at, `'${path}' is outside the plugin folder; the plugin's hooks are not run`)
    files.push(file)
  }
  return { files }
}

/**
 * The executables of one folder, by name. Folders and leftovers are passed over; a regular file that
 * is not executable is reported as skipped (a forgotten `chmod +x` is why a hook "does nothing").
 */
function scanExecutables(
  dir: string,
  layer: FolderLayer,
  plugin: InstalledPlugin | undefined,
  skipped: SkippedFile[] = [],
): FoundExecutable[] {
  const found: FoundExecutable[] = []
  for (const entry of sortedEntries(dir)) {
    if (isLeftover(entry.name)) continue
    const path = join(dir, entry.name)
    let stat: Stats
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

/** Whether `file` is below `dir` (not `dir` itself). */
export function isInside(dir: string, file: string): boolean {
  const inside = relative(dir, file)
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)
}

/** The path with its links resolved; a path that does not exist (yet) resolved as it is. */
export function realPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** What trust hashes of the project's hook folder and plugins: every file found, and every file of each plugin (its scripts may be anywhere in it). */
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
