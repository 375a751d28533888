import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { configJsonSchema } from '../../src/commands/schema.ts'
import { ROOT } from '../helpers.ts'

test('schema.json is the one generated from the zod schema (run `npm run schema` after changing it)', () => {
  expect(JSON.parse(readFileSync(join(ROOT, 'schema.json'), 'utf8'))).toEqual(configJsonSchema())
})

/** The parts of a JSON Schema this test walks. */
interface JsonSchemaNode {
  properties: Record<string, JsonSchemaNode>
  anyOf: JsonSchemaNode[]
  items: JsonSchemaNode
  default?: unknown
  additionalProperties?: unknown
}

test('the JSON Schema describes the hook fields with their defaults', () => {
  const schema = configJsonSchema() as unknown as JsonSchemaNode
  const hook = schema.properties.hooks!.anyOf[0]!.items
  expect(Object.keys(hook.properties)).toEqual([
    'name',
    'event',
    'command',
    'type',
    'url',
    'headers',
    'allowedEnvVars',
    'followRedirects',
    'maxResponseBytes',
    'timeout',
    'blocking',
    'onError',
    'cwd',
    'working_dir',
    'env',
    'enabled',
    'description',
    'match',
    'matcher',
    'if',
    'agent',
    'sequential',
    'locked',
  ])
  expect(hook.properties.timeout!.default).toBe(10)
  expect(hook.additionalProperties).toBe(false)
})

test('the example config validates against it', async () => {
  const { ConfigFileSchema } = await import('../../src/config/schema.ts')
  expect(ConfigFileSchema.safeParse(JSON.parse(readFileSync(join(ROOT, 'examples/hooks.json'), 'utf8'))).success).toBe(true)
})
