// A plain answer is read without loading the zod parser (src/answer/read.ts); anything else loads it.
import { describe, expect, test, vi } from 'vitest'

const loaded = vi.hoisted(() => ({ parse: 0 }))
vi.mock('../../src/answer/parse.ts', async (original) => {
  loaded.parse++
  return await original()
})

describe('readAnswer', () => {
  test('plain answers leave the zod parser unloaded; the first other answer loads it', async () => {
    const { readAnswer } = await import('../../src/answer/read.ts')
    expect(await readAnswer('{"decision":"block","reason":"no"}')).toEqual({ answer: { decision: 'deny', reason: 'no' } })
    expect(await readAnswer('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}')).toMatchObject({
      answer: { hookSpecificOutput: { permissionDecision: 'deny' } },
    })
    expect(await readAnswer('exit-code answers print text')).toEqual({})
    expect(loaded.parse).toBe(0)
    expect(await readAnswer('{"updatedInput":{"command":"ls"}}')).toEqual({ answer: { updatedInput: { command: 'ls' } } })
    expect(loaded.parse).toBe(1)
  })
})
