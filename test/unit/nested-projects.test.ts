// Nested projects (README "Which project"): each with its own trust, the enclosing one never hidden.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { trustProject } from '../../src/commands/trust.ts'
import { fire } from '../../src/fire.ts'
import { cliEnvironment, makeProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const longAgo = new Date(Date.now() - 3_600_000)
const payload = { tool_name: 'Bash', tool_input: { command: 'ls' } }

function write(file: string, content: string | object, mode?: number): void {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content), mode === undefined ? {} : { mode })
  utimesSync(file, longAgo, longAgo)
}

/** A folder that is also HOME, with a project `outer/` and a nested project `outer/inner/`. */
function nested() {
  const home = makeProject()
  dirs.push(home)
  const outer = join(home, 'outer')
  const inner = join(outer, 'inner')
  mkdirSync(inner, { recursive: true })
  return { home, outer, inner, env: cliEnvironment(home) }
}

const deny = (reason: string) => `echo '{"decision":"deny","reason":"${reason}"}'`

describe('nested projects', () => {
  test("an untrusted enclosing project (a .hookrun/ someone put above yours) adds nothing and takes nothing from the trusted one's gate", async () => {
    const { outer, inner, env } = nested()
    write(join(outer, '.hookrun/hooks.json'), {
      hooks: [
        { name: 'gate', event: 'tool:pre_execute', command: 'true' },
        { name: 'allow-all', event: '*', command: 'true' },
      ],
    })
    write(join(inner, '.hookrun/hooks.json'), { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: deny('inner says no') }] })
    await new Promise((done) => setTimeout(done, 150))
    trustProject({ cwd: inner, env })
    const decision = await fire({ event: 'tool:pre_execute', payload, cwd: inner, env })
    expect(decision).toMatchObject({ decision: 'deny', reason: 'inner says no' })
    expect(decision.warnings.join('\n')).toContain(`project hooks in ${outer} are not trusted`)
  })

  test("the enclosing project's hooks run in their own folder, with its project variables", async () => {
    const { outer, inner, env } = nested()
    write(join(outer, '.hookrun/hooks.json'), {
      hooks: [
        {
          name: 'where',
          event: 'tool:pre_execute',
          command: 'echo "{\\"decision\\":\\"deny\\",\\"reason\\":\\"$(pwd) $HOOKRUN_PROJECT_DIR $CLAUDE_PROJECT_DIR\\"}"',
        },
      ],
    })
    write(join(inner, '.hookrun/hooks.json'), { hooks: [] })
    await new Promise((done) => setTimeout(done, 150))
    trustProject({ cwd: outer, env })
    trustProject({ cwd: inner, env })
    const decision = await fire({ event: 'tool:pre_execute', payload, cwd: inner, env })
    expect(decision.reason).toBe(`${outer} ${outer} ${outer}`)
  })

  test("a trusted nested project cannot replace or switch off an enclosing project's hook by name; a warning says where to", async () => {
    const { outer, inner, env } = nested()
    write(join(outer, '.hookrun/hooks.json'), {
      hooks: [
        { name: 'gate', event: 'tool:pre_execute', command: deny('outer says no') },
        { name: 'other', event: 'tool:pre_execute', command: 'true' },
      ],
    })
    write(join(inner, '.hookrun/hooks.json'), {
      hooks: [
        { name: 'gate', enabled: false },
        { name: 'other', event: 'tool:pre_execute', command: deny('replaced') },
      ],
    })
    await new Promise((done) => setTimeout(done, 150))
    trustProject({ cwd: outer, env })
    trustProject({ cwd: inner, env })
    const decision = await fire({ event: 'tool:pre_execute', payload, cwd: inner, env })
    expect(decision).toMatchObject({ decision: 'deny', reason: 'outer says no' })
    expect(decision.hooks.map((hook) => hook.name)).toEqual(['gate'])
    expect(decision.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          `cannot switch off 'gate': it belongs to the enclosing project ${outer} (hooks[0]), which a nested project only adds to; switch it off in ${outer}/.hookrun/hooks.local.json`,
        ),
        expect.stringContaining(`cannot replace 'other'`),
      ]),
    )
  })

  test("an enclosing project's hook folder cannot run from a nested project: a gate event blocks and says so; other events proceed", async () => {
    const { outer, inner, env } = nested()
    write(
      join(outer, '.hookrun/hooks/gate'),
      '#!/bin/sh\ncase "$1" in hook) echo tool:pre_execute ;; run) cat >/dev/null; exit 2 ;; esac\n',
      0o755,
    )
    write(join(inner, '.hookrun/hooks.json'), {})
    await new Promise((done) => setTimeout(done, 150))
    trustProject({ cwd: outer, env })
    expect(await fire({ event: 'tool:pre_execute', payload, cwd: outer, env })).toMatchObject({ decision: 'deny' })
    const blocked = await fire({ event: 'tool:pre_execute', payload, cwd: inner, env })
    expect(blocked).toMatchObject({ decision: 'deny', decidedBy: 'hookrun' })
    expect(blocked.reason).toContain(`do not run from the nested project ${inner}`)
    expect((await fire({ event: 'session:start', payload: {}, cwd: inner, env })).decision).toBe('allow')
  })
})
