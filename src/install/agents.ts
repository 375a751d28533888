// Where each agent reads its hooks config, and the router entries hookrun writes there.
import { existsSync } from 'node:fs'
import { basename, dirname, isAbsolute, join } from 'node:path'
import { namesOf } from '../event/events.ts'
import { type AgentName, type AgentTarget, type Places, ROUTER_TIMEOUT_SECONDS } from './agent-target.ts'
import { KIRO, VIBE } from './agents-versioned.ts'

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
 * The agents whose hooks config install writes (the shape of one: agent-target.ts). Sources:
 * shared/reference/agent-hook-protocols.md §1.1 and §6, and the agents' docs named in src/agents/*.ts.
 */
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
    // github/docs hooks-reference (via shared reference §11; not seen in the lab).
    note: "Copilot lets a call through when a hook's timeoutSec runs out, even a policy hook's: keep this entry's timeoutSec, which is above hookrun's budget for one fire",
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
  KIRO,
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
    name: 'auggie',
    label: 'Auggie',
    // @augmentcode/auggie 0.36.0 reads `hooks` from /etc/augment/settings.json, then
    // <workspace>/.augment/settings.local.json and settings.json, then ~/.augment/settings.json
    // (its bundle's hook config loader); hookrun writes the project's local file, as Claude Code's.
    file: (scope, places) =>
      scope === 'user' ? join(places.home, '.augment', 'settings.json') : join(places.project, '.augment', 'settings.local.json'),
    localProjectFile: true,
    shape: 'groups',
    commandField: 'command',
    header: {},
    comments: false,
    events: eventsOf('auggie', {}),
    skipped: {},
    command: (self) => `${self} fire --format auggie`,
    // Auggie's timeout is in milliseconds (its default 60 000).
    handler: (command) => ({ type: 'command', command, timeout: ROUTER_TIMEOUT_SECONDS * 1000 }),
    timeout: { field: 'timeout', perSecond: 1000 },
    note: 'what Auggie does with an answer is from its 0.36.0 bundle, not the agent lab (it needs an Augment login)',
  },
  {
    name: 'letta',
    label: 'Letta Code',
    // letta-ai/letta-code 0.30.29 (src/hooks/loader.ts): `hooks` of ~/.letta/settings.json, then
    // the project's .letta/settings.json and settings.local.json, merged; hookrun writes the
    // project's local file, as Claude Code's.
    file: (scope, places) =>
      scope === 'user' ? join(places.home, '.letta', 'settings.json') : join(places.project, '.letta', 'settings.local.json'),
    localProjectFile: true,
    shape: 'groups',
    commandField: 'command',
    header: {},
    comments: false,
    events: eventsOf('letta', {}),
    skipped: {},
    command: (self) => `${self} fire --format letta`,
    // Letta's timeout is in milliseconds (its default 60 000: src/hooks/executor.ts).
    handler: (command) => ({ type: 'command', command, timeout: ROUTER_TIMEOUT_SECONDS * 1000 }),
    timeout: { field: 'timeout', perSecond: 1000 },
    note: 'what Letta Code does with an answer is from its 0.30.29 source, not the agent lab (it needs a Letta server)',
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
  VIBE,
]

/** Goose's user folder: $GOOSE_PATH_ROOT when it is an absolute path, else the home folder. */
function gooseRoot(places: Places): string {
  const root = places.env.GOOSE_PATH_ROOT
  return root !== undefined && isAbsolute(root) ? root : places.home
}

export function agentTarget(name: string): AgentTarget | undefined {
  return AGENTS.find((agent) => agent.name === name)
}
