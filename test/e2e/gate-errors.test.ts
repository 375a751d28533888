// Any failure on a gate event blocks (issue 12): exit 1 is "proceed" to the agents that call hookrun.
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

function project(files: Parameters<typeof makeProject>[0] = {}): string {
  const dir = makeProject(files)
  projects.push(dir)
  trustProjectFor(dir)
  return dir
}

const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`

describe('a hook answer nested deeper than a payload may be', () => {
  test('on a gate: the hook failed, the gate blocks, nothing crashes', async () => {
    const dir = project({
      '.hookrun/hooks.json': { hooks: [{ name: 'deep', event: 'tool:pre_execute', command: 'cat deep.json' }] },
      'deep.json': deep(100_000),
    })
    const result = await runCli(['fire', 'tool:pre_execute'], { cwd: dir, runtime: 'node' })
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.json().reason).toContain('nested more than 512 levels')
    expect(result.stderr).not.toContain('Maximum call stack')
  })

  test('elsewhere: a warning, and the later hooks still run', async () => {
    const dir = project({
      '.hookrun/hooks.json': {
        hooks: [
          { name: 'deep', event: 'agent:stop', command: 'cat deep.json', onError: 'allow' },
          { name: 'later', event: 'agent:stop', command: 'echo "keep going" >&2; exit 2' },
        ],
      },
      'deep.json': deep(100_000),
    })
    const result = await runCli(['fire', 'agent:stop'], { cwd: dir, runtime: 'node' })
    expect([result.exitCode, result.json().decidedBy]).toEqual([2, 'later'])
  })
})

describe('hookrun failing on a gate event blocks instead of exiting 1', () => {
  test.each([
    ['recursion limit', ['fire', 'tool:pre_execute'], { HOOKRUN_DEPTH: '8' }, 'hook recursion'],
    ['--strict and a config problem', ['fire', 'tool:pre_execute', '--strict', '--config', 'bad.json'], {}, 'bad.json'],
  ])('%s', async (_name, args, env, why) => {
    const dir = project({ 'bad.json': { hooks: [{ name: 'x', event: 'session:start', command: 'true', timeout: 'soon' }] } })
    const result = await runCli(args, { cwd: dir, env, runtime: 'node' })
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.json()).toMatchObject({ decision: 'deny', blocked: true, decidedBy: 'hookrun' })
    expect(result.json().reason).toContain(why)
    expect(result.json().reason).toContain('blocked because hookrun could not decide')
    // The same failure on an event that is only information: exit 1, as documented.
    const info = await runCli(
      args.map((arg) => (arg === 'tool:pre_execute' ? 'tool:post_execute' : arg)),
      { cwd: dir, env, runtime: 'node' },
    )
    expect(info.exitCode).toBe(1)
  })

  test('bad usage stays exit 1, as documented; an unreadable payload blocks a gate only', async () => {
    const usage = await runCli(['fire', 'tool:pre_execute', '--payload', '-', '--format', 'nope'], {
      cwd: project(),
      input: '{}',
      runtime: 'node',
    })
    expect([usage.exitCode, usage.stdout]).toEqual([1, ''])
    const gate = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], { cwd: project(), input: '{not json', runtime: 'node' })
    expect([gate.exitCode, gate.json().decision]).toEqual([2, 'deny'])
    const info = await runCli(['fire', 'tool:post_execute', '--payload', '-'], { cwd: project(), input: '{not json', runtime: 'node' })
    expect([info.exitCode, info.stdout]).toEqual([1, ''])
  })

  test('in the agent dialect: Claude Code gets a deny it shows', async () => {
    const dir = project()
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: dir })
    const result = await runCli(['fire', '--format', 'claude'], { cwd: dir, env: { HOOKRUN_DEPTH: '8' }, input: payload, runtime: 'node' })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.json().hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
  })
})
