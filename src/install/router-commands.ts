// The commands of hookrun's router entries in an agent's file (for doctor: do they still run?).
import { existsSync, readFileSync } from 'node:fs'
import type { Node } from 'jsonc-parser'
import { AGENTS, agentTarget } from './agents.ts'
import { type AgentName, type AgentTarget, hooksPathOf, isRouterCommand, type Places, targetForFile } from './agent-target.ts'
import { installCommand } from './doctor-types.ts'
import { routedEvents } from './overlaps.ts'
import { ownRouterCommands } from './own-formats.ts'
import { child, keysOf, nodeAt, parseJson } from './json-text.ts'

/** Every handler in the file's event map (under `hooks`, or Droid's top level) with its event: a flat entry, and a group's. */
function handlersIn(file: string, target: AgentTarget | undefined): Array<{ event: string; handler: Node }> {
  let root: Node
  try {
    root = parseJson(readFileSync(file, 'utf8'), true)
  } catch {
    return []
  }
  const hooks = nodeAt(root, target === undefined ? ['hooks'] : hooksPathOf(targetForFile(target, file)))
  return keysOf(hooks).flatMap((event) =>
    (child(hooks, event)?.children ?? []).flatMap((item) =>
      [item, ...(child(item, 'hooks')?.children ?? [])].map((handler) => ({ event, handler })),
    ),
  )
}

/** Every distinct router command in the file, whatever the agent's shape (flat or groups). */
export function readCommands(file: string, agent: AgentName): string[] {
  if (!existsSync(file)) return []
  const given = agentTarget(agent)
  const inFile = given === undefined ? undefined : targetForFile(given, file)
  if (inFile?.format !== undefined) return ownRouterCommands(file, inFile)
  const found = new Set<string>()
  for (const { handler } of handlersIn(file, given))
    for (const field of ['command', 'bash']) {
      const value = child(handler, field)?.value
      if (isRouterCommand(value, agent)) found.add(value as string)
    }
  return [...found]
}

/** The agent's timeout on each of hookrun's handlers, in seconds, by event (none: the agent's default when known). */
export function readRouterTimeouts(file: string, target: AgentTarget): Array<{ event: string; seconds: number | undefined }> {
  const { timeout } = target
  if (timeout === undefined || !existsSync(file)) return []
  return handlersIn(file, target).flatMap(({ event, handler }) => {
    if (!isRouterCommand(child(handler, target.commandField)?.value, target.name)) return []
    const value = child(handler, timeout.field)?.value
    return [{ event, seconds: typeof value === 'number' ? value / timeout.perSecond : timeout.agentDefault }]
  })
}

/** For doctor: hookrun's entries in a file the agent no longer reads (Droid's settings.json beside a hooks.json), with the fix. */
export function ignoredRouterFiles(places: Places): Array<{ status: 'fail'; what: string; fix: string }> {
  return AGENTS.flatMap((target) =>
    (['user', 'project'] as const).flatMap((scope) =>
      (target.ignoredFiles?.(scope, places) ?? [])
        .filter((file) => routedEvents(file, target.name).length > 0)
        .map((file) => ({
          status: 'fail' as const,
          what: `${target.label}: hookrun's entries in ${file} do not run: ${target.label} reads its hooks from ${target.file(scope, places)} instead`,
          fix: `${installCommand(target.name, scope)}   (writes them there), then remove hookrun's entries from ${file}`,
        })),
    ),
  )
}
