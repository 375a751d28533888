/**
 * Write src/agents/vocabulary-data.ts from the registry (src/agents/vocabulary.ts says why it is data):
 *
 *   npm run vocabulary
 *
 * test/unit/vocabulary.test.ts fails while the file and the registry differ.
 */
import { writeFileSync } from 'node:fs'
import { vocabularyOf } from '../src/agents/registry.ts'

const FILE = new URL('../src/agents/vocabulary-data.ts', import.meta.url)

// One string that JSON.parse reads: an object literal of this size took a fire about 1 ms to evaluate, the parse a tenth of that.
const text = JSON.stringify(JSON.stringify(vocabularyOf())).replaceAll("'", "\\'").slice(1, -1).replaceAll('\\"', '"')
writeFileSync(
  FILE,
  `// Written by \`npm run vocabulary\` from src/agents/registry.ts (src/agents/vocabulary.ts); do not edit.\nexport const VOCABULARY_JSON =\n  '${text}'\n`,
)
