// Speaking an agent's protocol: pick its dialect by name or by payload, prepare the event, render the decision.
import { didYouMean } from './core/suggest.ts'
import { HookrunError } from './core/errors.ts'
import { isGateName, splitEventName, toolFromPayload } from './event/event.ts'
import { aliasFor } from './event/events.ts'
import type { Decision } from './core/protocol.ts'
import type { Payload } from './core/types.ts'
import { carryFields, ignoredFieldWarnings, ignores } from './agents/shared.ts'
import { agentNamed, callersOf, dialectsInDetectionOrder } from './agents/loaded.ts'
import { VOCABULARY } from './agents/vocabulary.ts'
import type { Dialect, Normalized, NoticeChannel } from './agents/types.ts'
import { listsEvent } from './agents/callers.ts'
import { DEFAULT_MCP_NAMING } from './agents/defaults.ts'
import { mcpField, mcpReadings } from './event/mcp.ts'
import { configuredReadings } from './agents/mcp-servers.ts'
import { spreadKeepingLongStrings } from './payload/long-strings.ts'

const NATIVE = new Set(['hookrun', 'native'])

/** What `--format` takes, as help and completion offer it (`native` is an old name of `hookrun`). */
export const FORMAT_NAMES: readonly string[] = ['auto', 'hookrun', ...VOCABULARY.formats]

/** Refuse an unknown `--format` before anything is read. */
export function checkFormat(format: string): void {
  if (format === 'auto' || NATIVE.has(format) || VOCABULARY.formats.includes(format)) return
  throw new HookrunError(`--format ${format} is not known${didYouMean(format, FORMAT_NAMES)}; use one of: ${FORMAT_NAMES.join(', ')}`)
}

/** `--format NAME`, else the dialect the payload comes from, else none (hookrun's own JSON); `loadAgentsFor` first. */
export function resolveDialect(format: string | undefined, payload: Payload): Dialect | undefined {
  if (format === undefined || format === 'auto') return dialectsInDetectionOrder(payload).find((dialect) => dialect.detect(payload))
  if (NATIVE.has(format)) return undefined
  checkFormat(format)
  return agentNamed(format)?.dialect
}

/** Is this one of the dialect's agent's own event names, as it spells it (asked of its loaded module only)? */
export function isOwnEventName(dialect: Dialect, name: string): boolean {
  const events = agentNamed(dialect.source)?.events
  return events !== undefined && Object.hasOwn(events, name)
}

/** What the fire pipeline needs from an agent's payload, and what rendering needs back. */
export interface PreparedDialect {
  readonly dialect: Dialect
  /** The event to fire: the command line's, else the one the payload names. */
  readonly event?: string
  /** The event in the agent's own spelling, which decides the answer's shape. */
  readonly agentEvent?: string
  /** The tool, when the agent's event implies one the payload does not name. */
  readonly tool?: string
  readonly payload: Payload
}

/** Resolve the dialect (if any) and read the agent's payload: which event, in its own name and for firing. */
export function prepareDialect(format: string | undefined, eventArg: string | undefined, payload: Payload): PreparedDialect | undefined {
  const dialect = resolveDialect(format, payload)
  if (dialect === undefined) return undefined
  const named = dialect.eventName(payload)
  let agentEvent: string | undefined
  if (eventArg !== undefined && isOwnEventName(dialect, eventArg)) agentEvent = eventArg
  else if (named !== undefined && isOwnEventName(dialect, named)) agentEvent = named
  else if (eventArg !== undefined) agentEvent = aliasFor(splitEventName(eventArg.trim().split(':')).name, dialect.source)
  const event = eventArg ?? named
  const example = agentNamed(dialect.name)?.eventOnCommandLine
  if (event === undefined && example !== undefined) {
    throw new HookrunError(
      `${dialect.label} does not name the event in its payload: name it on the command line, for example hookrun fire ${example} --format ${dialect.name}`,
    )
  }
  const normalized = dialect.normalize?.(payload, agentEvent) ?? { payload }
  const gate = event !== undefined && isGateName(event)
  return { dialect, event, agentEvent, tool: normalized.tool, payload: withMcpCall(dialect, normalized, gate) }
}

/**
 * The payload with hookrun's `mcp` field for an MCP tool: the agent's own fields, else every reading of the name. The
 * configured servers pick the first reading; on a gate the others stay for matching (those files may be the repository's).
 */
function withMcpCall(dialect: Dialect, { tool: implied, payload }: Normalized, gate: boolean): Payload {
  const tool = implied ?? toolFromPayload(payload)
  if (tool === undefined || 'mcp' in payload) return payload
  const exact = dialect.mcpCall?.(payload, tool)
  const readings = exact === undefined ? mcpReadings(tool, dialect.mcpNaming ?? DEFAULT_MCP_NAMING) : [exact]
  const real =
    readings.length > 1 && dialect.mcpServers !== undefined ? configuredReadings(readings, dialect.mcpServers, payload, gate) : readings
  const mcp = mcpField(real)
  return mcp === undefined ? payload : spreadKeepingLongStrings(payload, { mcp })
}

/** The decision in the dialect's JSON; a carried field it cannot take, or one the agent ignores here, is named in a warning. */
export function renderFor(dialect: Dialect, decided: Decision, payload: Payload, agentEvent?: string): ReturnType<Dialect['render']> {
  const decision = refusingIgnoredRewrite(dialect, decided, agentEvent ?? dialect.eventName(payload))
  // Agents that run this agent's entries (its module's `callers`) may each read its own part of the answer.
  const reading = callersOf(dialect.name, { payload }).find((caller) => caller.reading?.from(payload))?.reading
  const rendered = (reading?.render ?? dialect.render)(decision, payload, agentEvent)
  const ignored = ignoredFieldWarnings(dialect, decided, agentEvent ?? dialect.eventName(payload))
  const event = agentEvent ?? (typeof payload.hook_event_name === 'string' ? payload.hook_event_name : decision.event)
  const left =
    dialect.carries !== undefined
      ? []
      : carryFields(decision, event, [], () => {}).map((field) => `${dialect.label} cannot apply ${field} on ${event}; it was not sent`)
  return left.length === 0 && ignored.length === 0 ? rendered : { ...rendered, warnings: [...rendered.warnings, ...ignored, ...left] }
}

/** A rewrite the agent would ignore blocks the call: it must not run the input the hook replaced. */
function refusingIgnoredRewrite(dialect: Dialect, decision: Decision, event: string | undefined): Decision {
  if (decision.blocked || decision.updatedInput === undefined || event === undefined || !ignores(dialect, 'updatedInput', event))
    return decision
  const by = decision.decidedBy ?? decision.hooks.find((hook) => hook.outcome !== 'error')?.name ?? 'a hook'
  const why = (dialect.ignores ?? []).find((row) => row.field === 'updatedInput' && row.events.includes(event))!.why
  const reason = `hook '${by}' rewrote this call, but ${dialect.label} ignores a rewrite on ${event} (${why}); hookrun refused the call rather than run the input the hook replaced`
  const { updatedInput: _ignored, ...rest } = decision
  return { ...rest, decision: 'deny', blocked: true, reason, decidedBy: 'hookrun' }
}

/**
 * Might another agent be running this dialect's entry, with an answer of hookrun's own elsewhere (src/agents/callers.ts)?
 * Decided from fields and variables, before anything of install's loads (that cost such a fire a fifth of its time).
 */
export function mayBeAnsweredByCaller(
  dialect: Dialect,
  ownerEvent: string,
  payload: Payload,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const answer = callersOf(dialect.name, { payload, env }).find((caller) => caller.detect(payload, env))?.ownAnswer
  if (answer === undefined) return false
  return answer.kind !== 'listed' || listsEvent(env, answer, ownerEvent)
}

/** The project a caller of this dialect's entries names (its `caller.project`: a variable, else a payload field's first value), if one does. */
export function callerProject(dialect: Dialect, payload: Payload, env: Readonly<Record<string, string | undefined>>): string | undefined {
  // Every caller's, as data: the ones whose marks this fire lacks were not loaded.
  const callers = (agentNamed(dialect.name)?.callers ?? []).flatMap(
    (name) => VOCABULARY.callers.find(([caller]) => caller === name)?.[1].project ?? [],
  )
  for (const project of callers) {
    const variable = project.variables.map((name) => env[name]).find((value) => value !== undefined)
    if (variable !== undefined) return variable
  }
  for (const project of callers) {
    const field = project.payloadField === undefined ? undefined : payload[project.payloadField]
    const value = Array.isArray(field) ? field[0] : field
    if (typeof value === 'string') return value
  }
  return undefined
}

/** What `fire()` takes from the agent: where its notices reach someone, whether its stderr is shown, its budget. */
export function agentFireOptions(
  dialect: Dialect,
  agentEvent: string | undefined,
): { noticeChannels: () => NoticeChannel[]; stderrShown?: true; budgetMs?: number } {
  const budgetMs = fireBudgetMs(dialect)
  let channels: NoticeChannel[] | undefined
  return {
    ...(dialect.showsStderr && { stderrShown: true as const }),
    // hookrun's notices go where this agent shows them on this event (src/agents): asked only when a fire has one to give.
    noticeChannels: () => (channels ??= noticeChannels(dialect, agentEvent)),
    // An agent that kills a hook sooner than hookrun's budget and goes ahead (`killsAfterSeconds`): the gate must block before that.
    ...(budgetMs !== undefined && { budgetMs }),
  }
}

/** The budget for one fire's hooks where the agent kills a hook sooner (`killsAfterSeconds`): 10 s under its limit. */
export function fireBudgetMs(dialect: Dialect | undefined): number | undefined {
  return dialect?.killsAfterSeconds === undefined ? undefined : (dialect.killsAfterSeconds - 10) * 1000
}

const PROBE: Decision = {
  event: 'probe',
  decision: 'allow',
  blocked: false,
  continue: true,
  additionalContext: [],
  hooks: [],
  warnings: [],
}

/** The channels of the dialect's `notices` its answer carries on this event and the agent does not ignore (empty: the notice waits). */
export function noticeChannels(dialect: Dialect, agentEvent: string | undefined): NoticeChannel[] {
  if (agentEvent === undefined) return []
  const probes: Record<NoticeChannel, Partial<Decision>> = {
    systemMessage: { systemMessage: 'm' },
    additionalContext: { additionalContext: ['m'] },
  }
  return (dialect.notices ?? ['systemMessage']).filter((channel) => {
    if (ignores(dialect, channel, agentEvent)) return false
    const rendered = dialect.render({ ...PROBE, ...probes[channel] }, {}, agentEvent)
    return (
      !rendered.warnings.some((warning) => warning.includes(channel)) &&
      JSON.stringify(rendered) !== JSON.stringify(dialect.render(PROBE, {}, agentEvent))
    )
  })
}

export type { Dialect }
