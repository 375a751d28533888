// For doctor: agents' JSON files read as each agent reads them. A file its agent cannot parse (a
// comment where it reads strict JSON, a trailing comma) is discarded whole by the agent, so none of
// hookrun's entries in it run, however they look to a tolerant reader.
import { existsSync, readFileSync } from 'node:fs'
import { AGENTS } from './agents.ts'
import type { AgentTarget, Scope } from './agent-target.ts'
import { parse } from './agent-file.ts'
import { type DoctorCheck, type DoctorContext, type DoctorLine, installCommand } from './doctor-types.ts'
import { JsonTextError, nodeValue } from './json-text.ts'
import { routedEvents } from './overlaps.ts'

interface Discarded {
  readonly target: AgentTarget
  readonly scope: Scope
  readonly file: string
  /** Why the agent cannot read it: `is not valid JSON (line 2, column 3: JSON allows no comments)`. */
  readonly why: string
}

/** Why `target`'s agent discards `file`, or undefined when it reads it (or there is no file). */
export function discardedBecause(target: AgentTarget, file: string): string | undefined {
  // TOML and YAML files: their own readers say what they cannot read (src/install/toml-hooks.ts, yaml-hooks.ts).
  if (target.format === 'toml' || target.format === 'yaml' || !existsSync(file)) return undefined
  try {
    // As install reads it: strict JSON, unless the agent allows comments (AgentTarget.comments).
    const root = parse(target, readFileSync(file, 'utf8'))
    // JSON the agent still refuses whole (Antigravity CLI: an unknown event, a bad handler).
    return target.discards?.(nodeValue(root))
  } catch (error) {
    if (error instanceof JsonTextError) return error.message
    return `cannot be read (${(error as Error).message})`
  }
}

function discardedFiles(context: DoctorContext): Discarded[] {
  const found: Discarded[] = []
  for (const target of AGENTS) {
    for (const scope of ['user', 'project'] as const) {
      const file = target.file(scope, context.places)
      if (found.some((each) => each.file === file)) continue
      const why = discardedBecause(target, file)
      if (why !== undefined) found.push({ target, scope, file, why })
    }
  }
  return found
}

/** Does any discarded file hold what looks like hookrun's entries (read tolerantly)? Then that agent's gates are off. */
export function discardedRouterFiles(context: DoctorContext): number {
  return discardedFiles(context).filter(({ target, file }) => holdsRouter(target, file)).length
}

function holdsRouter(target: AgentTarget, file: string): boolean {
  return routedEvents(file, target.name).length > 0 || readFileSync(file, 'utf8').includes(`--format ${target.name}`)
}

/** Each agent file its agent discards: a failure where it holds hookrun's entries, a warning otherwise. */
export const discardedFilesCheck: DoctorCheck = (context) =>
  discardedFiles(context).map(({ target, scope, file, why }): DoctorLine => {
    const routed = holdsRouter(target, file)
    const comments = why.includes('comment')
    const fix = comments
      ? `remove the comments from ${file} (${target.label} reads strict JSON), then run hookrun doctor again`
      : `fix ${file} where it says, then run hookrun doctor again (${installCommand(target.name, scope)} leaves it untouched until then)`
    return {
      status: routed ? 'fail' : 'warn',
      what: `${target.label}: ${file} ${why}: ${target.label} ignores this whole file, so ${routed ? "hookrun's entries in it never run" : 'nothing in it applies'}`,
      fix,
    }
  })
