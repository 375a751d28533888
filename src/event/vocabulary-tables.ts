// The vocabulary as `npm run vocabulary` writes it: the registry's part and the look-up tables with the seeds' names.
// Imports every agent: for the script and the tests, never a fire.
import { vocabularyOf } from '../agents/registry.ts'
import type { Vocabulary } from '../agents/vocabulary.ts'
import { eventNameTables } from './events.ts'
import { toolNameTable } from './tools.ts'

export function vocabularyWithTables(): Vocabulary {
  const agents = vocabularyOf()
  return { ...agents, ...eventNameTables(agents.events), toolNames: toolNameTable(agents.tools) }
}
