// Stage decide: every hook's result → one Decision (deny > ask > allow; contexts kept in order).
import type { FiredEvent, HookResult } from '../core/types.ts'
import { CARRIED_FIELDS, type CarriedField } from '../core/carried.ts'
import type { Decision, HookAnswer } from '../core/protocol.ts'
import { strictness } from '../core/decisions.ts'

/** A block on these means "do not stop yet" (Claude Code's Stop, the SDK spec's Stop `continue`). */
const STOP_EVENTS = new Set(['agent:stop', 'subagent:stop'])

/** Rewrites the chain applied, for the agent to apply too. */
export interface Rewrites {
  readonly updatedInput?: Record<string, unknown>
  readonly updatedPrompt?: string
}

/**
 * Aggregate the hooks that ran (docs/protocol.md): deny beats ask beats allow, the first with the strongest gives the
 * reason; any `continue: false` stops the agent. No decision at all: allow without `decidedBy` ("no opinion").
 */
export function decide(event: FiredEvent, results: readonly HookResult[], rewrites: Rewrites, warnings: readonly string[]): Decision {
  let decision: Decision['decision'] = 'allow'
  let reason: string | undefined
  let decidedBy: string | undefined
  let stop: { reason?: string } | undefined
  const systemMessages: string[] = []
  let suppressOutput = false
  const carried: Partial<Record<CarriedField, unknown>> = {}
  for (const result of results) {
    for (const field of Object.keys(CARRIED_FIELDS) as CarriedField[]) {
      const value = answerCarried(result.answer, field)
      // The last hook in config order wins, as for updatedInput; tool configs merge as Gemini merges them.
      if (value !== undefined)
        carried[field] = field === 'toolConfig' && carried.toolConfig !== undefined ? mergeToolConfigs(carried.toolConfig, value) : value
    }
    if (result.decision !== undefined && (decidedBy === undefined || strictness(result.decision) > strictness(decision))) {
      decision = result.decision
      reason = result.reason
      decidedBy = result.report.name
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
    ...(reason !== undefined && { reason }),
    ...(decidedBy !== undefined && { decidedBy }),
    ...(decision === 'deny' && STOP_EVENTS.has(event.name) && { keepGoing: true }),
    continue: stop === undefined,
    ...(stop?.reason !== undefined && { stopReason: stop.reason }),
    ...(systemMessages.length > 0 && { systemMessage: systemMessages.join('\n') }),
    additionalContext: results.flatMap((result) => result.context),
    ...(rewrites.updatedInput !== undefined && { updatedInput: rewrites.updatedInput }),
    ...(rewrites.updatedPrompt !== undefined && { updatedPrompt: rewrites.updatedPrompt }),
    ...(suppressOutput && { suppressOutput }),
    ...(carried as Partial<Pick<Decision, CarriedField>>),
    hooks: results.map((result) => result.report),
    warnings: [...warnings, ...results.flatMap((result) => result.warnings)],
  }
}

type ToolConfig = NonNullable<Decision['toolConfig']>
const MODE_STRENGTH = { AUTO: 0, ANY: 1, NONE: 2 } as const

/** Gemini CLI's merge of BeforeToolSelection answers: the strictest mode wins, names are the sorted union (NONE: none). */
function mergeToolConfigs(first: unknown, second: unknown): ToolConfig {
  const a = first as ToolConfig
  const b = second as ToolConfig
  const mode = [a.mode, b.mode].filter((value) => value !== undefined).sort((x, y) => MODE_STRENGTH[y!] - MODE_STRENGTH[x!])[0]
  const names = [...new Set([...(a.allowedFunctionNames ?? []), ...(b.allowedFunctionNames ?? [])])].sort()
  return { ...a, ...b, ...(mode !== undefined && { mode }), allowedFunctionNames: mode === 'NONE' ? [] : names }
}

/** A field hookrun carries to the agents that take it (`CARRIED_FIELDS`), top level or nested. */
function answerCarried(answer: HookAnswer | undefined, field: CarriedField): unknown {
  if (answer === undefined) return undefined
  for (const key of CARRIED_FIELDS[field]) {
    const value = answer[key] ?? answer.hookSpecificOutput?.[key]
    if (value !== undefined) return value
  }
  return undefined
}
