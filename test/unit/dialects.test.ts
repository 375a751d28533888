import { makeDecision } from '../helpers.ts'
import { describe, expect, test } from 'vitest'
import { mayBeAgentPayload } from '../../src/agents/hint.ts'
import { prepareDialect, resolveDialect } from '../../src/dialect.ts'
import type { Dialect } from '../../src/agents/types.ts'
import type { Decision } from '../../src/core/protocol.ts'

/** Payloads as each agent's documentation shows them (sources in src/agents/*.ts). */
const PAYLOADS = {
  claude: {
    session_id: 'abc',
    transcript_path: '/t.jsonl',
    cwd: '/p',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'npm test' },
    tool_use_id: 'toolu_1',
  },
  claudeMessageDisplay: {
    session_id: 'abc',
    hook_event_name: 'MessageDisplay',
    turn_id: 't1',
    message_id: 'm',
    index: 0,
    final: false,
    delta: 'x',
  },
  codex: {
    session_id: 's',
    transcript_path: null,
    cwd: '/p',
    hook_event_name: 'PreToolUse',
    model: 'gpt-5-codex',
    turn_id: 'turn-1',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
    tool_use_id: 'c1',
  },
  cursorShell: {
    conversation_id: 'c',
    generation_id: 'g',
    hook_event_name: 'beforeShellExecution',
    workspace_roots: ['/p'],
    command: 'npm install',
    cwd: '/p',
  },
  cursorStop: {
    conversation_id: 'c',
    generation_id: 'g',
    hook_event_name: 'stop',
    workspace_roots: ['/p'],
    status: 'completed',
    loop_count: 0,
  },
  geminiTool: {
    session_id: 's',
    transcript_path: '/t',
    cwd: '/p',
    hook_event_name: 'BeforeTool',
    timestamp: '2026-01-10T10:30:00Z',
    tool_name: 'write_file',
    tool_input: { file_path: '/p/a.ts', content: 'x' },
  },
  geminiStart: {
    session_id: 's',
    transcript_path: '/t',
    cwd: '/p',
    hook_event_name: 'SessionStart',
    timestamp: '2026-01-10T10:30:00Z',
    source: 'startup',
  },
  claudeStart: {
    session_id: 's',
    transcript_path: '/t',
    cwd: '/p',
    hook_event_name: 'SessionStart',
    source: 'startup',
    model: 'claude-opus',
  },
  copilotTool: { sessionId: 'sess', timestamp: 1704614600000, cwd: '/p', toolName: 'bash', toolArgs: '{"command":"rm -rf dist"}' },
  copilotNotification: {
    sessionId: 'sess',
    timestamp: 1704614600000,
    cwd: '/p',
    hook_event_name: 'Notification',
    message: 'm',
    notification_type: 'agent_idle',
  },
  native: { tool_name: 'bash', tool_input: { command: 'ls' } },
}

const decision = makeDecision
const deny = (reason = 'no', over: Partial<Decision> = {}) =>
  decision({ decision: 'deny', blocked: true, reason, decidedBy: 'gate', ...over })

function answer(dialect: Dialect, agentEvent: string, over: Decision) {
  const out = dialect.render(over, {}, agentEvent)
  return { json: JSON.parse(out.stdout.trim().split('\n').at(-1)!), stdout: out.stdout, exitCode: out.exitCode, warnings: out.warnings }
}
const named = (name: string) => resolveDialect(name, {})!

describe('which agent sent it', () => {
  test.each([
    ['claude', 'claude'],
    ['claudeMessageDisplay', 'claude'],
    ['claudeStart', 'claude'],
    ['codex', 'codex'],
    ['cursorShell', 'cursor'],
    ['cursorStop', 'cursor'],
    ['geminiTool', 'gemini'],
    ['geminiStart', 'gemini'],
    ['copilotTool', 'copilot'],
    ['copilotNotification', 'copilot'],
  ] as const)('%s payload → %s', (payload, dialect) => {
    expect(mayBeAgentPayload(PAYLOADS[payload])).toBe(true)
    expect(resolveDialect(undefined, PAYLOADS[payload])?.name).toBe(dialect)
  })
  test("hookrun's own payloads are hookrun's, and are not even looked at", () => {
    expect(mayBeAgentPayload(PAYLOADS.native)).toBe(false)
    expect(resolveDialect(undefined, PAYLOADS.native)).toBeUndefined()
    expect(resolveDialect(undefined, { hook_event_name: 'tool:pre_execute' })).toBeUndefined()
  })
  test('--format wins over detection', () => {
    expect(resolveDialect('claude', PAYLOADS.codex)?.name).toBe('claude')
    expect(resolveDialect('hookrun', PAYLOADS.cursorShell)).toBeUndefined()
  })
})

describe('reading an agent payload', () => {
  test("Cursor's shell event is tool:pre_execute with its Shell tool; the command becomes tool_input", () => {
    const prepared = prepareDialect(undefined, undefined, PAYLOADS.cursorShell)!
    expect(prepared).toMatchObject({ event: 'beforeShellExecution', agentEvent: 'beforeShellExecution', tool: 'Shell' })
    expect(prepared.payload).toEqual({ ...PAYLOADS.cursorShell, tool_input: { command: 'npm install', cwd: '/p' } })
  })
  test('Copilot names the event on the command line; toolArgs (a JSON string) becomes tool_input', () => {
    const prepared = prepareDialect('copilot', 'preToolUse', PAYLOADS.copilotTool)!
    expect(prepared).toMatchObject({ event: 'preToolUse', agentEvent: 'preToolUse' })
    expect(prepared.payload.tool_input).toEqual({ command: 'rm -rf dist' })
    expect(prepared.payload.toolArgs).toBe(PAYLOADS.copilotTool.toolArgs)
    expect(() => prepareDialect('copilot', undefined, PAYLOADS.copilotTool)).toThrow(/hookrun fire preToolUse --format copilot/)
  })
  test("a canonical event on the command line gives the agent's name for it", () => {
    expect(prepareDialect('cursor', 'tool:pre_execute', {})?.agentEvent).toBe('preToolUse')
    expect(prepareDialect('gemini', 'agent:stop', {})?.agentEvent).toBe('AfterAgent')
    expect(prepareDialect('copilot', 'user:prompt_submit', {})?.agentEvent).toBe('userPromptSubmitted')
  })
})

describe('Cursor answers', () => {
  const cursor = named('cursor')
  test('permission events: deny with both messages; ask only where Cursor takes it', () => {
    expect(answer(cursor, 'beforeShellExecution', deny('no rm')).json).toEqual({
      permission: 'deny',
      user_message: 'no rm',
      agent_message: 'no rm',
    })
    expect(answer(cursor, 'beforeMCPExecution', decision({ decision: 'ask', reason: 'sure?', decidedBy: 'g' })).json.permission).toBe('ask')
    const preTool = answer(cursor, 'preToolUse', decision({ decision: 'ask', reason: 'sure?', decidedBy: 'g' }))
    expect(preTool.json.permission).toBe('deny')
    expect(preTool.warnings).toEqual([
      "Cursor cannot apply permission 'ask' on preToolUse; answered deny: a hook wanted a person to confirm",
    ])
  })
  test('no decision is {} (Cursor needs JSON); a rewrite is updated_input on preToolUse only', () => {
    expect(answer(cursor, 'preToolUse', decision()).json).toEqual({})
    expect(answer(cursor, 'preToolUse', decision({ updatedInput: { command: 'ls' } })).json).toEqual({ updated_input: { command: 'ls' } })
    expect(answer(cursor, 'beforeShellExecution', decision({ updatedInput: { command: 'ls' } })).warnings).toEqual([
      'Cursor cannot apply updatedInput on beforeShellExecution; it was not sent',
    ])
  })
  test('beforeSubmitPrompt blocks with continue: false; stop keeps going with followup_message', () => {
    expect(answer(cursor, 'beforeSubmitPrompt', deny('secret in prompt')).json).toEqual({
      continue: false,
      user_message: 'secret in prompt',
    })
    expect(answer(cursor, 'stop', deny('run the tests', { keepGoing: true })).json).toEqual({ followup_message: 'run the tests' })
  })
  test('context goes where Cursor takes it, and nowhere else silently', () => {
    expect(answer(cursor, 'sessionStart', decision({ additionalContext: ['a', 'b'] })).json).toEqual({ additional_context: 'a\n\nb' })
    const post = answer(cursor, 'postToolUse', deny('lint failed'))
    expect(post.json).toEqual({ additional_context: 'lint failed' })
    expect(post.warnings[0]).toMatch(/^Cursor cannot apply a block on postToolUse/)
    expect(answer(cursor, 'afterFileEdit', decision({ additionalContext: ['x'], suppressOutput: true })).warnings).toEqual([
      'Cursor cannot apply additionalContext on afterFileEdit; it was not sent',
      'Cursor cannot apply suppressOutput on afterFileEdit; it was not sent',
    ])
  })
})

describe('Gemini CLI answers', () => {
  const gemini = named('gemini')
  test('BeforeTool: decision, reason, and a rewrite as hookSpecificOutput.tool_input', () => {
    expect(answer(gemini, 'BeforeTool', deny('no')).json).toEqual({ decision: 'deny', reason: 'no' })
    expect(answer(gemini, 'BeforeTool', decision({ updatedInput: { command: 'ls' } })).json).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'ls' } },
    })
    expect(answer(gemini, 'BeforeTool', decision()).json).toEqual({})
  })
  test('AfterAgent: a block makes Gemini retry with the reason; continue: false stops the loop', () => {
    expect(answer(gemini, 'AfterAgent', deny('fix the tests', { keepGoing: true })).json).toEqual({
      decision: 'deny',
      reason: 'fix the tests',
    })
    expect(answer(gemini, 'BeforeTool', decision({ continue: false, stopReason: 'enough' })).json).toEqual({
      continue: false,
      stopReason: 'enough',
    })
  })
  test('SessionStart takes context but cannot be blocked; BeforeToolSelection takes none of the common fields', () => {
    const start = answer(gemini, 'SessionStart', deny('no', { additionalContext: ['ctx'] }))
    expect(start.json).toEqual({ systemMessage: 'no', hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } })
    expect(start.warnings).toEqual(['Gemini CLI cannot apply a block on SessionStart; reported as a system message'])
    expect(answer(gemini, 'BeforeToolSelection', decision({ systemMessage: 'm' })).warnings).toEqual([
      'Gemini CLI cannot apply systemMessage on BeforeToolSelection; it was not sent',
    ])
  })
})

describe('Codex answers (stricter than Claude Code)', () => {
  const codex = named('codex')
  test('PreToolUse: deny with a reason; allow only with updatedInput; ask becomes deny', () => {
    expect(answer(codex, 'PreToolUse', deny('no')).json).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    })
    expect(answer(codex, 'PreToolUse', deny('')).json.hookSpecificOutput.permissionDecisionReason).toBe("blocked by hook 'gate'")
    expect(answer(codex, 'PreToolUse', decision({ decidedBy: 'g', updatedInput: { command: 'ls' } })).json).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls' } },
    })
    expect(answer(codex, 'PreToolUse', decision({ decidedBy: 'g' }))).toMatchObject({
      json: {},
      warnings: [expect.stringMatching(/^Codex cannot apply decision 'allow' on PreToolUse/)],
    })
    expect(answer(codex, 'PreToolUse', decision({ updatedInput: { command: 'ls' } })).warnings[0]).toMatch(
      /only with an allow, and no hook allowed/,
    )
    expect(
      answer(codex, 'PreToolUse', decision({ decision: 'ask', decidedBy: 'g', reason: 'sure?' })).json.hookSpecificOutput
        .permissionDecision,
    ).toBe('deny')
  })
  test('PreToolUse refuses continue: false and suppressOutput; Stop takes decision: block but no context', () => {
    expect(answer(codex, 'PreToolUse', decision({ continue: false, suppressOutput: true })).warnings).toEqual([
      'Codex cannot apply continue: false on PreToolUse; it was not sent',
      'Codex cannot apply suppressOutput on PreToolUse; it was not sent',
    ])
    const stop = answer(codex, 'Stop', deny('tests fail', { keepGoing: true, additionalContext: ['c'] }))
    expect(stop.json).toEqual({ decision: 'block', reason: 'tests fail' })
    expect(stop.warnings).toEqual(['Codex cannot apply additionalContext on Stop; it was not sent'])
  })
})

describe('Copilot answers', () => {
  const copilot = named('copilot')
  test('preToolUse: permissionDecision with a reason; a rewrite is modifiedArgs', () => {
    expect(answer(copilot, 'preToolUse', deny('no')).json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'no' })
    expect(answer(copilot, 'preToolUse', decision({ decidedBy: 'g', updatedInput: { command: 'ls' } })).json).toEqual({
      permissionDecision: 'allow',
      modifiedArgs: { command: 'ls' },
    })
    expect(answer(copilot, 'preToolUse', decision()).json).toEqual({})
  })
  test('agentStop blocks with decision: block; permissionRequest with behavior, interrupt for continue: false', () => {
    expect(answer(copilot, 'agentStop', deny('more', { keepGoing: true })).json).toEqual({ decision: 'block', reason: 'more' })
    expect(answer(copilot, 'permissionRequest', deny('never', { continue: false })).json).toEqual({
      behavior: 'deny',
      message: 'never',
      interrupt: true,
    })
  })
  test('userPromptSubmitted takes context but no block; systemMessage is a progress line', () => {
    expect(answer(copilot, 'userPromptSubmitted', deny('secret')).warnings).toEqual([
      'Copilot cannot apply a block on userPromptSubmitted; the event proceeds',
    ])
    // Copilot CLI 1.0.102 appends it to the prompt (the agent lab's context scenario).
    expect(answer(copilot, 'userPromptSubmitted', decision({ additionalContext: ['ctx'] }))).toMatchObject({
      json: { additionalContext: 'ctx' },
      warnings: [],
    })
    const out = answer(copilot, 'sessionStart', decision({ systemMessage: 'hello\nthere', additionalContext: ['ctx'] }))
    expect(out.stdout).toBe('{"type":"progress","message":"hello there"}\n{"additionalContext":"ctx"}\n')
  })
})

describe('every dialect answers on exit 0', () => {
  test.each(['claude', 'cursor', 'gemini', 'codex', 'copilot'])('%s', (name) => {
    expect(named(name).render(deny('no'), {}, undefined).exitCode).toBe(0)
  })
})
