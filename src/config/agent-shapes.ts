// The agents' own object forms of a hooks.json (matcher groups, named groups with timeouts in
// ms, flat lists per event with or without a `version`, standalone hook lists) read into hook specs,
// each with its agent's facts (src/agents/native-config.ts); shapes.ts reads hookrun's own and pigo's.
import { PASTED_SHAPES } from '../agents/registry.ts'
import type { Agent } from '../agents/types.ts'
import type { NativeConfig } from '../agents/native-config.ts'
import { execWord } from '../core/shell.ts'
import type { HookShape } from '../core/types.ts'
import type { z } from 'zod'
import { eventPattern, namesOf, resolveAlias } from '../event/events.ts'
import {
  claudeMatcher,
  commandSlug,
  eachEventEntry,
  handlerSpec,
  type HookSpec,
  nativeTimeout,
  onFailureOf,
  parseEntry,
  type Reading,
  type Report,
  type Site,
} from './hook-spec.ts'
import {
  ClaudeGroupSchema,
  ClaudeHandlerSchema,
  CursorHandlerSchema,
  FLAT_HANDLER_SCHEMAS,
  GeminiGroupSchema,
  GeminiHandlerSchema,
  HookListEntrySchema,
} from './agent-schemas.ts'

type Events = Record<string, unknown[]>
type Counter = { next: number }

/** The agent whose own hooks object `events` is (with `versioned`: beside a `version`), in the registry's PASTED_SHAPES order. */
export function pastedAgentOf(events: Events, versioned: boolean): Agent | undefined {
  return PASTED_SHAPES.find((agent) => {
    const native = agent.nativeConfig!
    const pasted = native.pasted ?? {}
    if (pasted.versioned === true) return versioned
    if ((native.reader === 'flat') !== isFlat(events)) return false
    const told = pasted.ownEvents !== undefined || pasted.groupKeys !== undefined || pasted.handlerKeys !== undefined
    return !told || tellsOwn(agent, events)
  })
}

/** Does `events` hold what only this agent has: one of its own event names, a group key or a handler key? */
function tellsOwn(agent: Agent, events: Events): boolean {
  const pasted = agent.nativeConfig!.pasted!
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null
  const shared = pasted.sharesEventsWith === undefined ? new Set<string>() : namesOf(pasted.sharesEventsWith)
  const own = (name: string) =>
    pasted.ownEvents !== undefined &&
    namesOf(agent.name).has(name) &&
    !shared.has(name) &&
    (pasted.ownEvents === true || pasted.ownEvents.test(name))
  const hasKey = (value: unknown, keys: readonly string[] | undefined) => isObject(value) && (keys ?? []).some((key) => key in value)
  return Object.entries(events).some(
    ([eventName, groups]) =>
      own(eventName) ||
      // A flat agent's handlers are the event's entries themselves.
      (agent.nativeConfig!.reader === 'flat' && groups.some((handler) => hasKey(handler, pasted.handlerKeys))) ||
      groups.some(
        (group) =>
          hasKey(group, pasted.groupKeys) ||
          (isObject(group) && Array.isArray(group.hooks) && group.hooks.some((handler) => hasKey(handler, pasted.handlerKeys))),
      ),
  )
}

/** An agent's own `hooks` object read by its agent's reader. */
export function agentHooks(agent: Agent, events: Events, envPrefixes: readonly string[], report: Report, counter: Counter): HookSpec[] {
  const reading: Reading = { native: agent.nativeConfig!, shape: agent.name as HookShape, envPrefixes, report, counter }
  const reader = { groups: groupHooks, 'named-groups': namedGroupHooks, versioned: versionedHooks, flat: flatAgentHooks }[
    reading.native.reader
  ]
  return reader(reading, events)
}

/** The short name's last part for an http handler: its URL's last path segment, or its host. */
export function urlSlug(url: string): string {
  try {
    const parsed = new URL(url)
    return (
      parsed.pathname
        .split('/')
        .filter((part) => part !== '')
        .pop() ?? parsed.hostname
    )
  } catch {
    return 'http'
  }
}

/** Claude Code's shape: event → matcher groups → command, http or exec-form handlers. */
function groupHooks(reading: Reading, events: Events): HookSpec[] {
  const { native, report } = reading
  const placeholders = new Set(native.execPlaceholders)
  const specs: HookSpec[] = []
  eachGroupedHandler(reading, events, ClaudeGroupSchema, ClaudeHandlerSchema, (eventName, group, handler, path, ordinal) => {
    const site = { shape: reading.shape, path, ordinal, envPrefixes: reading.envPrefixes }
    if (handler.type === 'http') {
      const spec = httpHandler(reading, site, handler, eventName, group.matcher)
      if (spec !== undefined) specs.push(spec)
      return
    }
    if (handler.type !== 'command') {
      report(path, `type '${handler.type}' handlers are not run by hookrun (only 'command' and 'http'); skipped`, 'warning')
      return
    }
    if (handler.command === undefined) {
      report(`${path}.command`, 'required for a command handler; skipped')
      return
    }
    if (handler.shell === 'powershell') {
      report(`${path}.shell`, "'powershell' is not supported by hookrun; skipped", 'warning')
      return
    }
    if (handler.asyncRewake)
      report(`${path}.asyncRewake`, 'hookrun cannot wake the agent later; the hook runs in the background like async', 'warning')
    const command = handler.args
      ? [handler.command, ...handler.args].map((word) => execWord(word, placeholders)).join(' ')
      : handler.command
    const canonical = resolveAlias(eventName) ?? eventName
    const onError = onFailureOf(handler, eventName)
    specs.push(
      handlerSpec(site, eventName, commandSlug(command), command, {
        event: canonical,
        command,
        timeout: nativeTimeout(native, canonical, handler.timeout),
        blocking: !(handler.async || handler.asyncRewake),
        matcher: claudeMatcher(group.matcher),
        ...(onError !== undefined && { onError }),
        ...(handler.description !== undefined && { description: handler.description }),
        ...(handler.if !== undefined && { when: handler.if }),
      }),
    )
  })
  return specs
}

/** Each handler of an event map of matcher groups, parsed, with its path and ordinal; a group or handler that does not parse is reported and left out. */
function eachGroupedHandler<G extends typeof ClaudeGroupSchema | typeof GeminiGroupSchema, H extends z.ZodObject>(
  { report, counter }: Reading,
  events: Events,
  groupSchema: G,
  handlerSchema: H,
  visit: (eventName: string, group: z.output<G>, handler: z.output<H>, path: string, ordinal: number) => void,
): void {
  eachEventEntry(events, (eventName, rawGroup, groupPath) => {
    const group = parseEntry(groupSchema, rawGroup, groupPath, report)
    group?.hooks.forEach((rawHandler, index) => {
      const ordinal = counter.next++
      const path = `${groupPath}.hooks[${index}]`
      const handler = parseEntry(handlerSchema, rawHandler, path, report)
      if (handler !== undefined) visit(eventName, group, handler, path, ordinal)
    })
  })
}

/**
 * Gemini CLI's shape (agent-hook-protocols.md §6.1, §9.5): event → groups with `matcher` and
 * `sequential` → handlers with `name` and a timeout in the agent's unit. Only exit 2 or a deny
 * blocks; other failures warn. A `sequential` group makes the event's matching handlers run one
 * after another (src/fire.ts).
 */
function namedGroupHooks(reading: Reading, events: Events): HookSpec[] {
  const specs: HookSpec[] = []
  eachGroupedHandler(reading, events, GeminiGroupSchema, GeminiHandlerSchema, (eventName, group, handler, path, ordinal) => {
    const site = { shape: reading.shape, path, ordinal, envPrefixes: reading.envPrefixes }
    specs.push(
      handlerSpec(site, eventName, handler.name ?? commandSlug(handler.command), handler.name ?? handler.command, {
        event: eventPattern(eventName),
        command: handler.command,
        timeout: nativeTimeout(reading.native, eventPattern(eventName), handler.timeout),
        matcher: claudeMatcher(group.matcher),
        ...(handler.description !== undefined && { description: handler.description }),
        ...(group.sequential === true && { sequential: true }),
      }),
    )
  })
  return specs
}

/** Claude Code's `type: "http"` handler: POST the input JSON to `url` (src/run/http.ts). */
function httpHandler(
  { native, report }: Reading,
  site: Site,
  handler: z.output<typeof ClaudeHandlerSchema>,
  eventName: string,
  groupMatcher: string | undefined,
): HookSpec | undefined {
  const { path } = site
  if (handler.url === undefined) return void report(`${path}.url`, 'required for an http handler; skipped')
  if (!/^https?:\/\/[^\s/?#]+/i.test(handler.url))
    return void report(`${path}.url`, `'${handler.url}' is not an http:// or https:// URL; skipped`)
  if (handler.async) report(`${path}.async`, 'an http handler is always waited for (up to its timeout); async is ignored', 'warning')
  const canonical = resolveAlias(eventName) ?? eventName
  return handlerSpec(site, eventName, urlSlug(handler.url), handler.url, {
    event: canonical,
    url: handler.url,
    ...(handler.headers !== undefined && { headers: handler.headers }),
    ...(handler.allowedEnvVars !== undefined && { allowedEnvVars: handler.allowedEnvVars }),
    timeout: nativeTimeout(native, canonical, handler.timeout),
    // Claude Code 2.1.295: `onFailure: "block"` makes a failing handler block instead of failing open.
    ...(handler.onFailure !== undefined && { onError: handler.onFailure }),
    matcher: claudeMatcher(groupMatcher),
    ...(handler.if !== undefined && { when: handler.if }),
  })
}

/**
 * Cursor's shape (agent-hook-protocols.md §6.3, §9.2): `{"version": 1, "hooks": {"<event>":
 * [handler]}}`, no groups. Tool-specific events keep their tool: a `beforeShellExecution`
 * handler runs for shell tools only (`tool:pre_execute:bash`). Only exit 2 or a deny answer
 * blocks; other failures let the action through unless `failClosed`.
 */
function versionedHooks({ native, shape, envPrefixes, report, counter }: Reading, events: Events): HookSpec[] {
  const specs: HookSpec[] = []
  eachEventEntry(events, (eventName, raw, path) => {
    const ordinal = counter.next++
    const handler = parseEntry(CursorHandlerSchema, raw, path, report)
    if (handler === undefined) return
    if (handler.type === 'prompt') return report(path, "type 'prompt' handlers are not run by hookrun (only 'command'); skipped", 'warning')
    if (handler.command === undefined) return report(`${path}.command`, 'required for a command handler; skipped')
    specs.push(
      handlerSpec({ shape, path, ordinal, envPrefixes }, eventName, commandSlug(handler.command), handler.command, {
        event: eventPattern(eventName),
        command: handler.command,
        timeout: nativeTimeout(native, eventPattern(eventName), handler.timeout),
        matcher: claudeMatcher(handler.matcher),
        ...(handler.failClosed === true && { onError: 'block' as const }),
      }),
    )
  })
  return specs
}

/**
 * Do the events list handlers flat (`{ event: [ { command } ] }`), as Cursor's file does, with no
 * Claude or Gemini `hooks` list in any entry? Which agent's they are, their event names tell
 * (src/agents/registry.ts `PASTED_SHAPES`).
 */
function isFlat(events: Record<string, unknown[]>): boolean {
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
function flatAgentHooks({ native, shape, envPrefixes, report, counter }: Reading, events: Record<string, unknown[]>): HookSpec[] {
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

// An agent's standalone hook file (Kiro CLI v3's `{"version": "v1", "hooks": [{name, trigger, matcher, action, timeout, enabled}]}`),
// read with its facts (src/agents/native-config.ts `hookList`).
/** The entries of `agent`'s hook list: a command action runs by the agent's rules; an agent action is not run, with one warning. */
export function hookListHooks(
  agent: Agent,
  entries: readonly unknown[],
  envPrefixes: readonly string[],
  report: Report,
  counter: { next: number },
): HookSpec[] {
  const native = agent.nativeConfig!
  const shape = agent.name as HookShape
  const matcherOf = native.matcher ?? claudeMatcher
  const specs: HookSpec[] = []
  entries.forEach((raw, index) => {
    const ordinal = counter.next++
    const path = `hooks[${index}]`
    const entry = parseEntry(HookListEntrySchema, raw, path, report)
    if (entry === undefined) return
    if (entry.action.type !== 'command') {
      report(
        `${path}.action`,
        `'${entry.name}' has a type '${entry.action.type}' action, which hookrun does not run (only 'command'); skipped`,
        'warning',
      )
      return
    }
    const command = entry.action.command
    if (command === undefined) {
      report(`${path}.action.command`, `required for '${entry.name}', a command action; skipped`)
      return
    }
    const event = eventPattern(entry.trigger)
    // Named by the agent's own name for it, so `disabled` and explain name what the file says.
    specs.push(
      handlerSpec({ shape, path, ordinal, envPrefixes }, entry.trigger, entry.name, command, {
        name: entry.name,
        event,
        command,
        timeout: nativeTimeout(native, event, entry.timeout),
        enabled: entry.enabled ?? true,
        matcher: matcherOf(entry.matcher),
      }),
    )
  })
  return specs
}
