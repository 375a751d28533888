// The agent shapes that list handlers flat under each event with no `version` (Crush, Windsurf,
// Kiro, Reasonix), read with each agent's facts (src/agents/native-config.ts).
import type { NativeConfig } from '../agents/native-config.ts'
import { eventPattern, resolveAlias } from '../event/events.ts'
import {
  claudeMatcher,
  commandSlug,
  eachEventEntry,
  handlerSpec,
  type HookSpec,
  nativeTimeout,
  parseEntry,
  type Reading,
} from './hook-spec.ts'
import { FLAT_HANDLER_SCHEMAS } from './agent-schemas.ts'

/**
 * Do the events list handlers flat (`{ event: [ { command } ] }`), as Cursor's file does, with no
 * Claude or Gemini `hooks` list in any entry? Which agent's they are, their event names tell
 * (src/agents/registry.ts `PASTED_SHAPES`).
 */
export function isFlat(events: Record<string, unknown[]>): boolean {
  const entries = Object.values(events).flat()
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
  return (
    entries.length > 0 && entries.every((entry) => isObject(entry) && !('hooks' in entry) && ('command' in entry || 'powershell' in entry))
  )
}

/** The event pattern of a flat agent's event name: a tool the name carries stays in it. */
function flatAgentEvent(native: NativeConfig, eventName: string): string {
  const tool = native.eventTool?.(eventName)
  if (tool !== undefined) return `${resolveAlias(eventName)}:${tool}`
  return eventPattern(native.eventSpelling?.(eventName) ?? eventName)
}

/**
 * Crush's `crush.json`, Windsurf's `hooks.json`, a Kiro agent's `hooks` and Reasonix's settings, pasted into a
 * hooks.json: each handler one hook of that agent's shape, so it keeps the agent's rules (only
 * exit 2 blocks, where the agent lets it; Crush's exit 49 halts the turn; any other failure lets
 * the event through, src/answer/interpret.ts).
 */
export function flatAgentHooks({ native, shape, envPrefixes, report, counter }: Reading, events: Record<string, unknown[]>): HookSpec[] {
  const specs: HookSpec[] = []
  const schema = FLAT_HANDLER_SCHEMAS[shape]!
  const matcherOf = native.matcher ?? claudeMatcher
  eachEventEntry(events, (eventName, raw, path) => {
    const ordinal = counter.next++
    const handler = parseEntry(schema, raw, path, report) as Partial<Record<string, unknown>> | undefined
    if (handler === undefined) return
    const command = handler.command as string | undefined
    if (command === undefined)
      return report(path, 'a handler with only powershell is not run by hookrun (only command); skipped', 'warning')
    const cwd = native.cwdField === undefined ? undefined : (handler[native.cwdField] as string | undefined)
    const event = flatAgentEvent(native, eventName)
    const timeoutMs = native.timeoutMsField === undefined ? undefined : (handler[native.timeoutMsField] as number | undefined)
    specs.push(
      handlerSpec({ shape, path, ordinal, envPrefixes }, eventName, (handler.name as string | undefined) ?? commandSlug(command), command, {
        event,
        command,
        timeout: timeoutMs !== undefined ? timeoutMs / 1000 : nativeTimeout(native, event, handler.timeout as number | undefined),
        matcher: matcherOf(handler[native.matcherField ?? 'matcher'] as string | undefined),
        ...(cwd !== undefined && { cwd }),
        ...(typeof handler.description === 'string' && { description: handler.description }),
      }),
    )
  })
  return specs
}
