// The agents hookrun serve answers: those whose module says they take http hook handlers
// (`Agent.http`: src/agents/serve.ts).
import { AGENTS } from '../agents/registry.ts'
import type { HttpHooks } from '../agents/serve.ts'

/** An agent hookrun serve answers: its name (also its `--format`), label and http facts. */
export interface ServedAgent {
  readonly name: string
  readonly label: string
  readonly http: HttpHooks
}

/** Every agent that takes http handlers. */
export const SERVED_AGENTS: readonly ServedAgent[] = AGENTS.flatMap((agent) =>
  agent.http === undefined ? [] : [{ name: agent.name, label: agent.label, http: agent.http }],
)

/** The agent `install --serve` wires and serve answers (one takes http handlers so far). */
export const SERVED: ServedAgent = SERVED_AGENTS[0]!

/** The agent whose events a path of hookrun serve takes (`/claude`), if any. */
export function servedAt(pathname: string): ServedAgent | undefined {
  return SERVED_AGENTS.find((agent) => pathname === `/${agent.http.route}`)
}
