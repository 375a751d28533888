// Agents that run plugins, not hook commands (OpenCode, Kilo Code, Pi, OpenClaw): where hookrun's
// plugin file goes, and the dialect it asks hookrun to answer in (src/install/plugin-agents.ts writes it).

/** The first line of every plugin hookrun writes: how install and uninstall know the file is hookrun's. */
export const PLUGIN_MARKER = "// hookrun's plugin for"

/** Where an agent's files are: the user's home, the project, the environment. */
interface PluginPlaces {
  readonly home: string
  readonly project: string
  readonly env: Readonly<Record<string, string | undefined>>
}

/** hookrun's plugin in one agent. */
export interface PluginFacts {
  /** The plugin file hookrun writes for this scope. */
  file(scope: 'project' | 'user', places: PluginPlaces): string
  /** What install tells the person after writing it. */
  readonly note: string
  /** The `--format` the plugin asks hookrun for: the agent whose plugin API it is (Kilo Code runs OpenCode's). */
  readonly format: string
  /** The plugin's text where the API is not OpenCode's: runs `command` with `timeoutSeconds`, starts with PLUGIN_MARKER. */
  text?(command: readonly string[], timeoutSeconds: number): string
  /** Files install writes beside the plugin and uninstall removes with it (OpenClaw's manifest), by the plugin's path. */
  companions?(file: string): ReadonlyArray<{ readonly file: string; readonly text: string }>
  /** Why the agent loads no plugin from a project (OpenClaw: a workspace plugin is off until enabled); absent: both scopes. */
  readonly userOnly?: string
  /**
   * The config entries that let the plugin load (OpenClaw): install writes them, uninstall removes them,
   * doctor fails while one is missing, as an unloaded plugin leaves every gate off.
   */
  readonly enabledBy?: PluginEnabling
}

/** Settings in an agent's JSON config that let hookrun's plugin in. */
export interface PluginEnabling {
  file(places: PluginPlaces): string
  /** Lists that must hold an item (`plugins.allow` naming the plugin). */
  readonly lists: ReadonlyArray<{ readonly path: readonly string[]; readonly item: string }>
  /** Values that must be set (`plugins.entries.<id>`); uninstall removes each whole. */
  readonly values: ReadonlyArray<{ readonly path: readonly string[]; readonly value: unknown }>
}

/**
 * Where an agent running hookrun's hooks as its plugin (Goose) switches it off: by name in settings
 * (`disabledPlugins`; the first file naming it decides) and by folder in YAML; doctor says so.
 */
export interface PluginSwitches {
  /** The settings files the agent reads for a session started in `start`, the one that decides first. */
  settingsFiles(start: string, places: PluginPlaces): string[]
  /** The config file whose `plugins:` switch folders off. */
  configFile(places: PluginPlaces): string
}

/**
 * An agent's layout for plugins that ship hooks (Claude Code's `.claude-plugin/plugin.json` and
 * the like; src/discover/folders.ts finds a plugin's layout by its manifest).
 */
export interface PluginLayoutFacts {
  /** The manifest, relative to the plugin folder, split into its path's parts. */
  readonly manifest: readonly string[]
  /** The variables the agent sets to the plugin folder in its hooks' environment (`${CLAUDE_PLUGIN_ROOT}`). */
  readonly rootVariables: readonly string[]
  /** `hooks/hooks.json` is read besides the hooks files the manifest names (Claude Code reads it always). */
  readonly defaultHooksAlso?: boolean
  /** The plugin's hooks run in the plugin folder, not the project (Cursor's). */
  readonly runsInPluginFolder?: boolean
}
