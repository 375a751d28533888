/**
 * Mistral Vibe's dialect (src/dialects/vibe.ts) and its install (`[[hooks]]` in .vibe/hooks.toml),
 * from its 2.18.4 source.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { renderFor, resolveDialect } from '../../src/dialects/index.ts'
import { vibe } from '../../src/dialects/vibe.ts'
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

  test("install: [[hooks]] tables in the project's .vibe/hooks.toml, strict on tool hooks, named uniquely; uninstall gives the file back", () => {
    const where = homeAndProject(dirs)
    const file = join(where.project, '.vibe', 'hooks.toml')
    const run = (remove = false) =>
      installAgents({ agents: ['vibe'], scope: 'project', cwd: where.project, env: where.env, self: '/opt/hookrun' }, remove)
    expect(run().exitCode).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(
      [
        '[[hooks]]',
        'name = "hookrun-before_tool"',
        'type = "before_tool"',
        'command = "hookrun fire --format vibe"',
        'timeout = 600',
        'strict = true',
        '',
        '[[hooks]]',
        'name = "hookrun-after_tool"',
        'type = "after_tool"',
        'command = "hookrun fire --format vibe"',
        'timeout = 600',
        'strict = true',
        '',
        '[[hooks]]',
        'name = "hookrun-post_agent_turn"',
        'type = "post_agent_turn"',
        'command = "hookrun fire --format vibe"',
        'timeout = 600',
        '',
      ].join('\n'),
    )
    expect(routedEvents(file, 'vibe').sort()).toEqual(['after_tool', 'before_tool', 'post_agent_turn'])
    expect(run(true).exitCode).toBe(0)
  })
})
