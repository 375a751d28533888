// Plain answers are read without zod (src/answer/json-answer.ts); whatever that reading accepts,
// the protocol's zod schema must give the same, and the table of plain fields must be the schema's.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { PERMISSION_DECISIONS, PLAIN_FIELDS, PLAIN_SPECIFIC_FIELDS, plainAnswer } from '../../src/answer/json-answer.ts'
import { checkAnswer, parseAnswer } from '../../src/answer/parse.ts'
import { readAnswer } from '../../src/answer/read.ts'
import { HookAnswerSchema } from '../../src/core/protocol.ts'

/** The JSON Schema of one field of an object schema, as zod describes it. */
function fieldSchema(schema: z.ZodType, path: string[]): Record<string, unknown> {
  let node = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  for (const key of path) node = (node.properties as Record<string, Record<string, unknown>>)[key]!
  return node
}

describe('plain answers', () => {
  test('every plain field has the type the schema gives it', () => {
    for (const [field, type] of Object.entries(PLAIN_FIELDS)) expect(fieldSchema(HookAnswerSchema, [field]).type, field).toBe(type)
    for (const [field, type] of Object.entries(PLAIN_SPECIFIC_FIELDS))
      expect(fieldSchema(HookAnswerSchema, ['hookSpecificOutput', field]).type, field).toBe(type)
    expect(fieldSchema(HookAnswerSchema, ['hookSpecificOutput', 'permissionDecision']).enum).toEqual(PERMISSION_DECISIONS)
    expect(fieldSchema(HookAnswerSchema, ['decision']).enum).toEqual(['allow', 'deny', 'ask', 'approve', 'block'])
  })

  test('the common answers are plain, with the synonyms mapped as the schema maps them', () => {
    expect(plainAnswer({ decision: 'block', reason: 'no' })).toEqual({ decision: 'deny', reason: 'no' })
    expect(plainAnswer({ decision: 'approve' })).toEqual({ decision: 'allow' })
    expect(
      plainAnswer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'r' } }),
    ).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'r' },
    })
    // Anything else is the schema's to judge.
    expect(plainAnswer({ decision: 'maybe' })).toBeUndefined()
    expect(plainAnswer({ continue: 'yes' })).toBeUndefined()
    expect(plainAnswer({ updatedInput: { command: 'ls' } })).toBeUndefined()
    expect(plainAnswer({ somethingNew: 1 })).toBeUndefined()
  })

  const value = fc.oneof(
    fc.constantFrom('allow', 'deny', 'ask', 'approve', 'block', 'defer', 'maybe', ''),
    fc.string({ maxLength: 5 }),
    fc.boolean(),
    fc.integer(),
    fc.constant(null),
    fc.dictionary(fc.constantFrom('command', 'x'), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
  )
  const keys = [...Object.keys(PLAIN_FIELDS), 'decision', 'updatedInput', 'toolConfig', 'unknownField']
  const specific = fc.dictionary(
    fc.constantFrom(...Object.keys(PLAIN_SPECIFIC_FIELDS), 'permissionDecision', 'updatedInput', 'other'),
    value,
    { maxKeys: 3 },
  )
  const answer = fc.dictionary(fc.constantFrom(...keys, 'hookSpecificOutput'), fc.oneof(value, specific), { maxKeys: 4 })

  test('whatever is read as plain, the schema reads the same (2,000 answers)', () => {
    fc.assert(
      fc.property(answer, (json) => {
        const plain = plainAnswer(json)
        if (plain === undefined) return
        expect(checkAnswer(json)).toEqual({ answer: plain })
      }),
      { numRuns: 2000 },
    )
  })

  test('readAnswer (plain or not) and parseAnswer (always the schema) agree', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async (json) => {
        const stdout = JSON.stringify(json)
        expect(await readAnswer(stdout)).toEqual(parseAnswer(stdout))
      }),
      { numRuns: 500 },
    )
    for (const stdout of ['', 'ok', '{not json', ' {"decision":"deny"}\n', '{"permission":"deny"}', '{"blocked":true}'])
      expect(await readAnswer(stdout)).toEqual(parseAnswer(stdout))
  })
})
