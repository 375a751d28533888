// A plugin's hooks file as hookrun hooks: named for the plugin, its folder in their environment.
import { HANDLER_VARIABLES } from '../agents/vocabulary.ts'
import { resolve } from 'node:path'
import { mergeHooks } from '../config/load.ts'
import type { ConfigDocument, ParsedEntry } from '../config/document.ts'
import { isRouterInvocation } from '../core/router.ts'
import { quoteVariables } from '../core/shell.ts'
import type { ConfigFileRef, ConfigProblem, Hook } from '../core/types.ts'
import type { FoundPluginConfig } from '../discover/folders.ts'
import { openPluginHooks } from './open-plugins.ts'

/** How a plugin's hooks file is read: src/config/parse.ts, passed in so that it loads only when needed. */
export interface PluginConfigReader {
  readonly readConfigFile: (ref: ConfigFileRef, problems: ConfigProblem[]) => ParsedEntry[]
  readonly parseConfigDocument: (ref: ConfigFileRef, text: string) => ConfigDocument
}

/**
 * The variables that hold a folder hookrun knows (the plugin, the project, the config file's
 * folder): wherever a command uses one unquoted, it is quoted, so a folder named
 * `pl $(touch x) y` stays one word and is never read as shell syntax.
 */
const PATH_VARIABLES = ['HOOKRUN_PLUGIN_DIR', 'HOOKRUN_PROJECT_DIR', 'HOOKRUN_CONFIG_DIR', ...HANDLER_VARIABLES]

interface PluginConfigHooks {
  readonly hooks: Hook[]
  /** Event names an Open Plugins file lists that hookrun does not know, left out as the spec requires. */
  readonly ignored: readonly string[]
}

/**
 * A plugin's hooks, named `org/repo/<name>` (`org/repo#<index>` when unnamed). Each gets
 * `HOOKRUN_PLUGIN_DIR` and the variables its layout's agent sets to the plugin folder
 * (`CLAUDE_PLUGIN_ROOT`, `CURSOR_PLUGIN_ROOT`, `DROID_PLUGIN_ROOT`, `PLUGIN_ROOT`). A command's
 * `${CLAUDE_PLUGIN_ROOT}` is expanded by the shell from that environment, never substituted into
 * the command as text. Cursor runs a plugin's hooks in the plugin folder, where their relative
 * paths (`./hooks/run-hook.cmd`) point.
 */
export function pluginConfigHooks(source: FoundPluginConfig, problems: ConfigProblem[], reader: PluginConfigReader): PluginConfigHooks {
  const ref = { layer: source.layer, file: source.file }
  const document = source.text === undefined ? undefined : reader.parseConfigDocument(ref, source.text)
  const read: ConfigProblem[] = document?.problems.slice() ?? []
  const entries: ParsedEntry[] = document?.entries ?? reader.readConfigFile(ref, read)
  // A plugin's hooks file may describe itself at the top (Claude Code's plugin format).
  problems.push(
    ...(source.layout === undefined ? read : read.filter((problem) => !(problem.path === 'description' && problem.severity === 'warning'))),
  )
  const merged = withoutRouters(mergeHooks(entries, problems), problems)
  const layout = source.layout
  const { hooks, ignored } = layout?.agent === 'open' ? openPluginHooks(merged, problems) : { hooks: merged, ignored: [] }
  const dir = source.plugin.dir
  const roots = Object.fromEntries((layout?.rootVariables ?? []).map((name) => [name, dir]))
  const quoted = new Set([...PATH_VARIABLES, ...(layout?.rootVariables ?? [])])
  const named = hooks.map((hook) => ({
    ...hook,
    name: hook.named ? `${source.plugin.name}/${hook.name}` : `${source.plugin.name}#${hook.source.index}`,
    // An http hook's command is only what `list` shows.
    command: hook.http === undefined ? quoteVariables(hook.command, quoted) : hook.command,
    ...(layout?.runsInPluginFolder === true && { cwd: resolve(dir, hook.cwd ?? '.') }),
    env: { ...hook.env, ...roots, HOOKRUN_PLUGIN_DIR: dir },
  }))
  return { hooks: named, ignored }
}

/**
 * A plugin's hook that is an agent's entry into hookrun (`hookrun fire --format goose`: hookrun's
 * own Goose plugin, added with `hookrun plugin add`) is left out with a warning: run as a hook it
 * would fire hookrun inside itself on every event until the depth limit blocks the gate.
 */
function withoutRouters(hooks: Hook[], problems: ConfigProblem[]): Hook[] {
  return hooks.filter((hook) => {
    if (hook.http !== undefined || !isRouterInvocation(hook.command)) return true
    problems.push({
      severity: 'warning',
      file: hook.source.file,
      path: hook.source.path,
      message: `runs hookrun's own router (${hook.command.trim()}), which is how an agent asks hookrun, not a hook; skipped (it would fire hookrun inside itself)`,
    })
    return false
  })
}
