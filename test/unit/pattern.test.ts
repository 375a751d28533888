import { describe, expect, test } from 'vitest'
import { compilePattern, patternProblem } from '../../src/event/pattern.ts'

const seg = (qualified: string) => qualified.split(':')

describe('compilePattern', () => {
  test.each([
    ['tool:pre_execute', 'tool:pre_execute', true],
    ['tool:pre_execute', 'tool:pre_execute:bash', true],
    ['tool:pre_execute', 'tool:post_execute:bash', false],
    ['tool:*', 'tool:error', true],
    ['tool:*', 'tool:error:bash', true],
    ['tool:*', 'session:start', false],
    ['tool:pre_execute:bash', 'tool:pre_execute:bash', true],
    ['tool:pre_execute:bash', 'tool:pre_execute:write', false],
    ['tool:pre_execute:bash', 'tool:pre_execute', false],
    ['tool:*:write', 'tool:post_execute:write', true],
    ['tool:*:write', 'tool:post_execute:edit', false],
    ['tool:pre_execute:bash|write', 'tool:pre_execute:write', true],
    ['tool:pre_execute:bash|write', 'tool:pre_execute:read', false],
    ['session:start,session:end', 'session:end', true],
    ['session:start,session:end', 'session:message', false],
    ['*', 'notification', true],
    ['*', 'tool:pre_execute:bash', true],
    ['notification', 'notification', true],
    ['tool:pre_execute:mcp__*', 'tool:pre_execute:mcp__github__create_issue', true],
    ['tool:pre_execute:Web*', 'tool:pre_execute:webfetch', true],
    ['TOOL:PRE_EXECUTE:BASH', 'tool:pre_execute:bash', true],
    ['tool:pre_execute:!bash', 'tool:pre_execute:write', true],
    ['tool:pre_execute:!bash', 'tool:pre_execute:bash', false],
    ['PreToolUse', 'tool:pre_execute:bash', true],
    ['tool_start', 'tool:pre_execute:bash', true],
    ['PreToolUse:Bash', 'tool:pre_execute:bash', true],
    ['PreToolUse:Bash', 'tool:pre_execute:write', false],
    ['Stop,SubagentStop', 'subagent:stop', true],
    ['tool_end', 'tool:pre_execute:bash', false],
  ])('%s against %s → %s', (pattern, event, expected) => {
    expect(compilePattern(pattern).matches(seg(event))).toBe(expected)
  })

  test('an array means any of its patterns', () => {
    const pattern = compilePattern(['tool:post_execute', 'session:end'])
    expect(pattern.matches(seg('session:end'))).toBe(true)
    expect(pattern.matches(seg('tool:post_execute:bash'))).toBe(true)
    expect(pattern.matches(seg('tool:pre_execute:bash'))).toBe(false)
  })

  test('compiles once per pattern text', () => {
    expect(compilePattern('tool:*:write')).toBe(compilePattern('tool:*:write'))
  })
})

describe('patternProblem', () => {
  test.each([
    ['tool:pre_execute', undefined],
    ['', 'is empty'],
    ['tool::bash', "'tool::bash' has an empty segment or choice"],
    ['a:b:c:d', "'a:b:c:d' has 4 segments; at most 3 (domain:action:subject)"],
    ['session:start,', 'has an empty alternative (a stray comma)'],
    ['tool:pre_execute:bash|', "'tool:pre_execute:bash|' has an empty segment or choice"],
  ])('%j → %s', (pattern, problem) => {
    expect(patternProblem(pattern)).toBe(problem)
  })
})
