// Reading a hooks file of hookrun's own whose entries are a list (`hook-list` format, e.g. Kiro CLI
// v3's `{version: "v1", hooks: [...]}`): hookrun's entries in it, for install, uninstall, doctor and
// the agents' overlaps (src/install/hook-list.ts writes it); argv-hooks.ts reads Deep Agents Code's
// list with `entriesOf` too.
import { agentTarget } from './agents.ts'
import { type AgentName, type AgentTarget, isRouterCommand } from './agent-target.ts'
import { JsonTextError } from './json-text.ts'

export type Entry = Record<string, unknown>

/**
 * The file's `hooks` list; a file that is not `{version: "v1", hooks: [...]}` (the version the
 * target's header gives, where it gives one: Deep Agents Code's argv list has none) is refused, left as it is.
 */
export function entriesOf(text: string, target: Pick<AgentTarget, 'label' | 'header'>): Entry[] {
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (error) {
    throw new JsonTextError(`is not JSON (${(error as Error).message})`)
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new JsonTextError('is not a JSON object')
  const { version, hooks } = root as Record<string, unknown>
  const wanted = target.header.version
  if (wanted !== undefined && version !== undefined && version !== wanted)
    throw new JsonTextError(`has version ${JSON.stringify(version)}; hookrun writes ${target.label}'s ${JSON.stringify(wanted)}`)
  if (hooks === undefined) return []
  if (!Array.isArray(hooks) || hooks.some((entry) => typeof entry !== 'object' || entry === null || Array.isArray(entry)))
    throw new JsonTextError(`"hooks" is not a list of objects, as ${target.label} expects`)
  return hooks as Entry[]
}

export function isRouter(entry: Entry, agent: AgentName): boolean {
  const action = entry.action as Entry | undefined
  return typeof action === 'object' && action !== null && isRouterCommand(action.command, agent)
}

/** The triggers of hookrun's entries in the file's text. */
export function routedEventsInList(text: string, agent: AgentName): string[] {
  try {
    return [
      ...new Set(
        entriesOfAgent(text, agent).flatMap((entry) =>
          isRouter(entry, agent) && typeof entry.trigger === 'string' ? [entry.trigger] : [],
        ),
      ),
    ]
  } catch {
    return [] // not a file install can edit: install and doctor report it on their own
  }
}

/** The commands of hookrun's entries. */
export function routerCommandsInList(text: string, agent: AgentName): string[] {
  try {
    return [
      ...new Set(entriesOfAgent(text, agent).flatMap((entry) => (isRouter(entry, agent) ? [String((entry.action as Entry).command)] : []))),
    ]
  } catch {
    return []
  }
}

/** The file's entries, checked as `agent`'s target writes it (a file of no known agent's is refused). */
function entriesOfAgent(text: string, agent: AgentName): Entry[] {
  const target = agentTarget(agent)
  if (target === undefined) throw new JsonTextError(`is not a hooks file of a known agent (${agent})`)
  return entriesOf(text, target)
}
