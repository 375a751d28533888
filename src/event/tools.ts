/**
 * One subject set for every agent's tools (docs/events.md): `tool:pre_execute:bash` fires for each agent's shell tool;
 * the agent's own name stays in the payload and `HOOKRUN_TOOL_NAME`. An unknown name is its own subject, lowercased.
 */
import { VOCABULARY } from '../agents/vocabulary.ts'
import type { AgentTools } from '../agents/types.ts'

/** The first subject of each tool name, any case (kept as data in the vocabulary; the rows are src/event/tool-aliases.ts). */
export function toolNameTable(agentTools: ReadonlyArray<readonly [string, AgentTools]>): Record<string, string> {
  const table: Record<string, string> = {}
  for (const [, tools] of agentTools) {
    for (const name in tools) {
      const lower = name.toLowerCase()
      if (!Object.hasOwn(table, lower)) table[lower] = tools[name]!
    }
  }
  return table
}

/** The canonical subject for a tool name: `run_shell_command` → `bash`; unknown names lowercased. */
export function canonicalTool(name: string): string {
  const lower = name.toLowerCase()
  const table = VOCABULARY.toolNames
  return Object.hasOwn(table, lower) ? table[lower]! : lower
}

/** Is this one of the agents' own tool names the table knows (any case)? */
export function isToolName(name: string): boolean {
  return Object.hasOwn(VOCABULARY.toolNames, name.toLowerCase())
}
