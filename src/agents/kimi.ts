import { agentOf, Answer, blockReason, hookEventName, jsonLine, knownEvent } from './shared.ts'
import { CLAUDE_CORE_EVENTS, claudeEvents } from './claude.ts'
import type { AgentTools, Dialect } from './types.ts'
import { join } from 'node:path'
import { type InstallTarget, ROUTER_TIMEOUT_SECONDS } from './install.ts'
import type { ProjectScan } from './native-config.ts'

const EVENTS = claudeEvents(...CLAUDE_CORE_EVENTS, 'StopFailure', 'PostCompact')

const TOOLS: AgentTools = {
  Shell: 'bash',
  Glob: 'glob',
  Grep: 'grep',
  Agent: 'agent',
  ReadFile: 'read',
  WriteFile: 'write',
  StrReplaceFile: 'edit',
  FetchURL: 'webfetch',
  SearchWeb: 'websearch',
  SetTodoList: 'todo',
}

/**
 * Kimi Code CLI (MoonshotAI/kimi-cli 1.49.0 `hooks/runner.py`; from its source, not the agent lab):
 * Claude-shaped payloads with `tool_call_id` and its own tool names. Exit 0 with
 * `permissionDecision: "deny"` blocks, only on PreToolUse, UserPromptSubmit and Stop; nothing else
 * of an answer is read.
 */
const KIMI_EVENTS = new Set<string>(Object.keys(EVENTS))
const BLOCKING = new Set(['PreToolUse', 'UserPromptSubmit', 'Stop'])
/** Tools only Kimi names so: a payload about one of them is Kimi's (others read as Claude Code's). */
const KIMI_ONLY_TOOLS = new Set([
  'Shell',
  'ReadFile',
  'ReadMediaFile',
  'WriteFile',
  'StrReplaceFile',
  'FetchURL',
  'SearchWeb',
  'SetTodoList',
])

export const kimi: Dialect = {
  name: 'kimi',
  label: 'Kimi Code CLI',
  source: 'kimi',
  // Kimi names no project: hooks run in its working folder, which the payload's `cwd` names.
  project: { variables: [], payloadField: 'cwd' },
  // Kimi shows the person nothing a hook prints: hookrun's notices have no channel there.
  notices: [],
  ignores: [
    {
      field: 'updatedInput',
      events: ['PreToolUse'],
      why: 'Kimi Code CLI 1.49 reads no rewrite, so the tool would run with its original input',
    },
  ],
  detectMarks: ['tool_call_id'],
  detect: (payload) =>
    typeof payload.hook_event_name === 'string' &&
    KIMI_EVENTS.has(payload.hook_event_name) &&
    typeof payload.tool_call_id === 'string' &&
    typeof payload.tool_name === 'string' &&
    KIMI_ONLY_TOOLS.has(payload.tool_name),
  eventName: hookEventName,
  render(decision, payload, agentEvent) {
    const event = knownEvent(agentEvent ?? payload.hook_event_name, KIMI_EVENTS, 'PreToolUse')
    const answer = new Answer('Kimi Code CLI', event)
    const out: Record<string, unknown> = {}
    if (decision.blocked) {
      if (BLOCKING.has(event))
        out.hookSpecificOutput = { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: blockReason(decision) }
      else answer.cannot('a block', 'the event proceeds')
    } else if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'the call goes ahead')
    answer.cannotTake(decision, ['updatedInput', 'updatedPrompt', 'additionalContext', 'continue', 'systemMessage', 'suppressOutput'])
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

const kimiInstall: InstallTarget = {
  // MoonshotAI/kimi-cli 1.49.0 (src/kimi_cli/share.py, config.py): `[[hooks]]` in config.toml of
  // $KIMI_SHARE_DIR, by default ~/.kimi; no project file.
  file: (_scope, places) => join(places.env.KIMI_SHARE_DIR || join(places.home, '.kimi'), 'config.toml'),
  format: 'toml',
  userOnly: true,
  // Kimi's timeout is in seconds, at most 600 (its HookDef).
  tomlTable: (event, command) => ({ event, command, timeout: ROUTER_TIMEOUT_SECONDS }),
  shape: 'flat',
  handler: (command) => ({ command, timeout: ROUTER_TIMEOUT_SECONDS }),
  note: 'Kimi Code CLI reads these for every project; what it does with an answer is from its 1.49.0 source, not the agent lab',
}

/** Kimi Code CLI reads no hook file from a project (`hookrun scan` says why). */
const KIMI_SCAN: ProjectScan = {
  noProjectFile: "Kimi Code CLI reads hooks from ~/.kimi/config.toml only (no project file; the user's own file)",
}

export const kimiAgent = agentOf(kimi, { events: EVENTS, tools: TOOLS, install: kimiInstall, scan: KIMI_SCAN })
