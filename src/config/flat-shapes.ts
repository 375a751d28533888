// The agent shapes that list handlers flat under each event with no `version`: Crush, Windsurf, Kiro.
import { eventPattern, namesOf, resolveAlias } from '../event/events.ts'
import { HOOK_DEFAULTS } from './defaults.ts'
import { claudeMatcher, commandSlug, type HookSpec, parseEntry, type Report } from './hook-spec.ts'
import { CrushHandlerSchema, KiroHandlerSchema, WindsurfHandlerSchema } from './schema.ts'

/** Agents whose own files list handlers flat under each event, without Cursor's `version`. */
type FlatAgent = 'crush' | 'windsurf' | 'kiro'

const WINDSURF_NAMES = namesOf('windsurf')
const KIRO_NAMES = namesOf('kiro')

/**
 * Crush's, Windsurf's and Kiro's files list handlers flat under each event (`{ event: [ { command
 * } ] }`), as Cursor's does, but with no `version`; where no entry holds Claude's or Gemini's
 * `hooks` list, their event names tell them apart: Windsurf's snake_case (`pre_run_command`),
 * Kiro's camelCase (`preToolUse`, `agentSpawn`), else Crush's (`PreToolUse`, any case, or
 * `pre_tool_use`).
 */
export function flatAgentOf(events: Record<string, unknown[]>): FlatAgent | undefined {
  const entries = Object.values(events).flat()
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
  if (
    entries.length === 0 ||
    !entries.every((entry) => isObject(entry) && !('hooks' in entry) && ('command' in entry || 'powershell' in entry))
  )
    return undefined
  const names = Object.keys(events)
  if (names.some((name) => WINDSURF_NAMES.has(name))) return 'windsurf'
  // An agent config's camelCase events (Kiro CLI 2); its v3 files are a list, not keyed by event,
  // and their PascalCase triggers keyed so are Crush's (Claude Code's names).
  if (names.some((name) => KIRO_NAMES.has(name) && /^[a-z]/.test(name))) return 'kiro'
  return 'crush'
}

/** Windsurf's tool events name their tool in the event: the pattern keeps it (its names are in src/event/tools.ts). */
const WINDSURF_TOOL_EVENT = /^(?:pre|post)_(run_command|write_code|read_code|mcp_tool_use)$/

/** The event pattern of a flat agent's event name. */
function flatAgentEvent(agent: FlatAgent, eventName: string): string {
  if (agent === 'windsurf') {
    const tool = WINDSURF_TOOL_EVENT.exec(eventName)?.[1]
    if (tool !== undefined) return `${resolveAlias(eventName)}:${tool === 'mcp_tool_use' ? 'mcp__*' : tool}`
  }
  // Crush reads its event names without regard to case or underscores (`pre_tool_use`).
  if (agent === 'crush' && eventName.replaceAll('_', '').toLowerCase() === 'pretooluse') return eventPattern('PreToolUse')
  return eventPattern(eventName)
}

/**
 * Kiro's matcher as a Claude-style one: `*` is every tool, `@builtin` every built-in tool (MCP
 * tools are `@server/tool`), a `*` elsewhere a glob; a plain name or `@server/tool` as it is.
 */
function kiroMatcher(matcher: string | undefined): string | undefined {
  if (matcher === undefined || matcher === '' || matcher === '*') return undefined
  if (matcher === '@builtin') return '^[^@]'
  if (/^[\w-]+$/.test(matcher)) return matcher
  return `^${matcher
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')}$`
}

const FLAT_SCHEMAS = { crush: CrushHandlerSchema, windsurf: WindsurfHandlerSchema, kiro: KiroHandlerSchema } as const
/** Each agent's default timeout, in seconds (Crush 30 s, Kiro 30000 ms; Windsurf has none). */
const FLAT_DEFAULT_TIMEOUT: Readonly<Record<FlatAgent, number>> = { crush: 30, windsurf: HOOK_DEFAULTS.timeout, kiro: 30 }

/**
 * Crush's `crush.json`, Windsurf's `hooks.json` and a Kiro agent's `hooks`, pasted into a
 * hooks.json: each handler one hook of that agent's shape, so it keeps the agent's rules (only
 * exit 2 blocks, where the agent lets it; Crush's exit 49 halts the turn; any other failure lets
 * the event through, src/answer/interpret.ts).
 */
export function flatAgentHooks(
  agent: FlatAgent,
  events: Record<string, unknown[]>,
  envPrefixes: readonly string[],
  report: Report,
  counter: { next: number },
): HookSpec[] {
  const specs: HookSpec[] = []
  for (const [eventName, handlers] of Object.entries(events)) {
    handlers.forEach((raw, index) => {
      const ordinal = counter.next++
      const path = `hooks.${eventName}[${index}]`
      const handler = parseEntry(FLAT_SCHEMAS[agent], raw, path, report) as Partial<Record<string, unknown>> | undefined
      if (handler === undefined) return
      const command = handler.command as string | undefined
      if (command === undefined) {
        report(path, 'a handler with only powershell is not run by hookrun (only command); skipped', 'warning')
        return
      }
      const matcher =
        agent === 'kiro' ? kiroMatcher(handler.matcher as string | undefined) : claudeMatcher(handler.matcher as string | undefined)
      const timeout =
        agent === 'kiro' && handler.timeout_ms !== undefined
          ? (handler.timeout_ms as number) / 1000
          : ((handler.timeout as number | undefined) ?? FLAT_DEFAULT_TIMEOUT[agent])
      const label = (handler.name as string | undefined) ?? commandSlug(command)
      specs.push({
        // As in Claude's shape, the identity says what the handler is, so a copy in another layer runs once.
        name: `${eventName}/${label}`,
        identity: `${eventName}[${matcher ?? '*'}] ${command}`,
        event: flatAgentEvent(agent, eventName),
        command,
        timeout,
        blocking: true,
        enabled: true,
        matcher,
        ...(handler.working_directory !== undefined && { cwd: handler.working_directory as string }),
        shape: agent,
        path,
        ordinal,
        envPrefixes,
      })
    })
  }
  return specs
}
