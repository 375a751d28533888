// Agents that run plugins, not hook commands (OpenCode, Kilo Code): where hookrun's plugin file
// goes, and the dialect it asks hookrun to answer in (src/install/plugin-agents.ts writes it).

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
}

/**
 * Where an agent that runs hookrun's hooks as a plugin of its own (Goose) can switch that plugin
 * off: by name in settings files (`disabledPlugins`; the first file that names the plugin, in
 * `enabledPlugins` or `disabledPlugins`, decides), and by folder in a YAML config
 * (`plugins: {<folder>: {enabled: false}}`). doctor says when hookrun's is off.
 */
export interface PluginSwitches {
  /** The settings files the agent reads for a session started in `start`, the one that decides first. */
  settingsFiles(start: string, places: PluginPlaces): string[]
  /** The config file whose `plugins:` switch folders off. */
  configFile(places: PluginPlaces): string
}
