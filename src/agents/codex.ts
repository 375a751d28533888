import { CLAUDE_EVENT_NAMES, claudeEvents, CLAUDE_SCREEN_FIELDS } from './claude.ts'
// Codex's dialect: its payloads in, its JSON answers and exit codes out.
import { CLAUDE_MCP_NAMING, type AgentEvents, type AgentTools, type Dialect } from './types.ts'
import { agentOf, Answer, blockReason, carryFields, contextText, decided, hookEventName, jsonLine, ownEvent } from './shared.ts'
import { join } from 'node:path'
import { homeOr, type InstallTarget } from './install.ts'
import type { ProjectScan, HooksImport } from './native-config.ts'

const EVENTS = {
  ...claudeEvents(
    'PreToolUse',
    'PostToolUse',
    'UserPromptSubmit',
    'SessionStart',
    'SessionEnd',
    'Stop',
    'SubagentStart',
    'SubagentStop',
    'PreCompact',
    'PermissionRequest',
  ),
  Interrupt: 'user:interrupt',
  StopFailure: 'agent:stop_failure',
  PostCompact: 'context:post_compact',
} as const satisfies AgentEvents

const TOOLS: AgentTools = { Bash: 'bash', shell: 'bash', local_shell: 'bash', apply_patch: 'edit', web_search: 'websearch' }

/**
 * OpenAI Codex CLI: Claude Code's wire format, but what it rejects marks the hook as failed, so
 * hookrun never sends it (openai/codex codex-rs/hooks/src/engine/output_parser.rs):
 * - PreToolUse: `deny` with a reason, or `allow` only with `updatedInput`; no `ask`, bare `allow`,
 *   `continue: false`, `stopReason` or `suppressOutput`.
 * - PermissionRequest: `decision.behavior` allow | deny with `message`, nothing else.
 * - `decision: "block"` needs a reason; Stop and SubagentStop take no `additionalContext`;
 *   PostToolUse no `suppressOutput`.
 * Its payload is Claude-shaped with `turn_id`. MCP tools are `mcp__<server>__<tool>` in its hooks
 * (test/agents/codex.lab.ts mcp-gate).
 */
const CODEX_EVENTS = new Set<string>(Object.keys(EVENTS))
const CLAUDE_EVENTS = new Set<string>(Object.keys(CLAUDE_EVENT_NAMES))
// Built once, on every fire that reads an agent's payload.
const CODEX_ONLY_EVENTS = new Set([...CODEX_EVENTS].filter((name) => !CLAUDE_EVENTS.has(name)))

/** Events that take top-level `decision: "block"` + `reason`. */
const BLOCK_EVENTS = new Set(['PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop'])
/** Events whose `hookSpecificOutput.additionalContext` Codex reads. */
const CONTEXT_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'])

export const codex: Dialect = {
  name: 'codex',
  // It takes none of the fields hookrun carries (toolConfig, llm_request, updatedMCPToolOutput, …).
  carries: [],
  label: 'Codex',
  source: 'codex',
  // No variable; the payload's cwd is the session's folder, which the model's commands do not move.
  project: { variables: [], payloadField: 'cwd' },
  // `codex exec` shows the person nothing a hook writes (real-agents.md): notices go to the model.
  notices: ['additionalContext'],
  // Codex's own events (Interrupt) say Codex by themselves; the ones it shares with Claude Code need turn_id.
  // `mcp__<server>__<tool>` as Claude Code (codex-rs ensure_mcp_prefix).
  mcpNaming: CLAUDE_MCP_NAMING,
  detectMarks: ['hook_event_name'],
  detect: (payload) =>
    typeof payload.hook_event_name === 'string' &&
    (CODEX_ONLY_EVENTS.has(payload.hook_event_name) || (CODEX_EVENTS.has(payload.hook_event_name) && typeof payload.turn_id === 'string')),
  eventName: hookEventName,
  render(decision, payload, agentEvent) {
    const event = ownEvent(payload, agentEvent, CODEX_EVENTS) ?? 'PreToolUse'
    const answer = new Answer('Codex', event)
    const out: Record<string, unknown> = {}
    const specific: Record<string, unknown> = { hookEventName: event }
    const strict = event === 'PreToolUse' || event === 'PermissionRequest'

    if (event === 'PreToolUse') {
      if (decided(decision) && decision.decision !== 'allow') {
        if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'answered deny: a hook wanted a person to confirm')
        specific.permissionDecision = 'deny'
        specific.permissionDecisionReason = blockReason(decision)
        if (decision.updatedInput !== undefined) answer.cannot('updatedInput with a deny')
      } else if (decision.updatedInput !== undefined && decided(decision)) {
        specific.permissionDecision = 'allow'
        specific.updatedInput = decision.updatedInput
      } else if (decision.updatedInput !== undefined) {
        answer.cannot('updatedInput', 'it was not sent: Codex applies it only with an allow, and no hook allowed')
      } else if (decided(decision)) {
        answer.cannot("decision 'allow'", 'not sent: Codex cannot pre-approve a call from a hook; its own approval rules apply')
      }
    } else if (event === 'PermissionRequest') {
      if (decided(decision) && decision.decision !== 'ask') {
        specific.decision = {
          behavior: decision.decision,
          ...(decision.decision === 'deny' && { message: blockReason(decision) }),
        }
      } else if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'no decision was sent; Codex asks as it would')
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
    } else {
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
      if (decision.blocked && BLOCK_EVENTS.has(event)) {
        out.decision = 'block'
        out.reason = blockReason(decision)
      } else if (decision.blocked) {
        answer.cannot('a block', 'reported as a system message')
        out.systemMessage = decision.reason
      } else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
    }
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Codex cannot rewrite a prompt')
    answer.take('additionalContext', contextText(decision), CONTEXT_EVENTS.has(event), (context) => (specific.additionalContext = context))
    if (!decision.continue) {
      if (strict) answer.cannot('continue: false')
      else {
        out.continue = false
        if (decision.stopReason !== undefined) out.stopReason = decision.stopReason
      }
    }
    if (decision.systemMessage !== undefined) out.systemMessage = [out.systemMessage, decision.systemMessage].filter(Boolean).join('\n')
    if (decision.suppressOutput) {
      if (strict || event === 'PostToolUse') answer.cannot('suppressOutput')
      else out.suppressOutput = true
    }
    if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific
    for (const field of carryFields(decision, event, [], () => {})) answer.cannot(field)
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

const codexInstall: InstallTarget = {
  file: (scope, places) => join(scope === 'user' ? homeOr(places, 'CODEX_HOME', '.codex') : join(places.project, '.codex'), 'hooks.json'),
  shape: 'groups',
  // Codex's default timeout (600 s) is above hookrun's budget; none is written: Codex trusts
  // hooks by their hash, and a changed entry would stop running until the user reviews it.
  handler: (command) => ({ type: 'command', command }),
  timeout: { field: 'timeout', perSecond: 1, agentDefault: 600 },
  toolMatchers: true,
  note: 'Codex runs a new or changed hook only after you review and trust it: open /hooks in Codex',
  reviewsChangedHooks: true,
  // Codex 0.169 and 0.171 record a review in $CODEX_HOME/config.toml (seen in the agent lab);
  // events Codex 0.169 does not list (StopFailure) have no review to ask for.
  reviews: {
    file: (env, home) => join(env.CODEX_HOME || join(home, '.codex'), 'config.toml'),
    unlisted: ['StopFailure'],
    where: "Codex's /hooks",
    headless: 'codex exec',
    fix: "open codex in the project, type /hooks and trust hookrun's entries (once: they stay the same when hooks.json changes)",
  },
}

const CODEX_SCAN: ProjectScan = {
  sources: [
    { path: '.codex/hooks.json', reader: 'events', agents: ['Codex'], owners: ['codex'], importAgent: 'codex', hookrunFile: true },
    { path: '.codex/config.toml', reader: 'toml-config', agents: ['Codex'], owners: ['codex'] },
  ],
}

/**
 * How `hookrun import` moves Codex's handlers: Claude Code's shape, but 600 s on every event, async
 * handlers skipped, and hooks in config.toml not read.
 */
const CODEX_IMPORT: HooksImport = {
  readsAs: 'claude',
  namePrefixed: true,
  defaultTimeout: 600,
  screenFields: CLAUDE_SCREEN_FIELDS,
  stays: (handler) => (handler.async === true ? 'Codex skips async handlers; moved, hookrun would run it' : undefined),
  unreadFile: { name: 'config.toml', holdsHooks: /^\s*\[\[?hooks\b/m, what: 'hooks in TOML ([hooks])' },
}

export const codexAgent = agentOf(codex, {
  events: EVENTS,
  tools: TOOLS,
  install: codexInstall,
  scan: CODEX_SCAN,
  hooksImport: CODEX_IMPORT,
  pluginLayout: { manifest: ['.codex-plugin', 'plugin.json'], rootVariables: ['PLUGIN_ROOT', 'CLAUDE_PLUGIN_ROOT'] },
})
