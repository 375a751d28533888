/**
 * Mistral Vibe's dialect (src/agents/vibe.ts) and its install (`[[hooks]]` in .vibe/hooks.toml),
 * from its 2.18.4 source and its docs (2.21's event names).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { renderFor, resolveDialect } from '../../src/dialect.ts'
import { vibe } from '../../src/agents/vibe.ts'
import { resolveAlias } from '../../src/event/events.ts'
import { routedEvents } from '../../src/install/overlaps.ts'
import { homeAndProject, makeDecision, removeProject, ROOT } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const fixture = (event: string) => JSON.parse(readFileSync(join(ROOT, 'test', 'agents', 'fixtures', 'vibe', `${event}.json`), 'utf8'))
const BLOCK = { decision: 'deny' as const, blocked: true, reason: 'not here', decidedBy: 'gate' }
const answer = (event: string, over: Parameters<typeof makeDecision>[0]) => {
  const rendered = renderFor(vibe, makeDecision(over), fixture(event), event)
  return { json: JSON.parse(rendered.stdout), warnings: rendered.warnings, exitCode: rendered.exitCode }
}

describe('Mistral Vibe', () => {
  test('its three events are told by hook_event_name', () => {
    for (const event of ['before_tool', 'after_tool', 'post_agent_turn'])
      expect(resolveDialect(undefined, fixture(event))?.name).toBe('vibe')
  })

  test('a deny is decision deny with the reason on every event, exit 0; a rewrite on before_tool is tool_input', () => {
    for (const event of ['before_tool', 'after_tool', 'post_agent_turn'])
      expect(answer(event, BLOCK)).toEqual({ json: { decision: 'deny', reason: 'not here' }, warnings: [], exitCode: 0 })
    expect(answer('before_tool', { decision: 'allow', decidedBy: 'r', updatedInput: { command: 'ls -la' } }).json).toEqual({
      hook_specific_output: { tool_input: { command: 'ls -la' } },
    })
  })

  test('context is appended to a tool output (after_tool only); a message is system_message; the rest is named in a warning', () => {
    expect(answer('after_tool', { additionalContext: ['more'], systemMessage: 'shown' }).json).toEqual({
      system_message: 'shown',
      hook_specific_output: { additional_context: 'more' },
    })
    const before = answer('before_tool', { additionalContext: ['more'], decision: 'ask', decidedBy: 'h' })
    expect(before.json).toEqual({})
    expect(before.warnings).toEqual([
      "Mistral Vibe cannot apply decision 'ask' on before_tool; the call goes ahead",
      'Mistral Vibe cannot apply additionalContext on before_tool; it was not sent',
    ])
  })

  const tables = (names: readonly string[]) =>
    names
      .flatMap((name, index) => [
        '[[hooks]]',
        `name = "hookrun-${name}"`,
        `type = "${name}"`,
        'command = "hookrun fire --format vibe"',
        'timeout = 600',
        ...(index < 2 ? ['strict = true'] : []),
        '',
      ])
      .join('\n')

  test("install: [[hooks]] tables with Vibe 2.21's names in the project's .vibe/hooks.toml, strict on tool hooks, named uniquely; uninstall gives the file back", () => {
    const where = homeAndProject(dirs)
    const file = join(where.project, '.vibe', 'hooks.toml')
    const run = (remove = false) =>
      installAgents({ agents: ['vibe'], scope: 'project', cwd: where.project, env: where.env, self: '/opt/hookrun' }, remove)
    const installed = run()
    expect(installed.exitCode).toBe(0)
    expect(installed.output).toContain(
      'vibe: which version you have cannot be told (no vibe on PATH): writing the event names Vibe 2.21 reads',
    )
    expect(installed.output).toContain('hookrun install --agent vibe --agent-format legacy')
    expect(readFileSync(file, 'utf8')).toBe(tables(['pre_tool', 'post_tool', 'post_agent']))
    expect(routedEvents(file, 'vibe').sort()).toEqual(['post_agent', 'post_tool', 'pre_tool'])
    expect(run(true).exitCode).toBe(0)
  })

  test('install: a Vibe before 2.21 on PATH gets the old names; one upgraded gets the new ones in their place (2.21 refuses the old)', () => {
    const where = homeAndProject(dirs)
    const file = join(where.project, '.vibe', 'hooks.toml')
    const bin = join(where.project, 'bin')
    mkdirSync(bin, { recursive: true })
    const vibeSays = (version: string) => writeFileSync(join(bin, 'vibe'), `#!/bin/sh\necho "vibe ${version}"\n`, { mode: 0o755 })
    const env = { ...where.env, PATH: `${bin}:${where.env.PATH ?? ''}` }
    const run = () => installAgents({ agents: ['vibe'], scope: 'project', cwd: where.project, env, self: '/opt/hookrun' }, false)
    vibeSays('2.18.4')
    expect(run().output).toContain(`vibe: vibe 2.18.4 (${join(bin, 'vibe')}) reads the event names before 2.21`)
    expect(readFileSync(file, 'utf8')).toBe(tables(['before_tool', 'after_tool', 'post_agent_turn']))
    // A --sync keeps the shape installed, without asking Vibe.
    expect(installAgents({ agents: ['vibe'], scope: 'project', cwd: where.project, env: where.env, sync: true }, false).exitCode).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(tables(['before_tool', 'after_tool', 'post_agent_turn']))
    vibeSays('2.21.0')
    const upgraded = run()
    expect(upgraded.output).toContain("hookrun's before_tool, after_tool, post_agent_turn removed")
    expect(readFileSync(file, 'utf8')).toBe(tables(['pre_tool', 'post_tool', 'post_agent']))
    expect(() => installAgents({ agents: ['claude'], scope: 'project', cwd: where.project, env, agentFormat: 'legacy' }, false)).toThrow(
      '--agent-format is for agents whose hooks file changed between versions (kiro, vibe)',
    )
  })

  test('the names before and after 2.21 are one event each, read and answered alike', () => {
    for (const [old, current] of [
      ['before_tool', 'pre_tool'],
      ['after_tool', 'post_tool'],
      ['post_agent_turn', 'post_agent'],
    ] as const) {
      const payload = { ...fixture(old), hook_event_name: current }
      expect(resolveDialect(undefined, payload)?.name).toBe('vibe')
      expect(resolveAlias(current)).toBe(resolveAlias(old))
      const rendered = renderFor(vibe, makeDecision(BLOCK), payload, current)
      expect(JSON.parse(rendered.stdout)).toEqual(answer(old, BLOCK).json)
    }
    const rewrite = renderFor(
      vibe,
      makeDecision({ updatedInput: { command: 'ls -l' } }),
      { ...fixture('before_tool'), hook_event_name: 'pre_tool' },
      'pre_tool',
    )
    expect(JSON.parse(rewrite.stdout)).toEqual({ hook_specific_output: { tool_input: { command: 'ls -l' } } })
  })
})
