// Kilo Code: its CLI (kilo) is OpenCode's engine, and runs OpenCode's plugins; hookrun's plugin
// asks `--format opencode` there too (docs/agents/kilo.md).
import { join } from 'node:path'
import { opencode } from './opencode.ts'
import type { PluginFacts } from './plugins.ts'
import { CODE_FILES, type ProjectScan } from './native-config.ts'
import type { Agent } from './types.ts'

/**
 * hookrun's plugin: Kilo loads every `{plugin,plugins}/*.{ts,js}` of `.kilo/` (or the older
 * `.kilocode/`) from the start folder up to the worktree and of `~/.config/kilo/`, never
 * `.opencode/` (Kilo-Org/kilocode packages/opencode/src/config/paths.ts).
 */
const PLUGIN: PluginFacts = {
  file: (scope, places) =>
    scope === 'user'
      ? join(places.env.XDG_CONFIG_HOME || join(places.home, '.config'), 'kilo', 'plugins', 'hookrun.js')
      : join(places.project, '.kilo', 'plugins', 'hookrun.js'),
  note: "Kilo Code's CLI (kilo) loads the plugin when it starts; it runs hookrun for every tool call, prompt and session event",
  format: opencode.name,
}

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
  plugin: PLUGIN,
  scan: KILO_SCAN,
}
