// Antigravity CLI: hookrun has no install for it; its `.agents/hooks.json` names hooks each with
// their events, which `hookrun scan` lists.
import type { ProjectScan } from './native-config.ts'
import type { Agent } from './types.ts'

const ANTIGRAVITY_SCAN: ProjectScan = {
  sources: [{ path: '.agents/hooks.json', reader: 'named-groups', agents: ['Antigravity CLI'], owners: ['antigravity'] }],
}

export const antigravityAgent: Agent = {
  name: 'antigravity',
  label: 'Antigravity CLI',
  scan: ANTIGRAVITY_SCAN,
}
