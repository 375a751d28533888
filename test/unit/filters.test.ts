import { describe, expect, test } from 'vitest'
import { qualifyEvent } from '../../src/event/event.ts'
import { matchesClaudeMatcher, matchesPermissionRule } from '../../src/select/filters.ts'
import { matcherProblem } from '../../src/event/pattern.ts'

const tool = (name: string, input: Record<string, unknown> = {}) => ({
  event: qualifyEvent('tool:pre_execute', { tool_name: name }),
  payload: { tool_name: name, tool_input: input },
})

describe("Claude Code's matcher", () => {
  test.each([
    ['Bash', 'Bash', true],
    ['Edit|Write', 'Write', true],
    ['Edit, Write', 'Edit', true],
    ['Edit|Write', 'NotebookEdit', false],
    ['Edit.*', 'NotebookEdit', true],
    ['^Edit$', 'NotebookEdit', false],
    ['mcp__memory__.*', 'mcp__memory__create', true],
    ['mcp__memory', 'mcp__memory__create', false],
  ])('%s against %s → %s', (matcher, name, expected) => {
    const { event, payload } = tool(name)
    expect(matchesClaudeMatcher(matcher, event, payload)).toBe(expected)
  })
  test('non-tool events compare against their own field; events without one ignore the matcher', () => {
    expect(matchesClaudeMatcher('startup', qualifyEvent('SessionStart', {}), { source: 'startup' })).toBe(true)
    expect(matchesClaudeMatcher('startup', qualifyEvent('SessionStart', {}), { source: 'resume' })).toBe(false)
    expect(matchesClaudeMatcher('manual', qualifyEvent('PreCompact', {}), { trigger: 'auto' })).toBe(false)
    expect(matchesClaudeMatcher('anything', qualifyEvent('UserPromptSubmit', {}), {})).toBe(true)
  })
  test('invalid regular expressions are reported', () => {
    expect(matcherProblem('Edit(')).toMatch(/not a valid regular expression/)
    expect(matcherProblem('Edit|Write')).toBeUndefined()
  })
})

describe("Claude Code's if rule", () => {
  test.each([
    ['Bash(git *)', 'Bash', { command: 'git push origin main' }, true],
    ['Bash(git *)', 'Bash', { command: 'npm test' }, false],
    ['Bash(git *)', 'Bash', { command: 'cd repo && git status' }, true],
    ['Bash(rm *)', 'Bash', { command: 'FOO=1 rm -rf x' }, true],
    // Every simple command is checked, whatever joins it (a gate errs toward running).
    ['Bash(rm *)', 'Bash', { command: 'ls & rm -rf x' }, true],
    ['Bash(rm *)', 'Bash', { command: 'ls | rm -rf x' }, true],
    ['Bash(rm *)', 'Bash', { command: 'ls\nrm -rf x' }, true],
    ['Bash(rm *)', 'Bash', { command: 'echo $(rm -rf x)' }, true],
    ['Bash(rm *)', 'Bash', { command: '(rm -rf x)' }, true],
    ['Bash(rm *)', 'Bash', { command: 'echo `rm -rf x`' }, true],
    ['Edit(*.ts)', 'Edit', { file_path: '/src/app/main.ts' }, true],
    ['Edit(*.ts)', 'Edit', { file_path: '/src/app/main.rs' }, false],
    ['Edit(*.ts)', 'Write', { file_path: '/src/app/main.ts' }, false],
    ['Bash', 'Bash', { command: 'anything' }, true],
  ])('%s for %s %j → %s', (rule, name, input, expected) => {
    const { event, payload } = tool(name, input)
    expect(matchesPermissionRule(rule, event, payload)).toBe(expected)
  })
  test('never matches events without a tool', () => {
    expect(matchesPermissionRule('Bash(git *)', qualifyEvent('Stop', {}), {})).toBe(false)
  })
})
