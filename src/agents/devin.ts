// Devin CLI: it runs Claude Code's hook entries (docs.devin.ai/cli/extensibility/hooks/lifecycle-hooks),
// so hookrun answers it as Claude Code; what is its own is the names of its tools.
import type { Agent } from './types.ts'
import type { ProjectScan } from './native-config.ts'

/** The files of a project Devin CLI reads hooks from (`hookrun scan`; shared/reference/agent-hook-protocols.md §6, §9–§11). */
const DEVIN_SCAN: ProjectScan = {
  projectVariables: ['DEVIN_PROJECT_DIR'],
  sources: [{ path: '.devin/hooks.v1.json', reader: 'events', at: [], agents: ['Devin CLI'], owners: ['devin'] }],
}

export const devinAgent: Agent = {
  name: 'devin',
  label: 'Devin CLI',
  // `exec` runs a shell command (its docs); --format claude meets these names.
  tools: { exec: 'bash', edit: 'edit' },
  scan: DEVIN_SCAN,
}
