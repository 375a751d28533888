// `hookrun schema`: the JSON Schema of hooks.json, generated from the zod schema.
import { z } from 'zod'
import { ConfigFileSchema } from '../config/schema.ts'

export const SCHEMA_ID = 'https://hookrun.dev/hookrun.schema.json'

/** The published JSON Schema of hooks.json, generated from the zod schema (never hand-written). */
export function configJsonSchema(): Record<string, unknown> {
  // io: 'input' describes what users write: fields with defaults are optional.
  const schema = z.toJSONSchema(ConfigFileSchema, { io: 'input', target: 'draft-2020-12' })
  return { ...schema, $id: SCHEMA_ID }
}
