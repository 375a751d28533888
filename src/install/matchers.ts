// hookrun's configured patterns compiled into an agent's own event lists and tool matchers.
import type { ResolvedConfig } from '../config/load.ts'
import type { Hook } from '../core/types.ts'
import { resolveAlias } from '../event/events.ts'
import { compilePattern, EXACT_LIST, expandAlias } from '../event/pattern.ts'
import { canonicalTool } from '../event/tools.ts'
import { toolSubjects } from '../event/tool-aliases.ts'
import type { AgentTarget } from './agent-target.ts'

// Zero-cost no-match in the agent: it starts a process for every event with an entry, and every tool its matcher lets through, so
// entries go only on events some hook could fire on, with a matcher naming only the tools they want (`toolMatchers` targets).
// Always an over-approximation (a gate must not go unasked): filters are ignored, and whatever cannot be named in the agent's
// spelling (globs, Claude regex matchers, unreadable entries, hook folders, plugins) means every tool or every event.

/** What narrowing reads of an agent: its name and the events hookrun routes (an install target, or a hook folder's agent). */
type RoutedAgent = Pick<AgentTarget, 'events'> & Partial<Pick<AgentTarget, 'toolMatchers' | 'matcherReaders'>> & { readonly name: string }

/** What one agent event gets: an entry, with a tool matcher or none (every tool). */
export interface NativeEntry {
  readonly matcher?: string
}

const ALL = 'all' as const
type Subjects = Set<string> | typeof ALL

/** The agent events the hooks could fire on, each with its native matcher; undefined when that cannot be told (every event keeps its entry). */
export function compileNativeMatchers(target: RoutedAgent, hooks: readonly Hook[], opaque: boolean): Map<string, NativeEntry> | undefined {
  if (opaque) return undefined
  const subjects = toolSubjects()
  const entries = new Map<string, NativeEntry>()
  for (const event of target.events) {
    const canonical = resolveAlias(event)
    if (canonical === undefined) {
      entries.set(event, {}) // not an event hookrun can name: keep it
      continue
    }
    const segments = canonical.split(':')
    const wanting = hooks.filter((hook) => hook.enabled && alternativesFor(hook, segments).length > 0)
    if (wanting.length === 0) continue
    if (target.toolMatchers !== true || segments[0] !== 'tool') {
      entries.set(event, {})
      continue
    }
    let wanted: Subjects = new Set()
    for (const hook of wanting) wanted = union(wanted, hookSubjects(hook, segments))
    entries.set(event, wanted === ALL ? {} : toolMatcher(target.matcherReaders ?? [target.name], wanted, subjects))
  }
  return entries
}

/** The entries for a project install, from every layer `loadConfig` resolves: its hooks, trusted or not yet. */
export function projectNativeMatchers(target: RoutedAgent, config: ResolvedConfig) {
  const { hooks, opaque } = askedHooks(config)
  // A project whose hooks do not run (never trusted, or changed since) gets its session-start event
  // too: hookrun's notice needs an event the agent shows it on, and a tool event often carries no
  // message or context (Copilot's, Codex's). One start per session.
  const untrusted = config.trusts.some((trust) => !trust.trusted)
  const notice = untrusted && config.hooks.length + config.untrustedHooks.length > 0 ? [sessionStartHook] : []
  // No config file at all: nothing to compile, the agent keeps every entry, as before.
  return compileNativeMatchers(target, [...hooks, ...config.untrustedHooks, ...notice], opaque || config.files.length === 0)
}

/** A stand-in hook on session start: what the untrusted notice needs routed. */
const sessionStartHook = { enabled: true, event: ['session:start'] } as unknown as Hook

/** The hooks an agent must ask about: those that run, and an unreadable entry's events (it blocks its gates); opaque when unknowable. */
export function askedHooks(config: ResolvedConfig): { hooks: Hook[]; opaque: boolean } {
  const unreadable = config.problems.filter((problem) => problem.brokenHook !== undefined)
  const brokenPatterns = unreadable.flatMap((problem) => problem.brokenHook!.events ?? [])
  const opaque = (config.discovery?.sources.length ?? 0) > 0 || unreadable.some((problem) => problem.brokenHook!.events === undefined)
  const broken = brokenPatterns.length === 0 ? [] : [{ ...sessionStartHook, event: brokenPatterns }]
  return { hooks: [...config.hooks, ...broken], opaque }
}

/** The alternatives of a hook's patterns (`a,b`) whose event part matches, as segments; any subject counts (most cannot be listed). */
function alternativesFor(hook: Hook, segments: readonly string[]): string[][] {
  return hook.event
    .flatMap((pattern) => pattern.split(','))
    .map((alternative) => alternative.trim())
    .filter((alternative) => alternative !== '')
    .map((alternative) => expandAlias(alternative.split(':')))
    .filter((parts) => compilePattern(parts.slice(0, 2).join(':')).matches(segments))
}

/** The canonical tools a hook wants on this tool event, or ALL. */
function hookSubjects(hook: Hook, segments: readonly string[]): Subjects {
  let fromPatterns: Subjects = new Set()
  for (const parts of alternativesFor(hook, segments)) {
    const subject = parts[2]?.trim()
    fromPatterns = union(
      fromPatterns,
      subject === undefined || /[*?[\]{}()!+@]/.test(subject) ? ALL : new Set(subject.split('|').map((name) => canonicalTool(name.trim()))),
    )
  }
  if (fromPatterns !== ALL) return fromPatterns
  // The pattern takes every tool: a Claude exact-list matcher or pigo's match.tool may narrow it.
  const list =
    hook.matcher !== undefined && hook.matcher !== '' && hook.matcher !== '*' && EXACT_LIST.test(hook.matcher)
      ? hook.matcher
      : hook.match?.tool
  return list === undefined
    ? ALL
    : new Set(
        list
          .split(/[|,]/)
          .map((name) => canonicalTool(name.trim()))
          .filter((name) => name !== ''),
      )
}

function union(a: Subjects, b: Subjects): Subjects {
  return a === ALL || b === ALL ? ALL : new Set([...a, ...b])
}

/**
 * `^(Bash|Write)$`: the wanted tools in the names of every agent in `readers` (a target's `matcherReaders`: others run Claude Code's
 * entries with their own tool names); every tool when one has no name. More names only route more calls; too few leave a gate unasked.
 */
function toolMatcher(readers: readonly string[], wanted: ReadonlySet<string>, subjects: ReturnType<typeof toolSubjects>): NativeEntry {
  const names: string[] = []
  for (const subject of wanted) {
    const own =
      subjects
        .find((entry) => entry.subject === subject)
        ?.names.filter((name) => readers.some((reader) => (name.from as readonly string[]).includes(reader)))
        .map((name) => name.name) ?? []
    if (own.length === 0) return {}
    names.push(...own)
  }
  return {
    matcher: `^(${[...new Set(names)]
      .sort()
      .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|')})$`,
  }
}

/** A matcher hookrun compiled (`^(Bash|Write)$`), as opposed to one the user wrote. */
export function isCompiledMatcher(matcher: unknown): boolean {
  return typeof matcher === 'string' && /^\^\((?:[\w\\.-]+\|)*[\w\\.-]+\)\$$/.test(matcher)
}
