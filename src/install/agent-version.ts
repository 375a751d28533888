// Which version of an agent the user has, for the agents whose hooks file changed shape between
// versions (Kiro CLI, Mistral Vibe): its program found on PATH and asked `--version`, run by its
// absolute path with no shell. What it cannot tell, it says, and install writes the current shape.
import { nodeChildProcess } from '../core/builtins.ts'
import { onPath } from './on-path.ts'
import type { AgentTarget } from './agent-target.ts'

type Env = Readonly<Record<string, string | undefined>>

/** An agent's version as `[major, minor, patch]`, with the program and the line it printed; or why it is not known. */
export type AgentVersion =
  | { readonly known: true; readonly program: string; readonly version: readonly number[]; readonly text: string }
  | { readonly known: false; readonly why: string }

/** The first `N.N[.N]` in what `program --version` printed (`kiro-cli 2.21.3`, `vibe 2.21.0`). */
function parseVersion(printed: string): readonly number[] | undefined {
  const found = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(printed)
  return found === null ? undefined : [Number(found[1]), Number(found[2]), Number(found[3] ?? 0)]
}

/** Whether `version` is at least `floor` (both `[major, minor, patch]`). */
export function atLeast(version: readonly number[], floor: readonly number[]): boolean {
  for (let index = 0; index < floor.length; index++) {
    const have = version[index] ?? 0
    if (have !== floor[index]) return have > floor[index]!
  }
  return true
}

/** What `program --version` says, the program found on PATH and run by its absolute path, no shell. */
export function installedVersion(program: string, env: Env): AgentVersion {
  const path = onPath(program, env)
  if (path === undefined) return { known: false, why: `no ${program} on PATH` }
  const { spawnSync } = nodeChildProcess()
  const result = spawnSync(path, ['--version'], { env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 5000, shell: false })
  if (result.error !== undefined || result.signal !== null)
    return { known: false, why: `${path} --version did not answer (${result.error?.message ?? result.signal})` }
  const printed = `${result.stdout ?? ''}${result.stderr ?? ''}`
  const text = printed.trim().split('\n')[0]?.slice(0, 80) ?? ''
  const version = parseVersion(printed)
  if (version === undefined) return { known: false, why: `${path} --version printed no version${text ? ` (${text})` : ''}` }
  return { known: true, program: path, version, text }
}

/**
 * The target as the installed agent reads it: without `newEvents` where it is known to be older (with why). Install, and the stale
 * and unrouted checks, use it, so an event left out on purpose is not reported missing.
 */
export function asInstalled(target: AgentTarget, env: Env): { target: AgentTarget; leftOut?: { events: string[]; why: string } } {
  const since = target.newEvents?.since ?? {}
  const newer = Object.keys(since).filter((event) => target.events.includes(event))
  if (target.newEvents === undefined || newer.length === 0) return { target }
  // Asked each time, not kept: a long-lived process (serve, a library runner) outlives an upgrade.
  const found = installedVersion(target.newEvents.program, env)
  const older = found.known ? newer.filter((event) => !atLeast(found.version, since[event]!)) : []
  if (!found.known || older.length === 0) return { target }
  const why = `${found.text} (${found.program}) does not have it and warns about it at every start; install again after upgrading`
  return {
    target: {
      ...target,
      events: target.events.filter((event) => !older.includes(event)),
      skipped: { ...target.skipped, ...Object.fromEntries(older.map((event) => [event, why])) },
    },
    leftOut: { events: older, why },
  }
}
