// Devin CLI: it runs Claude Code's hook entries (docs.devin.ai/cli/extensibility/hooks/lifecycle-hooks),
// so hookrun answers it as Claude Code; what is its own is the names of its tools.
import type { Agent } from './types.ts'
import type { Caller } from './callers.ts'
import type { ProjectScan } from './native-config.ts'

/** Devin CLI runs Claude Code's entries, always, beside .devin/hooks.v1.json (src/agents/callers.ts). */
const RUNS_CLAUDE: Caller = {
  when: 'always, beside .devin/hooks.v1.json',
  // Devin sets DEVIN_PROJECT_DIR for its hooks; Claude Code sets CLAUDE_PROJECT_DIR.
  detect: (_payload, env) => env.DEVIN_PROJECT_DIR !== undefined && env.CLAUDE_PROJECT_DIR === undefined,
  marks: { variables: ['DEVIN_PROJECT_DIR'] },
  // hookrun writes no Devin entries of its own: the Claude Code entries are Devin's only ones.
  source: 'docs.devin.ai/cli/extensibility/hooks/overview',
}

const DEVIN_SCAN: ProjectScan = {
  projectVariables: ['DEVIN_PROJECT_DIR'],
  sources: [{ path: '.devin/hooks.v1.json', reader: 'events', at: [], agents: ['Devin CLI'], owners: ['devin'] }],
}

export const devinAgent: Agent = {
  name: 'devin',
  label: 'Devin CLI',
  // `exec` runs a shell command (its docs); --format claude meets these names.
  tools: { exec: 'bash', edit: 'edit' },
  caller: RUNS_CLAUDE,
  scan: DEVIN_SCAN,
}
