// The commands of hookrun's router entries in an agent's file (for doctor: do they still run?).
import { existsSync, readFileSync } from 'node:fs'
import type { Node } from 'jsonc-parser'
import { AGENTS, agentTarget } from './agents.ts'
import { type AgentName, type AgentTarget, hooksPathOf, isRouterCommand, type Places, targetForFile } from './agent-target.ts'
import { routedEvents } from './overlaps.ts'
import { ownRouterCommands } from './own-formats.ts'
import { child, keysOf, nodeAt, parseJson } from './json-text.ts'

/** The file's event map: under `hooks`, or its top level (Droid's hooks.json). */
function eventMapIn(root: Node, file: string, target: AgentTarget | undefined): Node | undefined {
  return nodeAt(root, target === undefined ? ['hooks'] : hooksPathOf(targetForFile(target, file)))
}

/** Every distinct router command in the file, whatever the agent's shape (flat or groups). */
export function readCommands(file: string, agent: AgentName): string[] {
  if (!existsSync(file)) return []
  const given = agentTarget(agent)
  const inFile = given === undefined ? undefined : targetForFile(given, file)
  if (inFile?.format !== undefined) return ownRouterCommands(file, inFile)
  let root: Node
  try {
    root = parseJson(readFileSync(file, 'utf8'), true)
  } catch {
    return []
  }
  const hooks = eventMapIn(root, file, agentTarget(agent))
  const found = new Set<string>()
  for (const event of keysOf(hooks)) {
    for (const item of child(hooks, event)?.children ?? []) {
      for (const handler of [item, ...(child(item, 'hooks')?.children ?? [])]) {
        for (const field of ['command', 'bash']) {
          const value = child(handler, field)?.value
          if (isRouterCommand(value, agent)) found.add(value as string)
        }
      }
    }
  }
  return [...found]
}

/** The agent's timeout on each of hookrun's handlers, in seconds, by event (none: the agent's default when known). */
export function readRouterTimeouts(file: string, target: AgentTarget): Array<{ event: string; seconds: number | undefined }> {
  if (target.timeout === undefined || !existsSync(file)) return []
  let root: Node
  try {
    root = parseJson(readFileSync(file, 'utf8'), true)
  } catch {
    return []
  }
  const { field, perSecond } = target.timeout
  const hooks = eventMapIn(root, file, target)
  const found: Array<{ event: string; seconds: number | undefined }> = []
  for (const event of keysOf(hooks)) {
    for (const item of child(hooks, event)?.children ?? []) {
      for (const handler of [item, ...(child(item, 'hooks')?.children ?? [])]) {
        if (!isRouterCommand(child(handler, target.commandField)?.value, target.name)) continue
        const value = child(handler, field)?.value
        found.push({ event, seconds: typeof value === 'number' ? value / perSecond : target.timeout.agentDefault })
      }
    }
  }
  return found
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
          fix: `hookrun install --agent ${target.name}${scope === 'project' ? ' --project' : ''}   (writes them there), then remove hookrun's entries from ${file}`,
        })),
    ),
  )
}
