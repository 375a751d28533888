// Which shape install writes where the hooks file changed between versions (a target's `legacy`): `--agent-format`, else what the
// installed agent reads (its `--version`), else the shape installed, else the current one; install says which and why.
import { HookrunError } from '../core/errors.ts'
import { AGENTS, agentTarget } from './agents.ts'
import type { AgentTarget, AgentVersions, Places, Scope } from './agent-target.ts'
import { type AgentVersion, atLeast, installedVersion } from './agent-version.ts'
import { routedEvents } from './overlaps.ts'

type AgentFormat = 'current' | 'legacy'
const AGENT_FORMATS: readonly AgentFormat[] = ['current', 'legacy']

type Env = Readonly<Record<string, string | undefined>>

/** What each agent's two shapes are called, its program, and the first version that reads the current one (its target's `versions`). */
const VERSIONED: Readonly<Record<string, AgentVersions>> = Object.fromEntries(
  AGENTS.flatMap((target) => (target.versions === undefined ? [] : [[target.name, target.versions]])),
)

/** Whether the agent has two shapes to choose from. */
export function hasFormats(name: string): boolean {
  return VERSIONED[name] !== undefined
}

/** The shape for each agent with two, and a line for each saying which and why. */
export function chooseFormats(
  agents: readonly string[],
  asked: string | undefined,
  env: Env,
  version: (program: string, env: Env) => AgentVersion = installedVersion,
): { formats: Record<string, AgentFormat>; lines: Record<string, string> } {
  const versioned = agents.filter(hasFormats)
  if (asked !== undefined && !AGENT_FORMATS.includes(asked as AgentFormat))
    throw new HookrunError(`--agent-format ${asked}: use current or legacy`)
  if (asked !== undefined && versioned.length === 0)
    throw new HookrunError(
      `--agent-format is for agents whose hooks file changed between versions (${Object.keys(VERSIONED).join(', ')}); ${agents.join(', ') || 'no agent'} has one shape`,
    )
  const formats: Record<string, AgentFormat> = {}
  const lines: Record<string, string> = {}
  for (const name of versioned) {
    const known = VERSIONED[name]!
    if (asked !== undefined) {
      formats[name] = asked as AgentFormat
      lines[name] = `${name}: writing ${asked === 'current' ? known.current : known.legacy} (--agent-format ${asked})`
      continue
    }
    const found = version(known.program, env)
    if (!found.known) {
      formats[name] = 'current'
      lines[name] =
        `${name}: which version you have cannot be told (${found.why}): writing ${known.current}; for ${known.older}: hookrun install --agent ${name} --agent-format legacy`
      continue
    }
    const current = atLeast(found.version, known.since)
    formats[name] = current ? 'current' : 'legacy'
    lines[name] = current
      ? `${name}: ${found.text} (${found.program}): writing ${known.current}`
      : `${name}: ${found.text} (${found.program}) ${known.old}: writing ${known.legacy}`
  }
  return { formats, lines }
}

/** The target install writes for `name`: the shape chosen, else the one installed in this scope, else the current one. */
export function shapeFor(name: string, format: AgentFormat | undefined, scope: Scope, places: Places): AgentTarget | undefined {
  const current = agentTarget(name)
  const legacy = current?.legacy
  if (current === undefined || legacy === undefined) return current
  if (format !== undefined) return format === 'legacy' ? legacy : current
  return installedShape(current, legacy, scope, places)
}

function installedShape(current: AgentTarget, legacy: AgentTarget, scope: Scope, places: Places): AgentTarget {
  const routed = routedEvents(current.file(scope, places), current.name)
  // Kiro: two files; the agent config alone is a legacy install.
  if (legacy.ownsFile !== undefined)
    return routed.length === 0 && routedEvents(legacy.file(scope, places), legacy.name).length > 0 ? legacy : current
  // Vibe: one file; tables that all use the old names are a legacy install.
  return routed.length > 0 && routed.every((event) => legacy.events.includes(event)) ? legacy : current
}

/** The agent's other shape when it lives in another file (Kiro's agent config, or its v3 file): install and uninstall clean it. */
export function otherShapeFile(given: AgentTarget, scope: Scope, places: Places): { target: AgentTarget; file: string } | undefined {
  const current = agentTarget(given.name)
  if (current?.legacy?.ownsFile === undefined) return undefined
  const other = given === current ? current.legacy : current
  const file = other.file(scope, places)
  return routedEvents(file, other.name).length > 0 ? { target: other, file } : undefined
}
