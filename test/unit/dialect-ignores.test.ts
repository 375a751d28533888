import { describe, expect, test } from 'vitest'
import { noticeChannels, renderFor, resolveDialect } from '../../src/dialect.ts'
import { ignoredFieldWarnings } from '../../src/agents/shared.ts'
import { makeDecision } from '../helpers.ts'

/** Issue 27 §4.1–4.2: what an agent ignores is said out loud; hookrun's notices take a channel the agent shows. */
const dialect = (name: string) => resolveDialect(name, {})!
const qwenPayload = (event: string) => ({
  hook_event_name: event,
  session_id: 's',
  timestamp: '2026-11-01T00:00:00Z',
  tool_name: 'run_shell_command',
  tool_input: { command: 'ls' },
})

describe('answer fields an agent ignores', () => {
  test('Qwen Code: a PreToolUse rewrite is rendered and warned about in one line', () => {
    const decision = makeDecision({ decision: 'allow', decidedBy: 'rewrite', updatedInput: { command: 'ls -la' } })
    const rendered = renderFor(dialect('qwen'), decision, qwenPayload('PreToolUse'))
    expect(rendered.warnings).toEqual([
      'Qwen Code ignores updatedInput on PreToolUse: Qwen Code applies a rewrite only from a PermissionRequest allow, so the tool runs with its original input',
    ])
    expect(rendered.warnings.every((warning) => !warning.includes('\n'))).toBe(true)
  })

  test('Qwen Code: a PermissionRequest allow with a rewrite is not warned about', () => {
    const decision = makeDecision({ decision: 'allow', decidedBy: 'rewrite', updatedInput: { command: 'ls -la' } })
    const rendered = renderFor(dialect('qwen'), decision, qwenPayload('PermissionRequest'))
    expect(rendered.warnings).toEqual([])
    expect(JSON.parse(rendered.stdout).hookSpecificOutput.decision).toEqual({ behavior: 'allow', updatedInput: { command: 'ls -la' } })
  })

  test('the table is data: any dialect, any field, any event', () => {
    const goose = {
      label: 'Goose',
      ignores: [{ field: 'updatedInput' as const, events: ['PreToolUse'], why: 'it runs the original input' }],
    }
    expect(ignoredFieldWarnings(goose, makeDecision({ updatedInput: {} }), 'PreToolUse')).toEqual([
      'Goose ignores updatedInput on PreToolUse: it runs the original input',
    ])
    expect(ignoredFieldWarnings(goose, makeDecision({}), 'PreToolUse')).toEqual([])
    expect(ignoredFieldWarnings(goose, makeDecision({ updatedInput: {} }), 'PostToolUse')).toEqual([])
  })
})

describe("hookrun's notices take a channel the agent shows on the event", () => {
  test('Claude Code shows systemMessage; Qwen Code shows none headless (agent lab), so the model gets it as context', () => {
    expect(noticeChannels(dialect('claude'), 'SessionStart')).toEqual(['systemMessage'])
    expect(noticeChannels(dialect('qwen'), 'SessionStart')).toEqual(['additionalContext'])
    expect(noticeChannels(dialect('qwen'), 'UserPromptSubmit')).toEqual(['additionalContext'])
    // Where Qwen takes no context either, the notice waits for an event that does.
    expect(noticeChannels(dialect('qwen'), 'Notification')).toEqual([])
  })

  test('Codex shows the person nothing: the model gets it as context where Codex takes context', () => {
    expect(noticeChannels(dialect('codex'), 'SessionStart')).toEqual(['additionalContext'])
    expect(noticeChannels(dialect('codex'), 'Stop')).toEqual([])
  })

  test('Copilot: its progress line, and context where it takes it (json output shows no progress line)', () => {
    expect(noticeChannels(dialect('copilot'), 'sessionStart')).toEqual(['systemMessage', 'additionalContext'])
    expect(noticeChannels(dialect('copilot'), 'preToolUse')).toEqual(['systemMessage'])
  })

  test('Kiro and Crush show no message: context where they take it', () => {
    expect(noticeChannels(dialect('kiro'), 'agentSpawn')).toEqual(['additionalContext'])
    expect(noticeChannels(dialect('kiro'), 'preToolUse')).toEqual([])
    expect(noticeChannels(dialect('crush'), 'PreToolUse')).toEqual(['additionalContext'])
  })
})
