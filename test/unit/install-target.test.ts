import { describe, expect, test } from 'vitest'
import { ROUTER_TIMEOUT_SECONDS } from '../../src/agents/install.ts'
import { AGENTS, INSTALLED } from '../../src/agents/registry.ts'
import { CHAIN_BUDGET_SECONDS } from '../../src/config/defaults.ts'

/** The agent modules' `install` targets (src/agents/install.ts) and the registry's list of them. */
describe('install targets in the agent modules', () => {
  test("the router's timeout stays above hookrun's budget for one fire (the agents layer cannot import it)", () => {
    expect(ROUTER_TIMEOUT_SECONDS).toBe(CHAIN_BUDGET_SECONDS + 60)
  })

  test('INSTALLED lists every agent with an install target, once', () => {
    const withTarget = AGENTS.filter((agent) => agent.install !== undefined).map((agent) => agent.name)
    expect([...INSTALLED.map((agent) => agent.name)].sort()).toEqual([...withTarget].sort())
  })
})
