import { makeHook } from '../helpers.ts'
import { describe, expect, test } from 'vitest'
import type { Hook } from '../../src/core/types.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { eventAliases } from '../../src/event/events.ts'
import { failedFilter, matchesClaudeMatcher, matchesPermissionRule } from '../../src/select/filters.ts'
import { compilePattern } from '../../src/event/pattern.ts'
import { canonicalTool } from '../../src/event/tools.ts'
import { TOOL_ALIASES } from '../../src/event/tool-aliases.ts'

const hook = (over: Partial<Hook>) => makeHook({ event: ['tool:pre_execute'], ...over })

describe('canonical tool subjects', () => {
  test.each([
    ['Bash', 'bash'],
    ['Shell', 'bash'],
    ['run_shell_command', 'bash'],
    ['bash', 'bash'],
    ['read_file', 'read'],
    ['view', 'read'],
    ['create', 'write'],
    ['replace', 'edit'],
    ['apply_patch', 'edit'],
    ['grep_search', 'grep'],
    ['google_web_search', 'websearch'],
    ['mcp__memory__create', 'mcp__memory__create'],
  ])('%s → %s', (name, subject) => {
    expect(canonicalTool(name)).toBe(subject)
  })

  test("no two of Claude Code's tools share a subject (except Agent, formerly Task), so its matchers keep their meaning", () => {
    const claude = TOOL_ALIASES.filter((entry) => entry.from.includes('claude') && entry.name !== 'Task')
    const subjects = claude.map((entry) => entry.subject)
    expect(new Set(subjects).size).toBe(subjects.length)
  })

  test('no name means two things: one subject per name, whatever its case', () => {
    const seen = new Map<string, string>()
    for (const entry of TOOL_ALIASES) {
      const key = entry.name.toLowerCase()
      expect(seen.get(key) ?? entry.subject, entry.name).toBe(entry.subject)
      seen.set(key, entry.subject)
    }
  })

  test('no event alias means two events, whatever its case', () => {
    const seen = new Map<string, string>()
    for (const entry of eventAliases()) {
      const key = entry.alias.toLowerCase()
      expect(seen.get(key) ?? entry.canonical, entry.alias).toBe(entry.canonical)
      seen.set(key, entry.canonical)
    }
  })

  test("every agent's shell is tool:pre_execute:bash; the agent's own name stays in `tool`", () => {
    for (const name of ['Bash', 'Shell', 'run_shell_command', 'bash']) {
      const event = qualifyEvent('tool:pre_execute', { tool_name: name })
      expect(event.qualified).toBe('tool:pre_execute:bash')
      expect(event.tool).toBe(name)
      expect(compilePattern('tool:pre_execute:bash').matches(event.segments)).toBe(true)
    }
  })

  test('a pattern may name the subject in any agent’s spelling', () => {
    const claudeBash = qualifyEvent('PreToolUse', { tool_name: 'Bash' })
    expect(compilePattern('tool:*:run_shell_command').matches(claudeBash.segments)).toBe(true)
    expect(compilePattern('BeforeTool:Shell').matches(claudeBash.segments)).toBe(true)
    expect(compilePattern('tool:*:write_file|replace').matches(qualifyEvent('tool:post_execute', { tool_name: 'Edit' }).segments)).toBe(
      true,
    )
    expect(compilePattern('tool:*:read').matches(claudeBash.segments)).toBe(false)
  })
})

describe('filters see the agent’s name and the canonical subject', () => {
  const gemini = { tool_name: 'run_shell_command', tool_input: { command: 'git push origin main' } }
  const event = qualifyEvent('BeforeTool', gemini)

  test("Claude's matcher `Bash` fires for Gemini's shell; `run_shell_command` fires for Claude's", () => {
    expect(matchesClaudeMatcher('Bash', event, gemini)).toBe(true)
    expect(matchesClaudeMatcher('Edit|Write', event, gemini)).toBe(false)
    const claude = { tool_name: 'Bash', tool_input: { command: 'ls' } }
    expect(matchesClaudeMatcher('run_shell_command', qualifyEvent('PreToolUse', claude), claude)).toBe(true)
    // A regular expression is tested against the names as they are.
    expect(matchesClaudeMatcher('^run_shell', event, gemini)).toBe(true)
    expect(matchesClaudeMatcher('^Bash$', event, gemini)).toBe(false)
  })

  test('NotebookEdit stays its own tool for Claude matchers', () => {
    const notebook = { tool_name: 'NotebookEdit' }
    expect(matchesClaudeMatcher('Edit|Write', qualifyEvent('PreToolUse', notebook), notebook)).toBe(false)
  })

  test('an if rule and a pigo match name the tool in any spelling', () => {
    expect(matchesPermissionRule('Bash(git push *)', event, gemini)).toBe(true)
    expect(failedFilter(hook({ match: { tool: 'bash|write' } }), event, gemini)).toBeUndefined()
    expect(failedFilter(hook({ match: { tool: 'read_file' } }), event, gemini)).toEqual({
      filter: 'match',
      detail: "match.tool 'read_file' does not name tool run_shell_command (bash)",
    })
  })

  test('failedFilter says which filter and why', () => {
    expect(failedFilter(hook({ matcher: 'Edit|Write' }), event, gemini)?.detail).toBe(
      "matcher 'Edit|Write' does not match 'run_shell_command' / 'bash'",
    )
    expect(failedFilter(hook({ when: 'Bash(rm *)' }), event, gemini)?.detail).toBe(
      "if 'Bash(rm *)' does not match command 'git push origin main'",
    )
    expect(failedFilter(hook({ when: 'Bash(git *)' }), event, gemini)).toBeUndefined()
  })
})
