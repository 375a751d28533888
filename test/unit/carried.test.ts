import { describe, expect, test } from 'vitest'
import { decide } from '../../src/answer/decide.ts'
import { parseAnswer } from '../../src/answer/parse.ts'
import type { HookResult } from '../../src/core/types.ts'
import { renderFor } from '../../src/dialect.ts'
import { claude } from '../../src/agents/claude.ts'
import { windsurf } from '../../src/agents/windsurf.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { makeDecision } from '../helpers.ts'

// Answer fields hookrun carries to the agents that take them (CARRIED_FIELDS), and warns about elsewhere.
const result = (name: string, answer: unknown): HookResult => ({
  report: { name, source: 'project', file: '/p', outcome: 'allow', exitCode: 0, durationMs: 1, timedOut: false },
  blocks: false,
  answer: parseAnswer(JSON.stringify(answer)).answer,
  context: [],
  warnings: [],
})

describe('carried answer fields', () => {
  const event = qualifyEvent('BeforeToolSelection', {})
  test('tool configs merge as Gemini merges them; NONE allows no function', () => {
    const merged = decide(
      event,
      [
        result('a', { toolConfig: { mode: 'ANY', allowedFunctionNames: ['b', 'a'] } }),
        result('b', { hookSpecificOutput: { toolConfig: { mode: 'NONE' } } }),
      ],
      {},
      [],
    )
    expect(merged.toolConfig).toEqual({ mode: 'NONE', allowedFunctionNames: [] })
  })
  test('the last hook in config order gives llm_request', () => {
    const decision = decide(
      event,
      [result('a', { hookSpecificOutput: { llm_request: { model: 'x' } } }), result('b', { llm_request: { model: 'y' } })],
      {},
      [],
    )
    expect(decision.llmRequest).toEqual({ model: 'y' })
  })
  test('an agent that takes a field gets it; elsewhere the warning names the field, the agent and the event', () => {
    const decision = makeDecision({ updatedMCPToolOutput: { content: [] }, toolConfig: { mode: 'AUTO' } })
    const rendered = renderFor(claude, decision, { hook_event_name: 'PostToolUse' })
    expect(JSON.parse(rendered.stdout).hookSpecificOutput.updatedMCPToolOutput).toEqual({ content: [] })
    expect(rendered.warnings).toEqual(['Claude Code cannot apply toolConfig on PostToolUse; it was not sent'])
  })
  test('a dialect that declares no carried fields still warns about each one (renderFor)', () => {
    const rendered = renderFor(
      windsurf,
      makeDecision({ llmResponse: { text: 'x' } }),
      { agent_action_name: 'post_cascade_response' },
      'post_cascade_response',
    )
    expect(rendered.warnings).toContain(`${windsurf.label} cannot apply llmResponse on post_cascade_response; it was not sent`)
  })
})
