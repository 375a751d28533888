// The file formats install edits besides an agent's JSON event map, by `AgentTarget.format`.
import { existsSync, readFileSync } from 'node:fs'
import type { AgentTarget } from './agent-target.ts'
import { ARGV_LIST, HOOK_LIST } from './json-list.ts'
import type { OwnFormat } from './results.ts'
import { TOML } from './toml-hooks.ts'
import { YAML } from './yaml-hooks.ts'

export const OWN_FORMATS: Readonly<Record<NonNullable<AgentTarget['format']>, OwnFormat>> = {
  toml: TOML,
  'hook-list': HOOK_LIST,
  'argv-list': ARGV_LIST,
  yaml: YAML,
}

/** hookrun's entries in a file of one of these formats (`target.format` set) (none when there is no file, or not one install could edit). */
function routersIn(file: string, target: AgentTarget) {
  if (!existsSync(file)) return []
  const text = readFileSync(file, 'utf8')
  try {
    return OWN_FORMATS[target.format!].routers(text, target)
  } catch {
    return [] // install and doctor report such a file on their own
  }
}

/** The events of hookrun's entries in the file. */
export function ownRoutedEvents(file: string, target: AgentTarget): string[] {
  return [...new Set(routersIn(file, target).flatMap(({ event }) => (typeof event === 'string' ? [event] : [])))]
}

/** The commands of hookrun's entries in the file. */
export function ownRouterCommands(file: string, target: AgentTarget): string[] {
  return [...new Set(routersIn(file, target).map(({ command }) => command))]
}
