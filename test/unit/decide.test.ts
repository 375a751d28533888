import { makeHook } from '../helpers.ts'
import { describe, expect, test } from 'vitest'
import type { CommandRun, Hook } from '../../src/core/types.ts'
import { decide } from '../../src/answer/decide.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { interpretCommandRun as interpretRun } from '../../src/answer/parse.ts'

const hook = (over: Partial<Hook> = {}) => makeHook({ command: 'x', ...over })
const run = (over: Partial<CommandRun> = {}): CommandRun => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  stdout: '',
  stderr: '',
  truncated: { stdout: false, stderr: false },
  durationMs: 1,
  ...over,
})
const pre = qualifyEvent('tool:pre_execute', { tool_name: 'Bash' })
const post = qualifyEvent('tool:post_execute', {})
const start = qualifyEvent('session:start', {})

describe('interpretRun', () => {
  test('exit 0 with no output allows', () => {
    expect(interpretRun(hook(), pre, run(), {})).toMatchObject({ blocks: false, decision: undefined, report: { outcome: 'allow' } })
  })
  test('exit 2 blocks with stderr as the reason, or the JSON reason', () => {
    expect(interpretRun(hook(), pre, run({ exitCode: 2, stderr: 'no\n' }), {})).toMatchObject({
      blocks: true,
      decision: 'deny',
      reason: 'no',
    })
    expect(interpretRun(hook(), pre, run({ exitCode: 2, stderr: 'x', stdout: '{"reason":"json says"}' }), {}).reason).toBe('json says')
  })
  test('failures block on gates and warn elsewhere; onError overrides', () => {
    expect(interpretRun(hook(), pre, run({ exitCode: 1 }), {})).toMatchObject({ blocks: true, report: { outcome: 'error' } })
    expect(interpretRun(hook(), post, run({ exitCode: 1 }), {})).toMatchObject({
      blocks: false,
      warnings: ["hook 'h' failed with exit 1; the event proceeds (onError: allow)"],
    })
    expect(interpretRun(hook({ onError: 'allow' }), pre, run({ exitCode: 1 }), {}).blocks).toBe(false)
    expect(interpretRun(hook({ onError: 'block' }), post, run({ exitCode: 1 }), {}).blocks).toBe(true)
    expect(interpretRun(hook({ blocking: false }), pre, run({ exitCode: 1 }), {}).blocks).toBe(false)
  })
  test('timeouts, signals and spawn errors are failures with their own words', () => {
    expect(interpretRun(hook({ timeout: 3 }), pre, run({ exitCode: null, timedOut: true }), {}).reason).toBe(
      "hook 'h' timed out after 3s and was killed",
    )
    expect(interpretRun(hook(), pre, run({ exitCode: null, signal: 'SIGSEGV' }), {}).reason).toBe("hook 'h' was killed by SIGSEGV")
    expect(interpretRun(hook(), pre, run({ exitCode: null, spawnError: 'cannot start: x' }), {}).reason).toBe("hook 'h' cannot start: x")
    expect(interpretRun(hook(), pre, run({ exitCode: 126 }), {}).reason).toMatch(/not executable/)
  })
  test('JSON answers: synonyms, Claude form, defer', () => {
    expect(interpretRun(hook(), pre, run({ stdout: '{"decision":"block","reason":"r"}' }), {})).toMatchObject({
      decision: 'deny',
      blocks: true,
      reason: 'r',
    })
    expect(interpretRun(hook(), pre, run({ stdout: '{"decision":"approve"}' }), {}).decision).toBe('allow')
    expect(
      interpretRun(
        hook(),
        pre,
        run({ stdout: '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}' }),
        {},
      ),
    ).toMatchObject({ decision: 'ask', reason: 'sure?', blocks: false })
    expect(interpretRun(hook(), pre, run({ stdout: '{"hookSpecificOutput":{"permissionDecision":"defer"}}' }), {}).decision).toBeUndefined()
  })
  test("an answer whose forms disagree gets the strictest, with that form's reason (found by the no-fail-open property)", () => {
    const both = (top: string, nested: string) =>
      run({
        stdout: `{"decision":"${top}","reason":"top","hookSpecificOutput":{"permissionDecision":"${nested}","permissionDecisionReason":"nested"}}`,
      })
    expect(interpretRun(hook(), pre, both('allow', 'deny'), {})).toMatchObject({ decision: 'deny', blocks: true, reason: 'nested' })
    expect(interpretRun(hook(), pre, both('deny', 'allow'), {})).toMatchObject({ decision: 'deny', blocks: true, reason: 'top' })
    expect(interpretRun(hook(), pre, both('allow', 'ask'), {})).toMatchObject({ decision: 'ask', reason: 'nested' })
    expect(interpretRun(hook(), pre, both('ask', 'defer'), {})).toMatchObject({ decision: 'ask', reason: 'top' })
    const behavior = run({ stdout: '{"hookSpecificOutput":{"permissionDecision":"allow","decision":{"behavior":"deny","message":"m"}}}' })
    expect(interpretRun(hook(), pre, behavior, {})).toMatchObject({ decision: 'deny', blocks: true, reason: 'm' })
    // The outvoted allow's reason is not the deny's; a reason given beside no decision is.
    const silent = interpretRun(
      hook(),
      pre,
      run({ stdout: '{"decision":"allow","reason":"safe","hookSpecificOutput":{"permissionDecision":"deny"}}' }),
      {},
    )
    expect(silent).toMatchObject({ decision: 'deny', blocks: true })
    expect(silent.reason).toBeUndefined()
    expect(
      interpretRun(hook(), pre, run({ stdout: '{"reason":"why","hookSpecificOutput":{"permissionDecision":"deny"}}' }), {}).reason,
    ).toBe('why')
    expect(
      interpretRun(hook(), pre, run({ stdout: '{"hookSpecificOutput":{"permissionDecision":"defer","permissionDecisionReason":"r"}}' }), {})
        .reason,
    ).toBe('r')
  })
  test('text that starts with { but is not JSON is a warning, and read as text', () => {
    const result = interpretRun(hook(), start, run({ stdout: '{ not json' }), {})
    expect(result.warnings[0]).toMatch(/not JSON/)
    expect(result.context).toEqual(['{ not json'])
  })
  test('plain stdout is context only on session:start and user:prompt_submit', () => {
    expect(interpretRun(hook(), start, run({ stdout: 'hello\n' }), {}).context).toEqual(['hello'])
    expect(interpretRun(hook(), pre, run({ stdout: 'hello\n' }), {}).context).toEqual([])
  })
})

describe('decide', () => {
  const result = (stdout: string, name = 'h') => interpretRun(hook({ name }), pre, run({ stdout }), {})
  test('deny beats ask beats allow, with the strongest reason', () => {
    const decision = decide(
      pre,
      [
        result('{"decision":"allow","reason":"fine"}'),
        result('{"decision":"ask","reason":"check"}'),
        result('{"decision":"deny","reason":"no"}'),
      ],
      {},
      [],
    )
    expect(decision).toMatchObject({ decision: 'deny', blocked: true, reason: 'no' })
    expect(decide(pre, [result('{"decision":"ask","reason":"a"}'), result('{"decision":"ask","reason":"b"}')], {}, []).reason).toBe('a')
  })
  test('an explicit allow keeps its reason and names its hook; no hooks is an allow without decidedBy', () => {
    expect(decide(pre, [result('{"decision":"allow","reason":"fine"}', 'ok-hook')], {}, [])).toMatchObject({
      decision: 'allow',
      reason: 'fine',
      decidedBy: 'ok-hook',
    })
    expect(decide(pre, [], {}, ['w'])).toEqual({
      event: 'tool:pre_execute:bash',
      decision: 'allow',
      blocked: false,
      continue: true,
      additionalContext: [],
      hooks: [],
      warnings: ['w'],
    })
  })
  test('continue:false, messages, context and rewrites are carried', () => {
    const decision = decide(
      pre,
      [
        result('{"continue":false,"stopReason":"s","systemMessage":"m1","additionalContext":"c1"}'),
        result('{"systemMessage":"m2","additionalContext":"c2","suppressOutput":true}'),
      ],
      { updatedInput: { a: 1 } },
      [],
    )
    expect(decision).toMatchObject({
      continue: false,
      stopReason: 's',
      systemMessage: 'm1\nm2',
      additionalContext: ['c1', 'c2'],
      updatedInput: { a: 1 },
      suppressOutput: true,
    })
  })
})
