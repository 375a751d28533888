// Devin CLI: it runs Claude Code's hook entries (docs.devin.ai/cli/extensibility/hooks/lifecycle-hooks),
// so hookrun answers it as Claude Code; what is its own is the names of its tools.
import type { Agent } from './types.ts'

export const devinAgent: Agent = {
  name: 'devin',
  label: 'Devin CLI',
  // `exec` runs a shell command (its docs); --format claude meets these names.
  tools: { exec: 'bash', edit: 'edit' },
}
