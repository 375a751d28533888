// The config shapes (hookrun, pigo, Claude Code, Gemini CLI, Cursor, and the flat agent shapes
// of flat-shapes.ts) normalised into one list of hook specs.
import { execWord } from '../core/shell.ts'
import type { z } from 'zod'
import { eventPattern, namesOf, resolveAlias } from '../event/events.ts'
import { HOOK_DEFAULTS } from './defaults.ts'
import { flatAgentHooks, flatAgentOf } from './flat-shapes.ts'
import { claudeMatcher, commandSlug, type HookSpec, joinPath, parseEntry, type Report } from './hook-spec.ts'
import {
  ClaudeGroupSchema,
  ClaudeHandlerSchema,
  ConfigEnvelopeSchema,
  CursorHandlerSchema,
  GeminiGroupSchema,
  GeminiHandlerSchema,
  HookSchema,
  PigoHookSchema,
  PigoPluginSchema,
} from './schema.ts'
import {
  AllowedHttpHookUrlsSchema,
  AllowManagedHooksOnlySchema,
  type FileSettings,
  HttpHookAllowedEnvVarsSchema,
  LogSchema,
  PolicySchema,
  TelemetrySchema,
  TrustedFoldersSchema,
} from './settings-schema.ts'

// Callers import these from here; they live in hook-spec.ts so flat-shapes.ts can share them.
export { commandSlug, parseEntry, type HookSpec, type Report }

/** Claude Code's default timeouts (seconds): 600, but 30 on UserPromptSubmit and the model-switch events (§1.3, §9.1). */
const CLAUDE_DEFAULT_TIMEOUT = 600
const CLAUDE_SHORT_TIMEOUT_EVENTS = new Set(['user:prompt_submit', 'llm:pre_model_switch', 'llm:post_model_switch'])
const claudeTimeout = (canonical: string, timeout: number | undefined) =>
  timeout ?? (CLAUDE_SHORT_TIMEOUT_EVENTS.has(canonical) ? 30 : CLAUDE_DEFAULT_TIMEOUT)

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
    for (const issue of result.error.issues)
      report(joinPath(key, issue.path), `${issue.message.replace(/^Invalid input: /, '')}; setting ignored`)
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
    else if (key === 'hooks' && envelope.version !== undefined)
      specs.push(...cursorHooks(envelope.hooks as Record<string, unknown[]>, envPrefixes, report, counter))
    else if (key === 'hooks' && flatAgentOf(envelope.hooks as Record<string, unknown[]>) !== undefined) {
      const events = envelope.hooks as Record<string, unknown[]>
      specs.push(...flatAgentHooks(flatAgentOf(events)!, events, envPrefixes, report, counter))
    } else if (key === 'hooks' && isGeminiShaped(envelope.hooks as Record<string, unknown[]>))
      specs.push(...geminiHooks(envelope.hooks as Record<string, unknown[]>, envPrefixes, report, counter))
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
    if (entry.cwd !== undefined && entry.working_dir !== undefined)
      report(`${path}.working_dir`, 'both cwd and working_dir are set; cwd is used', 'warning')
    const { if: when, agent, working_dir: workingDir, ...rest } = entry
    // `agent`: an entry written for an agent (hookrun import) keeps that agent's rules.
    specs.push({
      ...rest,
      cwd: entry.cwd ?? workingDir,
      shape: agent ?? 'hookrun',
      path,
      envPrefixes,
      ordinal,
      ...(when !== undefined && { when }),
    })
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

function claudeHooks(
  events: Record<string, unknown[]>,
  envPrefixes: readonly string[],
  report: Report,
  counter: { next: number },
): HookSpec[] {
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
          ? [handler.command, ...handler.args].map((word) => execWord(word, EXEC_PLACEHOLDERS)).join(' ')
          : handler.command
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
      groups.some(
        (group) =>
          isObject(group) &&
          ('sequential' in group || (Array.isArray(group.hooks) && group.hooks.some((handler) => isObject(handler) && 'name' in handler))),
      ),
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
function geminiHooks(
  events: Record<string, unknown[]>,
  envPrefixes: readonly string[],
  report: Report,
  counter: { next: number },
): HookSpec[] {
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

/** Claude Code's `type: "http"` handler: POST the input JSON to `url` (src/run/http.ts). */
function claudeHttpHandler(
  handler: z.output<typeof ClaudeHandlerSchema>,
  eventName: string,
  groupMatcher: string | undefined,
  path: string,
  report: Report,
): Omit<HookSpec, 'ordinal' | 'envPrefixes'> | undefined {
  if (handler.url === undefined) return void report(`${path}.url`, 'required for an http handler; skipped')
  if (!/^https?:\/\/[^\s/?#]+/i.test(handler.url))
    return void report(`${path}.url`, `'${handler.url}' is not an http:// or https:// URL; skipped`)
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
function cursorHooks(
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
      const handler = parseEntry(CursorHandlerSchema, raw, path, report)
      if (handler === undefined) return
      if (handler.type === 'prompt') {
        report(path, "type 'prompt' handlers are not run by hookrun (only 'command'); skipped", 'warning')
        return
      }
      if (handler.command === undefined) {
        report(`${path}.command`, 'required for a command handler; skipped')
        return
      }
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

/**
 * The placeholders Claude Code substitutes in the exec form's command and args (its own, and the
 * plugin-folder variables of the plugin layouts hookrun reads): each stays for the shell to
 * expand from the hook's environment, where hookrun sets it (src/core/shell.ts `execWord`).
 */
const EXEC_PLACEHOLDERS: ReadonlySet<string> = new Set([
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_PLUGIN_ROOT',
  'PLUGIN_ROOT',
  'CURSOR_PLUGIN_ROOT',
  'DROID_PLUGIN_ROOT',
])
