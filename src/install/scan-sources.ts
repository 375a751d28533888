// Every file in a project that some agent hookrun knows reads hooks or plugins from, and which
// agents read it (`hookrun scan`). Sources: shared/reference/agent-hook-protocols.md §6, §9–§11,
// src/install/agents.ts, hook-folder.ts, plugin-agents.ts and docs/agents/*.md.
import type { ImportAgent } from './import.ts'

/**
 * How a file is read: `events` an agent's JSON event map (Claude's groups, Cursor's and Copilot's
 * flat handlers, Kiro's agent config; `at` says where the map is), `named-groups` Antigravity's
 * hook names each with its events, `kiro-hooks` Kiro's standalone hook files, `toml-tables` Vibe's
 * `[[hooks]]`, `codex-toml` Codex's `[hooks]` in config.toml, `front-matter` the `hooks:` of a
 * Markdown file's YAML front matter (Claude Code's skills, subagents, commands), `executables` a
 * folder of hook programs (Cline), `plugin` code the agent loads (OpenCode, Kilo, Amp), and
 * `npm-plugins` the packages an OpenCode config names.
 */
type ScanReader =
  | 'events'
  | 'named-groups'
  | 'kiro-hooks'
  | 'toml-tables'
  | 'codex-toml'
  | 'front-matter'
  | 'executables'
  | 'plugin'
  | 'npm-plugins'

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
  /** `hookrun import --agent X --project` moves this file's hooks under hookrun. */
  readonly importAgent?: ImportAgent
  /** The file hookrun's own install writes here, whose router entries are hookrun's. */
  readonly hookrunFile?: boolean
}

const CLAUDE_READERS = [
  'Claude Code',
  'Copilot CLI',
  'Cursor',
  'Devin CLI',
  'VS Code (chat.useClaudeHooks)',
  'Agent SDK apps (settingSources)',
]
/** Who reads a skill's, subagent's or command's front matter hooks: Claude Code, and the SDK that runs its engine. */
const CLAUDE_MARKDOWN_READERS = ['Claude Code', 'Agent SDK apps (settingSources)']
const JSON_FILES = /\.json$/
const MARKDOWN_FILES = /\.md$/
/** What Claude Code's skills, subagents and commands share: hooks in their front matter, listed only when they have some. */
const CLAUDE_MARKDOWN = {
  reader: 'front-matter',
  agents: CLAUDE_MARKDOWN_READERS,
  owners: ['claude', 'agent-sdk'],
  onlyWithHooks: true,
} as const
const CODE_FILES = /\.(?:[cm]?[jt]s|tsx|jsx)$/

export const SCAN_SOURCES: readonly ScanSource[] = [
  {
    path: '.claude/settings.json',
    reader: 'events',
    agents: [...CLAUDE_READERS, 'Grok Build'],
    owners: ['claude', 'cursor', 'copilot', 'devin', 'grok', 'agent-sdk'],
    importAgent: 'claude',
    claudePlugins: true,
  },
  {
    path: '.claude/settings.local.json',
    reader: 'events',
    agents: CLAUDE_READERS,
    owners: ['claude', 'cursor', 'copilot', 'devin', 'agent-sdk'],
    importAgent: 'claude',
    hookrunFile: true,
    claudePlugins: true,
  },
  {
    ...CLAUDE_MARKDOWN,
    path: '.claude/skills',
    nested: 'SKILL.md',
    hookNote: 'a skill: its hooks run once the skill is used, for the rest of the session',
  },
  {
    ...CLAUDE_MARKDOWN,
    path: '.claude/agents',
    entries: MARKDOWN_FILES,
    recursive: true,
    hookNote: 'a subagent: its hooks run while it runs (its Stop as SubagentStop)',
  },
  {
    ...CLAUDE_MARKDOWN,
    path: '.claude/commands',
    entries: MARKDOWN_FILES,
    recursive: true,
    hookNote: 'a command: its hooks run once the command is used, for the rest of the session',
  },
  {
    path: '.cursor/hooks.json',
    reader: 'events',
    agents: ['Cursor', 'Grok Build'],
    owners: ['cursor', 'grok'],
    importAgent: 'cursor',
    hookrunFile: true,
  },
  { path: '.gemini/settings.json', reader: 'events', agents: ['Gemini CLI'], owners: ['gemini'], importAgent: 'gemini', hookrunFile: true },
  { path: '.qwen/settings.json', reader: 'events', agents: ['Qwen Code'], owners: ['qwen'], hookrunFile: true },
  { path: '.codex/hooks.json', reader: 'events', agents: ['Codex'], owners: ['codex'], importAgent: 'codex', hookrunFile: true },
  { path: '.codex/config.toml', reader: 'codex-toml', agents: ['Codex'], owners: ['codex'] },
  {
    path: '.github/hooks',
    entries: JSON_FILES,
    reader: 'events',
    agents: ['Copilot CLI', 'Copilot cloud agent', 'VS Code'],
    owners: ['copilot'],
    importAgent: 'copilot',
    hookrunFile: true,
  },
  { path: '.github/copilot/settings.json', reader: 'events', agents: ['Copilot CLI'], owners: ['copilot'] },
  { path: '.github/copilot/settings.local.json', reader: 'events', agents: ['Copilot CLI'], owners: ['copilot'] },
  { path: '.windsurf/hooks.json', reader: 'events', agents: ['Windsurf'], owners: ['windsurf'], hookrunFile: true },
  { path: '.factory/settings.json', reader: 'events', agents: ['Factory Droid'], owners: ['droid'], hookrunFile: true },
  { path: '.factory/hooks.json', reader: 'events', at: [], agents: ['Factory Droid'], owners: ['droid'], hookrunFile: true },
  { path: '.kiro/agents', entries: JSON_FILES, reader: 'events', agents: ['Kiro'], owners: ['kiro'], hookrunFile: true },
  { path: '.kiro/hooks', entries: /\.(?:json|kiro\.hook)$/, reader: 'kiro-hooks', agents: ['Kiro'], owners: ['kiro'] },
  { path: 'crush.json', reader: 'events', agents: ['Crush'], owners: ['crush'], hookrunFile: true },
  { path: '.crush.json', reader: 'events', agents: ['Crush'], owners: ['crush'], hookrunFile: true },
  {
    path: '.agents/plugins',
    nested: 'hooks/hooks.json',
    reader: 'events',
    agents: ['Goose'],
    owners: ['goose'],
    hookrunFile: true,
  },
  { path: '.augment/settings.json', reader: 'events', agents: ['Auggie'], owners: ['auggie'] },
  { path: '.augment/settings.local.json', reader: 'events', agents: ['Auggie'], owners: ['auggie'], hookrunFile: true },
  { path: '.letta/settings.json', reader: 'events', agents: ['Letta Code'], owners: ['letta'] },
  { path: '.letta/settings.local.json', reader: 'events', agents: ['Letta Code'], owners: ['letta'], hookrunFile: true },
  { path: '.vibe/hooks.toml', reader: 'toml-tables', agents: ['Mistral Vibe'], owners: ['vibe'], hookrunFile: true },
  { path: '.cline/hooks', entries: /^[^.]/, reader: 'executables', agents: ['Cline'], owners: ['cline'], hookrunFile: true },
  { path: '.clinerules/hooks', entries: /^[^.]/, reader: 'executables', agents: ['Cline'], owners: ['cline'] },
  { path: '.opencode/plugins', entries: CODE_FILES, reader: 'plugin', agents: ['OpenCode'], owners: ['opencode'], hookrunFile: true },
  { path: '.opencode/plugin', entries: CODE_FILES, reader: 'plugin', agents: ['OpenCode'], owners: ['opencode'] },
  { path: 'opencode.json', reader: 'npm-plugins', agents: ['OpenCode'], owners: ['opencode'] },
  { path: 'opencode.jsonc', reader: 'npm-plugins', agents: ['OpenCode'], owners: ['opencode'] },
  { path: '.opencode/opencode.json', reader: 'npm-plugins', agents: ['OpenCode'], owners: ['opencode'] },
  { path: '.kilo/plugins', entries: CODE_FILES, reader: 'plugin', agents: ['Kilo Code'], owners: ['kilo'], hookrunFile: true },
  { path: '.kilo/plugin', entries: CODE_FILES, reader: 'plugin', agents: ['Kilo Code'], owners: ['kilo'] },
  { path: '.kilocode/plugins', entries: CODE_FILES, reader: 'plugin', agents: ['Kilo Code'], owners: ['kilo'] },
  { path: '.kilocode/plugin', entries: CODE_FILES, reader: 'plugin', agents: ['Kilo Code'], owners: ['kilo'] },
  { path: '.devin/hooks.v1.json', reader: 'events', at: [], agents: ['Devin CLI'], owners: ['devin'] },
  { path: '.grok/hooks', entries: JSON_FILES, reader: 'events', agents: ['Grok Build'], owners: ['grok'] },
  { path: '.amp/plugins', entries: CODE_FILES, reader: 'plugin', agents: ['Amp (PLUGINS=all)'], owners: ['amp'] },
  { path: '.agents/hooks.json', reader: 'named-groups', agents: ['Antigravity CLI'], owners: ['antigravity'] },
]

/** Agents hookrun knows that read no hook file from a project, and why. */
export const NO_PROJECT_FILE: Readonly<Record<string, string>> = {
  kimi: "Kimi Code CLI reads hooks from ~/.kimi/config.toml only (no project file; the user's own file)",
}

/** The agents scan speaks of, in the order it lists what it looked at: `hookrun agents`, then the ones hookrun has no install for (most read another agent's files). */
export const SCAN_AGENTS: ReadonlyArray<readonly [string, string]> = [
  ['claude', 'Claude Code'],
  ['cursor', 'Cursor'],
  ['gemini', 'Gemini CLI'],
  ['qwen', 'Qwen Code'],
  ['codex', 'Codex'],
  ['copilot', 'Copilot CLI'],
  ['windsurf', 'Windsurf'],
  ['droid', 'Factory Droid'],
  ['kiro', 'Kiro'],
  ['crush', 'Crush'],
  ['goose', 'Goose'],
  ['auggie', 'Auggie'],
  ['letta', 'Letta Code'],
  ['kimi', 'Kimi Code CLI'],
  ['vibe', 'Mistral Vibe'],
  ['cline', 'Cline'],
  ['opencode', 'OpenCode'],
  ['kilo', 'Kilo Code'],
  ['devin', 'Devin CLI'],
  ['grok', 'Grok Build'],
  ['amp', 'Amp'],
  ['antigravity', 'Antigravity CLI'],
  ['agent-sdk', 'Claude Agent SDK apps'],
]
