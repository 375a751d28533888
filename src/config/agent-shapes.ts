// The agents' own object forms of a hooks.json (Claude Code's matcher groups, Gemini CLI's with
// timeouts in ms, Cursor's flat lists per event) read into hook specs; shapes.ts tells which a
// file is and reads hookrun's own and pigo's.
import { execWord } from '../core/shell.ts'
import type { z } from 'zod'
import { eventPattern, namesOf, resolveAlias } from '../event/events.ts'
import { HOOK_DEFAULTS } from './defaults.ts'
import { claudeMatcher, commandSlug, type HookSpec, onFailureOf, parseEntry, type Report } from './hook-spec.ts'
import { ClaudeGroupSchema, ClaudeHandlerSchema, CursorHandlerSchema, GeminiGroupSchema, GeminiHandlerSchema } from './schema.ts'

/** Claude Code's default timeouts (seconds): 600, but 30 on UserPromptSubmit and the model-switch events (§1.3, §9.1). */
const CLAUDE_DEFAULT_TIMEOUT = 600
const CLAUDE_SHORT_TIMEOUT_EVENTS = new Set(['user:prompt_submit', 'llm:pre_model_switch', 'llm:post_model_switch'])
const claudeTimeout = (canonical: string, timeout: number | undefined) =>
  timeout ?? (CLAUDE_SHORT_TIMEOUT_EVENTS.has(canonical) ? 30 : CLAUDE_DEFAULT_TIMEOUT)

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

export function claudeHooks(
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
          ...(onFailureOf(handler, eventName) !== undefined && { onError: onFailureOf(handler, eventName) }),
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
export function isGeminiShaped(events: Record<string, unknown[]>): boolean {
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
export function geminiHooks(
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
export function cursorHooks(
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
