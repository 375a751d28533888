// The commands that set a project up: plugin and init (registered by program.ts; install, uninstall and import by program-agents.ts).
import type { CAC } from 'cac'
import { bool, type CommonFlags, cwdOf, type Io, text } from './io.ts'

/** `hookrun plugin` and `hookrun init`: a project's plugins and its starter hooks. */
export function registerSetUpCommands(cli: CAC, io: Io): void {
  cli
    .command('plugin <action> [target]', 'Manage plugins: add <path | git URL>[@ref], list, remove <name>')
    .option('--global', "The user's plugins ($XDG_CONFIG_HOME/hookrun/plugins) instead of the project's")
    .option('--name <org/repo>', 'add: install under this name instead of the one taken from the source')
    .option('--cwd <dir>', 'Find the project from this folder')
    .option('--json', 'list: print JSON with every hook name')
    .example('hookrun plugin add https://github.com/acme/agent-hooks@v1.2.0')
    .example('hookrun plugin list')
    .action(async (action: string, target: string | undefined, flags: CommonFlags & { global?: boolean; name?: string }) => {
      const { pluginCommand } = await import('./plugin.ts')
      const { output, warnings } = await pluginCommand(action, target, {
        global: flags.global === true,
        name: text(flags.name, 'name'),
        cwd: cwdOf(flags),
        env: io.env,
        json: flags.json === true,
      })
      for (const warning of warnings) await io.stderr(`hookrun: warning: ${warning}\n`)
      await io.stdout(output)
    })

  cli
    .command('init', 'Turn policies on (or off): .hookrun/hooks.json entries, scripts and tests; never overwrites a file')
    .option('--template <name>', 'Only this policy (repeatable); an existing hooks.json gets its entries added (hookrun init --list)')
    .option('--remove', 'Turn the --template policies off: their entries out of hooks.json, their unchanged files deleted')
    .option('--list', 'List the templates')
    .option('--cwd <dir>', 'The project folder (default: the current one)')
    .option('--json', 'Print the result as JSON: each file written or kept, whether the new hooks are trusted')
    .example('hookrun init                                  # every template; the intrusive ones switched off')
    .example('hookrun init --template dangerous-commands')
    .example('hookrun init --template secrets --remove')
    .action(async (flags: { template?: string | string[]; remove?: boolean; list?: boolean; cwd?: string; json?: boolean }) => {
      const { initProject, initProjectResult, listTemplates } = await import('./init.ts')
      if (flags.list) return void (await io.stdout(listTemplates()))
      const templates =
        flags.template === undefined
          ? []
          : (Array.isArray(flags.template) ? flags.template : [flags.template]).flatMap((name) => String(name).split(','))
      const options = { cwd: cwdOf(flags), templates, remove: bool(flags.remove, 'remove'), env: io.env }
      await io.stdout(bool(flags.json, 'json') ? `${JSON.stringify(initProjectResult(options), null, 2)}\n` : initProject(options))
    })
}
