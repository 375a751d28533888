import { makeDecision } from '../helpers.ts'
import { describe, expect, test } from 'vitest'
import { claude } from '../../src/agents/claude.ts'
import { resolveDialect } from '../../src/dialect.ts'
import type { Decision } from '../../src/core/protocol.ts'

const decision = makeDecision
const render = (event: string, over: Partial<Decision>) => {
  const out = claude.render(decision(over), { hook_event_name: event })
  return { json: JSON.parse(out.stdout), exitCode: out.exitCode, warnings: out.warnings }
}

describe('Claude Code dialect', () => {
  test('detects Claude payloads only by a Claude event name', () => {
    expect(resolveDialect(undefined, { hook_event_name: 'PreToolUse' })?.name).toBe('claude')
    expect(resolveDialect(undefined, { hook_event_name: 'tool:pre_execute' })).toBeUndefined()
    expect(resolveDialect('hookrun', { hook_event_name: 'PreToolUse' })).toBeUndefined()
  })
  test('PreToolUse: permissionDecision only when a hook decided; rewrites and context', () => {
    expect(render('PreToolUse', {}).json).toEqual({})
    expect(
      render('PreToolUse', {
        decision: 'deny',
        blocked: true,
        reason: 'no',
        decidedBy: 'g',
        updatedInput: { command: 'ls' },
        additionalContext: ['a', 'b'],
      }),
    ).toEqual({
      json: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'no',
          updatedInput: { command: 'ls' },
          additionalContext: 'a\n\nb',
        },
      },
      exitCode: 0,
      warnings: [],
    })
  })
  test('PermissionRequest uses decision.behavior', () => {
    expect(render('PermissionRequest', { decision: 'deny', blocked: true, reason: 'r', decidedBy: 'g' }).json).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'r' } },
    })
  })
  test('Stop and PostToolUse use top-level decision: block', () => {
    expect(render('Stop', { decision: 'deny', blocked: true, reason: 'keep going', decidedBy: 'g' }).json).toEqual({
      decision: 'block',
      reason: 'keep going',
    })
    expect(render('PostToolUse', { decision: 'deny', blocked: true, reason: 'lint failed', decidedBy: 'g' }).json).toEqual({
      decision: 'block',
      reason: 'lint failed',
    })
  })
  test('continue, stopReason, systemMessage, suppressOutput are universal', () => {
    expect(render('SessionEnd', { continue: false, stopReason: 's', systemMessage: 'm', suppressOutput: true }).json).toEqual({
      continue: false,
      stopReason: 's',
      systemMessage: 'm',
      suppressOutput: true,
    })
  })
  test('what Claude cannot apply is a warning, not silence', () => {
    expect(render('UserPromptSubmit', { updatedPrompt: 'x' }).warnings).toEqual([
      'Claude Code cannot apply updatedPrompt (Claude Code cannot rewrite a prompt) on UserPromptSubmit; it was not sent',
    ])
    expect(render('Notification', { additionalContext: ['c'] }).warnings).toEqual([
      'Claude Code cannot apply additionalContext on Notification; it was not sent',
    ])
    expect(render('SessionEnd', { decision: 'deny', blocked: true, reason: 'no' })).toMatchObject({
      json: { systemMessage: 'no' },
      warnings: ['a block cannot stop SessionEnd in Claude Code; reported as a system message'],
    })
  })
})

describe('Claude Code dialect: rewrites and asks it cannot take', () => {
  test('updatedInput with no decision is sent, with a warning that Claude may ignore it', () => {
    const out = claude.render(makeDecision({ updatedInput: { command: 'ls' } }), { hook_event_name: 'PreToolUse' })
    expect(JSON.parse(out.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls' } } })
    expect(out.warnings[0]).toMatch(/only with an allow or ask decision/)
  })
  test("PermissionRequest: a hook's ask is not dropped silently", () => {
    const out = claude.render(makeDecision({ decision: 'ask', decidedBy: 'h', reason: 'r' }), { hook_event_name: 'PermissionRequest' })
    expect(JSON.parse(out.stdout)).toEqual({})
    expect(out.warnings).toEqual([
      "Claude Code cannot apply decision 'ask' (the permission dialog is shown as usual) on PermissionRequest; it was not sent",
    ])
  })
})
