import { describe, expect, test } from 'vitest'
import type { Decision } from '../../src/core/protocol.ts'
import { prepareDialect, renderFor } from '../../src/dialect.ts'
import { loadAgentsFor } from '../../src/agents/loaded.ts'

// The agents these tests name, loaded as a fire loads them (src/agents/loaded.ts).
await loadAgentsFor(undefined)

/** VS Code's own agent hooks run Copilot's .github/hooks files: `--format copilot` answers them in VS Code's shape (issue 30 §3). */
const BASE: Decision = {
  event: 'tool:pre_execute',
  decision: 'allow',
  blocked: false,
  continue: true,
  additionalContext: [],
  hooks: [],
  warnings: [],
}
// VS Code's common input fields (code.visualstudio.com/docs/agent-customization/hooks#common-input-fields)
const common = (hookEventName: string) => ({
  timestamp: '2026-02-09T10:30:00.000Z',
  cwd: '/w',
  sessionId: 's',
  hookEventName,
  transcript_path: '/t.json',
})

function answer(copilotEvent: string, hookEventName: string, decision: Partial<Decision>) {
  const prepared = prepareDialect('copilot', copilotEvent, common(hookEventName))!
  const rendered = renderFor(prepared.dialect, { ...BASE, ...decision }, prepared.payload, prepared.agentEvent)
  return { json: JSON.parse(rendered.stdout) as Record<string, unknown>, warnings: rendered.warnings }
}

describe("--format copilot with VS Code's payload", () => {
  test('is told from Copilot CLI by hookEventName, also without --format', () => {
    expect(
      prepareDialect(undefined, 'preToolUse', { ...common('PreToolUse'), tool_name: 'runTerminalCommand', tool_input: {} })?.dialect.name,
    ).toBe('copilot')
    // Copilot CLI's own payload keeps Copilot's answer
    const cli = prepareDialect('copilot', 'preToolUse', { sessionId: 's', timestamp: 1, toolName: 'bash', toolArgs: '{}' })!
    expect(
      JSON.parse(
        renderFor(cli.dialect, { ...BASE, decision: 'deny', blocked: true, reason: 'no', decidedBy: 'h' }, cli.payload, cli.agentEvent)
          .stdout,
      ),
    ).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'no' })
  })

  test('a deny is hookSpecificOutput.permissionDecision, named in PascalCase', () => {
    const { json } = answer('preToolUse', 'PreToolUse', { decision: 'deny', blocked: true, reason: 'no', decidedBy: 'h' })
    expect(json).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    })
  })

  test('context goes only where VS Code takes it, and each dropped field is named with VS Code', () => {
    expect(answer('sessionStart', 'SessionStart', { additionalContext: ['c'] }).json).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'c' },
    })
    const prompt = answer('userPromptSubmitted', 'UserPromptSubmit', { additionalContext: ['c'] })
    expect(prompt.json).toEqual({})
    expect(prompt.warnings).toEqual(['VS Code cannot apply additionalContext on UserPromptSubmit; it was not sent'])
    const post = answer('postToolUse', 'PostToolUse', { updatedToolOutput: 'x' } as Partial<Decision>)
    expect(post.json).toEqual({})
    expect(post.warnings).toEqual(['VS Code cannot apply updatedToolOutput on PostToolUse; it was not sent'])
  })

  test("Stop's block is in hookSpecificOutput; SubagentStop's at the top level, as VS Code documents each", () => {
    const block = { decision: 'deny' as const, blocked: true, reason: 'tests first', decidedBy: 'h' }
    expect(answer('agentStop', 'Stop', block).json).toEqual({
      hookSpecificOutput: { hookEventName: 'Stop', decision: 'block', reason: 'tests first' },
    })
    expect(answer('subagentStop', 'SubagentStop', block).json).toEqual({ decision: 'block', reason: 'tests first' })
  })

  test('a block on PreCompact, which takes no decision, stops the session rather than let it through', () => {
    const { json, warnings } = answer('preCompact', 'PreCompact', { decision: 'deny', blocked: true, reason: 'keep it', decidedBy: 'h' })
    expect(json).toEqual({ continue: false, stopReason: 'keep it' })
    expect(warnings).toEqual(['VS Code takes no block on PreCompact: hookrun stopped the session with continue: false'])
  })
})
