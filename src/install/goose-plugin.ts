// Whether Goose runs hookrun's plugin: the settings and config that can switch a plugin off (for doctor).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import { agentTarget } from './agents.ts'
import type { Places } from './agent-target.ts'
import type { DoctorCheck, DoctorLine } from './doctor-types.ts'
import { routedEvents } from './overlaps.ts'

/**
 * Goose (aaif-goose/goose crates/goose/src/plugins/discovery.rs) drops a plugin by name when
 * `disabledPlugins` lists it in the first of `<start folder>/.config/goose/settings.local.json`,
 * `<start folder>/.config/goose/settings.json` and `~/.config/goose/settings.json` that names it
 * (in `enabledPlugins` or `disabledPlugins`), and by folder when its `config.yaml` has
 * `plugins: {<folder>: {enabled: false}}` (the switch in Goose's own settings; Goose adds every
 * plugin it finds there as enabled).
 */
const PLUGIN = 'hookrun'

function gooseHome(places: Places): string {
  const root = places.env.GOOSE_PATH_ROOT
  return root !== undefined && isAbsolute(root) ? root : places.home
}

/** The settings files Goose reads for a session started in `start`, the one that decides first. */
function settingsFiles(start: string, places: Places): string[] {
  const dir = join(start, '.config', 'goose')
  return [join(dir, 'settings.local.json'), join(dir, 'settings.json'), join(gooseHome(places), '.config', 'goose', 'settings.json')]
}

/** The settings file that disables hookrun's plugin, if any (the first that names it decides). */
function disablingSettings(start: string, places: Places): string | undefined {
  for (const file of settingsFiles(start, places)) {
    if (!existsSync(file)) continue
    let settings: { enabledPlugins?: unknown; disabledPlugins?: unknown }
    try {
      settings = JSON.parse(readFileSync(file, 'utf8')) as typeof settings
    } catch {
      continue // Goose skips a settings file it cannot read, with a warning of its own
    }
    const names = (list: unknown) => (Array.isArray(list) ? list : [])
    if (names(settings.disabledPlugins).includes(PLUGIN)) return file
    if (names(settings.enabledPlugins).includes(PLUGIN)) return undefined
  }
  return undefined
}

/** Goose's config.yaml: `$GOOSE_PATH_ROOT/config/`, else `$XDG_CONFIG_HOME/goose/` (~/.config/goose/). */
function gooseConfigFile(places: Places): string {
  const root = places.env.GOOSE_PATH_ROOT
  if (root !== undefined && isAbsolute(root)) return join(root, 'config', 'config.yaml')
  return join(places.env.XDG_CONFIG_HOME || join(places.home, '.config'), 'goose', 'config.yaml')
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

/** doctor: a hookrun plugin Goose would not run. */
export const goosePluginCheck: DoctorCheck = (context) => {
  const target = agentTarget('goose')!
  const lines: DoctorLine[] = []
  const config = gooseConfigFile(context.places)
  const configText = existsSync(config) ? readFileSync(config, 'utf8') : ''
  for (const scope of ['project', 'user'] as const) {
    const file = target.file(scope, context.places)
    if (routedEvents(file, 'goose').length === 0) continue
    const folder = dirname(dirname(file))
    const settings = disablingSettings(context.cwd, context.places)
    if (settings !== undefined)
      lines.push({
        status: 'fail',
        what: `Goose: ${settings} lists hookrun in disabledPlugins: Goose runs none of the hooks in ${folder}`,
        fix: `remove "hookrun" from disabledPlugins in ${settings}`,
      })
    else if (disabledInConfig(configText, folder))
      lines.push({
        status: 'fail',
        what: `Goose: ${config} has the plugin ${folder} switched off (enabled: false): Goose runs none of its hooks`,
        fix: `set enabled: true under plugins: ${folder} in ${config} (or switch the plugin on in Goose's settings)`,
      })
  }
  return lines
}
