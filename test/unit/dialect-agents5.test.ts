/**
 * The dialects of Grok Build, Antigravity CLI, Junie CLI, Hermes Agent and Deep Agents Code (issue
 * 36 §2), from their docs and source (none of them installs here: docs/agents/<agent>.md).
 */
import { describe, expect, test } from 'vitest'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { claude } from '../../src/agents/claude.ts'
import { cursor } from '../../src/agents/cursor.ts'
import { grok } from '../../src/agents/grok.ts'
import { antigravity } from '../../src/agents/antigravity.ts'
import { hermes } from '../../src/agents/hermes.ts'
import { junie } from '../../src/agents/junie.ts'
import { deepagents } from '../../src/agents/deepagents.ts'
import { agentRows } from '../../src/commands/agents.ts'
import { entryCaller } from '../../src/install/callers.ts'
import { makeDecision } from '../helpers.ts'

const BLOCK = { decision: 'deny' as const, blocked: true, reason: 'not yet', decidedBy: 'gate' }
/** Grok's bundled docs' sample (quoted by safe-chains 0.230 targets/grok.rs). */
const GROK = {
  hookEventName: 'pre_tool_use',
  sessionId: 'abc-123',
  cwd: '/Users/me/project/sub',
  workspaceRoot: '/Users/me/project',
  toolName: 'run_terminal_command',
  toolInput: { command: 'npm test' },
  timestamp: '2026-07-22T00:00:00Z',
}
const AGY = { toolCall: { name: 'run_command', args: { CommandLine: 'cat /etc/hosts' } }, workspacePaths: ['/w'] }
const HERMES = {
  hook_event_name: 'pre_tool_call',
  tool_name: 'terminal',
  tool_input: { command: 'ls' },
  session_id: 's',
  cwd: '/w',
  profile: 'default',
  extra: { task_id: 't' },
}

describe('Grok Build', () => {
  test("its camelCase payload is Grok's (not VS Code's or Copilot's); the snake_case event reads as Claude Code's name", () => {
    expect(resolveDialect(undefined, GROK)?.name).toBe('grok')
    const prepared = prepareDialect('grok', undefined, GROK)
    expect([prepared?.event, prepared?.agentEvent]).toEqual(['PreToolUse', 'PreToolUse'])
    expect(prepared?.payload.hook_event_name).toBe('PreToolUse')
  })

  test('a deny is decision deny with exit 2 and the reason on stderr; ask is answered deny, with a warning', () => {
    const denied = renderFor(grok, makeDecision(BLOCK), GROK, 'PreToolUse')
    expect([JSON.parse(denied.stdout), denied.exitCode, denied.stderr]).toEqual([{ decision: 'deny', reason: 'not yet' }, 2, 'not yet\n'])
    const asked = renderFor(grok, makeDecision({ decision: 'ask', reason: 'a person', decidedBy: 'gate' }), GROK, 'PreToolUse')
    expect(JSON.parse(asked.stdout)).toEqual({ decision: 'deny', reason: 'a person' })
    expect(asked.warnings).toEqual([
      "Grok Build cannot apply decision 'ask' on PreToolUse; answered deny: a hook wanted a person to confirm",
    ])
  })

  test('only PreToolUse blocks: a block on Stop is a warning, exit 0', () => {
    const stop = renderFor(grok, makeDecision(BLOCK), { ...GROK, hookEventName: 'stop' }, 'Stop')
    expect([stop.stdout, stop.exitCode]).toEqual(['{}\n', 0])
    expect(stop.warnings[0]).toContain('only PreToolUse blocks in Grok Build')
  })

  test("Grok running Claude Code's entry: Claude Code's dialect reads the event and answers in Grok's words", () => {
    const prepared = prepareDialect('claude', undefined, GROK)
    expect(prepared?.agentEvent).toBe('PreToolUse')
    expect(entryCaller(GROK, {}, 'claude')?.name).toBe('grok')
    const rendered = renderFor(claude, makeDecision(BLOCK), GROK, 'PreToolUse')
    expect([JSON.parse(rendered.stdout), rendered.exitCode]).toEqual([{ decision: 'deny', reason: 'not yet' }, 2])
    // Cursor's entry run by Grok: the event in Cursor's name, the answer in Grok's words.
    expect(prepareDialect('cursor', undefined, GROK)?.agentEvent).toBe('preToolUse')
    expect(prepareDialect('cursor', undefined, { ...GROK, hookEventName: 'user_prompt_submit' })?.agentEvent).toBe('beforeSubmitPrompt')
    const cursorEntry = renderFor(cursor, makeDecision(BLOCK), GROK, 'preToolUse')
    expect([JSON.parse(cursorEntry.stdout), cursorEntry.exitCode]).toEqual([{ decision: 'deny', reason: 'not yet' }, 2])
    // VS Code's payload (hookEventName without workspaceRoot) is still VS Code's.
    expect(entryCaller({ hookEventName: 'PreToolUse', tool_name: 'Bash' }, {}, 'claude')?.name).toBe('vscode')
  })
})

describe('Antigravity CLI', () => {
  test('its toolCall payload: the tool and the shell command as every agent has them', () => {
    expect(resolveDialect(undefined, AGY)?.name).toBe('antigravity')
    const prepared = prepareDialect('antigravity', 'PreToolUse', AGY)
    expect(prepared?.tool).toBe('run_command')
    expect(prepared?.payload.tool_input).toEqual({ CommandLine: 'cat /etc/hosts', command: 'cat /etc/hosts' })
  })

  test('every PreToolUse answer has a decision (agy fails closed on none): allow without an opinion, force_ask for ask', () => {
    expect(JSON.parse(renderFor(antigravity, makeDecision({}), AGY, 'PreToolUse').stdout)).toEqual({ decision: 'allow' })
    expect(JSON.parse(renderFor(antigravity, makeDecision(BLOCK), AGY, 'PreToolUse').stdout)).toEqual({
      decision: 'deny',
      reason: 'not yet',
    })
    const ask = renderFor(antigravity, makeDecision({ decision: 'ask', reason: 'confirm', decidedBy: 'g' }), AGY, 'PreToolUse')
    expect(JSON.parse(ask.stdout)).toEqual({ decision: 'force_ask', reason: 'confirm' })
  })
})

describe('Hermes Agent', () => {
  test("its payload is Hermes' (profile, extra); block, modify and context in its words", () => {
    expect(resolveDialect(undefined, HERMES)?.name).toBe('hermes')
    expect(resolveDialect(undefined, { ...HERMES, profile: undefined, extra: undefined })?.name).not.toBe('hermes')
    expect(JSON.parse(renderFor(hermes, makeDecision(BLOCK), HERMES, 'pre_tool_call').stdout)).toEqual({
      decision: 'block',
      reason: 'not yet',
    })
    const modify = renderFor(hermes, makeDecision({ updatedInput: { command: 'ls -a' } }), HERMES, 'pre_tool_call')
    expect(JSON.parse(modify.stdout)).toEqual({ decision: 'modify', tool_input: { command: 'ls -a' } })
    const context = renderFor(
      hermes,
      makeDecision({ additionalContext: ['read NOTES.md'] }),
      { ...HERMES, hook_event_name: 'pre_llm_call' },
      'pre_llm_call',
    )
    expect(JSON.parse(context.stdout)).toEqual({ context: 'read NOTES.md' })
    // pre_verify: a block sends the agent back to work.
    expect(JSON.parse(renderFor(hermes, makeDecision(BLOCK), HERMES, 'pre_verify').stdout)).toEqual({
      decision: 'block',
      reason: 'not yet',
    })
  })
})

describe('Junie CLI and Deep Agents Code never block', () => {
  test('a block is a warning and exit 0, nothing is printed; `hookrun agents` says a gate there is advisory', () => {
    for (const [dialect, event] of [
      [junie, 'SessionStart'],
      [deepagents, 'permission.request'],
    ] as const) {
      const rendered = renderFor(dialect, makeDecision(BLOCK), {}, event)
      expect([rendered.stdout, rendered.exitCode]).toEqual(['', 0])
      expect(rendered.warnings[0]).toContain(`${dialect.label} cannot apply a block on ${event}`)
      const row = agentRows().find((each) => each.agent === dialect.name)!
      expect(row.caveats?.[0]).toContain('a gate there is advisory')
      expect(row.events.every((each) => each.honours.length === 0)).toBe(true)
    }
  })

  test("Deep Agents Code's dotted event in `event` is its own; Junie's payload reads as Claude Code's unless named", () => {
    expect(resolveDialect(undefined, { event: 'session.start', thread_id: 'abc' })?.name).toBe('deepagents')
    expect(resolveDialect(undefined, { hook_event_name: 'SessionStart', session_id: 's', cwd: '/w' })?.name).toBe('claude')
    expect(prepareDialect('junie', undefined, { hook_event_name: 'SessionStart' })?.agentEvent).toBe('SessionStart')
  })
})
