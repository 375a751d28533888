// The vocabulary as `npm run vocabulary` writes it (src/agents/vocabulary.ts): what the registry says
// of every agent, and the look-up tables made from it with hookrun's own seeds' names, which live
// in this layer. Imports the registry, so every agent: for the script and the tests, never a fire.
import { vocabularyOf } from '../agents/registry.ts'
import type { Vocabulary } from '../agents/vocabulary.ts'
import { eventNameTables } from './events.ts'
import { toolNameTable } from './tools.ts'

export function vocabularyWithTables(): Vocabulary {
  const agents = vocabularyOf()
  return { ...agents, ...eventNameTables(agents.events), toolNames: toolNameTable(agents.tools) }
}
