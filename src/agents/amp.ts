// Amp: hookrun has no install for it; with PLUGINS=all it loads the plugin code of `.amp/plugins`,
// which `hookrun scan` lists.
import { CODE_FILES, type ProjectScan } from './native-config.ts'
import type { Agent } from './types.ts'

const AMP_SCAN: ProjectScan = {
  sources: [{ path: '.amp/plugins', entries: CODE_FILES, reader: 'plugin', agents: ['Amp (PLUGINS=all)'], owners: ['amp'] }],
}

export const ampAgent: Agent = {
  name: 'amp',
  label: 'Amp',
  scan: AMP_SCAN,
}
