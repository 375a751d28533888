import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { ENV_VALUE_CAP, hookEnvironment } from '../../src/run/env.ts'
import { qualifyEvent } from '../../src/event/event.ts'

const context = { hookName: 'h', projectDir: '/p', configDir: '/p/.hookrun', depth: 0 }

describe('hookEnvironment', () => {
  const payload = { session_id: 's1', tool_name: 'bash', tool_input: { command: 'ls' }, tool_output: 'x'.repeat(20_000), model: 'gpt', turn_number: 3 }
  test('HOOKRUN_* from the event and payload, long values capped, internals scrubbed', () => {
    const env = hookEnvironment({ BUN_OPTIONS: '--smol', KEEP: '1' }, qualifyEvent('tool_end', payload), payload, context, { OWN: 'yes' })
    expect(env).toMatchObject({ KEEP: '1', OWN: 'yes', HOOKRUN_EVENT: 'tool:post_execute', HOOKRUN_QUALIFIED_EVENT: 'tool:post_execute:bash', HOOKRUN_TOOL_ERROR: 'false', HOOKRUN_DEPTH: '1' })
    expect(env.HOOKRUN_TOOL_OUTPUT).toHaveLength(10_000)
    expect(env.BUN_OPTIONS).toBeUndefined()
  })
  test("pigo's variable names", () => {
    const env = hookEnvironment({}, qualifyEvent('tool_start', payload), payload, context, undefined, ['PIGO_'])
    expect(env).toMatchObject({ PIGO_EVENT: 'tool_start', PIGO_TOOL_NAME: 'bash', PIGO_TOOL_INPUT: 'ls', PIGO_TOOL_ARGS: '{"command":"ls"}', PIGO_MODEL: 'gpt', PIGO_TURN_NUMBER: '3' })
  })
  test("Code-Forge's variable names", () => {
    const env = hookEnvironment({}, qualifyEvent('tool:pre_execute', payload), { ...payload, permission_mode: 'ask' }, context, undefined, ['FORGE_'])
    expect(env).toMatchObject({ FORGE_EVENT: 'tool:pre_execute', FORGE_SESSION_ID: 's1', FORGE_TOOL_ARGS: '{"command":"ls"}', FORGE_LLM_MODEL: 'gpt', FORGE_PERM_LEVEL: 'ask' })
  })
  test('any other prefix mirrors every HOOKRUN_* name', () => {
    const env = hookEnvironment({}, qualifyEvent('session:start', {}), {}, context, undefined, ['MY_'])
    expect(env.MY_EVENT).toBe('session:start')
    expect(env.MY_HOOK_NAME).toBe('h')
  })
})

function toolArgs(toolInput: unknown): string | undefined {
  const payload = { tool_name: 'Write', tool_input: toolInput }
  return hookEnvironment({}, qualifyEvent('tool:pre_execute', payload), payload, context, undefined).HOOKRUN_TOOL_ARGS
}

describe('HOOKRUN_TOOL_ARGS', () => {
  test('is the tool input as JSON, cut at ENV_VALUE_CAP characters, even when a string in it is huge', () => {
    const input = { file_path: '/x', content: `a"\\\n\u2028é${'x'.repeat(3 * ENV_VALUE_CAP)}`, after: [1, 2] }
    expect(toolArgs(input)).toBe(JSON.stringify(input).slice(0, ENV_VALUE_CAP))
    expect(toolArgs(input)).toHaveLength(ENV_VALUE_CAP)
  })

  test('keeps every key, even one named __proto__', () => {
    const input = JSON.parse('{"__proto__":{"x":1},"command":"ls"}')
    expect(toolArgs(input)).toBe('{"__proto__":{"x":1},"command":"ls"}')
  })

  test('equals the cut full JSON for any tool input', () => {
    // Long strings with characters JSON escapes, around the cap, anywhere in the input.
    const text = fc.oneof(fc.string(), fc.string({ minLength: ENV_VALUE_CAP - 5, maxLength: ENV_VALUE_CAP + 5, unit: fc.constantFrom('a', '"', '\\', '\n', 'é', '\u0001', '😀') }))
    const input = fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.integer()), { maxKeys: 4 })
    fc.assert(
      fc.property(input, (value) => {
        expect(toolArgs(value)).toBe(JSON.stringify(value).slice(0, ENV_VALUE_CAP))
      }),
      { numRuns: 200 },
    )
  })
})
