// The config shapes (hookrun, pigo, Claude Code) normalised into one list of hook specs.
import { execWord } from '../core/shell.ts'
import { didYouMean } from '../core/suggest.ts'
import { z } from 'zod'
import { eventPattern, namesOf, resolveAlias } from '../event/events.ts'
import { HOOK_DEFAULTS } from './defaults.ts'
import type { HookShape } from '../core/types.ts'
import {
  AllowManagedHooksOnlySchema,
  AllowedHttpHookUrlsSchema,
  HttpHookAllowedEnvVarsSchema,
  ClaudeGroupSchema,
  ClaudeHandlerSchema,
  ConfigEnvelopeSchema,
  CrushHandlerSchema,
  CursorHandlerSchema,
  KiroHandlerSchema,
  WindsurfHandlerSchema,
  GeminiGroupSchema,
  GeminiHandlerSchema,
  type FileSettings,
  type HookEntry,
  HookSchema,
  LogSchema,
  TrustedFoldersSchema,
  PigoHookSchema,
  PigoPluginSchema,
  PolicySchema,
  TelemetrySchema,
} from './schema.ts'

/**
 * The three config shapes hookrun reads (DESIGN §4), normalised into one list of hook specs:
 *   hookrun / Code-Forge   { "hooks": [ { name, event, command, … } ] }
 *   pigo                   { "plugins": [ { name, enabled, hooks: { tool_start: [ { command, match } ] } } ] }
 *   Claude Code            { "hooks": { "PreToolUse": [ { matcher, hooks: [ { type, command } ] } ] } }
 * Each spec remembers the shape it was written in, because the shapes differ in what a failure
 * means (DESIGN §6): Claude-shape hooks block only on exit 2.
 */
export interface HookSpec extends HookEntry {
  readonly shape: HookShape
  /** JSON path of the entry in its file, e.g. `hooks[2]` or `hooks.PreToolUse[0].hooks[1]`. */
  readonly path: string
  readonly envPrefixes: readonly string[]
  /** Claude Code's `if` permission rule, e.g. `Bash(git *)`. */
  readonly when?: string
  /** Its Gemini CLI group says `sequential: true`. */
  readonly sequential?: boolean
  /** Position among the file's entries (valid or not), so a bad entry does not rename later ones. */
  readonly ordinal: number
  /**
   * An agent-shaped handler's identity, `PreToolUse[Bash] ./check.sh`: the same handler in two
   * layers runs once (the agents' rule), so layers merge on it. Its `name` is the short one
   * (`shortNames`); this long one, which earlier versions showed, still switches it off.
   */
  readonly identity?: string
}

export type Report = (path: string, message: string, severity?: 'error' | 'warning') => void

/** Claude Code's default timeouts (seconds): 600, but 30 on UserPromptSubmit and the model-switch events (§1.3, §9.1). */
const CLAUDE_DEFAULT_TIMEOUT = 600
const CLAUDE_SHORT_TIMEOUT_EVENTS = new Set(['user:prompt_submit', 'llm:pre_model_switch', 'llm:post_model_switch'])
const claudeTimeout = (canonical: string, timeout: number | undefined) => timeout ?? (CLAUDE_SHORT_TIMEOUT_EVENTS.has(canonical) ? 30 : CLAUDE_DEFAULT_TIMEOUT)

/**
 * Normalise one parsed JSON file into hook specs and its settings. Problems are reported with
 * their JSON path; bad entries (and bad settings) are skipped alone.
 */
export function normalizeConfig(json: unknown, report: Report): { specs: HookSpec[]; settings: FileSettings } {
  const envelope = parseEntry(ConfigEnvelopeSchema, json, '', report)
  if (envelope === undefined) return { specs: [], settings: {} }
  const setting = <T>(key: string, schema: z.ZodType<T>, value: unknown): T | undefined => {
    if (value === undefined) return undefined
    const result = schema.safeParse(value)
    if (result.success) return result.data
    for (const issue of result.error.issues) report(joinPath(key, issue.path), `${issue.message.replace(/^Invalid input: /, '')}; setting ignored`)
    return undefined
  }
  const settings = {
    trustedFolders: setting('trustedFolders', TrustedFoldersSchema, envelope.trustedFolders),
    log: setting('log', LogSchema, envelope.log),
    allowManagedHooksOnly: setting('allowManagedHooksOnly', AllowManagedHooksOnlySchema, envelope.allowManagedHooksOnly),
    telemetry: setting('telemetry', TelemetrySchema, envelope.telemetry),
    policy: setting('policy', PolicySchema, envelope.policy),
    allowedHttpHookUrls: setting('allowedHttpHookUrls', AllowedHttpHookUrlsSchema, envelope.allowedHttpHookUrls),
    httpHookAllowedEnvVars: setting('httpHookAllowedEnvVars', HttpHookAllowedEnvVarsSchema, envelope.httpHookAllowedEnvVars),
  }
  const envPrefixes = envelope.envPrefixes ?? []
  const specs: HookSpec[] = []
  const counter = { next: 0 }
  // Shapes in the order the file lists them: JSON objects keep their key order.
  for (const key of Object.keys(json as object)) {
    if (key === 'hooks' && Array.isArray(envelope.hooks)) specs.push(...flatHooks(envelope.hooks, envPrefixes, report, counter))
    else if (key === 'hooks' && envelope.version !== undefined) specs.push(...cursorHooks(envelope.hooks as Record<string, unknown[]>, envPrefixes, report, counter))
    else if (key === 'hooks' && flatAgentOf(envelope.hooks as Record<string, unknown[]>) !== undefined) {
      const events = envelope.hooks as Record<string, unknown[]>
      specs.push(...flatAgentHooks(flatAgentOf(events)!, events, envPrefixes, report, counter))
    }
    else if (key === 'hooks' && isGeminiShaped(envelope.hooks as Record<string, unknown[]>)) specs.push(...geminiHooks(envelope.hooks as Record<string, unknown[]>, envPrefixes, report, counter))
    else if (key === 'hooks') specs.push(...claudeHooks(envelope.hooks as Record<string, unknown[]>, envPrefixes, report, counter))
    else if (key === 'plugins' && envelope.plugins) specs.push(...pigoPlugins(envelope.plugins, envPrefixes, report, counter))
  }
  return { specs: shortNames(specs), settings }
}

/**
 * Agent-shaped handlers have no name of their own: each gets `<Event>/<script>`, the agent's
 * event and the file name of the script it runs without its extension (`PreToolUse/check-bash`
 * for `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-bash.sh`), the Gemini handler's own `name`, or
 * an http handler's last path segment. Made from what the handler is, not where it sits, so
 * adding or moving a handler never renames another (a `disabled` entry keeps naming the same
 * hook); a second handler with the same name in the file is `…#2`, `#3`, in file order.
 */
function shortNames(specs: HookSpec[]): HookSpec[] {
  const taken = new Set(specs.filter((spec) => spec.identity === undefined && spec.name !== undefined).map((spec) => spec.name!))
  return specs.map((spec) => {
    if (spec.identity === undefined) return spec
    const base = spec.name!
    let name = base
    for (let n = 2; taken.has(name); n++) name = `${base}#${n}`
    taken.add(name)
    return { ...spec, name }
  })
}

/** What a command runs, for its short name: the script's file name without its extension, else the program. */
export function commandSlug(command: string): string {
  // The first simple command only: not a redirection's target (`> /dev/null`) or a later pipe stage.
  const words = command
    .split(/[|;&<>]/)[0]!
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/["']/g, ''))
  const program = words.findIndex((word) => !/^\w+=/.test(word))
  const args = program < 0 ? [] : words.slice(program)
  const script = args.find((word) => !word.startsWith('-') && (word.includes('/') || /\.(sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|ps1)$/i.test(word)))
  const file = (script ?? args[0] ?? '').split('/').filter((part) => part !== '').pop() ?? ''
  return file.replace(/\.[A-Za-z0-9]+$/, '').replace(/[^\w.@+-]+/g, '-') || 'hook'
}

/**
 * The short name of a handler given by its long name (`PreToolUse[Bash] ./check.sh` →
 * `PreToolUse/check`), as test files written for earlier versions name it; any other name as is.
 */
export function shortNameOf(name: string): string {
  const long = /^([^[\s/]+)\[[^\]]*\] (.+)$/.exec(name)
  if (long === null) return name
  const [, eventName, what] = long
  return `${eventName}/${/^https?:\/\//i.test(what!) ? urlSlug(what!) : commandSlug(what!)}`
}

/** The short name's last part for an http handler: its URL's last path segment, or its host. */
function urlSlug(url: string): string {
  try {
    const parsed = new URL(url)
    return parsed.pathname.split('/').filter((part) => part !== '').pop() ?? parsed.hostname
  } catch {
    return 'http'
  }
}

/**
 * One agent's own `hooks` object read as that agent's document (`hookrun import`): the reading a
 * pasted file gets (Claude Code's groups, Gemini CLI's with timeouts in ms, Cursor's flat lists),
 * told which shape it is rather than guessing it from the content.
 */
export function normalizeAgentHooks(shape: 'claude' | 'gemini' | 'cursor', events: Record<string, unknown[]>, report: Report): HookSpec[] {
  const counter = { next: 0 }
  if (shape === 'gemini') return geminiHooks(events, [], report, counter)
  if (shape === 'cursor') return cursorHooks(events, [], report, counter)
  return claudeHooks(events, [], report, counter)
}

function flatHooks(entries: readonly unknown[], envPrefixes: readonly string[], report: Report, counter: { next: number }): HookSpec[] {
  const specs: HookSpec[] = []
  entries.forEach((raw, index) => {
    const ordinal = counter.next++
    const path = `hooks[${index}]`
    const entry = parseEntry(HookSchema, raw, path, report)
    if (entry === undefined) return
    if (entry.cwd !== undefined && entry.working_dir !== undefined) report(`${path}.working_dir`, 'both cwd and working_dir are set; cwd is used', 'warning')
    const { if: when, agent, working_dir: workingDir, ...rest } = entry
    // `agent`: an entry written for an agent (hookrun import) keeps that agent's rules.
    specs.push({ ...rest, cwd: entry.cwd ?? workingDir, shape: agent ?? 'hookrun', path, envPrefixes, ordinal, ...(when !== undefined && { when }) })
  })
  return specs
}

function pigoPlugins(plugins: readonly unknown[], envPrefixes: readonly string[], report: Report, counter: { next: number }): HookSpec[] {
  const specs: HookSpec[] = []
  // pigo scripts read PIGO_* variables: its hooks get them without asking.
  const prefixes = envPrefixes.includes('PIGO_') ? envPrefixes : [...envPrefixes, 'PIGO_']
  plugins.forEach((raw, pluginIndex) => {
    const pluginPath = `plugins[${pluginIndex}]`
    const plugin = parseEntry(PigoPluginSchema, raw, pluginPath, report)
    if (plugin === undefined) return
    for (const [eventName, hooks] of Object.entries(plugin.hooks)) {
      hooks.forEach((rawHook, index) => {
        const ordinal = counter.next++
        const path = `${pluginPath}.hooks.${eventName}[${index}]`
        const hook = parseEntry(PigoHookSchema, rawHook, path, report)
        if (hook === undefined) return
        specs.push({
          name: `${plugin.name}/${eventName}[${index}]`,
          event: resolveAlias(eventName) ?? eventName,
          command: hook.command,
          timeout: hook.timeout,
          blocking: hook.blocking,
          enabled: plugin.enabled,
          match: hook.match,
          shape: 'pigo',
          path,
          ordinal,
          envPrefixes: prefixes,
        })
      })
    }
  })
  return specs
}

function claudeHooks(events: Record<string, unknown[]>, envPrefixes: readonly string[], report: Report, counter: { next: number }): HookSpec[] {
  const specs: HookSpec[] = []
  for (const [eventName, groups] of Object.entries(events)) {
    groups.forEach((rawGroup, groupIndex) => {
      const groupPath = `hooks.${eventName}[${groupIndex}]`
      const group = parseEntry(ClaudeGroupSchema, rawGroup, groupPath, report)
      if (group === undefined) return
      group.hooks.forEach((rawHandler, index) => {
        const ordinal = counter.next++
        const path = `${groupPath}.hooks[${index}]`
        const handler = parseEntry(ClaudeHandlerSchema, rawHandler, path, report)
        if (handler === undefined) return
        if (handler.type === 'http') {
          const spec = claudeHttpHandler(handler, eventName, group.matcher, path, report)
          if (spec !== undefined) specs.push({ ...spec, ordinal, envPrefixes })
          return
        }
        if (handler.type !== 'command') return report(path, `type '${handler.type}' handlers are not run by hookrun (only 'command' and 'http'); skipped`, 'warning')
        if (handler.command === undefined) return report(`${path}.command`, 'required for a command handler; skipped')
        if (handler.shell === 'powershell') return report(`${path}.shell`, "'powershell' is not supported by hookrun; skipped", 'warning')
        if (handler.asyncRewake) report(`${path}.asyncRewake`, 'hookrun cannot wake the agent later; the hook runs in the background like async', 'warning')
        const command = handler.args ? [handler.command, ...handler.args].map((word) => execWord(word, EXEC_PLACEHOLDERS)).join(' ') : handler.command
        const canonical = resolveAlias(eventName) ?? eventName
        const matcher = claudeMatcher(group.matcher)
        specs.push({
          // The same handler in several settings files runs once (Claude Code's rule): its identity
          // is what the handler is, so later layers replace earlier copies.
          name: `${eventName}/${commandSlug(command)}`,
          identity: `${eventName}[${matcher ?? '*'}] ${command}`,
          event: canonical,
          command,
          timeout: claudeTimeout(canonical, handler.timeout),
          blocking: !(handler.async || handler.asyncRewake),
          enabled: true,
          matcher,
          ...(handler.onFailure !== undefined && { onError: handler.onFailure }),
          ...(handler.description !== undefined && { description: handler.description }),
          shape: 'claude',
          path,
          ordinal,
          envPrefixes,
          ...(handler.if !== undefined && { when: handler.if }),
        })
      })
    })
  }
  return specs
}

/** Gemini CLI's event names that are not also Claude Code's (BeforeTool, AfterModel, …). */
const GEMINI_ONLY_EVENTS = (() => {
  const claudeNames = namesOf('claude')
  return new Set([...namesOf('gemini')].filter((name) => !claudeNames.has(name)))
})()

/**
 * Gemini CLI writes Claude's nesting too; its files are told apart by what only Gemini has: one
 * of its own event names, a `sequential` group, or a named handler.
 */
function isGeminiShaped(events: Record<string, unknown[]>): boolean {
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null
  return Object.entries(events).some(
    ([eventName, groups]) =>
      GEMINI_ONLY_EVENTS.has(eventName) ||
      groups.some((group) => isObject(group) && ('sequential' in group || (Array.isArray(group.hooks) && group.hooks.some((handler) => isObject(handler) && 'name' in handler)))),
  )
}

/** Gemini CLI's default handler timeout, in milliseconds (agent-hook-protocols.md §6.1). */
const GEMINI_DEFAULT_TIMEOUT_MS = 60_000

/**
 * Gemini CLI's settings.json `hooks` (agent-hook-protocols.md §6.1, §9.5): event → groups with
 * `matcher` and `sequential` → handlers with `name` and a timeout in milliseconds. Only exit 2 or
 * a deny blocks; other failures warn. A `sequential` group makes the event's matching handlers run
 * one after another (src/fire.ts).
 */
function geminiHooks(events: Record<string, unknown[]>, envPrefixes: readonly string[], report: Report, counter: { next: number }): HookSpec[] {
  const specs: HookSpec[] = []
  for (const [eventName, groups] of Object.entries(events)) {
    groups.forEach((rawGroup, groupIndex) => {
      const groupPath = `hooks.${eventName}[${groupIndex}]`
      const group = parseEntry(GeminiGroupSchema, rawGroup, groupPath, report)
      if (group === undefined) return
      group.hooks.forEach((rawHandler, index) => {
        const ordinal = counter.next++
        const path = `${groupPath}.hooks[${index}]`
        const handler = parseEntry(GeminiHandlerSchema, rawHandler, path, report)
        if (handler === undefined) return
        const matcher = claudeMatcher(group.matcher)
        specs.push({
          // As in Claude's shape, the identity says what the handler is, so a copy in another layer runs once.
          name: `${eventName}/${handler.name ?? commandSlug(handler.command)}`,
          identity: `${eventName}[${matcher ?? '*'}] ${handler.name ?? handler.command}`,
          event: eventPattern(eventName),
          command: handler.command,
          timeout: (handler.timeout ?? GEMINI_DEFAULT_TIMEOUT_MS) / 1000,
          blocking: true,
          enabled: true,
          matcher,
          ...(handler.description !== undefined && { description: handler.description }),
          ...(group.sequential === true && { sequential: true }),
          shape: 'gemini',
          path,
          ordinal,
          envPrefixes,
        })
      })
    })
  }
  return specs
}

function claudeMatcher(matcher: string | undefined): string | undefined {
  return matcher === undefined || matcher === '' || matcher === '*' ? undefined : matcher
}

/** Claude Code's `type: "http"` handler: POST the input JSON to `url` (src/run/http.ts). */
function claudeHttpHandler(
  handler: z.output<typeof ClaudeHandlerSchema>,
  eventName: string,
  groupMatcher: string | undefined,
  path: string,
  report: Report,
): Omit<HookSpec, 'ordinal' | 'envPrefixes'> | undefined {
  if (handler.url === undefined) return void report(`${path}.url`, 'required for an http handler; skipped')
  if (!/^https?:\/\/[^\s/?#]+/i.test(handler.url)) return void report(`${path}.url`, `'${handler.url}' is not an http:// or https:// URL; skipped`)
  if (handler.async) report(`${path}.async`, 'an http handler is always waited for (up to its timeout); async is ignored', 'warning')
  const canonical = resolveAlias(eventName) ?? eventName
  const matcher = claudeMatcher(groupMatcher)
  return {
    // Claude Code runs the same URL once across settings files: identified by what it is, later layers replace it.
    name: `${eventName}/${urlSlug(handler.url)}`,
    identity: `${eventName}[${matcher ?? '*'}] ${handler.url}`,
    event: canonical,
    url: handler.url,
    ...(handler.headers !== undefined && { headers: handler.headers }),
    ...(handler.allowedEnvVars !== undefined && { allowedEnvVars: handler.allowedEnvVars }),
    timeout: claudeTimeout(canonical, handler.timeout),
    blocking: true,
    enabled: true,
    // Claude Code 2.1.295: `onFailure: "block"` makes a failing handler block instead of failing open.
    ...(handler.onFailure !== undefined && { onError: handler.onFailure }),
    matcher,
    shape: 'claude',
    path,
    ...(handler.if !== undefined && { when: handler.if }),
  }
}

/**
 * Cursor's own file (agent-hook-protocols.md §6.3, §9.2): `{"version": 1, "hooks": {"<event>":
 * [handler]}}`, no groups. Cursor's tool-specific events keep their tool: a
 * `beforeShellExecution` handler runs for shell tools only (`tool:pre_execute:bash`). Only exit 2
 * or a deny answer blocks; other failures let the action through unless `failClosed`.
 */
function cursorHooks(events: Record<string, unknown[]>, envPrefixes: readonly string[], report: Report, counter: { next: number }): HookSpec[] {
  const specs: HookSpec[] = []
  for (const [eventName, handlers] of Object.entries(events)) {
    handlers.forEach((raw, index) => {
      const ordinal = counter.next++
      const path = `hooks.${eventName}[${index}]`
      const handler = parseEntry(CursorHandlerSchema, raw, path, report)
      if (handler === undefined) return
      if (handler.type === 'prompt') return report(path, "type 'prompt' handlers are not run by hookrun (only 'command'); skipped", 'warning')
      if (handler.command === undefined) return report(`${path}.command`, 'required for a command handler; skipped')
      const matcher = claudeMatcher(handler.matcher)
      specs.push({
        // The same handler in several files (user and project) runs once, as in Claude's shape.
        name: `${eventName}/${commandSlug(handler.command)}`,
        identity: `${eventName}[${matcher ?? '*'}] ${handler.command}`,
        event: eventPattern(eventName),
        command: handler.command,
        timeout: handler.timeout ?? HOOK_DEFAULTS.timeout,
        blocking: true,
        enabled: true,
        matcher,
        ...(handler.failClosed === true && { onError: 'block' as const }),
        shape: 'cursor',
        path,
        ordinal,
        envPrefixes,
      })
    })
  }
  return specs
}

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
function flatAgentOf(events: Record<string, unknown[]>): FlatAgent | undefined {
  const entries = Object.values(events).flat()
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
  if (entries.length === 0 || !entries.every((entry) => isObject(entry) && !('hooks' in entry) && ('command' in entry || 'powershell' in entry))) return undefined
  const names = Object.keys(events)
  if (names.some((name) => WINDSURF_NAMES.has(name))) return 'windsurf'
  if (names.some((name) => KIRO_NAMES.has(name))) return 'kiro'
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
  return `^${matcher.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`
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
function flatAgentHooks(agent: FlatAgent, events: Record<string, unknown[]>, envPrefixes: readonly string[], report: Report, counter: { next: number }): HookSpec[] {
  const specs: HookSpec[] = []
  for (const [eventName, handlers] of Object.entries(events)) {
    handlers.forEach((raw, index) => {
      const ordinal = counter.next++
      const path = `hooks.${eventName}[${index}]`
      const handler = parseEntry(FLAT_SCHEMAS[agent], raw, path, report) as Partial<Record<string, unknown>> | undefined
      if (handler === undefined) return
      const command = handler.command as string | undefined
      if (command === undefined) return report(path, 'a handler with only powershell is not run by hookrun (only command); skipped', 'warning')
      const matcher = agent === 'kiro' ? kiroMatcher(handler.matcher as string | undefined) : claudeMatcher(handler.matcher as string | undefined)
      const timeout = agent === 'kiro' && handler.timeout_ms !== undefined ? (handler.timeout_ms as number) / 1000 : ((handler.timeout as number | undefined) ?? FLAT_DEFAULT_TIMEOUT[agent])
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

const strictToLenient = new WeakMap<z.ZodObject, z.ZodObject>()

/**
 * Parse strictly; if the only trouble is unknown keys, report them as warnings and keep the value
 * without them. Any other issue is an error and the value is dropped (the caller skips it).
 */
export function parseEntry<T extends z.ZodObject>(schema: T, raw: unknown, path: string, report: Report): z.output<T> | undefined {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  const unknownKeys = result.error.issues.filter((issue) => issue.code === 'unrecognized_keys')
  const other = result.error.issues.filter((issue) => issue.code !== 'unrecognized_keys')
  for (const issue of unknownKeys) {
    // A typo of a field the entry has (timout) names it; nested objects say where the fields are listed.
    const known = issue.path.length === 0 ? Object.keys(schema.shape) : []
    for (const key of issue.keys) report(joinPath(path, [...issue.path, key]), `unknown key, ignored${didYouMean(key, known) || ' (see `hookrun schema` for the fields)'}`, 'warning')
  }
  if (other.length === 0) {
    let lenient = strictToLenient.get(schema)
    if (!lenient) strictToLenient.set(schema, (lenient = schema.strip()))
    const stripped = lenient.safeParse(raw)
    if (stripped.success) return stripped.data as z.output<T>
  }
  const what = path === '' ? 'file skipped' : 'hook skipped'
  for (const issue of other) report(joinPath(path, issue.path), `${issue.message.replace(/^Invalid input: /, '')}; ${what}`)
  return undefined
}

function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`
  return out
}

/**
 * The placeholders Claude Code substitutes in the exec form's command and args (its own, and the
 * plugin-folder variables of the plugin layouts hookrun reads): each stays for the shell to
 * expand from the hook's environment, where hookrun sets it (src/core/shell.ts `execWord`).
 */
const EXEC_PLACEHOLDERS: ReadonlySet<string> = new Set(['CLAUDE_PROJECT_DIR', 'CLAUDE_PLUGIN_ROOT', 'PLUGIN_ROOT', 'CURSOR_PLUGIN_ROOT', 'DROID_PLUGIN_ROOT'])
