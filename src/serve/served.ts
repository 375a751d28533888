// The agents hookrun serve answers: those whose module says they take http hook handlers
// (`Agent.http`: src/agents/serve.ts).
import { AGENTS } from '../agents/registry.ts'
import type { HttpHooks } from '../agents/serve.ts'

/** An agent hookrun serve answers: its name (also its `--format`), label, events and http facts. */
export interface ServedAgent {
  readonly name: string
  readonly label: string
  readonly events: readonly string[]
  readonly http: HttpHooks
}

/** Every agent that takes http handlers. */
export const SERVED_AGENTS: readonly ServedAgent[] = AGENTS.flatMap((agent) =>
  agent.http === undefined ? [] : [{ name: agent.name, label: agent.label, events: Object.keys(agent.events ?? {}), http: agent.http }],
)

/** The served agent of this name, if it is one. */
export function servedAgent(name: string): ServedAgent | undefined {
  return SERVED_AGENTS.find((agent) => agent.name === name)
}

/**
 * The agent whose events a path of hookrun serve takes, and the event the path names where the
 * agent's payloads do not (`/claude`; `/copilot/preToolUse`), if any.
 */
export function servedAt(pathname: string): { agent: ServedAgent; event?: string } | undefined {
  const [, route, event, ...rest] = pathname.split('/')
  const agent = SERVED_AGENTS.find((each) => each.http.route === route)
  if (agent === undefined || rest.length > 0) return undefined
  if (agent.http.eventInUrl !== true) return event === undefined ? { agent } : undefined
  return event !== undefined && agent.events.includes(event) ? { agent, event } : undefined
}
