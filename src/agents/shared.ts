// Helpers the dialects share (reading payload fields, building answers).
import type { Payload } from '../core/types.ts'
import { CARRIED_FIELDS, type CarriedField } from '../core/carried.ts'
import type { Decision } from '../core/protocol.ts'
import type { Agent, CarriedRow, Dialect, IgnorableField } from './types.ts'

/**
 * The warnings of one answer, in one wording: "Cursor cannot apply updatedInput on beforeShellExecution;
 * it was not sent".
 */
export class Answer {
  readonly warnings: string[] = []
  readonly label: string
  readonly event: string
  constructor(label: string, event: string) {
    this.label = label
    this.event = event
  }

  /** A field the agent cannot take here. */
  cannot(field: string, consequence = 'it was not sent'): void {
    this.warnings.push(`${this.label} cannot apply ${field} on ${this.event}; ${consequence}`)
  }

  /** `value`, where there is one, placed where the agent takes it (`taken`), else `cannot(field, consequence)`. */
  take<T>(field: string, value: T | undefined, taken: boolean, place: (value: T) => void, consequence?: string): void {
    if (value === undefined) return
    if (taken) place(value)
    else this.cannot(field, consequence)
  }

  /** A rewrite the agent takes on its gate only (`onGate`): placed there unless the call is blocked, refused elsewhere. */
  rewrite<K extends 'updatedInput' | 'updatedPrompt'>(
    decision: Decision,
    field: K,
    onGate: boolean,
    place: (value: NonNullable<Decision[K]>) => void,
  ): void {
    const value = decision[field]
    if (value === undefined) return
    if (!onGate) this.cannot(field)
    else if (!decision.blocked) place(value as NonNullable<Decision[K]>)
  }

  /** `cannot` for each of `fields` the decision has, in their order: the agent takes none of them here. */
  cannotTake(decision: Decision, fields: readonly IgnorableField[]): void {
    for (const field of fields.filter((each) => hasField(decision, each)))
      if (field === 'continue') this.cannot('continue: false', 'the agent goes on')
      else this.cannot(field)
  }
}

/** An agent whose name and label are its dialect's. */
export function agentOf(dialect: Dialect, facts: Omit<Agent, 'name' | 'label' | 'dialect'>): Agent {
  return { name: dialect.name, label: dialect.label, ...facts, dialect }
}

/** A hook decided (allow, ask or deny); without one the agent's own rules apply. */
export function decided(decision: Decision): boolean {
  return decision.decidedBy !== undefined
}

/** Context from every hook, in order, as one text. */
export function contextText(decision: Decision): string | undefined {
  return decision.additionalContext.length > 0 ? decision.additionalContext.join('\n\n') : undefined
}

/** The reason a block carries; agents that require one get the deciding hook's name. */
export function blockReason(decision: Decision): string {
  return decision.reason?.trim() || `blocked by hook '${decision.decidedBy ?? 'unknown'}'`
}

/** The agent's own event name: the one given, else the payload's `hook_event_name` if it is one of the agent's. */
export function ownEvent(payload: Payload, agentEvent: string | undefined, names: ReadonlySet<string>): string | undefined {
  if (agentEvent !== undefined) return agentEvent
  const named = payload.hook_event_name
  return typeof named === 'string' && names.has(named) ? named : undefined
}

/** The event of `named` (the one given, or the payload's field) if it is one of the agent's, else `fallback`. */
export function knownEvent(named: unknown, names: ReadonlySet<string>, fallback: string): string {
  return typeof named === 'string' && names.has(named) ? named : fallback
}

/** The payload's `field`, where it is a string (where most agents name the event). */
export function stringField(field: string): (payload: Payload) => string | undefined {
  return (payload) => (typeof payload[field] === 'string' ? (payload[field] as string) : undefined)
}

export const hookEventName = stringField('hook_event_name')

/** An agent that answers as Claude Code does, its warnings in its own name. */
export function renderAsClaude(claude: Pick<Dialect, 'render'>, label: string): Dialect['render'] {
  return (decision, payload, agentEvent) => {
    const rendered = claude.render(decision, payload, agentEvent)
    return { ...rendered, warnings: rendered.warnings.map((warning) => warning.replaceAll('Claude Code', label)) }
  }
}

/**
 * The answer of an agent that reads nothing of one: no stdout, and a warning for each field the
 * decision has; `blockThen` and `stopThen` say what the agent does instead of a block or a stop.
 */
export function readsNothing(
  label: string,
  event: (payload: Payload, agentEvent?: string) => string,
  blockThen: string,
  stopThen: string,
): Dialect['render'] {
  return (decision, payload, agentEvent) => {
    const answer = new Answer(label, event(payload, agentEvent))
    const none = `${label} reads nothing of a hook answer`
    if (decision.blocked || decision.decision === 'deny') answer.cannot('a block', `${none}; ${blockThen}`)
    else if (decision.decision === 'ask') answer.cannot("decision 'ask'", none)
    if (contextText(decision) !== undefined) answer.cannot('additionalContext', none)
    if (decision.updatedInput !== undefined) answer.cannot('updatedInput', none)
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', none)
    if (!decision.continue) answer.cannot('continue: false', `${none}; ${stopThen}`)
    if (decision.systemMessage !== undefined) answer.cannot('systemMessage', none)
    return { stdout: '', exitCode: 0, warnings: answer.warnings }
  }
}

/**
 * An agent that reads only the exit code (Kiro, Windsurf, Reasonix): exit 2 with the reason on stderr
 * blocks where `blocks`, an ask there answered with a block; else exit 0.
 */
export function exitTwo(decision: Decision, blocks: boolean, answer: Answer): { exitCode: number; stderr: string } {
  if (!blocks || (!decision.blocked && decision.decision !== 'ask')) return { exitCode: 0, stderr: '' }
  if (!decision.blocked) answer.cannot("decision 'ask'", 'answered with a block (exit 2): a hook wanted a person to confirm')
  return { exitCode: 2, stderr: `${blockReason(decision)}\n` }
}

/** One JSON object on a line: what every agent reads from a hook's stdout. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`
}

/** Parse a JSON object given as a string (Copilot's `toolArgs`, Cursor's MCP `tool_input`). */
export function objectFrom(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
  if (typeof value !== 'string') return undefined
  try {
    const parsed: unknown = JSON.parse(value)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * Place each carried field the decision has (`CARRIED_FIELDS`) where the agent takes it on this
 * event (`place(key, value)`); return the fields it cannot take here, for the caller to warn about.
 */
export function carryFields(
  decision: Decision,
  event: string,
  rows: readonly CarriedRow[],
  place: (key: string, value: unknown) => void,
): CarriedField[] {
  const left: CarriedField[] = []
  for (const field of Object.keys(CARRIED_FIELDS) as CarriedField[]) {
    const value = decision[field]
    if (value === undefined) continue
    const row = rows.find((candidate) => candidate.field === field && candidate.events.includes(event))
    if (row === undefined) left.push(field)
    else place(row.key, value)
  }
  return left
}

/** Does the decision carry this answer field (one a hook set, or hookrun's own notice)? */
function hasField(decision: Decision, field: IgnorableField): boolean {
  if (field === 'additionalContext') return decision.additionalContext.length > 0
  if (field === 'continue') return !decision.continue
  if (field === 'suppressOutput') return decision.suppressOutput === true
  return decision[field] !== undefined
}

/** The fields of the decision the agent ignores on this event, each with its one-line warning. */
export function ignoredFieldWarnings(dialect: Pick<Dialect, 'label' | 'ignores'>, decision: Decision, event: string | undefined): string[] {
  if (event === undefined) return []
  return (dialect.ignores ?? [])
    .filter((row) => row.events.includes(event) && hasField(decision, row.field))
    .map((row) => `${dialect.label} ignores ${row.field} on ${event}: ${row.why}`)
}

/** Does the agent ignore this field on this event? */
export function ignores(dialect: Pick<Dialect, 'ignores'>, field: string, event: string): boolean {
  return (dialect.ignores ?? []).some((row) => row.field === field && row.events.includes(event))
}

/**
 * Where an in-process agent (Pi, OpenClaw) takes a block or an ask: its tool and prompt gates
 * refuse, and the tool gate asks the person in its own way; a prompt it cannot ask about.
 */
export interface PluginGates {
  tool: string
  prompt: string
  /** What the prompt gate refuses, in the agent's words ('prompt', 'run'). */
  refused: string
  /** The event after a tool, where a block becomes text under the result, if the agent has one. */
  afterTool?: string
  /** What a block on an event the agent only reports does. */
  elsewhere: string
}

/** A block or an ask where the agent's `gates` take it (`out.block`, `out.ask`, `out.append`), a warning elsewhere. */
export function renderGates(decision: Decision, event: string, gates: PluginGates, out: Record<string, unknown>, answer: Answer): void {
  const asked = !decision.blocked && decision.decision === 'ask'
  if (!decision.blocked && !asked) return
  if (asked) {
    const question = `hook '${decision.decidedBy ?? 'unknown'}' asks for confirmation${decision.reason ? `: ${decision.reason}` : ''}`
    if (event === gates.tool) out.ask = question
    else if (event === gates.prompt) {
      out.block = `${question}; ${answer.label} cannot ask about a prompt, so hookrun refused it`
      answer.cannot("decision 'ask'", `the ${gates.refused} was refused instead`)
    } else answer.cannot("decision 'ask'", `${answer.label} goes on`)
    return
  }
  if (event === gates.tool || event === gates.prompt) out.block = blockReason(decision)
  else if (event === gates.afterTool) out.append = blockReason(decision)
  else answer.cannot('a block', gates.elsewhere)
}
