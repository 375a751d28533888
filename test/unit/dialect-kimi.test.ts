/**
 * Kimi Code CLI's dialect (src/agents/kimi.ts), from its 1.49.0 source: which payloads are
 * Kimi's, and the answer in the only form Kimi reads (permissionDecision deny; exit code 0).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { kimi } from '../../src/agents/kimi.ts'
import { makeDecision, ROOT } from '../helpers.ts'

const fixture = (event: string) => JSON.parse(readFileSync(join(ROOT, 'test', 'agents', 'fixtures', 'kimi', `${event}.json`), 'utf8'))
const BLOCK = { decision: 'deny' as const, blocked: true, reason: 'not here', decidedBy: 'gate' }

describe('Kimi Code CLI', () => {
  test("a tool event about one of Kimi's own tools, with its tool_call_id, is Kimi's; Claude Code's payloads are not", () => {
    expect(resolveDialect(undefined, fixture('PreToolUse'))?.name).toBe('kimi')
    expect(resolveDialect(undefined, { ...fixture('PreToolUse'), tool_name: 'Bash' })?.name).toBe('claude')
    expect(resolveDialect(undefined, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: {} })?.name).toBe(
      'claude',
    )
    expect(prepareDialect('kimi', undefined, fixture('Stop'))?.event).toBe('Stop')
  })

  test('a block on PreToolUse, UserPromptSubmit and Stop is permissionDecision deny with the reason, exit 0', () => {
    for (const event of ['PreToolUse', 'UserPromptSubmit', 'Stop']) {
      const rendered = renderFor(kimi, makeDecision(BLOCK), fixture(event), event)
      expect(JSON.parse(rendered.stdout)).toEqual({
        hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: 'not here' },
      })
      expect(rendered.exitCode).toBe(0)
      expect(rendered.warnings).toEqual([])
    }
  })

  test('Kimi acts on no block elsewhere, and reads no context, message or ask: each is named in a warning', () => {
    const post = renderFor(kimi, makeDecision(BLOCK), fixture('PostToolUse'), 'PostToolUse')
    expect(JSON.parse(post.stdout)).toEqual({})
    expect(post.warnings).toEqual(['Kimi Code CLI cannot apply a block on PostToolUse; the event proceeds'])
    const rest = renderFor(
      kimi,
      makeDecision({ decision: 'ask', decidedBy: 'h', additionalContext: ['c'], systemMessage: 'm' }),
      fixture('PreToolUse'),
      'PreToolUse',
    )
    expect(rest.warnings).toEqual([
      "Kimi Code CLI cannot apply decision 'ask' on PreToolUse; the call goes ahead",
      'Kimi Code CLI cannot apply additionalContext on PreToolUse; it was not sent',
      'Kimi Code CLI cannot apply systemMessage on PreToolUse; it was not sent',
    ])
  })

  test('a rewrite on PreToolUse, which Kimi would ignore, refuses the call instead of running the original input', () => {
    const rendered = renderFor(
      kimi,
      makeDecision({ decision: 'allow', decidedBy: 'rewrite', updatedInput: { command: 'ls -la' } }),
      fixture('PreToolUse'),
      'PreToolUse',
    )
    const out = JSON.parse(rendered.stdout)
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny')
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain(
      "hook 'rewrite' rewrote this call, but Kimi Code CLI ignores a rewrite",
    )
  })
})
