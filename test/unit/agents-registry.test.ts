/**
 * The registry (src/agents/registry.ts): every agent one module, and what the rest of hookrun
 * derives from it agrees with what each module says.
 */
import { describe, expect, it } from 'vitest'
import { AGENTS, DIALECTS, agentNamed } from '../../src/agents/registry.ts'
import { eventAliases, aliasFor, eventPattern, namesOf } from '../../src/event/events.ts'
import { canonicalTool } from '../../src/event/tools.ts'
import { TOOL_ALIASES } from '../../src/event/tool-aliases.ts'

const meaning = (value: string | { event: string; subject: string }) =>
  typeof value === 'string' ? value : `${value.event}:${value.subject}`

describe('the agent registry', () => {
  it('has one module per name, and every dialect is an agent of the registry, in detection order', () => {
    const names = AGENTS.map((agent) => agent.name)
    expect(new Set(names).size).toBe(names.length)
    const withDialect = AGENTS.flatMap((agent) => (agent.dialect === undefined ? [] : [agent.dialect]))
    expect(new Set(DIALECTS)).toEqual(new Set(withDialect))
    for (const dialect of DIALECTS) expect(agentNamed(dialect.name)?.dialect).toBe(dialect)
  })

  it('reads each agent event as the agent module says, whatever other agents call their events', () => {
    for (const agent of AGENTS) {
      for (const [name, value] of Object.entries(agent.events ?? {})) {
        expect(eventPattern(name), `${agent.name}'s ${name}`).toBe(meaning(value))
        expect(namesOf(agent.name).has(name)).toBe(true)
        expect(eventAliases().find((row) => row.alias === name)?.from).toContain(agent.name)
      }
    }
  })

  it("answers as the first of an agent's names for an event (Cursor's preToolUse, not beforeShellExecution)", () => {
    expect(aliasFor('tool:pre_execute', 'cursor')).toBe('preToolUse')
    expect(aliasFor('session:start', 'cline')).toBe('TaskStart')
    for (const agent of AGENTS) {
      const first = new Map<string, string>()
      for (const [name, value] of Object.entries(agent.events ?? {})) {
        const event = typeof value === 'string' ? value : value.event
        if (!first.has(event)) first.set(event, name)
      }
      for (const [event, name] of first) expect(aliasFor(event, agent.name)).toBe(name)
    }
  })

  it('reads each agent tool name as the agent module says', () => {
    for (const agent of AGENTS) {
      for (const [name, subject] of Object.entries(agent.tools ?? {})) {
        expect(canonicalTool(name), `${agent.name}'s ${name}`).toBe(subject)
        expect(TOOL_ALIASES.find((row) => row.name === name)?.from).toContain(agent.name)
      }
    }
  })
})
