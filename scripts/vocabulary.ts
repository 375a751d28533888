/**
 * Write src/agents/vocabulary-data.ts from the registry and hookrun's seeds (src/agents/vocabulary.ts says why it is data):
 *
 *   npm run vocabulary
 *
 * test/unit/vocabulary.test.ts fails while the file and the registry differ.
 */
import { writeFileSync } from 'node:fs'
import { vocabularyWithTables } from '../src/event/vocabulary-tables.ts'

const FILE = new URL('../src/agents/vocabulary-data.ts', import.meta.url)

// One string per part, each parsed by JSON.parse when first read: an object literal of this size
// took a fire about 1 ms to evaluate, the parse a tenth of that, and a fire reads few of the parts.
const quoted = (value: unknown) => `'${JSON.stringify(value).replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
// As the formatter lays it out (biome.json's line width).
const part = (key: string, text: string) => (key.length + text.length + 5 <= 140 ? `  ${key}: ${text},` : `  ${key}:\n    ${text},`)
const parts = Object.entries(vocabularyWithTables()).map(([key, value]) => part(key, quoted(value)))
writeFileSync(
  FILE,
  `// Written by \`npm run vocabulary\` from src/agents/registry.ts (src/agents/vocabulary.ts); do not edit.\nexport const VOCABULARY_JSON: Readonly<Record<string, string>> = {\n${parts.join('\n')}\n}\n`,
)
