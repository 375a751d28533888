// Where an agent keeps its hooks config and what hookrun writes there (`hookrun install`): the shape
// of an agent module's `install` property. The generic reading and writing by shape: src/install/.
import { join } from 'node:path'

export type Scope = 'user' | 'project'

export interface Places {
  /** The user's home (`HOME`). */
  readonly home: string
  /** The project root for `--project`. */
  readonly project: string
  readonly env: Readonly<Record<string, string | undefined>>
}

/**
 * Above hookrun's budget for one fire (CHAIN_BUDGET_SECONDS, 540 s, src/config/defaults.ts; kept in step by
 * test/unit/install-target.test.ts): the agent never kills hookrun mid-gate, which most read as "go ahead".
 */
export const ROUTER_TIMEOUT_SECONDS = 600

/** The router's `{type: 'command', command, timeout}` handler (a `name` first where given), its timeout in seconds or milliseconds. */
export function commandHandler(perSecond: 1 | 1000, name?: string): Pick<AgentTarget, 'handler' | 'timeout'> {
  return {
    handler: (command) => ({ type: 'command', ...(name !== undefined && { name }), command, timeout: ROUTER_TIMEOUT_SECONDS * perSecond }),
    timeout: { field: 'timeout', perSecond },
  }
}

/** Why an event that fires for every streamed chunk gets no router entry. */
export const STREAMING = 'fires for every streamed chunk of a response; a process per chunk would slow the agent down'

/** A folder the agent takes from a variable, else under the home folder (`$CODEX_HOME`, else ~/.codex). */
export const homeOr = (places: Places, variable: string, fallback: string): string => places.env[variable] || join(places.home, fallback)

/**
 * Where an agent keeps its hooks, and hookrun's router entry there: one per event, running
 * `hookrun fire --format AGENT` (sources: the agents' docs named in src/agents/*.ts).
 */
export interface AgentTarget {
  readonly name: string
  readonly label: string
  file(scope: Scope, places: Places): string
  /** groups: `hooks.Event = [ { matcher?, hooks: [handler] } ]` (Claude Code); flat: `hooks.event = [handler]` (Cursor). */
  readonly shape: 'groups' | 'flat'
  /** Events of a groups-shaped file whose list holds handlers directly (Antigravity CLI's PreInvocation, Stop, …). */
  readonly flatEvents?: readonly string[]
  /** Why the agent drops the whole file (Antigravity CLI: an unknown event or a bad handler), for doctor; undefined: it loads. */
  discards?(value: unknown): string | undefined
  /** Where the event map is in `file`: `hooks` (default) or the top level (`[]`: Droid's hooks.json). */
  hooksPathFor?(file: string): readonly string[]
  /** The agent's files it does not read hooks from now (Droid's settings.json beside a hooks.json): doctor checks them. */
  ignoredFiles?(scope: Scope, places: Places): string[]
  /** Set by `targetForFile`: where the event map is in the file being read or written. */
  readonly hooksPath?: readonly string[]
  /** The handler field that holds the command. */
  readonly commandField: 'command' | 'bash'
  /**
   * How the file is written (default: an event map in JSON): `toml` `[[hooks]]` tables (Kimi, Vibe;
   * src/install/toml-hooks.ts), `hook-list` `{version, hooks: [handler]}` (Kiro v3), `argv-list` (Deep
   * Agents Code), `yaml` an event map that keeps the user's comments (Hermes Agent).
   */
  readonly format?: 'toml' | 'hook-list' | 'argv-list' | 'yaml'
  /** The shape older versions read (Kiro CLI 2, Vibe before 2.21): `install --agent-format legacy` (src/install/agent-formats.ts). */
  readonly legacy?: AgentTarget
  /** A legacy shape whose file is not the current one's: whether `file` is one of its (targetForFile reads it so). */
  ownsFile?(file: string): boolean
  /** How install tells which of the two shapes (`legacy`) the installed agent reads, and says so. */
  readonly versions?: AgentVersions
  /**
   * Events only newer versions have, with the first version: an older one warns of the unknown key at
   * every start (Claude Code 2.1.331), so install leaves them out where the agent is known to be older.
   */
  readonly newEvents?: { readonly program: string; readonly since: Readonly<Record<string, readonly number[]>> }
  /** The fields of hookrun's `[[hooks]]` table for one event, in order; `tomlEventKey` names the event. */
  tomlTable?(event: string, command: string): Readonly<Record<string, string | number | boolean>>
  readonly tomlEventKey?: string
  /** The agent reads one file for every project: no `--project` install (Kimi Code CLI). */
  readonly userOnly?: boolean
  /** Keys a new file starts with besides `hooks`. */
  readonly header: Readonly<Record<string, unknown>>
  /** The file may have comments (Gemini CLI reads its settings as JSON with comments). */
  readonly comments: boolean
  /** The agent's events that get a router entry, in its spelling. */
  readonly events: readonly string[]
  /** Events left out on purpose, with why (printed by install, listed in docs/agents/). */
  readonly skipped: Readonly<Record<string, string>>
  /** The router's command for one event. */
  command(self: string, event: string): string
  /** The handler object for one event (inside a group for the groups shape). */
  handler(command: string, event: string): Record<string, unknown>
  /** The matcher of a group with no compiled one (Goose skips a group whose matcher is not a regex, `*` included). */
  readonly allMatcher?: string
  /** Tool events' groups take a regex `matcher` on the tool: a narrowed install names only wanted tools (src/install/matchers.ts). */
  readonly toolMatchers?: boolean
  /** Whose tool names a matcher must name where others run the agent's entries (Cursor, Devin CLI: Claude Code's). Default: its own. */
  readonly matcherReaders?: readonly string[]
  /** A file that makes the hooks file's folder a plugin (Goose's `plugin.json`): written when missing, removed with it. */
  readonly manifest?: { file(hooksFile: string): string; readonly content: Readonly<Record<string, unknown>> }
  /** Events that keep an entry whatever a narrowed install leaves out (`install --serve`'s server start). */
  readonly alwaysRouted?: readonly string[]
  /** `install --serve`'s target: what its handlers are, for install's `served:` line. */
  served?(self: string): string
  /** The handler field for the agent's timeout and its units a second; absent: no such field (Windsurf). */
  readonly timeout?: {
    readonly field: string
    readonly perSecond: 1 | 1000 /** Seconds, when the agent's default is known to be long enough. */
    readonly agentDefault?: number
  }
  /** What to tell the user after installing. */
  readonly note?: string
  /** The agent runs hookrun's file only in some sessions (Kiro: its `hookrun` agent selected): what doctor says, and the fix. */
  readonly appliesOnly?: { readonly when: string; readonly fix: string }
  /** `--project` writes an uncommitted file (Claude Code's `settings.local.json`): the command may hold this machine's path. */
  readonly localProjectFile?: boolean
  /** Project files earlier hookrun versions wrote (Claude Code's `settings.json`): `uninstall --project` cleans them too. */
  earlierProjectFiles?(places: Places): readonly string[]
  /** The agent runs a changed hook only once reviewed (Codex, by hash): fires never re-narrow its config. */
  readonly reviewsChangedHooks?: boolean
  /** Where the agent records the user's reviews of hooks, and events it never asks a review for (src/install/hook-reviews.ts). */
  readonly reviews?: {
    file(env: Readonly<Record<string, string | undefined>>, home: string): string
    readonly unlisted: readonly string[]
    /** Where the user reviews a hook, its headless run that skips an unreviewed one, and doctor's fix. */
    readonly where: string
    readonly headless: string
    readonly fix: string
  }
  /** The agent has http hook handlers: `install --serve` writes them (src/install/serve-entries.ts). */
  readonly serves?: boolean
  /**
   * The agent reads project settings only in the folder it starts in (Gemini CLI, Qwen Code): install and
   * doctor say so and recommend the user install.
   */
  readonly projectFileOnlyWhereStarted?: boolean
}

/** Does the event's list in the agent's file hold matcher groups (else handlers directly)? */
export function groupsAt(target: Pick<AgentTarget, 'shape' | 'flatEvents'>, event: string): boolean {
  return target.shape === 'groups' && !(target.flatEvents ?? []).includes(event)
}

/** What install says of an agent's two shapes, its program, and the first version that reads the current one. */
export interface AgentVersions {
  readonly program: string
  readonly current: string
  readonly legacy: string
  readonly older: string
  readonly since: readonly number[]
  /** What an older version does, said after its version. */
  readonly old: string
}

/**
 * An agent module's `install`: its target without name and label; left out, `events` are all the agent's
 * but `skipped`; `header`, `comments`, `skipped` none; `commandField` `command`; `command` runs `hookrun fire --format <agent>`.
 */
export type InstallTarget = Omit<AgentTarget, 'name' | 'label' | 'legacy' | Defaulted> &
  Partial<Pick<AgentTarget, Defaulted>> & {
    readonly legacy?: InstallTarget
  }

/** What an install target may leave out (src/install/agents.ts fills them in). */
type Defaulted = 'events' | 'header' | 'comments' | 'skipped' | 'commandField' | 'command'
