// Reading Kiro CLI v3's hooks file (`{version: "v1", hooks: [...]}`): hookrun's entries in it, for
// install, uninstall, doctor and the agents' overlaps (src/install/kiro-hooks.ts writes it).
import { type AgentName, isRouterCommand } from './agent-target.ts'
import { JsonTextError } from './json-text.ts'

export type Entry = Record<string, unknown>

/** The file's `hooks` list; a file that is not `{version: "v1", hooks: [...]}` is refused, left as it is. */
export function entriesOf(text: string): Entry[] {
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (error) {
    throw new JsonTextError(`is not JSON (${(error as Error).message})`)
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new JsonTextError('is not a JSON object')
  const { version, hooks } = root as Record<string, unknown>
  if (version !== undefined && version !== 'v1')
    throw new JsonTextError(`has version ${JSON.stringify(version)}; hookrun writes Kiro's "v1"`)
  if (hooks === undefined) return []
  if (!Array.isArray(hooks) || hooks.some((entry) => typeof entry !== 'object' || entry === null || Array.isArray(entry)))
    throw new JsonTextError('"hooks" is not a list of objects, as Kiro expects')
  return hooks as Entry[]
}

export function isRouter(entry: Entry, agent: AgentName): boolean {
  const action = entry.action as Entry | undefined
  return typeof action === 'object' && action !== null && isRouterCommand(action.command, agent)
}

/** The triggers of hookrun's entries in the file's text. */
export function routedEventsKiro(text: string, agent: AgentName): string[] {
  try {
    return [
      ...new Set(entriesOf(text).flatMap((entry) => (isRouter(entry, agent) && typeof entry.trigger === 'string' ? [entry.trigger] : []))),
    ]
  } catch {
    return [] // not a file install can edit: install and doctor report it on their own
  }
}

/** The commands of hookrun's entries. */
export function routerCommandsKiro(text: string, agent: AgentName): string[] {
  try {
    return [...new Set(entriesOf(text).flatMap((entry) => (isRouter(entry, agent) ? [String((entry.action as Entry).command)] : [])))]
  } catch {
    return []
  }
}
