// The config shapes (hookrun, pigo, and the agents' own object forms read in agent-shapes.ts)
// normalised into one list of hook specs.
import type { z } from 'zod'
import { resolveAlias } from '../event/events.ts'
import { agentNamed, HOOK_LIST_SHAPES } from '../agents/registry.ts'
import { agentHooks, hookListHooks, pastedAgentOf, urlSlug } from './agent-shapes.ts'
import { commandSlug, type HookSpec, joinPath, parseEntry, type Report } from './hook-spec.ts'
import { ConfigEnvelopeSchema, HookSchema, PigoHookSchema, PigoPluginSchema } from './schema.ts'
import { type FileSettings, SETTINGS } from './settings-schema.ts'

export { commandSlug, type HookSpec }

/**
 * Normalise one parsed JSON file into hook specs and its settings. Problems are reported with
 * their JSON path; bad entries (and bad settings) are skipped alone.
 */
export function normalizeConfig(json: unknown, report: Report): { specs: HookSpec[]; settings: FileSettings } {
  const envelope = parseEntry(ConfigEnvelopeSchema, json, '', report)
  if (envelope === undefined) return { specs: [], settings: {} }
  const settings: FileSettings = Object.fromEntries(
    Object.entries(SETTINGS).map(([key, schema]) => {
      const value = envelope[key as keyof FileSettings]
      if (value === undefined) return [key, undefined]
      const result = (schema as z.ZodType).safeParse(value)
      if (result.success) return [key, result.data]
      for (const issue of result.error.issues)
        report(joinPath(key, issue.path), `${issue.message.replace(/^Invalid input: /, '')}; setting ignored`)
      return [key, undefined]
    }),
  )
  const envPrefixes = envelope.envPrefixes ?? []
  const specs: HookSpec[] = []
  const counter = { next: 0 }
  // Shapes in the order the file lists them: JSON objects keep their key order.
  for (const key of Object.keys(json as object)) {
    const listOf = HOOK_LIST_SHAPES.find((agent) => agent.nativeConfig!.hookList!.version === envelope.version)
    if (key === 'hooks' && Array.isArray(envelope.hooks))
      specs.push(
        ...(listOf === undefined
          ? flatHooks(envelope.hooks, envPrefixes, report, counter)
          : hookListHooks(listOf, envelope.hooks, envPrefixes, report, counter)),
      )
    else if (key === 'hooks') {
      const events = envelope.hooks as Record<string, unknown[]>
      specs.push(...agentHooks(pastedAgentOf(events, typeof envelope.version === 'number')!, events, envPrefixes, report, counter))
    } else if (key === 'plugins' && envelope.plugins) specs.push(...pigoPlugins(envelope.plugins, envPrefixes, report, counter))
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

/**
 * One agent's own `hooks` object read as that agent's document (`hookrun import`): the reading a
 * pasted file gets (src/agents/native-config.ts), told which agent's it is rather than guessing
 * it from the content.
 */
export function normalizeAgentHooks(agent: string, events: Record<string, unknown[]>, report: Report): HookSpec[] {
  return agentHooks(agentNamed(agent)!, events, [], report, { next: 0 })
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
