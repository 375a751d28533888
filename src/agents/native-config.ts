// How an agent's own hooks config reads (its shape, default timeouts and their unit, handler
// fields, matcher rules) and which files of a project it reads hooks from (`hookrun scan`). Each
// agent module holds its facts as data; src/config/ (the readers) and src/install/scan*.ts (the
// scanner) are generic over the registry.

/**
 * How a file is read: `events` an agent's JSON event map (Claude's groups, Cursor's and Copilot's
 * flat handlers, Kiro's agent config; `at` says where the map is), `named-groups` Antigravity's
 * hook names each with its events, `trigger-files` Kiro's standalone hook files, `toml-tables` Vibe's
 * `[[hooks]]`, `toml-config` Codex's `[hooks]` in config.toml, `front-matter` the `hooks:` of a
 * Markdown file's YAML front matter (Claude Code's skills, subagents, commands), `executables` a
 * folder of hook programs (Cline), `plugin` code the agent loads (OpenCode, Kilo, Amp), and
 * `npm-plugins` the packages an OpenCode config names.
 */
type ScanReader =
  | 'events'
  | 'named-groups'
  | 'trigger-files'
  | 'toml-tables'
  | 'toml-config'
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
 * project file where it reads none (sources: shared/reference/agent-hook-protocols.md §6, §9–§11,
 * unless the agent's module names another).
 */
export interface ProjectScan {
  readonly sources?: readonly ScanSource[]
  /** The variables its hooks name the project by: a path under one is inside the project (src/install/scan-flags.ts). */
  readonly projectVariables?: readonly string[]
  readonly label?: string
  readonly noProjectFile?: string
}

/** A folder's `*.json` files. */
export const JSON_FILES = /\.json$/
/** A folder's Markdown files. */
export const MARKDOWN_FILES = /\.md$/
/** The plugin code an agent loads from a folder: JavaScript or TypeScript. */
export const CODE_FILES = /\.(?:[cm]?[jt]s|tsx|jsx)$/

/**
 * How hookrun reads an agent's own `hooks` object (pasted into a hooks.json, or moved by `hookrun
 * import`; src/config/agent-shapes.ts): `groups` event → matcher groups → handlers
 * with command, http and exec-form handlers (Claude Code's), `named-groups` the same nesting with
 * named handlers and `sequential` groups (Gemini CLI's), `versioned` event → handlers beside a
 * `version` (Cursor's), `flat` event → handlers with no `version` (Crush, Windsurf, Kiro).
 */
type NativeReader = 'groups' | 'named-groups' | 'versioned' | 'flat'

export interface NativeConfig {
  readonly reader: NativeReader
  /** Its default handler timeout, in seconds; absent: hookrun's own. */
  readonly defaultTimeout?: number
  /** hookrun's events on which its default timeout is shorter, and that default in seconds. */
  readonly shortTimeout?: { readonly seconds: number; readonly events: readonly string[] }
  /** The unit of its handlers' `timeout` (default seconds). */
  readonly timeoutUnit?: 's' | 'ms'
  /** A handler field that gives the timeout in milliseconds, beside a `timeout` in seconds. */
  readonly timeoutMsField?: string
  /**
   * The project-folder variables its handlers read, as the agent sets them (agent-hook-protocols.md
   * §1.6, §6.1, §6.3): a handler of its shape gets them when it runs, and trust expands them when it
   * finds the files a project's command names.
   */
  readonly handlerVariables?: readonly string[]
  /** hookrun's events on which the agent blocks when a handler times out (Reasonix), so a pasted one does too. */
  readonly timeoutBlocks?: readonly string[]
  /** It reads a handler's JSON answer only on exit 0, if at all: any other exit but 2 is a handler error, `onError` decides. */
  readonly answersOnExitZero?: true
  /** An exit code that halts the whole turn, stderr its reason (Crush's 49). */
  readonly haltExit?: number
  /** Placeholders its exec form (`command` and `args`) keeps for the shell to expand. */
  readonly execPlaceholders?: readonly string[]
  /** How a hooks object of unknown agent is told to be this agent's (tried in the registry's `PASTED_SHAPES` order). */
  readonly pasted?: PastedShape
  /** A flat handler's field holding its matcher, where it is not `matcher` (Reasonix's `match`). */
  readonly matcherField?: string
  /** A flat handler's field holding its working directory (Windsurf's `working_directory`, Reasonix's `cwd`). */
  readonly cwdField?: string
  /**
   * Its standalone hook files (`{version, hooks: [{name, trigger, matcher, action, timeout,
   * enabled}]}`, Kiro CLI v3's), pasted into a hooks.json: the `version` that tells them
   * (src/config/agent-shapes.ts). Their `timeout` is in `timeoutUnit`.
   */
  readonly hookList?: { readonly version: string }
  /** Its matcher as a Claude-style one (empty means every tool); absent: Claude Code's rules. */
  matcher?(matcher: string | undefined): string | undefined
  /** The tool an event name carries in it (Windsurf's `pre_run_command`), which the event's pattern keeps. */
  eventTool?(eventName: string): string | undefined
  /** The spelling of its event name in its event table, where it reads names more loosely (Crush's `pre_tool_use`). */
  eventSpelling?(eventName: string): string
}

/** What tells a pasted hooks object to be an agent's; with none of these, it is read as the agent's when its shape fits (the last of a layout). */
interface PastedShape {
  /** A `version` beside `hooks` (Cursor's): read as this agent's whatever the hooks hold. */
  readonly versioned?: boolean
  /** One of its own event names (those matching the pattern, where one is given). */
  readonly ownEvents?: true | RegExp
  /** The agent whose event names it shares: only names that agent lacks tell this one. */
  readonly sharesEventsWith?: string
  /** A group key only it has (Gemini CLI's `sequential`). */
  readonly groupKeys?: readonly string[]
  /** A handler key only it has (Gemini CLI's `name`; a flat handler's own key, Reasonix's `match`). */
  readonly handlerKeys?: readonly string[]
}

/**
 * How `hookrun import` moves an agent's handlers into hooks.json (src/install/import.ts,
 * src/commands/import.ts): which of its files it reads, and what the agent does with a handler
 * that hookrun's entry must write out or cannot carry.
 */
export interface HooksImport {
  /** Its hooks object reads as this agent's (Codex's files are Claude Code's shape). */
  readonly readsAs?: string
  /** Its handlers are plain commands read here, not by a config reader (Copilot's `{type, bash, …}`). */
  readonly commands?: CommandHandlers
  /** The entry's name starts with the agent's name: its names are another agent's too. */
  readonly namePrefixed?: boolean
  /** The timeout written out where a handler sets none, in seconds. */
  readonly defaultTimeout?: number
  /** Handler fields only about its own screen: not carried, each with what it does. */
  readonly screenFields?: Readonly<Record<string, string>>
  /** A key of `hooks` that lists the names of handlers switched off, not an event (Gemini CLI's `disabled`). */
  readonly disabledKey?: string
  /** Why a handler stays in the agent's file: something the agent does with it that hookrun's entry could not. */
  stays?(handler: Readonly<Record<string, unknown>>, disabled: ReadonlySet<string>): string | undefined
  /** User-level hooks run in their file's folder, where their relative paths point (Cursor's ~/.cursor). */
  readonly userHooksRunInFileFolder?: boolean
  /** Project files read before the one install writes, project-relative (Claude Code's shared settings.json). */
  readonly projectFiles?: readonly string[]
  /** Every `*.json` of the installed file's folder but hookrun's own is read (Copilot's hooks folder). */
  readonly folder?: boolean
  /** A file beside the installed one that may hold hooks import does not read, how to tell, and what they are (Codex's config.toml). */
  readonly unreadFile?: { readonly name: string; readonly holdsHooks: RegExp; readonly what: string }
  /** A project file shared with teammates (Claude Code's settings.json): moving its hooks means they need hookrun too. */
  readonly sharedFile?: string
  /** Its file may hold the http handlers `install --serve` writes (src/install/serve-entries.ts): hookrun's own, never imported. */
  readonly serveEntries?: boolean
}

/** Handlers that are commands with fields of their own (Copilot's): how they read as a hooks.json entry. */
export interface CommandHandlers {
  /** The agent's name in import's messages. */
  readonly who: string
  /** Every field a handler may have. */
  readonly fields: readonly string[]
  /** The field holding the command hookrun runs. */
  readonly command: string
  /** Why a handler without that command stays. */
  readonly noCommand: string
  /** The field of the agent's other command (for another platform), and what it is: not carried. */
  readonly otherCommand: { readonly field: string; readonly what: string }
  /** The field of the timeout, in seconds, and the agent's default. */
  readonly timeoutField: string
  readonly defaultTimeout: number
  /** The event on which a failing handler denies (others let the event through). */
  readonly failsClosedOn: string
}
