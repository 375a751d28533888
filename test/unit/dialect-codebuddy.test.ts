/**
 * Tencent CodeBuddy Code's dialect (src/agents/codebuddy.ts) and install target, from the CLI
 * bundled in @tencent-ai/agent-sdk 0.3.201 (`cli/`, 2.117.0): its hooks.md and codebuddy-headless.js.
 * Its payload is Claude Code's; only its transcript folder tells it apart.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { codebuddy } from '../../src/agents/codebuddy.ts'
import { routedEvents } from '../../src/install/overlaps.ts'
import { agentRows } from '../../src/commands/agents.ts'
import { homeAndProject, makeDecision, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

/** hooks.md "PreToolUse Input", as its docs show it. */
const PRE_TOOL_USE = {
  session_id: 'abc123',
  transcript_path: '/Users/u/.codebuddy/projects/p/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
  cwd: '/Users/u/p',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_input: { file_path: '/path/to/file.txt', content: 'file content' },
}
const STOP = { ...PRE_TOOL_USE, hook_event_name: 'Stop', stop_hook_active: true, tool_name: undefined, tool_input: undefined }
const BLOCK = { decision: 'deny' as const, blocked: true, reason: 'not yet', decidedBy: 'gate' }

describe('CodeBuddy Code', () => {
  test('a Claude Code event with a transcript under .codebuddy is CodeBuddy Code; without one it reads as Claude Code', () => {
    expect(resolveDialect(undefined, PRE_TOOL_USE)?.name).toBe('codebuddy')
    expect(resolveDialect(undefined, { ...PRE_TOOL_USE, transcript_path: 'C:\\Users\\u\\.codebuddy\\projects\\p\\s.jsonl' })?.name).toBe(
      'codebuddy',
    )
    expect(resolveDialect(undefined, { ...PRE_TOOL_USE, transcript_path: '/home/u/.claude/projects/p/s.jsonl' })?.name).toBe('claude')
    expect(resolveDialect(undefined, { ...PRE_TOOL_USE, transcript_path: undefined })?.name).toBe('claude')
    // --format codebuddy names it whatever the transcript.
    expect(prepareDialect('codebuddy', undefined, { ...PRE_TOOL_USE, transcript_path: '/tmp/s.jsonl' })?.event).toBe('PreToolUse')
  })

  test('a rewrite goes as modifiedInput and updatedInput, with no warning that it needs an allow', () => {
    const rendered = renderFor(codebuddy, makeDecision({ updatedInput: { content: 'x' } }), PRE_TOOL_USE, 'PreToolUse')
    expect(JSON.parse(rendered.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { content: 'x' }, modifiedInput: { content: 'x' } },
    })
    expect([rendered.exitCode, rendered.warnings]).toEqual([0, []])
  })

  test("Stop: a block is continue: false with the reason; hookrun's continue: false (stop the agent) is not sent", () => {
    const block = renderFor(codebuddy, makeDecision(BLOCK), STOP, 'Stop')
    expect(JSON.parse(block.stdout)).toEqual({ continue: false, reason: 'not yet' })
    const halt = renderFor(codebuddy, makeDecision({ continue: false, stopReason: 'done' }), STOP, 'Stop')
    expect(JSON.parse(halt.stdout)).toEqual({})
    expect(halt.warnings).toEqual(["CodeBuddy Code cannot apply continue: false on Stop; it reads it as 'keep working'; it was not sent"])
  })

  test('context is not read on PreToolUse (hookrun warns); it is on PostToolUse', () => {
    const pre = renderFor(codebuddy, makeDecision({ additionalContext: ['ctx'] }), PRE_TOOL_USE, 'PreToolUse')
    expect(pre.warnings.join('\n')).toContain('additionalContext')
    const post = renderFor(
      codebuddy,
      makeDecision({ additionalContext: ['ctx'] }),
      { ...PRE_TOOL_USE, hook_event_name: 'PostToolUse' },
      'PostToolUse',
    )
    expect(JSON.parse(post.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ctx' } })
    expect(post.warnings).toEqual([])
  })

  test('install --agent codebuddy: groups in ~/.codebuddy/settings.json with a timeout in seconds, not on WorktreeCreate; uninstall removes them', () => {
    const where = homeAndProject(dirs)
    const file = join(where.home, '.codebuddy', 'settings.json')
    const run = (remove: boolean) =>
      installAgents({ agents: ['codebuddy'], scope: 'user', cwd: where.project, env: where.env, self: '/opt/hookrun/bin/hookrun' }, remove)
    expect(run(false).exitCode).toBe(0)
    const config = JSON.parse(readFileSync(file, 'utf8'))
    expect(config.hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: '/opt/hookrun/bin/hookrun fire --format codebuddy', timeout: 600 }] },
    ])
    expect(config.hooks.WorktreeCreate).toBeUndefined()
    expect(routedEvents(file, 'codebuddy')).toHaveLength(26)
    run(true)
    expect(routedEvents(file, 'codebuddy')).toEqual([])
  })

  test('hookrun agents lists it, with its --format', () => {
    expect(agentRows().find((row) => row.agent === 'codebuddy')?.format).toBe('--format codebuddy')
  })

  test('install --project writes .codebuddy/settings.local.json', () => {
    const where = homeAndProject(dirs)
    const result = installAgents(
      { agents: ['codebuddy'], scope: 'project', cwd: where.project, env: where.env, self: '/opt/hookrun/bin/hookrun' },
      false,
    )
    expect(result.exitCode).toBe(0)
    expect(routedEvents(join(where.project, '.codebuddy', 'settings.local.json'), 'codebuddy').length).toBeGreaterThan(0)
  })
})
