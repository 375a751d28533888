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
 * Above hookrun's own budget for one fire's hooks (CHAIN_BUDGET_SECONDS, 540 s, in
 * src/config/defaults.ts, which this layer may not import; test/unit/install-target.test.ts keeps
 * the two in step): the agent never has to kill hookrun mid-gate, which most agents read as "go
 * ahead". hookrun enforces each hook's timeout and the budget itself.
 */
export const ROUTER_TIMEOUT_SECONDS = 600

/** Why an event that fires for every streamed chunk gets no router entry. */
export const STREAMING = 'fires for every streamed chunk of a response; a process per chunk would slow the agent down'

/** A folder the agent takes from a variable, else under the home folder (`$CODEX_HOME`, else ~/.codex). */
export const homeOr = (places: Places, variable: string, fallback: string): string => places.env[variable] || join(places.home, fallback)

/**
 * Where an agent keeps its hooks, and the router entry hookrun puts there: one entry per event
 * the agent has, each running `hookrun fire --format AGENT`, which reads the agent's payload and
 * answers in its protocol. Sources: shared/reference/agent-hook-protocols.md §1.1 and §6, and
 * the agents' docs named in src/agents/*.ts.
 */
export interface AgentTarget {
  readonly name: string
  readonly label: string
  file(scope: Scope, places: Places): string
  /**
   * groups: `hooks.Event = [ { matcher?, hooks: [handler] } ]` (Claude Code, Codex, Gemini CLI);
   * flat: `hooks.event = [handler]` (Cursor, Copilot).
   */
  readonly shape: 'groups' | 'flat'
  /** Events of a groups-shaped file whose list holds handlers directly (Antigravity CLI's PreInvocation, Stop, …). */
  readonly flatEvents?: readonly string[]
  /**
   * Why the agent drops the whole file, parsed, though it is JSON (Antigravity CLI drops a hooks.json
   * with an unknown event or a bad handler, silently): doctor reports it. Undefined: it loads.
   */
  discards?(value: unknown): string | undefined
  /**
   * Where the event map is in `file`: under `hooks` (the default), or at the top level (`[]`:
   * Factory Droid's standalone hooks.json). `targetForFile` fixes it for one file.
   */
  hooksPathFor?(file: string): readonly string[]
  /** The agent's files it does not read hooks from now (Droid's settings.json beside a hooks.json): doctor checks them. */
  ignoredFiles?(scope: Scope, places: Places): string[]
  /** Set by `targetForFile`: where the event map is in the file being read or written. */
  readonly hooksPath?: readonly string[]
  /** The handler field that holds the command. */
  readonly commandField: 'command' | 'bash'
  /**
   * `toml`: `[[hooks]]` tables in a TOML file (Kimi Code CLI, Mistral Vibe), written by
   * src/install/toml-hooks.ts with `tomlTable`; `hook-list`: a hooks file of hookrun's own,
   * `{version: "v1", hooks: [handler]}` (Kiro CLI v3), by src/install/hook-list.ts; default: an
   * event map in a JSON file; `argv-list`: `{hooks: [{command: [argv…], events: [event]}]}` (Deep
   * Agents Code), by src/install/argv-hooks.ts; `yaml`: an event map under `hooks:` in a YAML file
   * (Hermes Agent), by src/install/yaml-hooks.ts, which keeps the user's comments and order.
   */
  readonly format?: 'toml' | 'hook-list' | 'argv-list' | 'yaml'
  /**
   * The shape older versions of the agent read (Kiro CLI 2: an agent config; Vibe before 2.21: the
   * old event names): what `install --agent-format legacy` writes (src/install/agent-formats.ts).
   */
  readonly legacy?: AgentTarget
  /** A legacy shape whose file is not the current one's: whether `file` is one of its (targetForFile reads it so). */
  ownsFile?(file: string): boolean
  /** How install tells which of the two shapes (`legacy`) the installed agent reads, and says so. */
  readonly versions?: AgentVersions
  /**
   * Events only newer versions of the agent have, each with the first version that has it: an older
   * one skips the unknown key but warns about it at every interactive start (Claude Code 2.1.331 and
   * PreSkillShellCommand, seen in the agent lab). Install leaves such an event out where the
   * installed agent is known to be older; where its version cannot be told, it writes it, since a
   * gate left out would let the newer agent's calls through.
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
  /**
   * The matcher every group of hookrun's carries when it has no compiled one (Goose skips a
   * group whose matcher is not a valid regex, `*` included; `.*` takes every subject).
   */
  readonly allMatcher?: string
  /**
   * The agent's groups take a regex `matcher` on the tool name for tool events: a narrowed install
   * writes one naming only the tools hookrun's hooks want (src/install/matchers.ts).
   */
  readonly toolMatchers?: boolean
  /**
   * Whose tool names a matcher in the agent's file must name, when other agents run its entries
   * with their own tool names (Cursor and Devin CLI run Claude Code's). Default: the agent's own.
   */
  readonly matcherReaders?: readonly string[]
  /**
   * A file that makes the hooks file's folder a plugin (Goose's `plugin.json`, beside `hooks/`):
   * written when missing, removed with the hooks file when install created both.
   */
  readonly manifest?: { file(hooksFile: string): string; readonly content: Readonly<Record<string, unknown>> }
  /** Events that keep an entry whatever a narrowed install leaves out (`install --serve`'s server start). */
  readonly alwaysRouted?: readonly string[]
  /** `install --serve`'s target: what its handlers are, for install's `served:` line. */
  served?(self: string): string
  /**
   * The handler field that holds the agent's timeout for hookrun, and how many of its units make a
   * second; absent when the agent has no such field (Windsurf).
   */
  readonly timeout?: {
    readonly field: string
    readonly perSecond: 1 | 1000 /** Seconds, when the agent's default is known to be long enough. */
    readonly agentDefault?: number
  }
  /** What to tell the user after installing. */
  readonly note?: string
  /**
   * The agent runs hookrun's file only in some sessions (Kiro: when its `hookrun` agent is the one
   * selected): what doctor says of every such file, and how to make it apply.
   */
  readonly appliesOnly?: { readonly when: string; readonly fix: string }
  /**
   * `--project` writes the agent's own uncommitted file (Claude Code's `settings.local.json`), so
   * the command may hold this machine's path; elsewhere a project file is shared and gets the
   * portable command (`hookrun` from PATH).
   */
  readonly localProjectFile?: boolean
  /**
   * Project files earlier versions of hookrun wrote to (Claude Code's committed `settings.json`,
   * before installs moved to `settings.local.json`): `uninstall --project` cleans them too.
   */
  earlierProjectFiles?(places: Places): readonly string[]
  /**
   * The agent runs a new or changed hook only after the user reviews it (Codex keeps trust by the
   * hook's hash): fires never re-narrow its config, as a changed entry would stop running unseen.
   */
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
  /**
   * The agent has http hook handlers: `install --serve` writes them, and a `serve --start` entry
   * is one of hookrun's (src/install/serve-entries.ts).
   */
  readonly serves?: boolean
  /**
   * The agent reads its project settings only in the folder it is started in (Gemini CLI, Qwen
   * Code): started in a subfolder, a project install runs no hook, so install and doctor say so
   * and recommend the user install (a no-op in folders without hooks).
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
 * An agent module's `install` property: its target without the agent's name and label (the
 * agent's), and, when left out, `events` are every event of the agent's (src/event/events.ts
 * `namesOf`) but those `skipped`; `header`, `comments` and `skipped` are none, `commandField` is
 * `command` and `command` runs `hookrun fire --format <agent>`.
 */
export type InstallTarget = Omit<AgentTarget, 'name' | 'label' | 'legacy' | Defaulted> &
  Partial<Pick<AgentTarget, Defaulted>> & {
    readonly legacy?: InstallTarget
  }

/** What an install target may leave out (src/install/agents.ts fills them in). */
type Defaulted = 'events' | 'header' | 'comments' | 'skipped' | 'commandField' | 'command'
