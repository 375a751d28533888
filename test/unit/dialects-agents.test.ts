import { describe, expect, test } from 'vitest'
import { mayBeAgentPayload } from '../../src/agents/hint.ts'
import { prepareDialect, resolveDialect } from '../../src/dialect.ts'
import type { Dialect } from '../../src/agents/types.ts'
import type { Decision } from '../../src/core/protocol.ts'
import { canonicalTool } from '../../src/event/tools.ts'
import { namesOf, resolveAlias } from '../../src/event/events.ts'
import { makeDecision } from '../helpers.ts'

/**
 * Windsurf, Factory Droid, Kiro, Crush and Qwen Code: payloads as each agent's docs show them
 * (sources in src/agents/<agent>.ts).
 */
const PAYLOADS = {
  windsurfCommand: {
    agent_action_name: 'pre_run_command',
    trajectory_id: 't',
    execution_id: 'e',
    timestamp: '2026-11-20T10:00:00Z',
    tool_info: { command_line: 'npm install x', cwd: '/p' },
  },
  windsurfPrompt: {
    agent_action_name: 'pre_user_prompt',
    trajectory_id: 't',
    execution_id: 'e',
    timestamp: '2026-11-20T10:00:00Z',
    tool_info: { user_prompt: 'hi' },
  },
  droid: {
    session_id: 's',
    transcript_path: '/t',
    cwd: '/p',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Execute',
    tool_input: { command: 'ls' },
  },
  droidStop: { session_id: 's', transcript_path: '/t', cwd: '/p', hook_event_name: 'Stop', stop_hook_active: false },
  kiroSpawn: { hook_event_name: 'agentSpawn', cwd: '/p' },
  kiroTool: {
    hook_event_name: 'preToolUse',
    cwd: '/p',
    tool_name: 'fs_read',
    tool_input: { operations: [{ mode: 'Line', path: '/p/a.md' }] },
  },
  cursorTool: {
    conversation_id: 'c',
    generation_id: 'g',
    hook_event_name: 'preToolUse',
    cursor_version: '1.7',
    workspace_roots: ['/p'],
    tool_name: 'Shell',
    tool_input: '{"command":"ls"}',
  },
  crush: { event: 'PreToolUse', session_id: '313909e', cwd: '/p', tool_name: 'bash', tool_input: { command: 'rm -rf /' } },
  // Crush's only event, PreToolUse, in snake_case (issue 27 §4.4: there is no PreCompact).
  crushSnake: { event: 'pre_tool_use', session_id: 's', cwd: '/p', tool_name: 'bash', tool_input: { command: 'ls' } },
  qwenTool: {
    session_id: 's',
    transcript_path: '/t',
    cwd: '/p',
    hook_event_name: 'PreToolUse',
    timestamp: '2026-11-20T10:00:00Z',
    tool_name: 'run_shell_command',
    tool_input: { command: 'ls' },
  },
  qwenTodo: {
    session_id: 's',
    transcript_path: '/t',
    cwd: '/p',
    hook_event_name: 'TodoCompleted',
    timestamp: '2026-11-20T10:00:00Z',
    todo_id: '1',
    phase: 'validation',
  },
  qwenStart: {
    session_id: 's',
    transcript_path: '/t',
    cwd: '/p',
    hook_event_name: 'SessionStart',
    timestamp: '2026-11-20T10:00:00Z',
    source: 'startup',
  },
  claude: {
    session_id: 's',
    transcript_path: '/t',
    cwd: '/p',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  },
}

const decision = makeDecision
const deny = (reason = 'no', over: Partial<Decision> = {}) =>
  decision({ decision: 'deny', blocked: true, reason, decidedBy: 'gate', ...over })
const named = (name: string) => resolveDialect(name, {})!
const answer = (dialect: Dialect, event: string, over: Decision, payload: Record<string, unknown> = {}) =>
  dialect.render(over, payload, event)

describe('which agent sent it', () => {
  test.each([
    ['windsurfCommand', 'windsurf'],
    ['windsurfPrompt', 'windsurf'],
    ['droid', 'droid'],
    ['droidStop', 'claude'],
    ['kiroSpawn', 'kiro'],
    ['kiroTool', 'kiro'],
    ['cursorTool', 'cursor'],
    ['crush', 'crush'],
    ['crushSnake', 'crush'],
    ['qwenTool', 'qwen'],
    ['qwenTodo', 'qwen'],
    ['qwenStart', 'gemini'],
    ['claude', 'claude'],
  ] as const)('%s payload → %s', (payload, dialect) => {
    expect(mayBeAgentPayload(PAYLOADS[payload])).toBe(true)
    expect(resolveDialect(undefined, PAYLOADS[payload])?.name).toBe(dialect)
  })
  test('a payload with hookrun’s own `event` field and no session is not taken for Crush', () => {
    expect(resolveDialect(undefined, { event: 'PreToolUse', tool_name: 'bash' })).toBeUndefined()
    expect(resolveDialect(undefined, { event: 'tool:pre_execute', session_id: 's' })).toBeUndefined()
  })
})

describe('reading their payloads', () => {
  test('Windsurf: the command becomes tool_input of a run_command tool (bash), trajectory_id the session, user_prompt the prompt', () => {
    const prepared = prepareDialect(undefined, undefined, PAYLOADS.windsurfCommand)!
    expect(prepared).toMatchObject({ event: 'pre_run_command', agentEvent: 'pre_run_command', tool: 'run_command' })
    expect(prepared.payload).toMatchObject({
      tool_name: 'run_command',
      tool_input: { command: 'npm install x', cwd: '/p' },
      session_id: 't',
    })
    expect(canonicalTool('run_command')).toBe('bash')
    expect(prepareDialect(undefined, undefined, PAYLOADS.windsurfPrompt)!.payload).toMatchObject({ prompt: 'hi' })
  })
  test('Crush: the event in any spelling Crush takes', () => {
    expect(prepareDialect(undefined, undefined, PAYLOADS.crushSnake)).toMatchObject({ event: 'PreToolUse', agentEvent: 'PreToolUse' })
    expect(resolveDialect(undefined, { event: 'pre_compact', session_id: 's' })).toBeUndefined()
  })
  test('each agent’s tool names share the subjects', () => {
    expect(['Execute', 'execute_bash', 'shell', 'bash', 'run_shell_command', 'run_command'].map(canonicalTool)).toEqual(
      Array(6).fill('bash'),
    )
    expect(['Create', 'fs_write', 'write', 'write_file'].map(canonicalTool)).toEqual(Array(4).fill('write'))
    expect(['fs_read', 'read', 'view', 'read_code'].map(canonicalTool)).toEqual(Array(4).fill('read'))
  })
  test("a canonical event on the command line gives each agent's name for it", () => {
    expect(prepareDialect('windsurf', 'user:prompt_submit', {})?.agentEvent).toBe('pre_user_prompt')
    expect(prepareDialect('kiro', 'agent:start', {})?.agentEvent).toBe('agentSpawn')
    expect(prepareDialect('qwen', 'task:created', {})?.agentEvent).toBe('TodoCreated')
    expect(prepareDialect('droid', 'agent:stop', {})?.agentEvent).toBe('Stop')
  })
})

describe('Windsurf and Kiro answer with exit codes', () => {
  test('Windsurf: a block on a pre-hook is exit 2 with the reason on stderr; ask becomes a block, said so', () => {
    const windsurf = named('windsurf')
    expect(answer(windsurf, 'pre_write_code', deny('protected file'))).toEqual({
      stdout: '',
      stderr: 'protected file\n',
      exitCode: 2,
      warnings: [],
    })
    const ask = answer(windsurf, 'pre_run_command', decision({ decision: 'ask', reason: 'sure?', decidedBy: 'g' }))
    expect(ask.exitCode).toBe(2)
    expect(ask.warnings).toEqual([
      "Windsurf cannot apply decision 'ask' on pre_run_command; answered with a block (exit 2): a hook wanted a person to confirm",
    ])
    expect(answer(windsurf, 'post_cascade_response', deny('x')).exitCode).toBe(0)
    expect(answer(windsurf, 'pre_read_code', decision({ systemMessage: 'read logged' })).stdout).toBe('read logged\n')
  })
  test('Kiro: only preToolUse blocks; context is stdout on agentSpawn and userPromptSubmit', () => {
    const kiro = named('kiro')
    expect(answer(kiro, 'preToolUse', deny('no'))).toMatchObject({ exitCode: 2, stderr: 'no\n' })
    const prompt = answer(kiro, 'userPromptSubmit', deny('secret'))
    expect(prompt.exitCode).toBe(0)
    expect(prompt.warnings).toEqual(['Kiro cannot apply a block on userPromptSubmit; the event proceeds'])
    expect(answer(kiro, 'agentSpawn', decision({ additionalContext: ['a', 'b'] })).stdout).toBe('a\n\nb\n')
    expect(answer(kiro, 'postToolUse', decision({ additionalContext: ['a'] })).warnings).toEqual([
      'Kiro cannot apply additionalContext on postToolUse; it was not sent',
    ])
  })
  test("Kiro CLI v3's triggers: exit 2 blocks PreToolUse, UserPromptSubmit and PreTaskExec; the events after the fact say so; v3-only names are Kiro's, Claude's names are not", () => {
    const kiro = named('kiro')
    for (const event of ['PreToolUse', 'UserPromptSubmit', 'PreTaskExec'])
      expect(answer(kiro, event, deny('no')), event).toMatchObject({ exitCode: 2, stderr: 'no\n' })
    for (const event of ['PostTaskExec', 'PostFileSave', 'PostFileDelete']) {
      const after = answer(kiro, event, deny('late'))
      expect(after.exitCode).toBe(0)
      expect(after.warnings).toEqual([`Kiro cannot apply a block on ${event}; it already happened`])
    }
    expect(answer(kiro, 'SessionStart', decision({ additionalContext: ['a'] })).stdout).toBe('a\n')
    for (const [name, canonical] of [
      ['PreTaskExec', 'task:start'],
      ['PostTaskExec', 'task:completed'],
      ['PostFileCreate', 'file:created'],
      ['PostFileSave', 'file:changed'],
      ['PostFileDelete', 'file:deleted'],
      ['Manual', 'user:trigger'],
      ['SessionStart', 'session:start'],
    ] as const) {
      expect(resolveAlias(name), name).toBe(canonical)
      expect(namesOf('kiro').has(name), name).toBe(true)
    }
    expect(resolveDialect(undefined, { hook_event_name: 'PreTaskExec', cwd: '/p' })?.name).toBe('kiro')
    expect(resolveDialect(undefined, { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: {} })?.name).not.toBe(
      'kiro',
    )
  })
})

describe('Crush answers', () => {
  const crush = named('crush')
  const json = (out: { stdout: string }) => JSON.parse(out.stdout)
  test('deny with reason, allow pre-approves, no opinion is {}; ask leaves the prompt to Crush', () => {
    expect(json(answer(crush, 'PreToolUse', deny('no')))).toEqual({ decision: 'deny', reason: 'no' })
    expect(json(answer(crush, 'PreToolUse', decision({ decidedBy: 'g' })))).toEqual({ decision: 'allow' })
    expect(json(answer(crush, 'PreToolUse', decision()))).toEqual({})
    const ask = answer(crush, 'PreToolUse', decision({ decision: 'ask', decidedBy: 'g' }))
    expect(json(ask)).toEqual({})
    expect(ask.warnings[0]).toMatch(/Crush's own permission prompt decides/)
  })
  test('context and updated_input on PreToolUse', () => {
    expect(
      json(
        answer(crush, 'PreToolUse', decision({ additionalContext: ['run gofumpt'], updatedInput: { command: 'bun test' } }), {
          tool_input: { command: 'npm test' },
        }),
      ),
    ).toEqual({
      context: 'run gofumpt',
      updated_input: { command: 'bun test' },
    })
  })
})

describe('Factory Droid and Qwen Code answer as Claude Code', () => {
  test("Droid: Claude Code's JSON, warnings in Droid's name", () => {
    const droid = named('droid')
    expect(JSON.parse(answer(droid, 'PreToolUse', deny('no')).stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    })
    expect(answer(droid, 'Notification', decision({ updatedPrompt: 'x' })).warnings[0]).toMatch(/^Factory Droid cannot apply updatedPrompt/)
  })
  test('Qwen: every permissionDecision has a reason; todo events block with decision block; SessionDelete takes nothing', () => {
    const qwen = named('qwen')
    expect(JSON.parse(answer(qwen, 'PreToolUse', decision({ decidedBy: 'g' })).stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: "allowed by hook 'g'",
    })
    expect(JSON.parse(answer(qwen, 'TodoCreated', deny('too short')).stdout)).toEqual({ decision: 'block', reason: 'too short' })
    expect(answer(qwen, 'SessionDelete', deny('x')).warnings).toEqual([
      'Qwen Code cannot apply a block on SessionDelete; the event proceeds',
    ])
  })
})
