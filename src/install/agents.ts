// The agents whose hooks config install writes, from the registry: each agent module's `install`
// target (src/agents/install.ts), completed with the agent's name, label and events.
import { INSTALLED } from '../agents/registry.ts'
import type { Agent } from '../agents/types.ts'
import type { AgentTarget, InstallTarget } from '../agents/install.ts'
import { namesOf } from '../event/events.ts'

/** The agent's events hookrun routes: every one it has (the alias table's order) but those left out on purpose. */
function eventsOf(source: string, skipped: Readonly<Record<string, string>>): string[] {
  return [...namesOf(source)].filter((name) => skipped[name] === undefined)
}

function complete(agent: Agent, install: InstallTarget): AgentTarget {
  const { legacy, header = {}, comments = false, skipped = {}, commandField = 'command', ...target } = install
  return {
    ...target,
    header,
    comments,
    skipped,
    commandField,
    command: install.command ?? ((self) => `${self} fire --format ${agent.name}`),
    name: agent.name,
    label: agent.label,
    events: install.events ?? eventsOf(agent.name, skipped),
    ...(legacy !== undefined && { legacy: complete(agent, legacy) }),
  }
}

/** The agents whose hooks config install writes, in the registry's INSTALLED order. */
export const AGENTS: readonly AgentTarget[] = INSTALLED.flatMap((agent) =>
  agent.install === undefined ? [] : [complete(agent, agent.install)],
)

export function agentTarget(name: string): AgentTarget | undefined {
  return AGENTS.find((agent) => agent.name === name)
}
