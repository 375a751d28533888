/**
 * What a fire knows of every agent without loading their modules (src/agents/vocabulary.ts) is the
 * registry's, and a fire named by `--format` loads its agent's module and its callers' only.
 */
import { describe, expect, test, vi } from 'vitest'
import { vocabularyOf } from '../../src/agents/registry.ts'
import { VOCABULARY } from '../../src/agents/vocabulary.ts'
import { eventAliases, isNameOf, namesOf } from '../../src/event/events.ts'

describe('the agents a fire knows without loading them', () => {
  test('src/agents/vocabulary.json is what the registry says (run: npm run vocabulary)', () => {
    expect(VOCABULARY).toEqual(JSON.parse(JSON.stringify(vocabularyOf())))
  })

  test('a dialect tells its own event names as namesOf lists them, without building every row', () => {
    const names = eventAliases().map((row) => row.alias)
    for (const [agent] of VOCABULARY.agents)
      for (const name of [...names, 'pretooluse', 'nope']) expect(isNameOf(agent, name), `${agent} ${name}`).toBe(namesOf(agent).has(name))
  })

  test('every agent loads by its name; --format loads its agent and the agents that run its entries, no other', async () => {
    for (const [name] of VOCABULARY.agents) {
      vi.resetModules()
      // A fresh module graph without the registry, as a fire has.
      const loaded = await import('../../src/agents/loaded.ts')
      await loaded.loadAgentsFor(name)
      const agent = loaded.agentNamed(name)!
      expect(agent.name).toBe(name)
      for (const caller of agent.callers ?? []) expect(loaded.agentNamed(caller)?.name).toBe(caller)
      const other = VOCABULARY.agents.map(([each]) => each).find((each) => each !== name && !(agent.callers ?? []).includes(each))!
      expect(() => loaded.agentNamed(other)).toThrow(/before its module was loaded/)
    }
  })

  test('without a format every agent is loaded, in detection order', async () => {
    vi.resetModules()
    const loaded = await import('../../src/agents/loaded.ts')
    await loaded.loadAgentsFor(undefined)
    expect(loaded.dialectsInDetectionOrder().map((dialect) => dialect.name)).toEqual(VOCABULARY.formats)
    for (const [name] of VOCABULARY.agents) expect(loaded.agentNamed(name)?.name).toBe(name)
  })
})
