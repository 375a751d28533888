/**
 * Auggie's dialect (src/agents/auggie.ts) and install target, from @augmentcode/auggie 0.36.0's
 * bundled source: which payloads are Auggie's, the answer in the fields its hook runner reads, and
 * hookrun's router entries in .augment/settings*.json with a timeout in milliseconds.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { auggie } from '../../src/agents/auggie.ts'
import { canonicalTool } from '../../src/event/tools.ts'
import { routedEvents } from '../../src/install/overlaps.ts'
import { homeAndProject, makeDecision, removeProject, ROOT } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const fixture = (event: string) => JSON.parse(readFileSync(join(ROOT, 'test', 'agents', 'fixtures', 'auggie', `${event}.json`), 'utf8'))
const BLOCK = { decision: 'deny' as const, blocked: true, reason: 'not here', decidedBy: 'gate' }

describe('Auggie', () => {
  test("its payloads (conversation_id, workspace_roots) are Auggie's; Claude Code's and Cursor's are not", () => {
    for (const event of ['PreToolUse', 'PromptSubmit', 'Stop', 'SessionStart'])
      expect(resolveDialect(undefined, fixture(event))?.name).toBe('auggie')
    expect(prepareDialect('auggie', undefined, fixture('PromptSubmit'))?.event).toBe('PromptSubmit')
    expect(resolveDialect(undefined, { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: {} })?.name).toBe(
      'claude',
    )
    const cursor = { hook_event_name: 'preToolUse', conversation_id: 'c', workspace_roots: ['/p'], cursor_version: '3.1' }
    expect(resolveDialect(undefined, cursor)?.name).toBe('cursor')
  })

  test('its tool names have the subjects hookrun patterns use', () => {
    expect(canonicalTool('launch-process')).toBe('bash')
    expect(canonicalTool('save-file')).toBe('write')
    expect(canonicalTool('str-replace-editor')).toBe('edit')
    expect(canonicalTool('remove-files')).toBe('delete')
  })

  test('a block on PreToolUse is permissionDecision deny; on PostToolUse decision block; exit 0 both', () => {
    const pre = renderFor(auggie, makeDecision(BLOCK), fixture('PreToolUse'), 'PreToolUse')
    expect(JSON.parse(pre.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not here' },
    })
    expect([pre.exitCode, pre.warnings]).toEqual([0, []])
    const post = renderFor(auggie, makeDecision(BLOCK), fixture('PostToolUse'), 'PostToolUse')
    expect(JSON.parse(post.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', decision: 'block', reason: 'not here' } })
    expect(post.warnings).toEqual([])
  })

  test('a rewrite and context go where Auggie reads them; a PromptSubmit block is named as not applied', () => {
    const rewrite = renderFor(auggie, makeDecision({ updatedInput: { command: 'ls' } }), fixture('PreToolUse'), 'PreToolUse')
    expect(JSON.parse(rewrite.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls' } } })
    const start = renderFor(auggie, makeDecision({ additionalContext: ['ctx'] }), fixture('SessionStart'), 'SessionStart')
    expect(JSON.parse(start.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } })
    const prompt = renderFor(auggie, makeDecision(BLOCK), fixture('PromptSubmit'), 'PromptSubmit')
    expect(JSON.parse(prompt.stdout)).toEqual({})
    expect(prompt.warnings).toEqual(['Auggie cannot apply a block on PromptSubmit; the event proceeds'])
  })

  test('install --agent auggie: groups in ~/.augment/settings.json with a timeout in ms; uninstall gives the file back', () => {
    const where = homeAndProject(dirs)
    const file = join(where.home, '.augment', 'settings.json')
    mkdirSync(join(where.home, '.augment'), { recursive: true })
    const original = '{ "model": "sonnet" }\n'
    writeFileSync(file, original)
    const run = (remove: boolean) =>
      installAgents({ agents: ['auggie'], scope: 'user', cwd: where.project, env: where.env, self: '/opt/hookrun/bin/hookrun' }, remove)
    expect(run(false).exitCode).toBe(0)
    const config = JSON.parse(readFileSync(file, 'utf8'))
    expect(config.model).toBe('sonnet')
    expect(config.hooks.PromptSubmit).toEqual([
      { hooks: [{ type: 'command', command: '/opt/hookrun/bin/hookrun fire --format auggie', timeout: 600_000 }] },
    ])
    expect(config.hooks.UserPromptSubmit).toBeUndefined()
    expect(routedEvents(file, 'auggie').sort()).toEqual([
      'Notification',
      'PostToolUse',
      'PreToolUse',
      'PromptSubmit',
      'SessionEnd',
      'SessionStart',
      'Stop',
    ])
    run(true)
    expect(readFileSync(file, 'utf8')).toBe(original)
  })
})
