// `hookrun schema`: the JSON Schema of hooks.json, generated from the zod schema.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { writeFileAtomic } from '../core/atomic-write.ts'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { ConfigFileSchema } from '../config/schema.ts'

const SCHEMA_ID = 'https://hookrun.dev/hookrun.schema.json'

/** The published JSON Schema of hooks.json, generated from the zod schema (never hand-written). */
export function configJsonSchema(): Record<string, unknown> {
  // io: 'input' describes what users write: fields with defaults are optional.
  const schema = z.toJSONSchema(ConfigFileSchema, { io: 'input', target: 'draft-2020-12' })
  return { ...schema, $id: SCHEMA_ID }
}

/** Where `init` and `import` put the schema: beside the hooks.json they write, named by its `$schema`. */
export const SCHEMA_FILE = 'hooks.schema.json'

/** The JSON Schema beside a hooks.json hookrun creates (its `$schema` resolves offline); returns the file when written. */
export function writeSchemaBeside(configFile: string): string | undefined {
  const file = join(dirname(configFile), SCHEMA_FILE)
  const text = `${JSON.stringify(configJsonSchema(), null, 2)}\n`
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return undefined
  mkdirSync(dirname(file), { recursive: true })
  writeFileAtomic(file, text, 0o644)
  return file
}
