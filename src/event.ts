import { HookrunError } from './errors.ts'
import type { Payload } from './payload.ts'
import { MAX_SEGMENT_LENGTH } from './pattern.ts'

/** An event as hooks see it: its canonical name plus, for tool events, the subject. */
export interface FiredEvent {
  /** Canonical name without subject, e.g. `tool:pre_execute`. */
  readonly name: string
  /** The tool name as the agent spelled it (`Bash`), if any. */
  readonly tool?: string
  /** Lowercased segments matched against patterns: `['tool', 'pre_execute', 'bash']`. */
  readonly segments: readonly string[]
  /** `name` plus the subject: `tool:pre_execute:bash`. */
  readonly qualified: string
}

// A segment is a name: letters, digits and a few separators; pattern syntax is not allowed.
const SEGMENT = /^[\w.\-/@$]+$/

/**
 * Qualify an event name with its subject. The subject comes from `--tool`, else from the third
 * segment of the name, else from the payload (`tool_name`, `tool`, `toolName`).
 */
export function qualifyEvent(input: string, payload: Payload, toolFlag?: string): FiredEvent {
  const parts = input.trim().split(':')
  if (parts.length > 3 || parts.some((part) => !SEGMENT.test(part))) {
    throw new HookrunError(
      `event '${input}' is not a valid name: expected domain:action[:subject] (letters, digits, _ . - /), for example tool:pre_execute`,
    )
  }
  const fromName = parts.length === 3 ? parts.pop() : undefined
  const name = parts.join(':').toLowerCase()
  const flag = nonEmpty(toolFlag)
  if (flag !== undefined && fromName !== undefined && flag.toLowerCase() !== fromName.toLowerCase()) {
    throw new HookrunError(`event '${input}' names the subject '${fromName}' but --tool says '${flag}'; give the subject once`)
  }
  const tool = flag ?? fromName ?? toolFromPayload(payload)
  // Patterns are matched against every segment: a bounded length keeps that fast whatever the input.
  const long = [...parts, tool ?? ''].find((segment) => segment.length > MAX_SEGMENT_LENGTH)
  if (long !== undefined) {
    const what = long === tool && long !== fromName ? `tool name ${flag !== undefined ? 'given by --tool' : 'in the payload'}` : `event '${input.slice(0, 40)}…'`
    throw new HookrunError(`${what} has a segment of ${long.length} characters; at most ${MAX_SEGMENT_LENGTH}`)
  }
  const segments = name.split(':')
  if (tool !== undefined) segments.push(tool.toLowerCase())
  return { name, tool, segments, qualified: segments.join(':') }
}

function toolFromPayload(payload: Payload): string | undefined {
  for (const key of ['tool_name', 'tool', 'toolName']) {
    const value = nonEmpty(payload[key])
    if (value !== undefined) return value
  }
  return undefined
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}
