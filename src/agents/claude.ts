// Claude Code's dialect: its payloads in, its JSON answers and exit codes out.
import { CLAUDE_MCP_NAMING, type AgentEvents, type AgentTools, type CarriedRow, type Dialect } from './types.ts'
import { agentOf, carryFields } from './shared.ts'
import { fromGrok, grokEventName } from './grok-payload.ts'
import { join } from 'node:path'
import { type InstallTarget, STREAMING, commandHandler } from './install.ts'
import type { HttpHooks } from './serve.ts'
import { MARKDOWN_FILES, type ProjectScan, type NativeConfig, type HooksImport } from './native-config.ts'

export const CLAUDE_EVENT_NAMES = {
  PreToolUse: 'tool:pre_execute',
  PostToolUse: 'tool:post_execute',
  PostToolUseFailure: 'tool:error',
  UserPromptSubmit: 'user:prompt_submit',
  Notification: 'notification',
  SessionStart: 'session:start',
  SessionEnd: 'session:end',
  Stop: 'agent:stop',
  SubagentStart: 'subagent:start',
  SubagentStop: 'subagent:stop',
  PreCompact: 'context:pre_compact',
  PermissionRequest: 'permission:prompt',
  Setup: 'session:setup',
  TeammateIdle: 'teammate:idle',
  TaskCompleted: 'task:completed',
  TaskCreated: 'task:created',
  PermissionDenied: 'permission:denied',
  PostToolBatch: 'tool:post_batch',
  UserPromptExpansion: 'user:prompt_expansion',
  MessageDisplay: 'llm:message_display',
  PreModelSwitch: 'llm:pre_model_switch',
  PostModelSwitch: 'llm:post_model_switch',
  StopFailure: 'agent:stop_failure',
  PostCompact: 'context:post_compact',
  InstructionsLoaded: 'context:instructions_loaded',
  ConfigChange: 'config:change',
  CwdChanged: 'session:cwd_changed',
  DirectoryAdded: 'session:directory_added',
  FileChanged: 'file:changed',
  WorktreeCreate: 'worktree:create',
  WorktreeRemove: 'worktree:remove',
  Elicitation: 'mcp:elicitation',
  ElicitationResult: 'mcp:elicitation_result',
  // Claude Code 2.1.332 (Agent SDK 0.3.332): a skill's or command's embedded shell command, about to
  // run outside any tool call; `tool_name` is Bash or PowerShell, `tool_input.command` the command.
  PreSkillShellCommand: 'tool:pre_execute',
} as const satisfies AgentEvents

/**
 * Some of Claude Code's event names, which another agent uses with the same meaning (Letta Code,
 * Kimi Code CLI, Qwen Code, …), in that agent's order: each name's meaning is stated once, above.
 */
export function claudeEvents(...names: ReadonlyArray<keyof typeof CLAUDE_EVENT_NAMES>): AgentEvents {
  return Object.fromEntries(names.map((name) => [name, CLAUDE_EVENT_NAMES[name]]))
}

/** Claude Code's first eleven events (PreToolUse … PreCompact), which several agents take in this order. */
export const CLAUDE_CORE_EVENTS = (Object.keys(CLAUDE_EVENT_NAMES) as (keyof typeof CLAUDE_EVENT_NAMES)[]).slice(0, 11)

const TOOLS = {
  Bash: 'bash',
  PowerShell: 'powershell',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'multiedit',
  NotebookEdit: 'notebookedit',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'ls',
  WebFetch: 'webfetch',
  WebSearch: 'websearch',
  Agent: 'agent',
  Task: 'agent',
  TodoWrite: 'todo',
  AskUserQuestion: 'ask',
} as const satisfies AgentTools

/** Some of Claude Code's tool names, which another agent uses for the same tools, in that agent's order. */
export function claudeTools(...names: ReadonlyArray<keyof typeof TOOLS>): AgentTools {
  return Object.fromEntries(names.map((name) => [name, TOOLS[name]]))
}

/**
 * Claude Code (reference/agent-hook-protocols.md §2–3): exit 0 and its JSON, `hookSpecificOutput` for
 * PreToolUse, PermissionRequest and the context events, top-level `decision: "block"` where the event uses it.
 */
// The index every dialect shares (built once a fire), not a pass over every alias of its own.
const CLAUDE_EVENTS = new Set<string>(Object.keys(CLAUDE_EVENT_NAMES))

/** Events that take top-level `decision: "block"` + `reason`. */
const BLOCK_DECISION_EVENTS = new Set([
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStop',
  'ConfigChange',
  'PreCompact',
  'TaskCreated',
  'TaskCompleted',
  'TeammateIdle',
])

/** Events whose `hookSpecificOutput.additionalContext` reaches the model. */
const CONTEXT_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'Setup',
  'SubagentStart',
  'Stop',
  'SubagentStop',
  // §9.1: its plain stdout becomes context
  'PostModelSwitch',
])

/** PostToolUse may replace what the model sees of the tool's output (§3.3). */
const CLAUDE_CARRIES: readonly CarriedRow[] = [
  { field: 'updatedToolOutput', events: ['PostToolUse'], key: 'updatedToolOutput' },
  { field: 'updatedMCPToolOutput', events: ['PostToolUse'], key: 'updatedMCPToolOutput' },
]

export const claude: Dialect = {
  name: 'claude',
  carries: CLAUDE_CARRIES,
  label: 'Claude Code',
  source: 'claude',
  project: { variables: ['CLAUDE_PROJECT_DIR'] },
  ignores: [
    {
      field: 'updatedInput',
      events: ['PreSkillShellCommand'],
      // Agent SDK 0.3.332's types: "Never applied. Any value keeps the command from running."
      why: "any updatedInput keeps a skill's shell command from running and is never applied",
    },
  ],
  caveats: [
    "A skill's shell command (PreSkillShellCommand, Claude Code 2.1.332) is kept from running by ask as by deny: Claude Code shows no dialog there",
  ],
  mcpNaming: CLAUDE_MCP_NAMING,
  // Claude Code 2.1.331 names the server of an MCP call in `mcp_server.name` (its tool name holds it normalized).
  mcpCall(payload, tool) {
    const server = (payload.mcp_server as { name?: unknown } | null | undefined)?.name
    if (typeof server !== 'string' || server === '') return undefined
    const prefix = `mcp__${server.replace(/[^a-zA-Z0-9_-]/g, '_')}__`
    return tool.startsWith(prefix) && tool.length > prefix.length ? { server, tool: tool.slice(prefix.length) } : undefined
  },
  detectMarks: ['hook_event_name'],
  detect: (payload) => typeof payload.hook_event_name === 'string' && CLAUDE_EVENTS.has(payload.hook_event_name),
  // VS Code (with chat.useClaudeHooks) and Grok Build run Claude Code's entries and name the event
  // in `hookEventName` (Grok in snake case: src/agents/grok-payload.ts).
  eventName: (payload) =>
    typeof payload.hook_event_name === 'string'
      ? payload.hook_event_name
      : fromGrok(payload)
        ? grokEventName(payload)
        : typeof payload.hookEventName === 'string'
          ? payload.hookEventName
          : undefined,
  render(decision, payload, agentEvent) {
    const eventName = agentEvent ?? (typeof payload.hook_event_name === 'string' ? payload.hook_event_name : 'PreToolUse')
    const warnings: string[] = []
    const cannot = (field: string) => warnings.push(`Claude Code cannot apply ${field} on ${eventName}; it was not sent`)
    const out: Record<string, unknown> = {}
    const specific: Record<string, unknown> = { hookEventName: eventName }
    const context = decision.additionalContext.join('\n\n')
    const decided = decision.decidedBy !== undefined

    if (eventName === 'PreToolUse') {
      if (decided) {
        specific.permissionDecision = decision.decision
        if (decision.reason !== undefined) specific.permissionDecisionReason = decision.reason
      }
      if (decision.updatedInput !== undefined) {
        specific.updatedInput = decision.updatedInput
        // Claude Code applies a rewrite together with allow or ask, not on its own.
        if (!decided)
          warnings.push(
            `Claude Code applies updatedInput on PreToolUse only with an allow or ask decision; no hook gave one, so it may be ignored`,
          )
      }
    } else if (eventName === 'PreModelSwitch' || eventName === 'PreSkillShellCommand') {
      // §9.1: answers allow / deny / ask, as PreToolUse does; a deny keeps the current model. A
      // skill's shell command is kept from running by deny and by ask alike (no dialog is shown).
      if (decided) {
        specific.permissionDecision = decision.decision
        if (decision.reason !== undefined) specific.permissionDecisionReason = decision.reason
      }
      if (decision.updatedInput !== undefined) cannot('updatedInput')
    } else if (eventName === 'PermissionRequest') {
      if (decided && decision.decision !== 'ask') {
        specific.decision = {
          behavior: decision.decision,
          ...(decision.updatedInput !== undefined && { updatedInput: decision.updatedInput }),
          ...(decision.decision === 'deny' && decision.reason !== undefined && { message: decision.reason }),
        }
      } else {
        if (decided) cannot("decision 'ask' (the permission dialog is shown as usual)")
        if (decision.updatedInput !== undefined) cannot('updatedInput without an allow')
      }
    } else {
      if (decision.updatedInput !== undefined) cannot('updatedInput')
      if (decision.blocked && BLOCK_DECISION_EVENTS.has(eventName)) {
        out.decision = 'block'
        out.reason = decision.reason ?? `blocked by hook '${decision.decidedBy ?? 'unknown'}'`
      } else if (decision.blocked && (eventName === 'Elicitation' || eventName === 'ElicitationResult')) {
        specific.action = 'decline'
      } else if (decision.blocked) {
        warnings.push(`a block cannot stop ${eventName} in Claude Code; reported as a system message`)
        out.systemMessage = decision.reason
      }
      if (decision.decision === 'ask') cannot("decision 'ask'")
    }
    if (decision.updatedPrompt !== undefined) cannot('updatedPrompt (Claude Code cannot rewrite a prompt)')
    if (context !== '') {
      if (CONTEXT_EVENTS.has(eventName)) specific.additionalContext = context
      else cannot('additionalContext')
    }
    if (!decision.continue) {
      out.continue = false
      if (decision.stopReason !== undefined) out.stopReason = decision.stopReason
    }
    if (decision.systemMessage !== undefined) out.systemMessage = [out.systemMessage, decision.systemMessage].filter(Boolean).join('\n')
    if (decision.suppressOutput) out.suppressOutput = true
    for (const field of carryFields(decision, eventName, CLAUDE_CARRIES, (key, value) => (specific[key] = value))) cannot(field)
    if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific
    return { stdout: `${JSON.stringify(out)}\n`, exitCode: 0, warnings }
  },
}

const claudeInstall: InstallTarget = {
  file: (scope, places) =>
    scope === 'user'
      ? join(places.env.CLAUDE_CONFIG_DIR || join(places.home, '.claude'), 'settings.json')
      : join(places.project, '.claude', 'settings.local.json'),
  localProjectFile: true,
  earlierProjectFiles: (places) => [join(places.project, '.claude', 'settings.json')],
  shape: 'groups',
  skipped: {
    MessageDisplay: STREAMING,
    WorktreeCreate: 'its hook must print the new worktree path; a router there would break worktree creation',
  },
  // Claude Code's default is 30 s on UserPromptSubmit: a router killed by the agent would let
  // the prompt through whatever hookrun's onError says.
  ...commandHandler(1),
  toolMatchers: true,
  // Cursor and Devin CLI run Claude Code's entries with their own tool names (src/install/callers.ts).
  matcherReaders: ['claude', 'cursor', 'devin'],
  serves: true,
  newEvents: { program: 'claude', since: { PreSkillShellCommand: [2, 1, 332] } },
}

/**
 * The agents that run Claude Code's entries (.claude/settings*.json) with payloads of their own, in
 * the order a fire tells them apart (each one's `caller`: src/agents/callers.ts).
 */
// Grok before VS Code: both name the event in `hookEventName`; Grok's payload has `workspaceRoot` too.
const CALLERS = ['cursor', 'grok', 'vscode', 'copilot', 'devin', 'agent-sdk']

/**
 * Claude Code's http hook handlers (docs/serve.md; `onFailure` since 2.1.295): SessionStart starts the
 * server (no http handler there), UserPromptSubmit again after an idle exit.
 */
const HTTP: HttpHooks = {
  route: 'claude',
  minVersion: '2.1.295',
  program: 'claude',
  commandEvents: ['SessionStart', 'UserPromptSubmit'],
  projectVariable: 'CLAUDE_PROJECT_DIR',
  sessionVariables: ['CLAUDE_ENV_FILE'],
  startWithoutFormat: true,
}

/** Who reads Claude Code's settings files: it, and the agents and SDK that run its hook entries. */
const CLAUDE_READERS = [
  'Claude Code',
  'Copilot CLI',
  'Cursor',
  'Devin CLI',
  'VS Code (chat.useClaudeHooks)',
  'Agent SDK apps (settingSources)',
]
/** What Claude Code's skills, subagents and commands share: hooks in their front matter (read by it and the SDK that runs its engine), listed only when they have some. */
const CLAUDE_MARKDOWN = {
  reader: 'front-matter',
  agents: ['Claude Code', 'Agent SDK apps (settingSources)'],
  owners: ['claude', 'agent-sdk'],
  onlyWithHooks: true,
} as const
const CLAUDE_SCAN: ProjectScan = {
  projectVariables: ['CLAUDE_PROJECT_DIR'],
  sources: [
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
  ],
}

/**
 * How Claude Code's own hooks object reads: matcher groups, 600 s timeouts but 30 s on UserPromptSubmit
 * and the model-switch events (agent-hook-protocols.md §1.3, §9.1); its exec form keeps these
 * placeholders for the shell (src/core/shell.ts `execWord`).
 */
const CLAUDE_NATIVE: NativeConfig = {
  reader: 'groups',
  handlerVariables: ['CLAUDE_PROJECT_DIR'],
  defaultTimeout: 600,
  shortTimeout: { seconds: 30, events: ['user:prompt_submit', 'llm:pre_model_switch', 'llm:post_model_switch'] },
  execPlaceholders: ['CLAUDE_PROJECT_DIR', 'CLAUDE_PLUGIN_ROOT', 'PLUGIN_ROOT', 'CURSOR_PLUGIN_ROOT', 'DROID_PLUGIN_ROOT'],
  pasted: {},
}

/** How `hookrun import` moves Claude Code's handlers: both project settings files, the shared one first. */
/** Claude Code's handler fields that only concern its own screen: import does not carry them, and says so. */
export const CLAUDE_SCREEN_FIELDS: Readonly<Record<string, string>> = {
  statusMessage: "Claude Code's spinner text while the hook runs",
  once: 'honoured by Claude Code in skill frontmatter only',
}
const CLAUDE_IMPORT: HooksImport = {
  screenFields: CLAUDE_SCREEN_FIELDS,
  projectFiles: ['.claude/settings.json'],
  sharedFile: '.claude/settings.json',
  serveEntries: true,
}

export const claudeAgent = agentOf(claude, {
  events: CLAUDE_EVENT_NAMES,
  tools: TOOLS,
  install: claudeInstall,
  callers: CALLERS,
  http: HTTP,
  scan: CLAUDE_SCAN,
  nativeConfig: CLAUDE_NATIVE,
  hooksImport: CLAUDE_IMPORT,
  pluginLayout: { manifest: ['.claude-plugin', 'plugin.json'], rootVariables: ['CLAUDE_PLUGIN_ROOT'], defaultHooksAlso: true },
})
