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
