// Kilo Code: OpenCode's fork; hookrun reaches it through a plugin it loads (src/install/plugin-agents.ts).
import { CODE_FILES } from './native-config.ts'
import type { ProjectScan } from './native-config.ts'
import type { Agent } from './types.ts'

/** The plugin folders of a project Kilo Code loads (`hookrun scan`; docs/agents/kilo.md). */
const KILO_SCAN: ProjectScan = {
  sources: [
    { path: '.kilo/plugins', entries: CODE_FILES, reader: 'plugin', agents: ['Kilo Code'], owners: ['kilo'], hookrunFile: true },
    { path: '.kilo/plugin', entries: CODE_FILES, reader: 'plugin', agents: ['Kilo Code'], owners: ['kilo'] },
    { path: '.kilocode/plugins', entries: CODE_FILES, reader: 'plugin', agents: ['Kilo Code'], owners: ['kilo'] },
    { path: '.kilocode/plugin', entries: CODE_FILES, reader: 'plugin', agents: ['Kilo Code'], owners: ['kilo'] },
  ],
}

export const kiloAgent: Agent = {
  name: 'kilo',
  label: 'Kilo Code',
  scan: KILO_SCAN,
}
