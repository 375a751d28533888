/**
 * Letta Code's dialect (src/agents/letta.ts) and install target, from letta-ai/letta-code
 * 0.30.29's source: its own payload (`event_type`, `working_directory`), answers by exit code and
 * stderr, PermissionRequest's exit 0 that allows, and router entries with a timeout in ms.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { mayBeAgentPayload } from '../../src/agents/hint.ts'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { letta } from '../../src/agents/letta.ts'
import { routedEvents } from '../../src/install/overlaps.ts'
import { homeAndProject, makeDecision, removeProject, ROOT } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const fixture = (event: string) => JSON.parse(readFileSync(join(ROOT, 'test', 'agents', 'fixtures', 'letta', `${event}.json`), 'utf8'))
const BLOCK = { decision: 'deny' as const, blocked: true, reason: 'not here', decidedBy: 'gate' }

describe('Letta Code', () => {
  test("a payload with event_type and working_directory is Letta Code's, and the cheap guess lets it through", () => {
    expect(mayBeAgentPayload(fixture('PreToolUse'))).toBe(true)
    expect(resolveDialect(undefined, fixture('PreToolUse'))?.name).toBe('letta')
    expect(resolveDialect(undefined, fixture('SessionStart'))?.name).toBe('letta')
    expect(prepareDialect('letta', undefined, fixture('PermissionRequest'))?.event).toBe('PermissionRequest')
    expect(resolveDialect(undefined, { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: {} })?.name).toBe(
      'claude',
    )
  })

  test('a block is exit 2 with the reason on stderr (Letta reads no JSON decision), where Letta acts on one', () => {
    for (const event of ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PostToolUse']) {
      const rendered = renderFor(letta, makeDecision(BLOCK), fixture(event), event)
      expect([rendered.exitCode, rendered.stdout, rendered.stderr, rendered.warnings]).toEqual([2, '', 'not here\n', []])
    }
    const end = renderFor(letta, makeDecision(BLOCK), fixture('SessionEnd'), 'SessionEnd')
    expect([end.exitCode, end.warnings]).toEqual([0, ['Letta Code cannot apply a block on SessionEnd; the event proceeds']])
  })

  test('PermissionRequest: exit 0 (which Letta takes as allow) only for an allow; no decision stands aside with exit 1', () => {
    expect(renderFor(letta, makeDecision({}), fixture('PermissionRequest'), 'PermissionRequest').exitCode).toBe(1)
    const allow = makeDecision({ decision: 'allow', decidedBy: 'ok' })
    expect(renderFor(letta, allow, fixture('PermissionRequest'), 'PermissionRequest').exitCode).toBe(0)
    expect(renderFor(letta, makeDecision({}), fixture('PreToolUse'), 'PreToolUse').exitCode).toBe(0)
  })

  test('a rewrite is hookSpecificOutput.updatedInput; context is plain text on UserPromptSubmit, JSON on PostToolUse', () => {
    const rewrite = renderFor(letta, makeDecision({ updatedInput: { command: 'ls' } }), fixture('PreToolUse'), 'PreToolUse')
    expect(JSON.parse(rewrite.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls' } } })
    const prompt = renderFor(letta, makeDecision({ additionalContext: ['use tabs'] }), fixture('UserPromptSubmit'), 'UserPromptSubmit')
    expect(prompt.stdout).toBe('use tabs\n')
    const post = renderFor(letta, makeDecision({ additionalContext: ['ctx'] }), fixture('PostToolUse'), 'PostToolUse')
    expect(JSON.parse(post.stdout)).toEqual({ additionalContext: 'ctx' })
    const message = renderFor(letta, makeDecision({ systemMessage: 'hi' }), fixture('Stop'), 'Stop')
    expect(message.warnings).toEqual(['Letta Code cannot apply systemMessage on Stop; it was not sent'])
  })

  test('install --agent letta: groups in ~/.letta/settings.json with a timeout in ms; uninstall removes them', () => {
    const where = homeAndProject(dirs)
    const file = join(where.home, '.letta', 'settings.json')
    const run = (remove: boolean) =>
      installAgents({ agents: ['letta'], scope: 'user', cwd: where.project, env: where.env, self: '/opt/hookrun/bin/hookrun' }, remove)
    expect(run(false).exitCode).toBe(0)
    const config = JSON.parse(readFileSync(file, 'utf8'))
    expect(config.hooks.PermissionRequest).toEqual([
      // No matcher: Letta's matchesTool takes an absent one as every tool.
      { hooks: [{ type: 'command', command: '/opt/hookrun/bin/hookrun fire --format letta', timeout: 600_000 }] },
    ])
    expect(routedEvents(file, 'letta')).toHaveLength(11)
    run(true)
    expect(routedEvents(file, 'letta')).toEqual([])
  })
})
