/**
 * hookrunHooks(): the Claude Agent SDK's `options.hooks` answered by hookrun in-process. The
 * callbacks are called here as the SDK calls them (hook input, tool use id, { signal }); the agent
 * lab (test/agents/agent-sdk.lab.ts) runs them under the real SDK.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { join } from 'node:path'
import {
  AGENT_SDK_DEFAULT_EVENTS,
  AGENT_SDK_HOOKS_VARIABLE,
  type AgentSdkHookMatcher,
  hookrunHooks,
  hookrunHooksVariable,
} from '../../src/library/agent-sdk.ts'
import { cliEnvironment, makeProject, removeProject, trustProjectFor } from '../helpers.ts'

const dirs: string[] = []
const savedMarker = process.env[AGENT_SDK_HOOKS_VARIABLE]
afterEach(() => {
  for (const dir of dirs.splice(0)) removeProject(dir)
  if (savedMarker === undefined) delete process.env[AGENT_SDK_HOOKS_VARIABLE]
  else process.env[AGENT_SDK_HOOKS_VARIABLE] = savedMarker
})

function project(hooks: object[]): { dir: string; env: Record<string, string> } {
  const dir = makeProject({ '.hookrun/hooks.json': { hooks } })
  dirs.push(dir)
  trustProjectFor(dir)
  return { dir, env: cliEnvironment(dir) }
}

/** The one callback hookrunHooks() registers for `event`, called as the SDK calls it. */
function call(matchers: AgentSdkHookMatcher[] | undefined, input: Record<string, unknown>) {
  expect(matchers).toHaveLength(1)
  const [callback] = matchers![0]!.hooks
  return callback!(input as never, 'toolu_1', { signal: new AbortController().signal })
}

const bash = (dir: string, command: string) => ({
  session_id: 's',
  transcript_path: join(dir, 't.jsonl'),
  cwd: dir,
  hook_event_name: 'PreToolUse',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'toolu_1',
})

describe('hookrunHooks()', () => {
  test('registers one callback for every SDK event it is called for; gates block when the callback fails', () => {
    const hooks = hookrunHooks({ markEnvironment: false })
    expect(Object.keys(hooks)).toEqual([...AGENT_SDK_DEFAULT_EVENTS])
    for (const left of ['SessionStart', 'Setup', 'MessageDisplay', 'WorktreeCreate'] as const) expect(hooks[left]).toBeUndefined()
    expect(Object.keys(hooks)).toHaveLength(30)
    expect(hooks.PreToolUse?.[0]?.onFailure).toBe('block')
    expect(hooks.UserPromptSubmit?.[0]?.onFailure).toBe('block')
    expect(hooks.PostToolUse?.[0]?.onFailure).toBeUndefined()
  })

  test("names the events it answers for hookrun's .claude/settings entries to stand aside: in the query's env, the app's only when asked", () => {
    delete process.env[AGENT_SDK_HOOKS_VARIABLE]
    // Left alone by default: another query() of the app, without these hooks, would inherit it.
    hookrunHooks({ events: ['PreToolUse'] })
    expect(process.env[AGENT_SDK_HOOKS_VARIABLE]).toBeUndefined()
    hookrunHooks({ events: ['PreToolUse', 'SessionStart', 'Stop'], markEnvironment: true })
    // SessionStart is never called back: the settings entry must still answer it.
    expect(process.env[AGENT_SDK_HOOKS_VARIABLE]).toBe(`${process.pid}:PreToolUse,Stop`)
    delete process.env[AGENT_SDK_HOOKS_VARIABLE]
    expect(hookrunHooksVariable(['PostToolUse'])).toBe(`${process.pid}:PostToolUse`)
  })

  test('an event the SDK does not have is refused with the list', () => {
    expect(() => hookrunHooks({ events: ['BeforeTool' as never], markEnvironment: false })).toThrow(
      "hookrunHooks: 'BeforeTool' is not an Agent SDK hook event; use one of: PreToolUse,",
    )
  })

  test("a gate's deny comes back as Claude Code's permissionDecision with the reason", async () => {
    const { dir, env } = project([{ name: 'no-rm', event: 'tool:pre_execute:bash', command: 'echo "no rm here" >&2; exit 2' }])
    const hooks = hookrunHooks({ env, markEnvironment: false })
    expect(await call(hooks.PreToolUse, bash(dir, 'rm -rf x'))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' },
    })
  })

  test('a rewrite comes back as updatedInput with allow, context as additionalContext, a message as systemMessage', async () => {
    const { dir, env } = project([
      {
        name: 'rewrite',
        event: 'tool:pre_execute:bash',
        command: `echo '{"decision":"allow","updatedInput":{"command":"ls -la"},"additionalContext":"listed","systemMessage":"rewritten"}'`,
      },
    ])
    const hooks = hookrunHooks({ env, markEnvironment: false })
    expect(await call(hooks.PreToolUse, bash(dir, 'ls'))).toEqual({
      systemMessage: 'rewritten',
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'ls -la' },
        additionalContext: 'listed',
      },
    })
  })

  test('no hook for the event: no opinion ({})', async () => {
    const { dir, env } = project([{ name: 'other', event: 'agent:stop', command: 'true' }])
    expect(await call(hookrunHooks({ env, markEnvironment: false }).PreToolUse, bash(dir, 'ls'))).toEqual({})
  })

  test('hookrun failing inside a gate callback denies (fail closed); elsewhere it is a warning and no opinion', async () => {
    const { dir, env } = project([])
    const warnings: string[] = []
    const hooks = hookrunHooks({
      env,
      configFiles: [join(dir, 'missing.json')],
      markEnvironment: false,
      onWarning: (warning) => warnings.push(warning),
    })
    const denied = await call(hooks.PreToolUse, bash(dir, 'ls'))
    expect(denied.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' })
    expect(denied.hookSpecificOutput.permissionDecisionReason).toMatch(/^blocked because hookrun could not decide: .*missing\.json/)
    const prompt = await call(hooks.UserPromptSubmit, { session_id: 's', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: 'hi' })
    expect(prompt).toMatchObject({ decision: 'block' })
    const after = await call(hooks.PostToolUse, { ...bash(dir, 'ls'), hook_event_name: 'PostToolUse', tool_response: { stdout: '' } })
    expect(after).toEqual({})
    expect(warnings).toHaveLength(3)
    expect(warnings[0]).toContain('missing.json')
  })

  test('a crashing gate hook blocks, as `hookrun fire` does', async () => {
    const { dir, env } = project([{ name: 'crash', event: 'tool:pre_execute:bash', command: 'exit 1' }])
    const answer = await call(hookrunHooks({ env, markEnvironment: false }).PreToolUse, bash(dir, 'ls'))
    expect(answer.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain("hook 'crash' failed with exit 1")
  })

  test("a cd out of the project (the SDK's later cwd) keeps the project's gates: the session's first folder is its project", async () => {
    const { dir, env } = project([{ name: 'no-rm', event: 'tool:pre_execute:bash', command: 'echo "no rm here" >&2; exit 2' }])
    const outside = makeProject()
    dirs.push(outside)
    const hooks = hookrunHooks({ env, markEnvironment: false })
    expect(await call(hooks.UserPromptSubmit, { session_id: 's', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: 'hi' })).toEqual({})
    const denied = await call(hooks.PreToolUse, { ...bash(dir, 'rm -rf x'), cwd: outside })
    expect(denied.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'no rm here' })
    // Another session that starts outside has no such gate.
    expect(await call(hooks.PreToolUse, { ...bash(dir, 'rm -rf x'), session_id: 't', cwd: outside })).toEqual({})
  })
})
