/**
 * Reasonix's dialect (src/agents/reasonix.ts) and install target, from its Go hook runner
 * (esengine/DeepSeek-Reasonix internal/hook/hook.go, docs/DESKTOP_HOOKS.zh-CN.md) and the payloads
 * npm `reasonix` 1.38.11 sent in the agent lab: one camelCase JSON line, its answer the exit code.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { reasonix } from '../../src/agents/reasonix.ts'
import { mayBeAgentPayload } from '../../src/agents/hint.ts'
import { routedEvents } from '../../src/install/overlaps.ts'
import { homeAndProject, makeDecision, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

/** What 1.38.11 sent the lab's hooks (the session's id and folder replaced). */
const PRE_TOOL_USE = {
  event: 'PreToolUse',
  sessionId: '73792318161f2b9f67f18accb224f5a0',
  cwd: '/home/u/project',
  toolName: 'bash',
  toolArgs: { command: 'touch MADE' },
}
const FAILED = {
  event: 'PostToolUse',
  sessionId: '73792318161f2b9f67f18accb224f5a0',
  cwd: '/home/u/project',
  toolName: 'bash',
  toolArgs: { command: 'touch MADE' },
  error: 'shell sandbox requested but unavailable on this host',
}
const BLOCK = { decision: 'deny' as const, blocked: true, reason: 'not here', decidedBy: 'gate' }

describe('Reasonix', () => {
  test('its payload is told apart by `event` beside a camelCase sessionId, before the cheap look lets it pass', () => {
    expect(mayBeAgentPayload(PRE_TOOL_USE)).toBe(true)
    expect(resolveDialect(undefined, PRE_TOOL_USE)?.name).toBe('reasonix')
    // Crush's and Goose's `event` come with a snake_case session_id.
    expect(resolveDialect(undefined, { ...PRE_TOOL_USE, sessionId: undefined, session_id: 's' })?.name).not.toBe('reasonix')
    const prepared = prepareDialect(undefined, undefined, FAILED)
    expect(prepared?.event).toBe('PostToolUse')
    expect(prepared?.payload).toMatchObject({
      tool_input: { command: 'touch MADE' },
      tool_response: FAILED.error,
      session_id: FAILED.sessionId,
    })
  })

  test('a block on PreToolUse and UserPromptSubmit is exit 2 with the reason on stderr; after the fact it cannot be', () => {
    const pre = renderFor(reasonix, makeDecision(BLOCK), PRE_TOOL_USE, 'PreToolUse')
    expect([pre.exitCode, pre.stderr, pre.stdout, pre.warnings]).toEqual([2, 'not here\n', '', []])
    const prompt = renderFor(reasonix, makeDecision(BLOCK), { ...PRE_TOOL_USE, event: 'UserPromptSubmit' }, 'UserPromptSubmit')
    expect(prompt.exitCode).toBe(2)
    const post = renderFor(reasonix, makeDecision(BLOCK), FAILED, 'PostToolUse')
    expect(post.exitCode).toBe(0)
    expect(post.warnings).toEqual(['Reasonix cannot apply a block on PostToolUse; it already happened; the session goes on'])
    // An ask has no prompt of its own in Reasonix: a gate that wants a person blocks.
    const ask = renderFor(reasonix, makeDecision({ decision: 'ask', reason: 'look first', decidedBy: 'gate' }), PRE_TOOL_USE, 'PreToolUse')
    expect([ask.exitCode, ask.stderr]).toEqual([2, 'look first\n'])
  })

  test('a rewrite is refused out loud on PreToolUse: Reasonix would run the original input', () => {
    const rendered = renderFor(reasonix, makeDecision({ updatedInput: { command: 'ls' }, decidedBy: 'rewriter' }), PRE_TOOL_USE)
    expect(rendered.exitCode).toBe(2)
    expect(rendered.stderr).toContain("hook 'rewriter' rewrote this call, but Reasonix ignores a rewrite on PreToolUse")
  })

  test('context goes out as plain stdout on SessionStart and PreCompact only; PostLLMCall gets no stdout (it would replace the reasoning shown)', () => {
    const context = makeDecision({ additionalContext: ['on branch main'] })
    const start = renderFor(reasonix, context, { ...PRE_TOOL_USE, event: 'SessionStart' }, 'SessionStart')
    expect([start.stdout, start.warnings]).toEqual(['on branch main\n', []])
    expect(renderFor(reasonix, context, { ...PRE_TOOL_USE, event: 'PreCompact' }, 'PreCompact').stdout).toBe('on branch main\n')
    const llm = renderFor(reasonix, context, { ...PRE_TOOL_USE, event: 'PostLLMCall' }, 'PostLLMCall')
    expect([llm.stdout, llm.warnings]).toEqual(['', ['Reasonix cannot apply additionalContext on PostLLMCall; it was not sent']])
  })

  test('install --agent reasonix: flat entries in ~/.reasonix/settings.json (or $REASONIX_HOME) with a timeout in ms; uninstall removes them', () => {
    const where = homeAndProject(dirs)
    const file = join(where.home, '.reasonix', 'settings.json')
    const run = (remove: boolean) =>
      installAgents({ agents: ['reasonix'], scope: 'user', cwd: where.project, env: where.env, self: '/opt/hookrun/bin/hookrun' }, remove)
    expect(run(false).exitCode).toBe(0)
    const config = JSON.parse(readFileSync(file, 'utf8'))
    expect(config.hooks.PreToolUse).toEqual([
      { command: '/opt/hookrun/bin/hookrun fire --format reasonix', description: 'hookrun', timeout: 600000 },
    ])
    expect(routedEvents(file, 'reasonix').length).toBeGreaterThan(0)
    run(true)
    expect(routedEvents(file, 'reasonix')).toEqual([])

    const elsewhere = join(where.home, 'rx-home')
    installAgents(
      { agents: ['reasonix'], scope: 'user', cwd: where.project, env: { ...where.env, REASONIX_HOME: elsewhere }, self: 'hookrun' },
      false,
    )
    expect(routedEvents(join(elsewhere, 'settings.json'), 'reasonix').length).toBeGreaterThan(0)
  })

  test('install --project writes .reasonix/settings.json', () => {
    const where = homeAndProject(dirs)
    const result = installAgents({ agents: ['reasonix'], scope: 'project', cwd: where.project, env: where.env, self: 'hookrun' }, false)
    expect(result.exitCode).toBe(0)
    expect(routedEvents(join(where.project, '.reasonix', 'settings.json'), 'reasonix').length).toBeGreaterThan(0)
  })
})
