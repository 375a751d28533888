// Grok Build: hookrun has no install for it; it reads Claude Code's and Cursor's files, and its own
// `.grok/hooks/*.json`, which `hookrun scan` lists.
import { JSON_FILES } from './native-config.ts'
import type { ProjectScan } from './native-config.ts'
import type { Agent } from './types.ts'

const GROK_SCAN: ProjectScan = {
  sources: [{ path: '.grok/hooks', entries: JSON_FILES, reader: 'events', agents: ['Grok Build'], owners: ['grok'] }],
}

export const grokAgent: Agent = {
  name: 'grok',
  label: 'Grok Build',
  scan: GROK_SCAN,
}
