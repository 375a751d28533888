// The commands that edit agents' own config files: install, uninstall and import (registered by program.ts).
import type { CAC } from 'cac'
import { HookrunError } from '../core/errors.ts'
import { required } from './help.ts'
import { importableNames, installableNames, spokenList } from '../agents/registry.ts'
import { SERVED_AGENTS } from '../serve/served.ts'
import { bool, folder, type Io, list } from './io.ts'

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
    if (name === 'install')
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
    if (name === 'install') {
      command
        .example('hookrun install --agent claude                      # every project: ~/.claude/settings.json')
        .example('hookrun install --agent claude --project            # Claude Code starts hookrun only where a hook wants it')
        .example('hookrun install --project --sync                    # narrow again now (hookrun trust does it itself)')
    } else {
      command
        .example('hookrun uninstall --agent claude             # your user config')
        .example("hookrun uninstall --agent cursor --project   # this project's .cursor/hooks.json")
    }
    command.action(
      async (flags: {
        agent?: string | string[]
        user?: boolean
        project?: boolean
        cwd?: string
        events?: string | string[]
        sync?: boolean
        narrow?: boolean
        allEvents?: boolean
        quiet?: boolean
        json?: boolean
        serve?: boolean
        port?: string | number
        agentFormat?: string
      }) => {
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
        const agents = list(flags.agent) ?? []
        const result = installAgents(
          {
            agents,
            scope,
            cwd: folder(flags.cwd) ?? process.cwd(),
            env: io.env,
            events: list(flags.events),
            agentFormat: flags.agentFormat === undefined ? undefined : String(flags.agentFormat),
            sync: flags.sync === true,
            narrow: !flags.allEvents,
            quiet: flags.quiet === true,
            // Without --serve an install writes command handlers (replacing serve's); --sync keeps what the file has.
            serve: flags.serve ? { port: await servePort(flags.port) } : flags.sync ? undefined : false,
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
      const agents = list(flags.agent) ?? []
      const result = await importAgents({
        agents,
        scope: flags.user ? 'user' : 'project',
        cwd: folder(flags.cwd) ?? process.cwd(),
        env: io.env,
        dryRun: bool(flags.dryRun, 'dry-run'),
      })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })
}

/** `--port`: a whole number from 1 to 65535; default hookrun serve's. */
async function servePort(value: unknown): Promise<number> {
  const { DEFAULT_SERVE_PORT } = await import('../serve/state.ts')
  if (value === undefined) return DEFAULT_SERVE_PORT
  const port = Number(value)
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new HookrunError(`--port ${String(value)}: expected a whole number from 1 to 65535`)
  return port
}
