import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { ENV_VALUE_CAP, envValueBytes, hookEnvironment } from '../../src/run/env.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { cutUtf8 } from '../helpers.ts'

const context = { hookName: 'h', projectDir: '/p', configDir: '/p/.hookrun', depth: 0 }

describe('hookEnvironment', () => {
  const payload = {
    session_id: 's1',
    tool_name: 'bash',
    tool_input: { command: 'ls' },
    tool_output: 'x'.repeat(200_000),
    model: 'gpt',
    turn_number: 3,
  }
  test('HOOKRUN_* from the event and payload, internals scrubbed', () => {
    const env = hookEnvironment({ BUN_OPTIONS: '--smol', KEEP: '1' }, qualifyEvent('tool_end', payload), payload, context, { OWN: 'yes' })
    expect(env).toMatchObject({
      KEEP: '1',
      OWN: 'yes',
      HOOKRUN_EVENT: 'tool:post_execute',
      HOOKRUN_QUALIFIED_EVENT: 'tool:post_execute:bash',
      HOOKRUN_TOOL_ERROR: 'false',
      HOOKRUN_DEPTH: '1',
    })
    expect(env.BUN_OPTIONS).toBeUndefined()
  })

  test("a tool_error that is a message (Auggie's) is an error; null is none", () => {
    const failed = { ...payload, tool_error: 'exit code 3' }
    expect(hookEnvironment({}, qualifyEvent('tool_end', failed), failed, context, undefined).HOOKRUN_TOOL_ERROR).toBe('true')
    const fine = { ...payload, tool_error: null }
    expect(hookEnvironment({}, qualifyEvent('tool_end', fine), fine, context, undefined).HOOKRUN_TOOL_ERROR).toBe('false')
  })

  test('a value is whole up to what Linux allows in one variable (128 KiB with its name); past that it is cut and its _TRUNCATED variable says so', () => {
    const name = 'HOOKRUN_TOOL_OUTPUT'
    expect(ENV_VALUE_CAP).toBe(128 * 1024 - 2 - 'HOOKRUN_ASSISTANT_MESSAGE'.length)
    // 12,000 characters: the 10,000 of before would have cut it without a sign.
    const whole = hookEnvironment(
      { HOOKRUN_TOOL_OUTPUT_TRUNCATED: '1' },
      qualifyEvent('tool_end', payload),
      { ...payload, tool_output: 'y'.repeat(12_000) },
      context,
      undefined,
    )
    expect(whole[name]).toHaveLength(12_000)
    // A nested fire does not inherit the outer hook's flag.
    expect(whole.HOOKRUN_TOOL_OUTPUT_TRUNCATED).toBeUndefined()
    const cut = hookEnvironment({}, qualifyEvent('tool_end', payload), payload, context, undefined)
    expect(cut[name]).toHaveLength(ENV_VALUE_CAP)
    expect(Buffer.byteLength(`${name}=${cut[name]}`) + 1).toBeLessThanOrEqual(128 * 1024)
    expect(cut.HOOKRUN_TOOL_OUTPUT_TRUNCATED).toBe('1')
    expect(cut.HOOKRUN_BASH_COMMAND_TRUNCATED).toBeUndefined()
    // Multi-byte characters: the limit is in bytes, and no character is split.
    const wide = hookEnvironment(
      {},
      qualifyEvent('tool_end', payload),
      { ...payload, tool_output: 'é😀'.repeat(40_000) },
      context,
      undefined,
    )
    expect(wide[name]).toBe(cutUtf8('é😀'.repeat(40_000), ENV_VALUE_CAP))
    expect(wide.HOOKRUN_TOOL_OUTPUT_TRUNCATED).toBe('1')
    // A longer prefix leaves less room for the value: every name it is set under still fits.
    const prefixed = hookEnvironment({}, qualifyEvent('tool_end', payload), payload, context, undefined, ['A_LONG_PREFIX_OF_MINE_'])
    expect(prefixed.A_LONG_PREFIX_OF_MINE_TOOL_OUTPUT).toHaveLength(envValueBytes(['A_LONG_PREFIX_OF_MINE_']))
    expect(prefixed.A_LONG_PREFIX_OF_MINE_TOOL_OUTPUT_TRUNCATED).toBe('1')
  })
  test("pigo's variable names", () => {
    const env = hookEnvironment({}, qualifyEvent('tool_start', payload), payload, context, undefined, ['PIGO_'])
    expect(env).toMatchObject({
      PIGO_EVENT: 'tool_start',
      PIGO_TOOL_NAME: 'bash',
      PIGO_TOOL_INPUT: 'ls',
      PIGO_TOOL_ARGS: '{"command":"ls"}',
      PIGO_MODEL: 'gpt',
      PIGO_TURN_NUMBER: '3',
    })
  })
  test("Code-Forge's variable names", () => {
    const env = hookEnvironment({}, qualifyEvent('tool:pre_execute', payload), { ...payload, permission_mode: 'ask' }, context, undefined, [
      'FORGE_',
    ])
    expect(env).toMatchObject({
      FORGE_EVENT: 'tool:pre_execute',
      FORGE_SESSION_ID: 's1',
      FORGE_TOOL_ARGS: '{"command":"ls"}',
      FORGE_LLM_MODEL: 'gpt',
      FORGE_PERM_LEVEL: 'ask',
    })
  })
  test('any other prefix mirrors every HOOKRUN_* name', () => {
    const env = hookEnvironment({}, qualifyEvent('session:start', {}), {}, context, undefined, ['MY_'])
    expect(env.MY_EVENT).toBe('session:start')
    expect(env.MY_HOOK_NAME).toBe('h')
  })
})

/** A small limit keeps the property tests fast; the code is the same. */
const CAP = 1000

function toolArgs(toolInput: unknown, cap = CAP): string | undefined {
  const payload = { tool_name: 'Write', tool_input: toolInput }
  return hookEnvironment({}, qualifyEvent('tool:pre_execute', payload), payload, context, undefined, [], cap).HOOKRUN_TOOL_ARGS
}

describe('HOOKRUN_TOOL_ARGS', () => {
  test('is the tool input as JSON, cut at ENV_VALUE_CAP bytes, even when a string in it is huge', () => {
    const input = { file_path: '/x', content: `a"\\\n\u2028é${'x'.repeat(3 * ENV_VALUE_CAP)}`, after: [1, 2] }
    expect(toolArgs(input, ENV_VALUE_CAP)).toBe(cutUtf8(JSON.stringify(input), ENV_VALUE_CAP))
    expect(Buffer.byteLength(toolArgs(input, ENV_VALUE_CAP)!)).toBe(ENV_VALUE_CAP)
  })

  test('keeps every key, even one named __proto__', () => {
    const input = JSON.parse('{"__proto__":{"x":1},"command":"ls"}')
    expect(toolArgs(input)).toBe('{"__proto__":{"x":1},"command":"ls"}')
  })

  test('equals the cut full JSON for any tool input', () => {
    // Long strings with characters JSON escapes, around the cap, anywhere in the input.
    const text = fc.oneof(
      fc.string(),
      fc.string({ minLength: 300, maxLength: CAP + 5, unit: fc.constantFrom('a', '"', '\\', '\n', 'é', '\u0001', '😀') }),
    )
    const input = fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.integer()), { maxKeys: 4 })
    fc.assert(
      fc.property(input, (value) => {
        expect(toolArgs(value)).toBe(cutUtf8(JSON.stringify(value), CAP))
      }),
      { numRuns: 200 },
    )
  })
})
