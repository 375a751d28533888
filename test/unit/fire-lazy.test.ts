// A fire answered from its plan does not go the long way through the config stage
// (src/fire-config.ts), and an event no hook matches does not reach the hook runner (src/chain.ts);
// src/fire.ts imports each right where it calls it, so neither is loaded then either.
import { mkdirSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { cliEnvironment, makeProject, removeProject } from '../helpers.ts'

const called = vi.hoisted(() => ({ config: 0, chain: 0, globs: 0 }))
vi.mock('../../src/fire-config.ts', async (original) => {
  const real = await original<typeof import('../../src/fire-config.ts')>()
  return {
    ...real,
    loadAndPlan: (...args: Parameters<typeof real.loadAndPlan>) => {
      called.config++
      return real.loadAndPlan(...args)
    },
  }
})
vi.mock('../../src/event/globs.ts', async (original) => {
  const real = await original<typeof import('../../src/event/globs.ts')>()
  return {
    ...real,
    loadGlobs: () => {
      called.globs++
      return real.loadGlobs()
    },
  }
})
vi.mock('../../src/chain.ts', async (original) => {
  const real = await original<typeof import('../../src/chain.ts')>()
  return {
    ...real,
    runChain: (...args: Parameters<typeof real.runChain>) => {
      called.chain++
      return real.runChain(...args)
    },
  }
})

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

/** A user config holding `hook`, settled so fires plan it; fires from a folder in no project, giving the names of the hooks that ran. */
async function userHooks(hook: Record<string, unknown>) {
  const dir = makeProject({ 'user/hookrun/hooks.json': { hooks: [hook] } })
  dirs.push(dir)
  const longAgo = new Date(Date.now() - 60_000)
  utimesSync(join(dir, 'user/hookrun/hooks.json'), longAgo, longAgo)
  mkdirSync(join(dir, 'work'))
  const env = cliEnvironment(dir, { XDG_CONFIG_HOME: join(dir, 'user') })
  const { fire } = await import('../../src/fire.ts')
  return async (event: string, payload: Record<string, unknown>) =>
    (await fire({ event, payload, cwd: join(dir, 'work'), env })).hooks.map((hook) => hook.name)
}

describe('what a fire loads', () => {
  test('from its plan, no config stage; the hook runner only for an event with hooks', async () => {
    const fireIn = await userHooks({ name: 'check', event: 'tool:pre_execute', command: 'true' })
    const fireBoth = async () => [await fireIn('session:start', {}), await fireIn('tool:pre_execute', { tool_name: 'Bash' })]
    // The first fires read the config and plan both events; only the second runs a hook.
    expect(await fireBoth()).toEqual([[], ['check']])
    expect(called).toMatchObject({ config: 2, chain: 1 })
    // The next fires are answered from their plans.
    expect(await fireBoth()).toEqual([[], ['check']])
    expect(called).toMatchObject({ config: 2, chain: 2 })
  })

  test("a glob pattern answered from the plan is not matched again: picomatch's loader is not called", async () => {
    const fireIn = await userHooks({ name: 'any-pre', event: 'tool:pre_*', command: 'true' })
    const fireOnce = () => fireIn('tool:pre_execute', { tool_name: 'Bash' })
    expect(await fireOnce()).toEqual(['any-pre'])
    const before = { ...called }
    expect(before.globs).toBeGreaterThan(0) // the config stage and the first selection matched the glob
    expect(await fireOnce()).toEqual(['any-pre'])
    expect(called.config).toBe(before.config) // from the plan
    expect(called.globs).toBe(before.globs)
  })

  test('where a notice would reach the person is asked only when a fire has one to give', async () => {
    const asked = { count: 0 }
    /** A fire's options whose notice channels count the times they are asked. */
    const firing = (cwd: string, env: Record<string, string>) => ({
      event: 'tool:pre_execute',
      payload: { tool_name: 'Bash', session_id: 's1' },
      cwd,
      env,
      get noticeChannels() {
        asked.count++
        return ['systemMessage' as const]
      },
    })
    const { fire } = await import('../../src/fire.ts')
    // A trusted user config and no project: nothing to tell, so the channels are never worked out.
    const trusted = makeProject({ 'user/hookrun/hooks.json': { hooks: [{ name: 'check', event: 'tool:pre_execute', command: 'true' }] } })
    dirs.push(trusted)
    mkdirSync(join(trusted, 'work'))
    const env = cliEnvironment(trusted, { XDG_CONFIG_HOME: join(trusted, 'user') })
    await fire(firing(join(trusted, 'work'), env))
    expect(asked.count).toBe(0)
    // A project whose hooks are not trusted: its notice goes where the channels say.
    const untrusted = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'true' }] } })
    dirs.push(untrusted)
    const decision = await fire(firing(untrusted, cliEnvironment(untrusted)))
    expect(asked.count).toBeGreaterThan(0)
    expect(decision.systemMessage).toContain(`hookrun trust ${untrusted}`)
  })
})
