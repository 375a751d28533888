/**
 * Issue 27 §4.1–4.2 against the CLI: hookrun's untrusted-project notice reaches someone in each
 * agent (Qwen Code shows no SessionStart systemMessage, Codex shows the person nothing), and a
 * rewrite Qwen Code ignores is said on stderr in one line.
 */
import { afterAll, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

function untrustedProject(): string {
  const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'exit 0' }] } })
  projects.push(dir)
  return dir
}

const fire = (dir: string, format: string, payload: object) =>
  runCli(['fire', '--format', format], { cwd: dir, input: JSON.stringify({ cwd: dir, ...payload }) })

test('Qwen Code: an event that takes no context does not spend the notice; the next one that does carries it, to the model', async () => {
  const dir = untrustedProject()
  const at = { session_id: 'q1', timestamp: '2026-11-01T00:00:00Z' }
  const stop = await fire(dir, 'qwen', { hook_event_name: 'Notification', message: 'waiting', ...at })
  expect([stop.exitCode, stop.json()]).toEqual([0, {}])
  expect(stop.stderr).toContain('are not trusted, so they do not run')
  const start = await fire(dir, 'qwen', { hook_event_name: 'SessionStart', source: 'startup', ...at })
  // Headless Qwen Code shows no systemMessage at all (agent lab): the model is told, and tells the person.
  expect(start.json().systemMessage).toBeUndefined()
  expect(start.json().hookSpecificOutput?.additionalContext).toBe(
    `hookrun: project hooks in ${dir} are not trusted, so they do not run. Review them ('hookrun list'), then run: hookrun trust ${dir}`,
  )
  // Once per session.
  const again = await fire(dir, 'qwen', { hook_event_name: 'UserPromptSubmit', prompt: 'more', ...at })
  expect(again.json().hookSpecificOutput?.additionalContext).toBeUndefined()
})

test('Qwen Code: a rewrite on PreToolUse, which Qwen would drop and run the original, is refused out loud', async () => {
  const dir = makeProject({
    '.hookrun/hooks.json': {
      hooks: [{ name: 'sandbox', event: 'tool:pre_execute:bash', command: `echo '{"updatedInput":{"command":"echo safe"}}'` }],
    },
  })
  projects.push(dir)
  trustProjectFor(dir)
  const result = await fire(dir, 'qwen', {
    hook_event_name: 'PreToolUse',
    session_id: 'q3',
    timestamp: '2026-11-01T00:00:00Z',
    tool_name: 'run_shell_command',
    tool_input: { command: 'rm -rf build' },
  })
  expect(result.json().hookSpecificOutput).toMatchObject({
    permissionDecision: 'deny',
    permissionDecisionReason: expect.stringContaining("hook 'sandbox' rewrote this call, but Qwen Code ignores a rewrite on PreToolUse"),
  })
  expect(result.json().hookSpecificOutput.updatedInput).toBeUndefined()
})

test('Codex: the notice goes to the model as context, not to a systemMessage nobody sees', async () => {
  const dir = untrustedProject()
  const result = await fire(dir, 'codex', { hook_event_name: 'SessionStart', session_id: 'c1', turn_id: 't', source: 'startup' })
  const answer = result.json()
  expect(answer.systemMessage).toBeUndefined()
  expect(answer.hookSpecificOutput).toEqual({
    hookEventName: 'SessionStart',
    additionalContext: expect.stringContaining(`hookrun: project hooks in ${dir} are not trusted`),
  })
})

test('Claude Code keeps the systemMessage it shows', async () => {
  const dir = untrustedProject()
  const result = await fire(dir, 'claude', { hook_event_name: 'SessionStart', session_id: 'k1', source: 'startup' })
  expect(result.json().systemMessage).toContain('are not trusted, so they do not run')
})

test('Qwen Code: a PreToolUse rewrite is answered and said to be ignored, on one stderr line', async () => {
  const dir = makeProject({
    '.hookrun/hooks.json': {
      hooks: [{ name: 'rewrite', event: 'tool:pre_execute', command: `echo '{"decision":"allow","updatedInput":{"command":"ls -la"}}'` }],
    },
  })
  projects.push(dir)
  trustProjectFor(dir)
  const result = await fire(dir, 'qwen', {
    hook_event_name: 'PreToolUse',
    session_id: 'q2',
    timestamp: '2026-11-01T00:00:00Z',
    tool_name: 'run_shell_command',
    tool_input: { command: 'ls' },
  })
  expect(result.exitCode).toBe(0)
  expect(result.stderr).toBe(
    'hookrun: warning: Qwen Code ignores updatedInput on PreToolUse: Qwen Code applies a rewrite only from a PermissionRequest allow, so the tool runs with its original input\n',
  )
})

test('validate: a project routed to Qwen Code is told that its PreToolUse hooks cannot rewrite there', async () => {
  const dir = makeProject({
    '.hookrun/hooks.json': {
      hooks: [
        { name: 'rewrite', event: 'tool:pre_execute:bash', command: 'true' },
        { name: 'log', event: 'session:start', command: 'true' },
      ],
    },
    '.qwen/settings.json': { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'hookrun fire --format qwen' }] }] } },
  })
  projects.push(dir)
  const result = await runCli(['validate'], { cwd: dir })
  expect(result.exitCode).toBe(0)
  expect(result.stdout).toContain(
    `warning: ${dir}/.hookrun/hooks.json: hooks[0].event: Qwen Code (routed by ${dir}/.qwen/settings.json) ignores updatedInput on PreToolUse: Qwen Code applies a rewrite only from a PermissionRequest allow, so the tool runs with its original input; hooks it would apply to: rewrite\n`,
  )
  // Without Qwen Code routed there, nothing to say.
  const plain = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'rewrite', event: 'tool:pre_execute', command: 'true' }] } })
  projects.push(plain)
  expect((await runCli(['validate'], { cwd: plain })).stdout).not.toContain('Qwen')
})

test('explain: the answer Qwen Code would get carries the same warning', async () => {
  const dir = makeProject({
    '.hookrun/hooks.json': {
      hooks: [{ name: 'rewrite', event: 'tool:pre_execute', command: `echo '{"decision":"allow","updatedInput":{"command":"ls -la"}}'` }],
    },
  })
  projects.push(dir)
  trustProjectFor(dir)
  const payload = {
    cwd: dir,
    hook_event_name: 'PreToolUse',
    session_id: 'q3',
    timestamp: '2026-11-01T00:00:00Z',
    tool_name: 'run_shell_command',
    tool_input: { command: 'ls' },
  }
  const result = await runCli(['explain', '--format', 'qwen'], { cwd: dir, input: JSON.stringify(payload) })
  expect(result.exitCode).toBe(0)
  expect(result.stdout).toContain(
    'warning: Qwen Code ignores updatedInput on PreToolUse: Qwen Code applies a rewrite only from a PermissionRequest allow',
  )
})
