import { describe, expect, test } from 'vitest'
import { parseAnswer } from '../../src/answer/parse.ts'

// Answers written for another agent are read as the protocol's fields wherever the hook runs
// (agent-hook-protocols.md §6.3, §6.4, §9.2, §9.4): a gate written for Cursor or Copilot denies.
const read = (answer: unknown) => parseAnswer(JSON.stringify(answer)).answer

describe('answers written for another agent', () => {
  test('Cursor: permission with agentMessage as the reason and userMessage for the user', () => {
    expect(read({ permission: 'deny', userMessage: 'Blocked', agentMessage: 'use trash' })).toMatchObject({
      decision: 'deny',
      reason: 'use trash',
      systemMessage: 'Blocked',
    })
    expect(read({ permission: 'ask', user_message: 'confirm?' })).toMatchObject({ decision: 'ask', reason: 'confirm?' })
    expect(read({ followup_message: 'run the tests' })).toMatchObject({ decision: 'deny', reason: 'run the tests' })
    expect(read({ additional_context: 'ctx', updated_input: { command: 'ls' } })).toMatchObject({
      additionalContext: 'ctx',
      updatedInput: { command: 'ls' },
    })
  })
  test('Copilot: top-level permissionDecision, modifiedArgs, and behavior with message and interrupt', () => {
    expect(read({ permissionDecision: 'deny', permissionDecisionReason: 'no', modifiedArgs: { a: 1 } })).toMatchObject({
      decision: 'deny',
      reason: 'no',
      updatedInput: { a: 1 },
    })
    expect(read({ behavior: 'deny', message: 'not now', interrupt: true })).toMatchObject({
      decision: 'deny',
      reason: 'not now',
      continue: false,
    })
  })
  test('Crush: halt blocks and ends the turn with its reason; context is a string or strings (issue 27 §4.4)', () => {
    expect(read({ halt: true, reason: 'stop everything' })).toMatchObject({
      decision: 'deny',
      reason: 'stop everything',
      continue: false,
      stopReason: 'stop everything',
    })
    expect(read({ version: 1, decision: 'allow', halt: true, reason: 'no' })).toMatchObject({ decision: 'deny', continue: false })
    expect(read({ halt: false, context: 'remember gofumpt' })).toMatchObject({ additionalContext: 'remember gofumpt' })
    expect(read({ halt: false })?.continue).toBeUndefined()
    expect(read({ context: ['one', '', 'two'] })?.additionalContext).toBe('one\n\ntwo')
    expect(read({ context: { not: 'crush' } })?.additionalContext).toBeUndefined()
  })
  test('a message without behavior is not a reason, and the protocol’s own fields win', () => {
    expect(read({ message: 'hello' })?.reason).toBeUndefined()
    expect(read({ reason: 'mine', agentMessage: 'theirs' })?.reason).toBe('mine')
    expect(read({ decision: 'deny', permission: 'allow' })?.decision).toBe('deny')
  })
  test('except a decision: the strictest of all the forms counts, so a deny anywhere is never outvoted', () => {
    expect(read({ decision: 'allow', permission: 'deny' })?.decision).toBe('deny')
    expect(read({ decision: 'approve', permissionDecision: 'ask' })?.decision).toBe('ask')
    expect(read({ permission: 'allow', behavior: 'deny' })?.decision).toBe('deny')
    expect(read({ decision: 'allow', followup_message: 'go on' })?.decision).toBe('deny')
  })
  test('with the reason that goes with the decision that counts, not the outvoted one', () => {
    expect(read({ permission: 'allow', agentMessage: 'ok', permissionDecision: 'deny', permissionDecisionReason: 'rm -rf' })).toMatchObject(
      { decision: 'deny', reason: 'rm -rf' },
    )
    expect(read({ decision: 'allow', reason: 'fine', permission: 'deny', agentMessage: 'dangerous' })).toMatchObject({
      decision: 'deny',
      reason: 'dangerous',
    })
    expect(read({ decision: 'allow', reason: 'fine', permission: 'deny', userMessage: 'not here' })).toMatchObject({
      decision: 'deny',
      reason: 'not here',
    })
    expect(read({ decision: 'allow', reason: 'fine', behavior: 'deny' })?.reason).toBeUndefined()
    expect(read({ decision: 'deny', reason: 'mine', permission: 'allow', agentMessage: 'theirs' })).toMatchObject({
      decision: 'deny',
      reason: 'mine',
    })
  })
  test('a decision that is no decision, in any form, makes the answer not fit (a gate blocks), whatever the others say', () => {
    for (const answer of [
      { decision: 'DENY', permission: 'allow' },
      { permission: 'DENY', permissionDecision: 'allow' },
      { decision: 'allow', permission: 'nope' },
      { decision: null, behavior: 'allow' },
      { decision: 'nope', permission: 'deny' },
    ]) {
      expect(parseAnswer(JSON.stringify(answer)).invalid, JSON.stringify(answer)).toMatch(/^decision:/)
    }
  })
  test('a value the agent would not take does not fit: a gate with a typo fails closed', () => {
    expect(parseAnswer('{"permission":"maybe"}').invalid).toMatch(/^decision:/)
  })
})
