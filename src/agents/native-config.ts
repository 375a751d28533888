// How an agent's own hooks config reads (its shape, default timeouts and their unit, handler
// fields, matcher rules) and which files of a project it reads hooks from (`hookrun scan`). Each
// agent module holds its facts as data; src/config/ (the readers) and src/install/scan*.ts (the
// scanner) are generic over the registry.

/**
 * How a file is read: `events` an agent's JSON event map (Claude's groups, Cursor's and Copilot's
 * flat handlers, Kiro's agent config; `at` says where the map is), `named-groups` Antigravity's
 * hook names each with its events, `kiro-hooks` Kiro's standalone hook files, `toml-tables` Vibe's
 * `[[hooks]]`, `codex-toml` Codex's `[hooks]` in config.toml, `front-matter` the `hooks:` of a
 * Markdown file's YAML front matter (Claude Code's skills, subagents, commands), `executables` a
 * folder of hook programs (Cline), `plugin` code the agent loads (OpenCode, Kilo, Amp), and
 * `npm-plugins` the packages an OpenCode config names.
 */
export type ScanReader =
  | 'events'
  | 'named-groups'
  | 'kiro-hooks'
  | 'toml-tables'
  | 'codex-toml'
  | 'front-matter'
  | 'executables'
  | 'plugin'
  | 'npm-plugins'

/** One file (or folder of files) of a project that some agent reads hooks or plugins from. */
export interface ScanSource {
  /** Project-relative file, or a folder with `entries` (`*.json`, `*` for executables, `*.{js,ts}`). */
  readonly path: string
  /** What of a folder is read: a file name pattern. */
  readonly entries?: RegExp
  /** Goose's plugin folders (`path/<plugin>/hooks/hooks.json`), Claude Code's skills (`path/<skill>/SKILL.md`). */
  readonly nested?: string
  /** `entries` in sub-folders too (Claude Code reads its subagents and commands from any depth). */
  readonly recursive?: boolean
  /** Listed only when it holds a hook or cannot be read: a project has many skills, most without hooks. */
  readonly onlyWithHooks?: boolean
  /** When its hooks run, said beside each (a skill's run once it is used, not when the session starts). */
  readonly hookNote?: string
  /** Claude Code's settings: its `enabledPlugins` and `extraKnownMarketplaces` are read too. */
  readonly claudePlugins?: boolean
  readonly reader: ScanReader
  /** Where the event map is in a JSON file (default `hooks`). */
  readonly at?: readonly string[]
  /** The agents that read it, as people name them. */
  readonly agents: readonly string[]
  /** The agents of `hookrun agents` whose files these are, for "which files were looked at". */
  readonly owners: readonly string[]
  /** `hookrun import --agent X --project` moves this file's hooks under hookrun (an agent's name). */
  readonly importAgent?: string
  /** The file hookrun's own install writes here, whose router entries are hookrun's. */
  readonly hookrunFile?: boolean
}

/**
 * What `hookrun scan` knows of an agent: the project files it is the first owner of (in the order
 * scan lists them), its name in scan's list where that is not its label, and why it reads no
 * project file where it reads none.
 */
export interface ProjectScan {
  readonly sources?: readonly ScanSource[]
  readonly label?: string
  readonly noProjectFile?: string
}

/** A folder's `*.json` files. */
export const JSON_FILES = /\.json$/
/** A folder's Markdown files. */
export const MARKDOWN_FILES = /\.md$/
/** The plugin code an agent loads from a folder: JavaScript or TypeScript. */
export const CODE_FILES = /\.(?:[cm]?[jt]s|tsx|jsx)$/
