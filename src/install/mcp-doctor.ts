// doctor: where an MCP gate would not hold: an agent whose MCP tool names hookrun cannot read (`mcpNaming`), or that fires no
// pre-tool hook for MCP calls (the lab's `mcp-gate` scenario).
import { DIALECTS } from '../agents/registry.ts'
import { LAB_VERIFIED } from '../agents/verified.ts'
import type { Hook } from '../core/types.ts'
import { expandAlias } from '../event/pattern.ts'
import type { DoctorLine } from './doctor-types.ts'

/** The hooks that gate MCP calls: a tool event pattern (or Claude matcher) naming `mcp__…`. */
export function mcpGates(hooks: readonly Hook[]): Hook[] {
  return hooks.filter(
    (hook) =>
      hook.event.some((pattern) =>
        pattern.split(',').some((alternative) => {
          const [domain, , subject] = expandAlias(alternative.trim().split(':'))
          return (domain === 'tool' || domain === '*') && subject !== undefined && /^mcp/i.test(subject.trim())
        }),
      ) || /^\^?\(?mcp/i.test(hook.matcher ?? ''),
  )
}

/** An agent that runs hookrun here: hookrun's name for it (its lab file's), its label, and the dialect it is answered in. */
interface RunningAgent {
  readonly agent: string
  readonly label: string
  readonly format: string
}

/** One line per agent running hookrun here where MCP gates may not hold, and one naming those where the lab saw them hold. */
export function mcpGateLines(gates: readonly Hook[], agents: readonly RunningAgent[]): DoctorLine[] {
  if (gates.length === 0) return []
  const names = gates.map((gate) => `'${gate.name}'`).join(', ')
  const gate = `MCP gate${gates.length > 1 ? 's' : ''} ${names}`
  const held: string[] = []
  const lines: DoctorLine[] = []
  for (const { agent, label, format } of agents.filter(
    (each, index) => agents.findIndex((other) => other.agent === each.agent) === index,
  )) {
    const dialect = DIALECTS.find((each) => each.name === format)
    if (dialect === undefined) continue
    const seen = LAB_VERIFIED[agent]?.scenarios['mcp-gate']
    if (dialect.mcpNaming === undefined) {
      lines.push({
        status: 'warn',
        what: `${label}: how it names MCP tools is not known to hookrun, so the ${gate} may not hold there`,
        fix: 'see docs/events.md#mcp-tools; gate its MCP tools by the names it sends (hookrun log shows them)',
      })
    } else if (seen !== undefined && seen.verdict !== 'honoured') {
      lines.push({
        status: 'warn',
        what: `${label}: the ${gate} may not hold there: the agent lab saw ${seen.seen}`,
        fix: 'see docs/events.md#mcp-tools',
      })
    } else held.push(seen === undefined ? `${label} (from its docs, not lab-verified)` : label)
  }
  if (held.length > 0) lines.unshift({ status: 'ok', what: `${gate}: read in ${held.join(', ')}` })
  return lines
}
