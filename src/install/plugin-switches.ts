// Whether an agent that runs hookrun's hooks as a plugin (Goose) runs it: the settings and config
// that can switch a plugin off (each agent's `pluginSwitches`: src/agents/plugins.ts), for doctor.
import { existsSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { AGENTS } from '../agents/registry.ts'
import type { PluginSwitches } from '../agents/plugins.ts'
import { agentTarget } from './agents.ts'
import type { Places } from './agent-target.ts'
import type { DoctorCheck, DoctorLine } from './doctor-types.ts'
import { routedEvents } from './overlaps.ts'

/** hookrun's plugin's name. */
const PLUGIN = 'hookrun'

/** The settings file that disables hookrun's plugin, if any (the first that names it decides). */
function disablingSettings(switches: PluginSwitches, start: string, places: Places): string | undefined {
  for (const file of switches.settingsFiles(start, places)) {
    if (!existsSync(file)) continue
    let settings: { enabledPlugins?: unknown; disabledPlugins?: unknown }
    try {
      settings = JSON.parse(readFileSync(file, 'utf8')) as typeof settings
    } catch {
      continue // the agent skips a settings file it cannot read, with a warning of its own
    }
    const names = (list: unknown) => (Array.isArray(list) ? list : [])
    if (names(settings.disabledPlugins).includes(PLUGIN)) return file
    if (names(settings.enabledPlugins).includes(PLUGIN)) return undefined
  }
  return undefined
}

/** Does config.yaml switch the plugin folder off (`plugins:` → `<folder>:` → `enabled: false`)? */
function disabledInConfig(text: string, folder: string): boolean {
  const lines = text.split('\n')
  const at = lines.findIndex((line) => line.trim() === `${folder}:` || line.trim() === `'${folder}':` || line.trim() === `"${folder}":`)
  if (at < 0) return false
  const indent = lines[at]!.length - lines[at]!.trimStart().length
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '') continue
    if (line.length - line.trimStart().length <= indent) return false
    if (/^\s*enabled:\s*false\s*$/.test(line)) return true
  }
  return false
}

/** doctor: a hookrun plugin an agent would not run. */
export const pluginSwitchesCheck: DoctorCheck = (context) =>
  AGENTS.flatMap((agent) => {
    const switches = agent.pluginSwitches
    const target = agentTarget(agent.name)
    if (switches === undefined || target === undefined) return []
    const lines: DoctorLine[] = []
    const config = switches.configFile(context.places)
    const configText = existsSync(config) ? readFileSync(config, 'utf8') : ''
    for (const scope of ['project', 'user'] as const) {
      const file = target.file(scope, context.places)
      if (routedEvents(file, target.name).length === 0) continue
      const folder = dirname(dirname(file))
      const settings = disablingSettings(switches, context.cwd, context.places)
      if (settings !== undefined)
        lines.push({
          status: 'fail',
          what: `${agent.label}: ${settings} lists hookrun in disabledPlugins: ${agent.label} runs none of the hooks in ${folder}`,
          fix: `remove "hookrun" from disabledPlugins in ${settings}`,
        })
      else if (disabledInConfig(configText, folder))
        lines.push({
          status: 'fail',
          what: `${agent.label}: ${config} has the plugin ${folder} switched off (enabled: false): ${agent.label} runs none of its hooks`,
          fix: `set enabled: true under plugins: ${folder} in ${config} (or switch the plugin on in ${agent.label}'s settings)`,
        })
    }
    return lines
  })
