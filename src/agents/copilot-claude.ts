// Copilot CLI running Claude Code's entries (.claude/settings*.json): Claude's answer, in the part Copilot reads.
import type { Decision } from '../core/protocol.ts'
import type { Payload } from '../core/types.ts'
import { claude } from './claude.ts'
import { contextText, jsonLine } from './shared.ts'
import type { Dialect } from './types.ts'

/**
 * Copilot CLI (1.0.12 on) runs Claude Code's settings hooks with a Claude-shaped payload, but with an ISO
 * `timestamp` and no `transcript_path` (seen in 1.0.102, real-agents.md).
 */
export function fromCopilotCli(payload: Payload): boolean {
  return (
    typeof payload.hook_event_name === 'string' &&
    typeof payload.session_id === 'string' &&
    typeof payload.timestamp === 'string' &&
    payload.transcript_path === undefined
  )
}

/**
 * Events on which Copilot gives a hook's context to the model (its own names: sessionStart,
 * subagentStart, postToolUse, postToolUseFailure, notification, userPromptSubmitted).
 */
const CONTEXT_EVENTS = new Set(['SessionStart', 'SubagentStart', 'PostToolUse', 'PostToolUseFailure', 'Notification', 'UserPromptSubmit'])

/**
 * Claude Code's answer, which Copilot honours for blocks and rewrites, with the context at the top level
 * (it drops `hookSpecificOutput.additionalContext`); the warnings name Copilot CLI.
 */
export function renderForCopilotCli(decision: Decision, payload: Payload, agentEvent: string | undefined): ReturnType<Dialect['render']> {
  const event = agentEvent ?? String(payload.hook_event_name)
  const rendered = claude.render(decision, payload, event)
  const warnings = rendered.warnings.map((warning) => warning.replaceAll('Claude Code', 'Copilot CLI'))
  const context = contextText(decision)
  if (context === undefined) return { ...rendered, warnings }
  if (!CONTEXT_EVENTS.has(event)) {
    const cannot = `Copilot CLI cannot apply additionalContext on ${event}; it was not sent`
    return { ...rendered, warnings: warnings.some((warning) => warning.startsWith(cannot)) ? warnings : [...warnings, cannot] }
  }
  const out = JSON.parse(rendered.stdout) as Record<string, unknown>
  const specific = out.hookSpecificOutput as Record<string, unknown> | undefined
  if (specific !== undefined) {
    delete specific.additionalContext
    if (Object.keys(specific).length <= 1) delete out.hookSpecificOutput
  }
  return { ...rendered, stdout: jsonLine({ ...out, additionalContext: context }), warnings }
}
