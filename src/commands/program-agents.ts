// The commands that edit agents' own config files (install, uninstall, import) and serve, which install --serve wires (registered by program.ts).
import type { CAC } from 'cac'
import pkg from '../../package.json' with { type: 'json' }
import { HookrunError } from '../core/errors.ts'
import { required } from './help.ts'
import { importableNames, installableNames, spokenList } from '../agents/registry.ts'
import { SERVED_AGENTS } from '../serve/served.ts'
import { bool, cwdOf, type Io, list, printer, wholeFlag } from './io.ts'

export function registerAgentConfigCommands(cli: CAC, io: Io, setExitCode: (code: number) => void): void {
  for (const [name, description] of [
    ['install', "Add hookrun's router entries to an agent's own hooks config (one per event it has)"],
    ['uninstall', "Remove hookrun's router entries from an agent's hooks config; nothing else"],
  ] as const) {
    const command = cli
      .command(name, description)
      .option('--agent <name>', `${spokenList(installableNames())} (repeatable)`, required(name === 'install' ? { unless: '--sync' } : {}))
      .option('--user', "The agent's user config, for every project (default)")
      .option('--project', "The agent's config in this project (--cwd)")
      .option('--cwd <dir>', 'The project folder for --project (default: the current one)')
      .option('--events <names>', "install: only these of the agent's events, comma-separated (default: all it has)")
      .option(
        '--all-events',
        "install: an entry on every event the agent has, whatever the hooks fire on (default: only the events and tools the project's hooks, or for --user your hooks and your trusted projects', can fire on, kept up to date by hookrun trust and fires)",
      )
      .option('--narrow', 'install: the default now; accepted for compatibility')
      .option(
        '--sync',
        "install: narrow every agent config of this project (with --user: your user configs) that holds hookrun's entries again, from the hooks as they are now",
      )
      .option('--quiet', 'install --sync: print nothing, and only in a trusted project (how a fire runs it in the background)')
      .option('--json', 'Print the result as JSON: per agent file, its status, the events added and removed, notes and warnings')
    if (name === 'install') {
      command
        .option(
          '--agent-format <format>',
          "kiro, vibe: current (Kiro CLI 3's .kiro/hooks file, Vibe 2.21's event names) or legacy (Kiro CLI 2's agent config, Vibe's names before 2.21); default: what the installed agent's --version reads, else current",
        )
        .option(
          '--serve',
          `${SERVED_AGENTS.map((agent) => agent.name).join(', ')}: events posted to one warm hookrun serve instead of a process per event (docs/serve.md)`,
        )
        .option('--port <n>', 'install --serve: the loopback port hookrun serve answers on (default 47470)')
        .example('hookrun install --agent claude                      # every project: ~/.claude/settings.json')
        .example('hookrun install --agent claude --project            # Claude Code starts hookrun only where a hook wants it')
        .example('hookrun install --project --sync                    # narrow again now (hookrun trust does it itself)')
    } else {
      command
        .example('hookrun uninstall --agent claude             # your user config')
        .example("hookrun uninstall --agent cursor --project   # this project's .cursor/hooks.json")
    }
    type Switch = 'user' | 'project' | 'sync' | 'narrow' | 'allEvents' | 'quiet' | 'json' | 'serve'
    command.action(
      async (
        flags: Partial<Record<Switch, boolean>> & {
          agent?: string[] | string
          cwd?: string
          events?: string[] | string
          port?: string | number
          agentFormat?: string
        },
      ) => {
        if (flags.port !== undefined && !flags.serve) throw new HookrunError('--port goes with install --serve')
        if (flags.serve && flags.sync)
          throw new HookrunError('--serve and --sync exclude each other: --sync keeps the handlers the file has')
        if (flags.user && flags.project) throw new HookrunError('--user and --project exclude each other')
        if (flags.sync && name === 'uninstall')
          throw new HookrunError("--sync goes with install only: it compiles the hooks into the agent configs that hold hookrun's entries")
        if (flags.quiet && !flags.sync)
          throw new HookrunError('--quiet goes with install --sync only (how a fire runs it in the background)')
        if (flags.narrow && name === 'uninstall') throw new HookrunError('--narrow goes with install only')
        const json = bool(flags.json, 'json')
        if (json && flags.quiet) throw new HookrunError('--json and --quiet exclude each other: --quiet prints nothing')
        if (flags.allEvents && name === 'uninstall')
          throw new HookrunError("--all-events goes with install only; uninstall removes all of hookrun's entries")
        if (flags.allEvents && (flags.narrow || flags.sync))
          throw new HookrunError(
            `--all-events and ${flags.narrow ? '--narrow' : '--sync'} exclude each other: --all-events keeps an entry on every event`,
          )
        // --sync alone is the project's; with --user, the user configs'.
        const scope = flags.project || (flags.sync && !flags.user) ? 'project' : 'user'
        const { installAgents } = await import('./install.ts')
        const result = installAgents(
          {
            agents: list(flags.agent) ?? [],
            scope,
            cwd: cwdOf(flags),
            env: io.env,
            events: list(flags.events),
            agentFormat: flags.agentFormat === undefined ? undefined : String(flags.agentFormat),
            sync: flags.sync === true,
            narrow: !flags.allEvents,
            quiet: flags.quiet === true,
            // Without --serve an install writes command handlers (replacing serve's); --sync keeps what the file has.
            serve: flags.serve
              ? { port: wholeFlag(flags.port, 'port', (await import('../serve/state.ts')).DEFAULT_SERVE_PORT, 1, 65_535) }
              : flags.sync
                ? undefined
                : false,
          },
          name === 'uninstall',
        )
        await io.stdout(json ? `${JSON.stringify({ command: name, scope, agents: result.results }, null, 2)}\n` : result.output)
        setExitCode(result.exitCode)
      },
    )
  }

  cli
    .command('import', "Move the hooks an agent already has into hooks.json, with hookrun's router entries in their place")
    .option('--agent <name>', `${spokenList(importableNames())} (repeatable)`, required())
    .option('--project', "The agent's config in this project, into the project's .hookrun/hooks.json (default)")
    .option('--user', "The agent's user config, into your own hooks.json")
    .option('--cwd <dir>', 'The project folder (default: the current one)')
    .option('--dry-run', 'Write nothing; print the diff of every file import would change')
    .example('hookrun import --agent claude --dry-run   # what would move, as diffs')
    .example('hookrun import --agent claude && hookrun trust')
    .action(async (flags: { agent?: string | string[]; user?: boolean; project?: boolean; cwd?: string; dryRun?: boolean }) => {
      if (flags.user && flags.project) throw new HookrunError('--user and --project exclude each other')
      const { importAgents } = await import('./import.ts')
      const scope = flags.user ? 'user' : 'project'
      const options = {
        agents: list(flags.agent) ?? [],
        scope,
        cwd: cwdOf(flags),
        env: io.env,
        dryRun: bool(flags.dryRun, 'dry-run'),
      } as const
      await printer(io, setExitCode)(await importAgents(options))
    })
}

/** `hookrun serve` (the command itself in serve.ts). */
export function registerServeCommand(cli: CAC, io: Io, setExitCode: (code: number) => void): void {
  cli
    .command(
      'serve [event]',
      "Answer agents' http hook handlers and hookrun's command clients on 127.0.0.1 with one warm hookrun (install --serve wires it)",
    )
    .option('--port <n>', 'The loopback port (default 47470; must match install --serve --port)')
    .option('--idle-minutes <n>', 'Exit after this many minutes without a request; 0: never (default 120)')
    .option('--max-concurrent <n>', 'Events answered at once; more wait their turn (default 8)')
    .option(
      '--start',
      "Start the server if none answers, then fire the event here (the agent's session-start and prompt command, and a command client's when nothing listens)",
    )
    .option('--format <agent>', 'serve --start: whose event it is (install --serve writes it)')
    .option('--status', 'Say whether hookrun serve runs and answers (exit 1 when not)')
    .option('--stop', 'Stop the running server (SIGTERM: running events finish first)')
    .example('hookrun serve                 # in the foreground; install --serve starts it from the agent by itself')
    .example('hookrun serve --status')
    .action(async (event: string | undefined, flags: Record<string, unknown>) => {
      const { serveCommand } = await import('./serve.ts')
      setExitCode(await serveCommand(io, flags, pkg.version, event))
    })
}
