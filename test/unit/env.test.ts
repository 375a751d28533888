import { describe, expect, test } from 'vitest'
import { hookEnvironment } from '../../src/env.ts'
import { qualifyEvent } from '../../src/event.ts'

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
