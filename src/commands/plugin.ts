// `hookrun plugin add|list|remove`.
import { relative } from 'node:path'
import { findProjectRoot } from '../config/files.ts'
import { formatProblem } from '../core/types.ts'
import { HookrunError } from '../core/errors.ts'
import { addPlugin, listPlugins, type PluginInfo, removePlugin } from '../folders/plugins.ts'
import { formatTable } from './list.ts'
import { agentConfigLines } from './trust.ts'
import type { CommandOptions } from './io.ts'

interface PluginCommandOptions extends CommandOptions {
  readonly global: boolean
  readonly name?: string
}

/** `hookrun plugin add|list|remove`: returns what to print on stdout and warnings for stderr. */
export async function pluginCommand(
  action: string,
  target: string | undefined,
  options: PluginCommandOptions,
): Promise<{ output: string; warnings: string[] }> {
  // The project is the one fire would find from here; without one, the plugin starts it here.
  const projectRoot = findProjectRoot(options.cwd) ?? options.cwd
  const scope = options.global ? 'user' : 'project'
  const shown = (path: string) => (options.global ? path : relative(options.cwd, path) || path)
  switch (action) {
    case 'add': {
      if (target === undefined) throw new HookrunError("'hookrun plugin add' needs a source: a folder or a git URL, optionally @ref")
      const { plugin, problems } = await addPlugin(target, { scope, projectRoot, env: options.env, name: options.name, cwd: options.cwd })
      const lines = [
        `installed ${plugin.name} (${scope}) in ${shown(plugin.path)}${plugin.commit ? ` at ${plugin.commit.slice(0, 12)}` : ''}`,
        `  hooks: ${plugin.hooks.length}`,
        ...plugin.hooks.map((name) => `    ${name}`),
      ]
      const synced = agentConfigLines(options.cwd, options.env)
      return {
        output: options.json ? json(plugin) : `${[...lines, ...synced].join('\n')}\n`,
        warnings: [...problems.map(formatProblem), ...(options.json ? synced : [])],
      }
    }
    case 'list': {
      const plugins = listPlugins({ projectRoot, env: options.env })
      if (options.json) return { output: json(plugins), warnings: [] }
      if (plugins.length === 0)
        return { output: 'no plugins installed (add one with: hookrun plugin add <folder | git URL>[@ref] [--global])\n', warnings: [] }
      const rows = plugins.map((plugin) => [plugin.name, plugin.location, String(plugin.hooks.length), describeSource(plugin)])
      return { output: `${formatTable(['NAME', 'LOCATION', 'HOOKS', 'SOURCE'], rows).join('\n')}\n`, warnings: [] }
    }
    case 'remove': {
      if (target === undefined) throw new HookrunError("'hookrun plugin remove' needs the plugin's name, as 'hookrun plugin list' shows it")
      const plugin = removePlugin(target, { scope, projectRoot, env: options.env })
      const synced = agentConfigLines(options.cwd, options.env)
      return {
        output: options.json ? json(plugin) : `${[`removed ${plugin.name} (${scope}) from ${shown(plugin.path)}`, ...synced].join('\n')}\n`,
        warnings: options.json ? synced : [],
      }
    }
    default:
      throw new HookrunError(`unknown plugin action '${action}'; use add, list or remove`)
  }
}

function describeSource(plugin: PluginInfo): string {
  if (plugin.source === undefined) return '-'
  return plugin.ref === undefined ? plugin.source : `${plugin.source}@${plugin.ref}`
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}
