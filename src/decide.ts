import type { FiredEvent } from './event.ts'
import type { HookResult } from './interpret.ts'
import type { Decision } from './protocol.ts'

const STRENGTH = { allow: 0, ask: 1, deny: 2 } as const

/** Rewrites the chain applied, for the agent to apply too. */
export interface Rewrites {
  readonly updatedInput?: Record<string, unknown>
  readonly updatedPrompt?: string
}

/**
 * Aggregate the hooks that ran (DESIGN §7): deny beats ask beats allow; the reason is the one of
 * the strongest decision; context is kept from every hook in order; any `continue: false` stops.
 */
export function decide(
  event: FiredEvent,
  results: readonly HookResult[],
  rewrites: Rewrites,
  warnings: readonly string[],
): Decision {
  let decision: Decision['decision'] = 'allow'
  let reason: string | undefined
  let stop: { reason?: string } | undefined
  const systemMessages: string[] = []
  let suppressOutput = false
  for (const result of results) {
    const value = result.decision ?? 'allow'
    if (STRENGTH[value] > STRENGTH[decision] || (value === decision && value !== 'allow' && reason === undefined)) {
      decision = value
      reason = result.reason
    }
    const answer = result.answer
    if (answer?.continue === false && stop === undefined) stop = { reason: answer.stopReason }
    if (answer?.systemMessage) systemMessages.push(answer.systemMessage)
    if (answer?.suppressOutput) suppressOutput = true
  }
  return {
    event: event.qualified,
    decision,
    blocked: decision === 'deny',
    ...(reason !== undefined && decision !== 'allow' && { reason }),
    continue: stop === undefined,
    ...(stop?.reason !== undefined && { stopReason: stop.reason }),
    ...(systemMessages.length > 0 && { systemMessage: systemMessages.join('\n') }),
    additionalContext: results.flatMap((result) => result.context),
    ...(rewrites.updatedInput !== undefined && { updatedInput: rewrites.updatedInput }),
    ...(rewrites.updatedPrompt !== undefined && { updatedPrompt: rewrites.updatedPrompt }),
    ...(suppressOutput && { suppressOutput }),
    hooks: results.map((result) => result.report),
    warnings: [...warnings, ...results.flatMap((result) => result.warnings)],
  }
}
