// What one install target's file and router commands are read with. The shape of a target:
// src/agents/install.ts; each agent's, its module's `install`; all of them: agents.ts.
import { routerTail } from '../core/router.ts'
import type { AgentTarget } from '../agents/install.ts'
import { agentNamed } from '../agents/registry.ts'

export type { AgentTarget, AgentVersions, Places, Scope } from '../agents/install.ts'
export { groupsAt, ROUTER_TIMEOUT_SECONDS } from '../agents/install.ts'

/** An agent's name (src/agents/registry.ts): the one `--format` and `install --agent` take. */
export type AgentName = string

/** What a committed project file runs: hookrun from PATH, no machine's path in it. */
export const PORTABLE_SELF = 'hookrun'

/** The target as it reads and writes `file` (its legacy shape's file, or where that file keeps its event map). */
export function targetForFile(target: AgentTarget, file: string): AgentTarget {
  const shape = target.legacy?.ownsFile?.(file) ? target.legacy : target
  return shape.hooksPathFor === undefined ? shape : { ...shape, hooksPath: shape.hooksPathFor(file) }
}

/** Where the target's event map is: `hooks`, unless `targetForFile` said otherwise. */
export function hooksPathOf(target: AgentTarget): readonly string[] {
  return target.hooksPath ?? ['hooks']
}

/** Is this command one of hookrun's router entries for the agent (any hookrun path, any event)? */
export function isRouterCommand(command: unknown, agent: AgentName): boolean {
  return typeof command === 'string' && tailOf(agent).test(command)
}

/** The hookrun a router entry's command runs (what install was given as `self`). */
export function routerSelf(command: string, agent: AgentName): string | undefined {
  return tailOf(agent).test(command) ? command.replace(tailOf(agent), '') : undefined
}

/** The end of the agent's router commands; with `serve --start` where the agent has http handlers (`install --serve`). */
function tailOf(agent: AgentName): RegExp {
  return routerTail(agent, agentNamed(agent)?.install?.serves === true)
}
