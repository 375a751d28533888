// Stage event: an event name (or alias) plus payload → the qualified FiredEvent.
import { HookrunError } from '../core/errors.ts'
import { canonicalEvent, isGate, resolveAlias } from './events.ts'
import type { FiredEvent, Payload } from '../core/types.ts'
import { MAX_SEGMENT_LENGTH } from './pattern.ts'
import { mcpCallOf, mcpSubjects } from './mcp.ts'
import { canonicalTool } from './tools.ts'

// A segment is a name: letters, digits and a few separators; pattern syntax is not allowed.
const SEGMENT = /^[\w.\-/@$]+$/

/**
 * Qualify an event name (or alias, `PreToolUse:Bash`) with its subject: from `--tool`, else the name, else the payload.
 * `tool` keeps the agent's spelling; the subject segment is the canonical name, so one pattern serves every agent.
 */
export function qualifyEvent(input: string, payload: Payload, toolFlag?: string): FiredEvent {
  const parts = input.trim().split(':')
  if (parts.length > 3 || parts.some((part) => !SEGMENT.test(part))) {
    throw new HookrunError(
      `event '${input}' is not a valid name: expected domain:action[:subject] (letters, digits, _ . - /), for example tool:pre_execute`,
    )
  }
  const { name, subject } = splitEventName(parts)
  if (subject?.includes(':')) {
    throw new HookrunError(`event '${input}' is not a valid name: an alias takes at most one subject, for example PreToolUse:Bash`)
  }
  const flag = nonEmpty(toolFlag)
  if (flag !== undefined && subject !== undefined && canonicalTool(flag) !== canonicalTool(subject)) {
    throw new HookrunError(`event '${input}' names the subject '${subject}' but --tool says '${flag}'; give the subject once`)
  }
  const tool = flag ?? subject ?? toolFromPayload(payload)
  // Patterns are matched against every segment: a bounded length keeps that fast whatever the input.
  const long = [...parts, tool ?? ''].find((segment) => segment.length > MAX_SEGMENT_LENGTH)
  if (long !== undefined) {
    const what =
      long === tool && long !== subject
        ? `tool name ${flag !== undefined ? 'given by --tool' : 'in the payload'}`
        : `event '${input.slice(0, 40)}…'`
    throw new HookrunError(`${what} has a segment of ${long.length} characters; at most ${MAX_SEGMENT_LENGTH}`)
  }
  const segments = name.split(':')
  // An MCP call's subject is `mcp__<server>__<tool>`; a name with several readings matches by any (src/event/mcp.ts).
  const readings = isToolEventName(name) ? mcpCallOf(tool, payload) : []
  if (readings.length > 0) {
    const [subject, ...others] = [...new Set(readings.flatMap(mcpSubjects))]
    // Bounded as any segment is: the server and tool may come from the payload's own `mcp` field.
    if (subject!.length > MAX_SEGMENT_LENGTH)
      throw new HookrunError(
        `the MCP server and tool in the payload make a segment of ${subject!.length} characters; at most ${MAX_SEGMENT_LENGTH}`,
      )
    segments.push(subject!)
    const alternates = others.map((other) => [...segments.slice(0, -1), other])
    const mcp = readings[0]!
    return { name, tool: tool ?? subject, segments, qualified: segments.join(':'), mcp, ...(alternates.length > 0 && { alternates }) }
  }
  if (tool !== undefined) segments.push(canonicalTool(tool))
  return { name, tool, segments, qualified: segments.join(':') }
}

/** Split `name[:subject]`, where the name is an alias, a one-segment event, or `domain:action`. */
export function splitEventName(parts: readonly string[]): { name: string; subject?: string } {
  const aliased = resolveAlias(parts[0]!)
  if (aliased !== undefined) return { name: aliased, subject: parts.length > 1 ? parts.slice(1).join(':') : undefined }
  const head = parts[0]!.toLowerCase()
  if (parts.length === 1 || canonicalEvent(head) !== undefined) return { name: head, subject: parts[1] }
  return { name: `${head}:${parts[1]!.toLowerCase()}`, subject: parts[2] }
}

/** Is an event, named as an agent or hookrun names it (`PreToolUse`, `tool:pre_execute:bash`), a gate? */
export function isGateName(event: string): boolean {
  return isGate(splitEventName(event.trim().split(':')).name)
}

/** A tool event (or a permission asked about a tool): the ones whose subject is a tool. */
export function isToolEventName(name: string): boolean {
  return name.startsWith('tool:') || name.startsWith('permission:')
}

/** The tool a payload names itself (`tool_name`, `tool`, `toolName`). */
export function toolFromPayload(payload: Payload): string | undefined {
  for (const key of ['tool_name', 'tool', 'toolName']) {
    const value = nonEmpty(payload[key])
    if (value !== undefined) return value
  }
  return undefined
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}
