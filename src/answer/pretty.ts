// `fire --pretty`: the same Decision for a person reading a terminal, one aligned line per hook.
import type { Decision } from '../core/protocol.ts'
import { table } from '../core/table.ts'

/** What the decision says first, then each hook that ran, then context and warnings. */
export function renderPretty(decision: Decision, exitCode: number): string {
  const verdict = decision.blocked ? `${decision.decision} (blocked)` : decision.decision
  const lines = [`${decision.event}: ${verdict}, exit ${exitCode}${decision.reason ? `: ${decision.reason}` : ''}`]
  if (decision.hooks.length === 0) lines.push('  no hook ran')
  const rows = decision.hooks.map((hook) => [
    hook.name,
    hook.outcome,
    hook.timedOut ? 'timed out' : hook.exitCode === null ? '' : `exit ${hook.exitCode}`,
    `${Math.round(hook.durationMs)} ms`,
    hook.reason ?? '',
  ])
  lines.push(...table(rows).map((row) => `  ${row}`))
  for (const context of decision.additionalContext) lines.push(`context: ${context}`)
  if (decision.continue === false) lines.push(`stop the agent${decision.stopReason ? `: ${decision.stopReason}` : ''}`)
  if (decision.systemMessage) lines.push(`message: ${decision.systemMessage}`)
  if (decision.updatedInput) lines.push(`tool input rewritten: ${JSON.stringify(decision.updatedInput)}`)
  if (decision.updatedPrompt !== undefined) lines.push(`prompt rewritten: ${decision.updatedPrompt}`)
  return `${lines.join('\n')}\n`
}
