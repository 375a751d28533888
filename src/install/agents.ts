// Where each agent reads its hooks config, and the router entries hookrun writes there.
import { existsSync } from 'node:fs'
import { basename, dirname, isAbsolute, join } from 'node:path'
import { namesOf } from '../event/events.ts'
import { CHAIN_BUDGET_SECONDS } from '../config/defaults.ts'
import { routerTail } from '../core/router.ts'

/**
 * Where each agent keeps its hooks, and the router entry hookrun puts there: one entry per event
 * the agent has, each running `hookrun fire --format AGENT`, which reads the agent's payload and
 * answers in its protocol. Sources: shared/reference/agent-hook-protocols.md §1.1 and §6, and
 * the agents' docs named in src/dialects/*.ts.
 */
export type AgentName =
  | 'claude'
  | 'cursor'
  | 'gemini'
  | 'codex'
  | 'copilot'
  | 'windsurf'
  | 'droid'
  | 'kiro'
  | 'crush'
  | 'qwen'
  | 'goose'
  | 'kimi'
  | 'vibe'

export type Scope = 'user' | 'project'

export interface Places {
  /** The user's home (`HOME`). */
  readonly home: string
  /** The project root for `--project`. */
  readonly project: string
  readonly env: Readonly<Record<string, string | undefined>>
}

export interface AgentTarget {
  readonly name: AgentName
  readonly label: string
  file(scope: Scope, places: Places): string
  /**
   * groups: `hooks.Event = [ { matcher?, hooks: [handler] } ]` (Claude Code, Codex, Gemini CLI);
   * flat: `hooks.event = [handler]` (Cursor, Copilot).
   */
  readonly shape: 'groups' | 'flat'
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
   * src/install/toml-hooks.ts with `tomlTable`; default: JSON.
   */
  readonly format?: 'toml'
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
   * A file that makes the hooks file's folder a plugin (Goose's `plugin.json`, beside `hooks/`):
   * written when missing, removed with the hooks file when install created both.
   */
  readonly manifest?: { file(hooksFile: string): string; readonly content: Readonly<Record<string, unknown>> }
  /** Events that keep an entry whatever a narrowed install leaves out (`install --serve`'s server start). */
  readonly alwaysRouted?: readonly string[]
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
  /**
   * The agent reads its project settings only in the folder it is started in (Gemini CLI, Qwen
   * Code): started in a subfolder, a project install runs no hook, so install and doctor say so
   * and recommend the user install (a no-op in folders without hooks).
   */
  readonly projectFileOnlyWhereStarted?: boolean
}

/** What a committed project file runs: hookrun from PATH, no machine's path in it. */
export const PORTABLE_SELF = 'hookrun'

const home = (places: Places, variable: string, fallback: string) => places.env[variable] || join(places.home, fallback)

const STREAMING = 'fires for every streamed chunk of a response; a process per chunk would slow the agent down'
const CURSOR_SPECIFIC =
  'preToolUse / postToolUse already fire for this tool; a second entry would run your hooks twice (hookrun --format cursor still reads it if you wire it by hand)'

function eventsOf(source: AgentName, skipped: Readonly<Record<string, string>>): string[] {
  return [...namesOf(source)].filter((name) => skipped[name] === undefined)
}

const claudeSkipped = {
  MessageDisplay: STREAMING,
  WorktreeCreate: 'its hook must print the new worktree path; a router there would break worktree creation',
}
const geminiSkipped = { AfterModel: STREAMING }
const GOOSE_TOOL_TWICE =
  'PreToolUse / PostToolUse already fire for this tool, and Goose takes no block here; a second entry would run your hooks twice'
const gooseSkipped = {
  BeforeShellExecution: GOOSE_TOOL_TWICE,
  AfterShellExecution: GOOSE_TOOL_TWICE,
  BeforeReadFile: GOOSE_TOOL_TWICE,
  AfterFileEdit: GOOSE_TOOL_TWICE,
  PreToolUseResult: "it reports the decision PreToolUse's hooks (hookrun's among them) already made",
}
const qwenSkipped = { MessageDisplay: STREAMING }
const cursorSkipped = {
  beforeShellExecution: CURSOR_SPECIFIC,
  afterShellExecution: CURSOR_SPECIFIC,
  beforeMCPExecution: CURSOR_SPECIFIC,
  afterMCPExecution: CURSOR_SPECIFIC,
  beforeReadFile: CURSOR_SPECIFIC,
  afterFileEdit: CURSOR_SPECIFIC,
}

/**
 * Above hookrun's own budget for one fire's hooks (CHAIN_BUDGET_SECONDS): the agent never has to
 * kill hookrun mid-gate, which most agents read as "go ahead". hookrun enforces each hook's timeout
 * and the budget itself.
 */
export const ROUTER_TIMEOUT_SECONDS = CHAIN_BUDGET_SECONDS + 60

export const AGENTS: readonly AgentTarget[] = [
  {
    name: 'claude',
    label: 'Claude Code',
    file: (scope, places) =>
      scope === 'user'
        ? join(places.env.CLAUDE_CONFIG_DIR || join(places.home, '.claude'), 'settings.json')
        : join(places.project, '.claude', 'settings.local.json'),
    localProjectFile: true,
    earlierProjectFiles: (places) => [join(places.project, '.claude', 'settings.json')],
    shape: 'groups',
    commandField: 'command',
    header: {},
    comments: false,
    events: eventsOf('claude', claudeSkipped),
    skipped: claudeSkipped,
    command: (self) => `${self} fire --format claude`,
    // Claude Code's default is 30 s on UserPromptSubmit: a router killed by the agent would let
    // the prompt through whatever hookrun's onError says.
    handler: (command) => ({ type: 'command', command, timeout: ROUTER_TIMEOUT_SECONDS }),
    timeout: { field: 'timeout', perSecond: 1 },
  },
  {
    name: 'cursor',
    label: 'Cursor',
    file: (scope, places) => join(scope === 'user' ? join(places.home, '.cursor') : join(places.project, '.cursor'), 'hooks.json'),
    shape: 'flat',
    commandField: 'command',
    header: { version: 1 },
    comments: false,
    events: eventsOf('cursor', cursorSkipped),
    skipped: cursorSkipped,
    command: (self) => `${self} fire --format cursor`,
    handler: (command) => ({ command, timeout: ROUTER_TIMEOUT_SECONDS }),
    timeout: { field: 'timeout', perSecond: 1 },
  },
  {
    name: 'gemini',
    label: 'Gemini CLI',
    file: (scope, places) => join(scope === 'user' ? home(places, 'GEMINI_CLI_HOME', '') : places.project, '.gemini', 'settings.json'),
    shape: 'groups',
    commandField: 'command',
    header: {},
    comments: true,
    events: eventsOf('gemini', geminiSkipped),
    skipped: geminiSkipped,
    command: (self) => `${self} fire --format gemini`,
    // Gemini's timeout is in milliseconds; `name` is what `/hooks disable` takes.
    handler: (command) => ({ type: 'command', name: 'hookrun', command, timeout: ROUTER_TIMEOUT_SECONDS * 1000 }),
    timeout: { field: 'timeout', perSecond: 1000 },
    // Seen in the agent lab (0.61): hooks run with no setting at all (hooksConfig.enabled defaults
    // to true); headless, an untrusted folder stops Gemini before any model request.
    note: 'Gemini CLI runs hooks only in a folder it trusts, and not when hooksConfig.enabled is false in its settings (on by default)',
    projectFileOnlyWhereStarted: true,
  },
  {
    name: 'codex',
    label: 'Codex',
    file: (scope, places) => join(scope === 'user' ? home(places, 'CODEX_HOME', '.codex') : join(places.project, '.codex'), 'hooks.json'),
    shape: 'groups',
    commandField: 'command',
    header: {},
    comments: false,
    events: eventsOf('codex', {}),
    skipped: {},
    command: (self) => `${self} fire --format codex`,
    // Codex's default timeout (600 s) is above hookrun's budget; none is written: Codex trusts
    // hooks by their hash, and a changed entry would stop running until the user reviews it.
    handler: (command) => ({ type: 'command', command }),
    timeout: { field: 'timeout', perSecond: 1, agentDefault: 600 },
    note: 'Codex runs a new or changed hook only after you review and trust it: open /hooks in Codex',
    reviewsChangedHooks: true,
  },
  {
    name: 'copilot',
    label: 'Copilot',
    // Copilot reads every *.json in its hooks folders, so hookrun gets a file of its own.
    file: (scope, places) =>
      join(
        scope === 'user' ? join(home(places, 'COPILOT_HOME', '.copilot'), 'hooks') : join(places.project, '.github', 'hooks'),
        'hookrun.json',
      ),
    shape: 'flat',
    commandField: 'bash',
    header: { version: 1 },
    comments: false,
    events: eventsOf('copilot', {}),
    skipped: {},
    // Copilot's camelCase payloads do not name the event, so the command does.
    command: (self, event) => `${self} fire ${event} --format copilot`,
    handler: (command) => ({ type: 'command', bash: command, timeoutSec: ROUTER_TIMEOUT_SECONDS }),
    timeout: { field: 'timeoutSec', perSecond: 1 },
  },
  {
    name: 'windsurf',
    label: 'Windsurf',
    // docs.windsurf.com/windsurf/cascade/hooks "Configuration"; the system-level files are the admin's.
    file: (scope, places) =>
      scope === 'user' ? join(places.home, '.codeium', 'windsurf', 'hooks.json') : join(places.project, '.windsurf', 'hooks.json'),
    shape: 'flat',
    commandField: 'command',
    header: {},
    comments: false,
    events: eventsOf('windsurf', {}),
    skipped: {},
    command: (self) => `${self} fire --format windsurf`,
    // Cascade reads no JSON; show_output lets the person at the keyboard see hookrun's messages.
    handler: (command) => ({ command, show_output: true }),
  },
  {
    name: 'droid',
    label: 'Factory Droid',
    // docs.factory.ai/harness/hooks: hooks.json beside settings.json, keyed directly by event
    // name ("Standalone hooks.json files are keyed directly by event name"), and the `hooks` key
    // of settings.json only when there is no hooks.json. Where the user has no hooks.json hookrun
    // writes settings.json, which every Droid reads (Factory-AI/factory#3: 0.186 ran none of the
    // hooks.json it was given); where one exists, Droid ignores settings.json's hooks, so hookrun
    // writes there, in its shape.
    file: (scope, places) => {
      const dir = scope === 'user' ? join(places.home, '.factory') : join(places.project, '.factory')
      return existsSync(join(dir, 'hooks.json')) ? join(dir, 'hooks.json') : join(dir, 'settings.json')
    },
    hooksPathFor: (file) => (basename(file) === 'hooks.json' ? [] : ['hooks']),
    ignoredFiles: (scope, places) => {
      const dir = scope === 'user' ? join(places.home, '.factory') : join(places.project, '.factory')
      return existsSync(join(dir, 'hooks.json')) ? [join(dir, 'settings.json')] : []
    },
    shape: 'groups',
    commandField: 'command',
    header: {},
    comments: false,
    events: eventsOf('droid', {}),
    skipped: {},
    command: (self) => `${self} fire --format droid`,
    handler: (command) => ({ type: 'command', command, timeout: ROUTER_TIMEOUT_SECONDS }),
    timeout: { field: 'timeout', perSecond: 1 },
    note: 'an organisation hooks policy in Factory may ignore hooks it does not manage',
  },
  {
    name: 'kiro',
    label: 'Kiro',
    // Kiro CLI reads hooks from an agent's configuration (kiro.dev/docs/cli/hooks): hookrun
    // brings an agent of its own rather than editing the user's.
    file: (scope, places) => join(scope === 'user' ? join(places.home, '.kiro') : join(places.project, '.kiro'), 'agents', 'hookrun.json'),
    shape: 'flat',
    commandField: 'command',
    header: { name: 'hookrun', description: 'The default tools, with hookrun answering every hook', tools: ['*'] },
    comments: false,
    events: eventsOf('kiro', {}),
    skipped: {},
    command: (self) => `${self} fire --format kiro`,
    // Kiro's default is 30 s (timeout_ms).
    handler: (command) => ({ command, timeout_ms: ROUTER_TIMEOUT_SECONDS * 1000 }),
    timeout: { field: 'timeout_ms', perSecond: 1000 },
    note: "these hooks apply only while Kiro's `hookrun` agent is selected: start Kiro with kiro-cli chat --agent hookrun, or make it the default (kiro-cli settings chat.defaultAgent hookrun); Kiro's other agents run none of them",
    appliesOnly: {
      when: "only while Kiro's `hookrun` agent is selected (kiro-cli chat --agent hookrun, or chat.defaultAgent hookrun): Kiro's other agents, its default one included, run none of these hooks",
      fix: 'kiro-cli chat --agent hookrun   (or for every session: kiro-cli settings chat.defaultAgent hookrun)',
    },
  },
  {
    name: 'crush',
    label: 'Crush',
    // charmbracelet/crush docs/hooks: crush.json or .crush.json in the project, ~/.config/crush/crush.json globally.
    file: (scope, places) => {
      if (scope === 'user') return join(home(places, 'XDG_CONFIG_HOME', '.config'), 'crush', 'crush.json')
      const hidden = join(places.project, '.crush.json')
      return existsSync(hidden) && !existsSync(join(places.project, 'crush.json')) ? hidden : join(places.project, 'crush.json')
    },
    shape: 'flat',
    commandField: 'command',
    header: {},
    comments: true,
    events: eventsOf('crush', {}),
    skipped: {},
    command: (self) => `${self} fire --format crush`,
    // `name` is what Crush's TUI shows; its default timeout is 30 s.
    handler: (command) => ({ name: 'hookrun', command, timeout: ROUTER_TIMEOUT_SECONDS }),
    timeout: { field: 'timeout', perSecond: 1 },
  },
  {
    name: 'qwen',
    label: 'Qwen Code',
    // QwenLM/qwen-code docs/users/features/hooks.md: hooks in .qwen/settings.json or the user's settings.
    file: (scope, places) => join(scope === 'user' ? join(places.home, '.qwen') : join(places.project, '.qwen'), 'settings.json'),
    shape: 'groups',
    commandField: 'command',
    header: {},
    comments: true,
    events: eventsOf('qwen', qwenSkipped),
    skipped: qwenSkipped,
    command: (self) => `${self} fire --format qwen`,
    // Qwen's command-hook timeout is in milliseconds.
    handler: (command) => ({ type: 'command', name: 'hookrun', command, timeout: ROUTER_TIMEOUT_SECONDS * 1000 }),
    timeout: { field: 'timeout', perSecond: 1000 },
    note: 'Qwen Code runs project hooks only in a trusted folder',
    projectFileOnlyWhereStarted: true,
  },
  {
    name: 'goose',
    label: 'Goose',
    // aaif-goose/goose crates/goose/src/plugins/discovery.rs: plugins in <start folder>/.agents/plugins/
    // and ~/.agents/plugins/ ($GOOSE_PATH_ROOT/.agents/plugins/ when set); hooks only in a plugin's
    // hooks/hooks.json (the Open Plugins layout). hookrun brings a plugin of its own, `hookrun`.
    file: (scope, places) =>
      join(scope === 'user' ? gooseRoot(places) : places.project, '.agents', 'plugins', 'hookrun', 'hooks', 'hooks.json'),
    shape: 'groups',
    commandField: 'command',
    header: {},
    comments: false,
    events: eventsOf('goose', gooseSkipped),
    skipped: gooseSkipped,
    command: (self) => `${self} fire --format goose`,
    // Goose's default timeout is 30 s, and a PreToolUse hook that fails, times out or prints no
    // decision lets the call through unless `on_failure` is `block` (only PreToolUse takes it).
    handler: (command, event) => ({
      type: 'command',
      command,
      timeout: ROUTER_TIMEOUT_SECONDS,
      ...(event === 'PreToolUse' && { on_failure: 'block' }),
    }),
    timeout: { field: 'timeout', perSecond: 1 },
    allMatcher: '.*',
    manifest: {
      file: (hooksFile) => join(dirname(dirname(hooksFile)), 'plugin.json'),
      content: { name: 'hookrun', version: '1.0.0', description: 'Routes Goose hook events to hookrun (hookrun install --agent goose)' },
    },
    note: "Goose honours only blocks (PreToolUse, Stop): a hook's rewrite is refused (the call is blocked), its context and messages reach nobody; a SessionStart banner shows in goose session",
    projectFileOnlyWhereStarted: true,
  },
  {
    name: 'kimi',
    label: 'Kimi Code CLI',
    // MoonshotAI/kimi-cli 1.49.0 (src/kimi_cli/share.py, config.py): `[[hooks]]` in config.toml of
    // $KIMI_SHARE_DIR, by default ~/.kimi; no project file.
    file: (_scope, places) => join(places.env.KIMI_SHARE_DIR || join(places.home, '.kimi'), 'config.toml'),
    format: 'toml',
    userOnly: true,
    // Kimi's timeout is in seconds, at most 600 (its HookDef).
    tomlTable: (event, command) => ({ event, command, timeout: ROUTER_TIMEOUT_SECONDS }),
    shape: 'flat',
    commandField: 'command',
    header: {},
    comments: false,
    events: eventsOf('kimi', {}),
    skipped: {},
    command: (self) => `${self} fire --format kimi`,
    handler: (command) => ({ command, timeout: ROUTER_TIMEOUT_SECONDS }),
    note: 'Kimi Code CLI reads these for every project; what it does with an answer is from its 1.49.0 source, not the agent lab',
  },
  {
    name: 'vibe',
    label: 'Mistral Vibe',
    // mistralai/mistral-vibe 2.18.4 (vibe/core/config/harness_files, vibe/core/paths): .vibe/hooks.toml
    // in a trusted project, and hooks.toml in $VIBE_HOME (~/.vibe).
    file: (scope, places) =>
      join(scope === 'user' ? places.env.VIBE_HOME || join(places.home, '.vibe') : join(places.project, '.vibe'), 'hooks.toml'),
    format: 'toml',
    // Names are unique across Vibe's files (a second `hookrun-before_tool` is skipped: hooks run
    // once); `strict`: a tool hook that fails (hookrun killed, a crash) denies instead of warning.
    tomlTable: (event, command) => ({
      name: `hookrun-${event}`,
      type: event,
      command,
      timeout: ROUTER_TIMEOUT_SECONDS,
      ...(event !== 'post_agent_turn' && { strict: true }),
    }),
    tomlEventKey: 'type',
    shape: 'flat',
    commandField: 'command',
    header: {},
    comments: false,
    events: eventsOf('vibe', {}),
    skipped: {},
    command: (self) => `${self} fire --format vibe`,
    handler: (command) => ({ command, timeout: ROUTER_TIMEOUT_SECONDS }),
    note: "Vibe runs hooks only with enable_experimental_hooks = true in ~/.vibe/config.toml (or VIBE_ENABLE_EXPERIMENTAL_HOOKS=true), and a project's .vibe/hooks.toml only in a folder it trusts; from its 2.18.4 source, not the agent lab",
    appliesOnly: {
      when: 'only when Vibe runs with enable_experimental_hooks = true (in ~/.vibe/config.toml, or VIBE_ENABLE_EXPERIMENTAL_HOOKS=true); a project file only in a folder Vibe trusts',
      fix: 'add enable_experimental_hooks = true to ~/.vibe/config.toml',
    },
  },
]

/** Goose's user folder: $GOOSE_PATH_ROOT when it is an absolute path, else the home folder. */
function gooseRoot(places: Places): string {
  const root = places.env.GOOSE_PATH_ROOT
  return root !== undefined && isAbsolute(root) ? root : places.home
}

export function agentTarget(name: string): AgentTarget | undefined {
  return AGENTS.find((agent) => agent.name === name)
}

/** The target as it reads and writes `file` (where that file keeps its event map). */
export function targetForFile(target: AgentTarget, file: string): AgentTarget {
  return target.hooksPathFor === undefined ? target : { ...target, hooksPath: target.hooksPathFor(file) }
}

/** Where the target's event map is: `hooks`, unless `targetForFile` said otherwise. */
export function hooksPathOf(target: AgentTarget): readonly string[] {
  return target.hooksPath ?? ['hooks']
}

/** Is this command one of hookrun's router entries for the agent (any hookrun path, any event)? */
export function isRouterCommand(command: unknown, agent: AgentName): boolean {
  return typeof command === 'string' && routerTail(agent).test(command)
}

/** The hookrun a router entry's command runs (what install was given as `self`). */
export function routerSelf(command: string, agent: AgentName): string | undefined {
  return routerTail(agent).test(command) ? command.replace(routerTail(agent), '') : undefined
}
