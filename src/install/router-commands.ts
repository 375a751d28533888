// The commands of hookrun's router entries in an agent's file (for doctor: do they still run?).
import { existsSync, readFileSync } from 'node:fs'
import type { Node } from 'jsonc-parser'
import { type AgentName, type AgentTarget, isRouterCommand } from './agents.ts'
import { child, keysOf, parseJson } from './json-text.ts'

/** Every distinct router command in the file, whatever the agent's shape (flat or groups). */
export function readCommands(file: string, agent: AgentName): string[] {
  if (!existsSync(file)) return []
  let root: Node
  try {
    root = parseJson(readFileSync(file, 'utf8'), true)
  } catch {
    return []
  }
  const hooks = child(root, 'hooks')
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

/**
 * The agent's timeout on each of hookrun's router handlers in the file, in seconds, by event
 * (without one: the agent's default when known, else undefined).
 */
export function readRouterTimeouts(file: string, target: AgentTarget): Array<{ event: string; seconds: number | undefined }> {
  if (target.timeout === undefined || !existsSync(file)) return []
  let root: Node
  try {
    root = parseJson(readFileSync(file, 'utf8'), true)
  } catch {
    return []
  }
  const { field, perSecond } = target.timeout
  const hooks = child(root, 'hooks')
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
