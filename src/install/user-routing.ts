// A user install narrowed like a project's: hookrun's entries in the agent's user config only on
// the events (and tools) some hook that can run anywhere could fire on, kept up to date by
// `hookrun trust`/`init`/`plugin`/`validate` and by fires (the user stamp, src/config/narrowed.ts).
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { homeOf } from '../core/places.ts'
import type { Hook } from '../core/types.ts'
import { resolveAlias } from '../event/events.ts'
import { loadConfig } from '../config/parse.ts'
import { compiledSignature, readUserStamp, writeUserStamp } from '../config/narrowed.ts'
import { trustedRoots } from '../trust/records.ts'
import { agentTarget, AGENTS } from './agents.ts'
import { type AgentTarget, targetForFile } from './agent-target.ts'
import { keysOf } from './json-text.ts'
import { eventMap, parse, routerEntries } from './agent-file.ts'
import { askedHooks, compileNativeMatchers, type NativeEntry } from './matchers.ts'

type Env = Readonly<Record<string, string | undefined>>

/** What every folder's fires could run: the hooks, whether that can be told, and what it was read from. */
export interface UserRouting {
  readonly hooks: readonly Hook[]
  /** A trusted folder (`trustedFolders`), hook folders or plugins: their hooks are known only where they run. */
  readonly opaque: boolean
  /** Per project root ('' in no project), the config signature a fire there computes. */
  readonly signatures: Readonly<Record<string, string>>
}

/**
 * The hooks a user install must route: the user's and managed layers', and those of every project with a trust record as trusted
 * now (a changed one runs none until `hookrun trust`, which syncs); `also`: folders fires were seen in.
 */
export function userRouting(env: Env, also: readonly string[] = []): UserRouting {
  const roots = [...new Set([...trustedRoots(env), ...also.map((dir) => resolve(dir))])].filter((root) => existsSync(root))
  const hooks: Hook[] = []
  const signatures: Record<string, string> = {}
  let opaque = false
  // '/' holds no project (a `.hookrun/` there would be read as one, as a fire there would).
  for (const [key, cwd] of [['', '/'] as const, ...roots.map((root) => [root, root] as const)]) {
    const config = loadConfig({ cwd, env })
    const asked = askedHooks(config)
    hooks.push(...asked.hooks)
    if (asked.opaque || config.settings.trustedFolders.length > 0) opaque = true
    signatures[key === '' || config.trusts.length === 0 ? '' : config.projectRoot] = compiledSignature(config)
  }
  return { hooks, opaque, signatures }
}

/** A narrowed user install's entries: what `routing`'s hooks could fire on, and the session start (the untrusted notice); undefined: every event. */
export function userNativeMatchers(target: AgentTarget, routing: UserRouting): Map<string, NativeEntry> | undefined {
  const native = compileNativeMatchers(target, routing.hooks, routing.opaque)
  if (native === undefined) return undefined
  for (const event of target.events) if (resolveAlias(event) === 'session:start') native.set(event, {})
  return native
}

/** A user install is narrowed unless the agent stops running a changed entry until it is reviewed (Codex). */
export function narrowsUserInstall(target: AgentTarget): boolean {
  return target.reviewsChangedHooks !== true
}

/** The agents whose user config holds hookrun's router entries. */
export function userInstalls(env: Env): AgentTarget[] {
  const places = { home: homeOf(env), project: homeOf(env), env }
  return AGENTS.filter((target) => {
    const file = target.file('user', places)
    // Files of their own shape (TOML, YAML, argv lists) are written whole for every event: none is narrowed.
    if (target.format !== undefined || !existsSync(file)) return false
    try {
      // Where the event map is in this file: under `hooks`, a hook's name (Antigravity CLI), the top level (Droid's hooks.json).
      const inFile = targetForFile(target, file)
      const root = parse(inFile, readFileSync(file, 'utf8'))
      return keysOf(eventMap(inFile, root)).some((event) => routerEntries(inFile, root, event).length > 0)
    } catch {
      return false
    }
  })
}

/** Record in the user stamp which user configs fires keep narrowed, and what from (`routing`; undefined keeps the signatures). */
export function followUserNarrowed(
  env: Env,
  routing: UserRouting | undefined,
  follow: readonly AgentTarget[],
  unfollow: readonly AgentTarget[],
): void {
  const stamp = readUserStamp(env)
  if (stamp === undefined && follow.length === 0) return
  const agents = new Set(stamp?.agents)
  for (const target of unfollow) agents.delete(target.name)
  for (const target of follow) agents.add(target.name)
  writeUserStamp({ ...stamp, agents: [...agents], signatures: routing?.signatures ?? stamp?.signatures ?? {} }, env)
}

/** The narrowed user installs the stamp follows that still hold hookrun's entries. */
export function followedUserInstalls(env: Env): AgentTarget[] {
  const stamp = readUserStamp(env)
  if (stamp === undefined) return []
  const wired = new Set(userInstalls(env).map((target) => target.name))
  return stamp.agents.flatMap((name) => agentTarget(name) ?? []).filter((target) => wired.has(target.name))
}
