import { utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { usesGlobs } from '../../src/event/pattern.ts'
import { selectionUsesGlobs } from '../../src/select/select.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { cliEnvironment, makeHook, makeProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

describe('picomatch loads only when a glob is matched', () => {
  test.each([
    ['tool:pre_execute', false],
    ['tool:*', false],
    ['*', false],
    ['tool:*:write', false],
    ['tool:pre_execute:bash|write', false],
    ['session:start,session:end', false],
    ['PreToolUse:Bash', false],
    ['tool:pre_*', true],
    ['tool:pre_execute:web*', true],
    ['tool:pre_execute:{bash,write}', true],
    ['tool:pre_execute:b?sh', true],
    ['tool:*,session:st*', true],
  ])('%s: %s', (pattern, expected) => {
    expect(usesGlobs(pattern)).toBe(expected)
  })

  test('a Claude `if` rule is matched with picomatch', () => {
    const event = qualifyEvent('tool:pre_execute', { tool_name: 'Bash' })
    expect(selectionUsesGlobs([makeHook({ event: ['tool:pre_execute'] })], event)).toBe(false)
    expect(selectionUsesGlobs([makeHook({ event: ['tool:pre_execute'], when: 'Bash(git *)' })], event)).toBe(true)
    // Only hooks selection would look at for this event: a glob on another event loads nothing.
    expect(selectionUsesGlobs([makeHook({ event: ['session:st*'], eventKeys: ['session:*'] })], event)).toBe(false)
  })

  /**
   * Fire twice, each time in fresh module instances (test/setup.ts loaded picomatch for the other
   * tests): the first reads the config (that stage loads picomatch) and plans the event; the second
   * reads the plan, as most fires do. Whether the second loaded picomatch, and what ran.
   */
  async function firedFromPlan(event: string, when?: string) {
    const dir = makeProject({
      'user/hookrun/hooks.json': { hooks: [{ name: 'h', event, command: 'echo ran >&2', ...(when && { if: when }) }] },
    })
    dirs.push(dir)
    utimesSync(join(dir, 'user/hookrun/hooks.json'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
    const env = cliEnvironment(dir, { XDG_CONFIG_HOME: join(dir, 'user') })
    const fireOnce = async () => {
      vi.resetModules()
      const { fire } = await import('../../src/fire.ts')
      return fire({ event: 'tool:pre_execute', payload: { tool_name: 'WebFetch', tool_input: { command: 'git status' } }, cwd: dir, env })
    }
    await fireOnce()
    const decision = await fireOnce()
    const globs = await import('../../src/event/globs.ts')
    let loaded = true
    try {
      globs.compileGlob('x*', {})
    } catch {
      loaded = false
    }
    return { ran: decision.hooks.map((hook) => hook.name), loaded }
  }

  test('a fire from a plan whose hooks have plain patterns leaves it unloaded', async () => {
    expect(await firedFromPlan('tool:pre_execute')).toEqual({ ran: ['h'], loaded: false })
  })

  test('a fire from a plan whose hook pattern is a glob leaves it unloaded: the plan matched the pattern already', async () => {
    expect(await firedFromPlan('tool:pre_execute:web*')).toEqual({ ran: ['h'], loaded: false })
  })

  test('a fire from a plan whose hook has a glob if rule loads it and matches (filters run on every fire)', async () => {
    expect(await firedFromPlan('tool:pre_execute', 'WebFetch(*)')).toEqual({ ran: ['h'], loaded: true })
  })
})
