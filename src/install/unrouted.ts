// Hooks a narrowed user install does not route yet (hooks.json gained them since): an agent that read its settings before the
// background sync runs the whole session without them. The session-start fire (fire.ts `unroutedNotice`) and doctor say so.
import { existsSync, readFileSync } from 'node:fs'
import { loadConfig } from '../config/parse.ts'
import { type NarrowedStamp, readUserStamp, writeStamp } from '../config/narrowed.ts'
import { homeOf } from '../core/places.ts'
import type { Hook } from '../core/types.ts'
import { isGate, resolveAlias } from '../event/events.ts'
import { agentTarget } from './agents.ts'
import { type AgentTarget, groupsAt } from './agent-target.ts'
import { asInstalled } from './agent-version.ts'
import { parse, routerEntries } from './agent-file.ts'
import type { DoctorCheck, DoctorLine } from './doctor-types.ts'
import { child, nodeAt } from './json-text.ts'
import { askedHooks, compileNativeMatchers, type NativeEntry } from './matchers.ts'
import { followedUserInstalls } from './user-routing.ts'

type Env = Readonly<Record<string, string | undefined>>

/** A hook the agent's user file has no route for: the agent events it would fire on that have none. */
interface UnroutedHook {
  readonly hook: Hook
  readonly gate: boolean
}

/** What a user file routes: per agent event, the matchers of hookrun's entries (undefined: every tool). */
function installedRoutes(target: AgentTarget, file: string): Map<string, (string | undefined)[]> | undefined {
  if (!existsSync(file)) return undefined
  try {
    const root = parse(target, readFileSync(file, 'utf8'))
    const routes = new Map<string, (string | undefined)[]>()
    for (const event of target.events) {
      const entries = routerEntries(target, root, event)
      if (entries.length === 0) continue
      routes.set(
        event,
        entries.map((entry) => {
          const matcher =
            groupsAt(target, event) && entry.remove.length === 3 ? child(nodeAt(root, entry.remove), 'matcher')?.value : undefined
          return typeof matcher === 'string' && matcher !== '' && matcher !== '*' && matcher !== target.allMatcher ? matcher : undefined
        }),
      )
    }
    return routes
  } catch {
    return undefined // not readable: install and doctor say so
  }
}

/** The tool names a compiled matcher (`^(Bash|Write)$`) names. */
function namesIn(matcher: string): string[] {
  return matcher
    .replace(/^\^\(|\)\$$/g, '')
    .split('|')
    .map((name) => name.replace(/\\(.)/g, '$1'))
}

/** Do hookrun's entries for one event (`matchers`) let through every tool `wanted` needs? */
function covers(matchers: readonly (string | undefined)[], wanted: NativeEntry): boolean {
  if (matchers.includes(undefined)) return true
  if (wanted.matcher === undefined) return false
  return namesIn(wanted.matcher).every((name) =>
    matchers.some((matcher) => {
      try {
        return new RegExp(matcher!).test(name)
      } catch {
        return false
      }
    }),
  )
}

/** The hooks that can run in `cwd` that the agent's user file does not route now; empty when that cannot be told. */
function unroutedHooks(installed: AgentTarget, cwd: string, env: Env, file?: string): UnroutedHook[] {
  // An event left out for the installed agent's version has no route on purpose (src/install/agent-version.ts).
  const { target } = asInstalled(installed, env)
  const routes = installedRoutes(target, file ?? userFile(target, env))
  if (routes === undefined || routes.size === 0) return []
  const { hooks, opaque } = askedHooks(loadConfig({ cwd, env }))
  if (opaque) return []
  const found: UnroutedHook[] = []
  for (const hook of hooks.filter((each) => each.enabled && each.source !== undefined)) {
    const missing = [...(compileNativeMatchers(target, [hook], false) ?? new Map<string, NativeEntry>())].flatMap(([event, wanted]) => {
      const canonical = resolveAlias(event)
      if (canonical === undefined) return []
      const matchers = routes.get(event)
      return matchers !== undefined && covers(matchers, wanted) ? [] : [canonical]
    })
    if (missing.length > 0) found.push({ hook, gate: missing.some((event) => isGate(event)) })
  }
  return found
}

function userFile(target: AgentTarget, env: Env): string {
  return target.file('user', { home: homeOf(env), project: homeOf(env), env })
}

/** `tool:pre_execute:write (hook 'no-write' in ~/.config/hookrun/hooks.json)` */
function describe({ hook }: UnroutedHook): string {
  const matcher = hook.matcher !== undefined && hook.matcher !== '' ? ` [${hook.matcher}]` : ''
  const name = hook.named ? `hook '${hook.name}' in ` : ''
  return `${hook.event.join(', ')}${matcher} (${name}${hook.source.file})`
}

function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join('; ')} and ${items.at(-1)}`
}

/** Which gates (or, with none, which hooks) `unrouted` holds, as words; `others`: how many other hooks besides. */
function which(unrouted: readonly UnroutedHook[]): { gates: boolean; words: string; many: boolean; others: string } {
  const gates = unrouted.filter((each) => each.gate)
  const shown = gates.length > 0 ? gates : unrouted
  const many = shown.length > 1
  const others = unrouted.length - shown.length
  return {
    gates: gates.length > 0,
    words: `the ${gates.length > 0 ? 'gate' : 'hook'}${many ? 's' : ''} on ${listed(shown.map(describe))}`,
    many,
    others: others === 0 ? '' : others === 1 ? 'one other hook' : `${others} other hooks`,
  }
}

/** "the gate on … is not in force in WHERE (2 other hooks do not run either)" */
function notInForce(unrouted: readonly UnroutedHook[], where: string): string {
  const { gates, words, many, others } = which(unrouted)
  const verb = gates ? (many ? 'are not in force' : 'is not in force') : many ? 'do not run' : 'does not run'
  const besides = others === '' ? '' : ` (${others} ${others.startsWith('one') ? 'does' : 'do'} not run either)`
  return `${words} ${verb} in ${where}${besides}`
}

/** What a session-start fire says when a followed narrowed user install does not route hooks that can run here. */
export function unroutedNotice(agent: string, cwd: string, env: Env): string | undefined {
  const target = agentTarget(agent)
  if (target === undefined || !(readUserStamp(env)?.agents.includes(target.name) ?? false)) return undefined
  const unrouted = unroutedHooks(target, cwd, env)
  if (unrouted.length === 0) return undefined
  return `hookrun: ${notInForce(unrouted, 'this session')}: ${target.label} read ${userFile(target, env)} before hookrun routed ${unrouted.length > 1 ? 'them' : 'it'}; restart the session`
}

/**
 * What a fire says when its project install is not kept up to date (reviewed entries: Codex) and the config changed: the hooks its
 * file does not route. None when it routes them all; then the stamp takes the new signature, so later fires do not look again.
 */
export function reviewedNotice(agent: string, stamp: NarrowedStamp, signature: string, cwd: string, env: Env): string | undefined {
  const target = agentTarget(agent)
  if (target === undefined || !(stamp.reviewed?.agents.includes(target.name) ?? false)) return undefined
  const file = target.file('project', { home: homeOf(env), project: stamp.dir, env })
  const unrouted = unroutedHooks(target, cwd, env, file)
  if (unrouted.length === 0) {
    writeStamp({ ...stamp, reviewed: { agents: stamp.reviewed!.agents, signature } }, env)
    return undefined
  }
  const review = target.reviews?.where ?? target.label
  return `hookrun: ${notInForce(unrouted, target.label)}: ${file} does not route ${unrouted.length > 1 ? 'them' : 'it'}, and hookrun leaves that file (${target.label} stops running a changed entry until you review it): run hookrun install --project --sync in ${stamp.dir}, then review the changed entries in ${review}`
}

/** `hookrun doctor`: narrowed user installs that leave a hook unasked here (sessions started before the sync run without it). */
export const unroutedCheck: DoctorCheck = (context) =>
  followedUserInstalls(context.env).flatMap((target): DoctorLine[] => {
    const unrouted = unroutedHooks(target, context.cwd, context.env)
    if (unrouted.length === 0) return []
    const { gates, words, others } = which(unrouted)
    const them = unrouted.length > 1 ? 'them' : 'it'
    return [
      {
        status: gates ? 'fail' : 'warn',
        what: `${target.label}: ${userFile(target, context.env)} does not route ${words}${others === '' ? '' : ` nor ${others}`} yet: ${target.label} sessions started before the next fire brings it up to date (which it does by itself) run without ${them}`,
        fix: `hookrun install --user --sync, then restart ${target.label} sessions`,
      },
    ]
  })
