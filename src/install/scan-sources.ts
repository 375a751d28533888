// Every file in a project that some agent hookrun knows reads hooks or plugins from, and which
// agents read it (`hookrun scan`): each agent module's `scan` (src/agents/native-config.ts), in
// the registry's scan order.
import { SCAN_ORDER } from '../agents/registry.ts'
import type { ScanSource } from '../agents/native-config.ts'

export type { ScanSource } from '../agents/native-config.ts'

export const SCAN_SOURCES: readonly ScanSource[] = SCAN_ORDER.flatMap((agent) => agent.scan?.sources ?? [])

/** Agents hookrun knows that read no hook file from a project, and why. */
export const NO_PROJECT_FILE: Readonly<Record<string, string>> = Object.fromEntries(
  SCAN_ORDER.flatMap((agent) => (agent.scan?.noProjectFile === undefined ? [] : [[agent.name, agent.scan.noProjectFile]])),
)

/** The agents scan speaks of, in the order it lists what it looked at, each with its name there. */
export const SCAN_AGENTS: ReadonlyArray<readonly [string, string]> = SCAN_ORDER.map((agent) => [
  agent.name,
  agent.scan?.label ?? agent.label,
])
