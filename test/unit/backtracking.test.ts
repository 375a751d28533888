// Filters that could make matching backtrack are refused, and matching time is bounded whatever the config (issue 12).
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { validateConfig } from '../../src/commands/validate.ts'
import { matcherProblem, permissionRuleProblem } from '../../src/event/pattern.ts'
import { fire } from '../../src/fire.ts'
import { makeProject, removeProject } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

describe('matcherProblem refuses regular expressions that backtrack', () => {
  test.each([
    ['^(a+)+$', 'repeats a group'],
    ['(a|aa)*b', 'repeats a group'],
    ['(x(a|b))+', 'repeats a group'],
    ['(\\w+\\s?)*$', 'repeats a group'],
    ['(a)\\1', 'backreference'],
    ['a*a*a*b', '3 unbounded quantifiers'],
    ['.*.*.*x', '3 unbounded quantifiers'],
  ])('%s', (matcher, why) => {
    expect(matcherProblem(matcher)).toContain(why)
  })

  test.each([['Edit|Write'], ['mcp__.*'], ['Notebook.*'], ['mcp__github__.*|Bash'], ['^(Edit|Write)$'], ['a{2,5}b'], ['(ab)?c']])(
    '%s is fine',
    (matcher) => {
      expect(matcherProblem(matcher)).toBeUndefined()
    },
  )
})

describe('permissionRuleProblem refuses globs that backtrack', () => {
  test.each([['Bash(*a*b*c)'], ['Bash(+(a|b))'], ['Edit(@(x|y)*)']])('%s', (rule) => {
    expect(permissionRuleProblem(rule)).toBeDefined()
  })
  test.each([['Bash(git *)'], ['Edit(*.ts)'], ['Bash(npm run * --force *)']])('%s is fine', (rule) => {
    expect(permissionRuleProblem(rule)).toBeUndefined()
  })
})

function configFile(config: unknown): { dir: string; file: string; env: Record<string, string> } {
  const dir = makeProject({ 'hooks.json': config as object })
  projects.push(dir)
  return {
    dir,
    file: join(dir, 'hooks.json'),
    env: {
      PATH: process.env.PATH!,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, '.xdg-config'),
      XDG_STATE_HOME: join(dir, '.xdg-state'),
      XDG_CACHE_HOME: join(dir, '.xdg-cache'),
    },
  }
}

describe('at load and in fire', () => {
  test('a refused matcher on a gate is a broken gate: fire blocks at once, validate names it', async () => {
    const { dir, file, env } = configFile({
      hooks: { PreToolUse: [{ matcher: '^(a+)+$', hooks: [{ type: 'command', command: 'true' }] }] },
    })
    const started = performance.now()
    const decision = await fire({
      event: 'tool:pre_execute',
      cwd: dir,
      env,
      configFiles: [file],
      payload: { tool_name: `${'a'.repeat(40)}!` },
    })
    expect(performance.now() - started).toBeLessThan(2000)
    expect(decision).toMatchObject({ decision: 'deny', blocked: true })
    expect(decision.reason).toContain("matcher '^(a+)+$' repeats a group")
    expect(validateConfig({ files: [file], cwd: dir, env, json: false }).output).toContain("matcher '^(a+)+$' repeats a group")
  })

  test('an allowed matcher against a huge value: bounded, and the hook runs rather than being skipped', async () => {
    const { dir, file, env } = configFile({
      hooks: { PreCompact: [{ matcher: 'a*a*b', hooks: [{ type: 'command', command: 'echo ran >&2; exit 2' }] }] },
    })
    const started = performance.now()
    const decision = await fire({
      event: 'context:pre_compact',
      cwd: dir,
      env,
      configFiles: [file],
      payload: { trigger: 'a'.repeat(100_000) },
    })
    expect(performance.now() - started).toBeLessThan(3000)
    expect(decision).toMatchObject({ blocked: true, reason: 'ran' })
  })

  test('an if rule against a huge command: bounded, and the hook runs', async () => {
    const { dir, file, env } = configFile({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(*a*b)', command: 'echo ran >&2; exit 2' }] }] },
    })
    const started = performance.now()
    // 120,000 characters: under what HOOKRUN_BASH_COMMAND holds, so the hook runs (a longer command blocks a gate unrun).
    const decision = await fire({
      event: 'tool:pre_execute',
      cwd: dir,
      env,
      configFiles: [file],
      payload: { tool_name: 'Bash', tool_input: { command: 'a'.repeat(120_000) } },
    })
    expect(performance.now() - started).toBeLessThan(3000)
    expect(decision).toMatchObject({ blocked: true, reason: 'ran' })
  })
})
