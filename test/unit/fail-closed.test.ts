// A gate never fails open (issue 12): a changed project blocks gate events; an untrusted one is shown in the agent.
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { trustProject } from '../../src/commands/trust.ts'
import { fire } from '../../src/fire.ts'
import { makeProject, removeProject, runCli } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

function project(files: Parameters<typeof makeProject>[0]): { dir: string; env: Record<string, string> } {
  const dir = makeProject(files)
  projects.push(dir)
  return {
    dir,
    env: {
      PATH: process.env.PATH!,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, '.xdg-config'),
      XDG_STATE_HOME: join(dir, '.xdg-state'),
      XDG_CACHE_HOME: join(dir, '.xdg-cache'),
    },
  }
}

const gate = {
  '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: './gate.sh' }] },
  'gate.sh': '#!/bin/sh\necho "no sudo" >&2\nexit 2\n',
}

describe('a trusted project that changed', () => {
  test('blocks every gate event with a reason that says what to do; hooks do not run', async () => {
    const { dir, env } = project({
      ...gate,
      '.hookrun/hooks.local.json': { hooks: [{ name: 'log', event: '*', command: 'echo ran >> ran.txt' }] },
    })
    trustProject({ cwd: dir, env })
    appendFileSync(join(dir, '.hookrun/hooks.json'), ' ')
    for (const name of ['tool:pre_execute', 'permission:prompt', 'user:prompt_submit']) {
      const decision = await fire({ event: name, cwd: dir, env, payload: { tool_name: 'Bash' } })
      expect(decision).toMatchObject({ decision: 'deny', blocked: true, decidedBy: 'hookrun' })
      expect(decision.reason).toBe(
        `project hooks in ${dir} changed since you trusted them (.hookrun/hooks.json edited): review with 'hookrun trust --diff', then run: hookrun trust ${dir}`,
      )
    }
    // Only information: the event proceeds, and no hook of the project ran.
    const info = await fire({ event: 'tool:post_execute', cwd: dir, env })
    expect(info).toMatchObject({ decision: 'allow', blocked: false })
    expect(() => require('node:fs').readFileSync(join(dir, 'ran.txt'))).toThrow()
  })

  test('Claude Code sees the block and the notice (exit 0, permissionDecision deny, systemMessage)', async () => {
    const { dir } = project(gate)
    trustProject({ cwd: dir, env: { HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg-config'), XDG_STATE_HOME: join(dir, '.xdg-state') } })
    appendFileSync(join(dir, 'gate.sh'), 'exit 0\n')
    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 's1',
      tool_name: 'Bash',
      tool_input: { command: 'sudo ls' },
      cwd: dir,
    })
    const result = await runCli(['fire', '--format', 'claude'], { cwd: dir, input: payload, runtime: 'node' })
    expect(result.exitCode, result.stderr).toBe(0)
    const answer = result.json()
    expect(answer.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain("review with 'hookrun trust --diff'")
    expect(answer.systemMessage).toContain(`hookrun: project hooks in ${dir} changed since you trusted them`)
  })
})

describe('a project never trusted', () => {
  test('its hooks do not run; the agent shows a notice once per session, not only stderr', async () => {
    const { dir, env } = project(gate)
    const first = await fire({ event: 'tool:pre_execute', cwd: dir, env, payload: { session_id: 'a', tool_name: 'Bash' } })
    expect(first).toMatchObject({ decision: 'allow', blocked: false, hooks: [] })
    expect(first.systemMessage).toBe(
      `hookrun: project hooks in ${dir} are not trusted, so they do not run. Review them ('hookrun list'), then run: hookrun trust ${dir}`,
    )
    const again = await fire({ event: 'tool:post_execute', cwd: dir, env, payload: { session_id: 'a', tool_name: 'Bash' } })
    expect(again.systemMessage).toBeUndefined()
    expect(again.warnings.join('\n')).toContain('not trusted')
    const other = await fire({ event: 'session:start', cwd: dir, env, payload: { session_id: 'b' } })
    expect(other.systemMessage).toContain('are not trusted')
  })

  test("an untrusted project's hooks are never evaluated, not even their filters", async () => {
    // A catastrophic regex: evaluating it against the tool name would run for minutes.
    const { dir, env } = project({
      '.hookrun/hooks.json': { hooks: { PreToolUse: [{ matcher: '^(a+)+$', hooks: [{ type: 'command', command: 'true' }] }] } },
    })
    // Evaluated, the regex would hold the fire for minutes (past the test's own timeout): an answer at all says it was not.
    const decision = await fire({ event: 'tool:pre_execute', cwd: dir, env, payload: { tool_name: `${'a'.repeat(40)}!` } })
    expect(decision.decision).toBe('allow')
  })
})

describe('the notice store', () => {
  test('a session that already saw the notice is remembered across fires', async () => {
    const { dir, env } = project(gate)
    writeFileSync(join(dir, 'x'), '')
    const seen = await Promise.all([1, 2, 3].map(() => fire({ event: 'session:start', cwd: dir, env, payload: { session_id: 'same' } })))
    expect(seen.filter((decision) => decision.systemMessage !== undefined).length).toBeGreaterThanOrEqual(1)
    const later = await fire({ event: 'session:start', cwd: dir, env, payload: { session_id: 'same' } })
    expect(later.systemMessage).toBeUndefined()
  })
})

describe('a NUL in a value a hook reads from its environment', () => {
  test('fails closed on a gate instead of showing the hook the part before it', async () => {
    const { dir, env } = project({
      'hooks.json': {
        hooks: [{ name: 'no-rm', event: 'tool:pre_execute', command: 'case "$HOOKRUN_BASH_COMMAND" in *rm*) exit 2;; esac' }],
      },
    })
    const payload = { tool_name: 'Bash', tool_input: { command: 'ls\0; rm -rf ~' } }
    const decision = await fire({ event: 'tool:pre_execute', cwd: dir, env, configFiles: [join(dir, 'hooks.json')], payload })
    expect(decision).toMatchObject({ decision: 'deny', blocked: true })
    expect(decision.reason).toBe(
      "hook 'no-rm' was not run: HOOKRUN_BASH_COMMAND would hold a NUL character, which an environment variable cannot carry (the hook would see only the part before it)",
    )
    // Only information: the hook runs with the value cut at the NUL, and a warning says so.
    const info = await fire({ event: 'tool:post_execute', cwd: dir, env, configFiles: [join(dir, 'hooks.json')], payload })
    expect(info.blocked).toBe(false)
  })
})
