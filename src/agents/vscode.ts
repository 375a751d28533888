// VS Code's own agent hooks (its Local harness): the Claude-like answer `--format copilot` gives them.
import type { Decision } from '../core/protocol.ts'
import type { Payload } from '../core/types.ts'
import { claude } from './claude.ts'
import { carryFields } from './shared.ts'
import type { Dialect, Agent } from './types.ts'
import type { Caller } from './callers.ts'

/**
 * VS Code runs Copilot's `.github/hooks/*.json` with its own payload (code.visualstudio.com/docs/
 * agent-customization/hooks; from the docs): Claude's fields with a PascalCase `hookEventName`,
 * which Copilot CLI does not send. It reads Claude Code's answer, but only PreToolUse, PostToolUse,
 * SessionStart and SubagentStart take `additionalContext`; Stop's block is inside
 * `hookSpecificOutput`; UserPromptSubmit and PreCompact take the common fields only, so a block
 * there is `continue: false`.
 */
export function fromVSCode(payload: Payload): boolean {
  return typeof payload.hookEventName === 'string'
}

const VSCODE_EVENTS = new Set([
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PreCompact',
  'SubagentStart',
  'SubagentStop',
  'Stop',
])
const CONTEXT_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'SessionStart', 'SubagentStart'])
const COMMON_ONLY_EVENTS = new Set(['UserPromptSubmit', 'PreCompact'])

/** The event in VS Code's name: the payload's, else the command line's Copilot name in PascalCase (VS Code's conversion). */
function vscodeEvent(payload: Payload, copilotEvent: string | undefined): string {
  if (typeof payload.hookEventName === 'string' && VSCODE_EVENTS.has(payload.hookEventName)) return payload.hookEventName
  const named = copilotEvent ?? 'preToolUse'
  return named.charAt(0).toUpperCase() + named.slice(1)
}

/** The decision in VS Code's JSON: Claude Code's renderer, held to what VS Code documents. */
export function renderForVSCode(decision: Decision, payload: Payload, copilotEvent: string | undefined): ReturnType<Dialect['render']> {
  const event = vscodeEvent(payload, copilotEvent)
  const warnings: string[] = []
  const cannot = (field: string, consequence = 'it was not sent') =>
    warnings.push(`VS Code cannot apply ${field} on ${event}; ${consequence}`)
  // VS Code documents none of the fields hookrun carries (updatedToolOutput, toolConfig, …).
  const plain: Record<string, unknown> = { ...decision }
  for (const field of carryFields(decision, event, [], () => {})) {
    delete plain[field]
    cannot(field)
  }
  const commonOnly = COMMON_ONLY_EVENTS.has(event)
  const stopsSession = commonOnly && decision.blocked
  const forClaude = {
    ...(plain as unknown as Decision),
    ...(!CONTEXT_EVENTS.has(event) && { additionalContext: [] }),
    // A block on an event that takes no decision stops the session, rather than let it through.
    ...(stopsSession && {
      blocked: false,
      decision: 'allow' as const,
      decidedBy: undefined,
      continue: false,
      stopReason: decision.stopReason ?? decision.reason ?? `blocked by hook '${decision.decidedBy ?? 'unknown'}'`,
    }),
  }
  if (!CONTEXT_EVENTS.has(event) && decision.additionalContext.length > 0) cannot('additionalContext')
  if (stopsSession) warnings.push(`VS Code takes no block on ${event}: hookrun stopped the session with continue: false`)
  const rendered = claude.render(forClaude, payload, event)
  const out = JSON.parse(rendered.stdout) as Record<string, unknown>
  if (event === 'Stop' && out.decision === 'block') {
    // VS Code reads Stop's block from hookSpecificOutput, not the top level as Claude Code does.
    out.hookSpecificOutput = {
      hookEventName: 'Stop',
      ...(out.hookSpecificOutput as object | undefined),
      decision: 'block',
      reason: out.reason,
    }
    delete out.decision
    delete out.reason
  }
  const claudeWarnings = rendered.warnings.map((warning) => warning.replaceAll('Claude Code', 'VS Code'))
  return { stdout: `${JSON.stringify(out)}\n`, exitCode: rendered.exitCode, warnings: [...warnings, ...claudeWarnings] }
}

/** VS Code runs Claude Code's entries too when chat.useClaudeHooks is on (src/agents/callers.ts). */
const RUNS_CLAUDE: Caller = {
  when: 'chat.useClaudeHooks on, off by default',
  // VS Code's agent hooks send `hookEventName` and `sessionId` (camelCase); Claude Code sends `hook_event_name`, `session_id`.
  detect: (payload) => typeof payload.hookEventName === 'string' && typeof payload.hook_event_name !== 'string',
  marks: { fields: ['hookEventName'] },
  // VS Code also runs .github/hooks/*.json and ~/.copilot/hooks, where `install --agent copilot` writes.
  ownAnswer: { kind: 'router', agent: 'copilot' },
  // It reads Claude's answer held to what it documents; the command line names Copilot's event.
  reading: { from: fromVSCode, render: renderForVSCode },
  source: 'code.visualstudio.com/docs/agent-customization/hooks',
}

/** VS Code: no protocol of its own; it runs Copilot's hook files (answered with `--format copilot`) and Claude Code's. */
export const vscodeAgent: Agent = {
  name: 'vscode',
  label: 'VS Code',
  caller: RUNS_CLAUDE,
}
