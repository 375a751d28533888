// The commands that show and check what is configured: events, agents, list, validate, test, log, doctor (registered by program.ts).
import type { CAC } from 'cac'
import pkg from '../../package.json' with { type: 'json' }
import { HookrunError } from '../core/errors.ts'
import type { ColourMode } from '../core/paint.ts'
import { bool, type CommonFlags, configFiles, cwdOf, type Io, paintFor, printer, text } from './io.ts'

/** `hookrun events`, `agents`, `list` and `validate` ('See and test' in `hookrun --help`): what hookrun knows and what is configured. */
export function registerShowCommands(cli: CAC, io: Io, setExitCode: (code: number) => void, colour: ColourMode): void {
  const paint = () => paintFor(io, colour, 'stdout')
  const print = printer(io, setExitCode)
  cli
    .command('events', 'Print the event vocabulary and every alias hookrun understands')
    .option('--json', 'Print JSON')
    .option('--tools', "Print the tool subjects instead: each with every agent's name for it")
    .example('hookrun events')
    .example('hookrun events --tools   # tool:pre_execute:bash is Bash, run_shell_command, ...')
    .action(async (flags: { json?: boolean; tools?: boolean }) => {
      const { formatEvents, formatTools } = await import('./events.ts')
      await io.stdout((flags.tools ? formatTools : formatEvents)(flags.json === true, await paint()))
    })

  cli
    .command(
      'agents',
      'Print what hookrun knows of each agent: the events it sends, the answer fields it honours, where it reads hooks, what install writes there',
    )
    .option('--json', 'Print JSON')
    .example('hookrun agents')
    .action(async (flags: { json?: boolean }) => {
      const { formatAgents } = await import('./agents.ts')
      await io.stdout(formatAgents(flags.json === true, await paint()))
    })

  cli
    .command('list [event]', 'Show configured hooks, or those an event would run, with their files')
    .option('--tool <name>', "The event's subject")
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .example('hookrun list                                  # every configured hook, in run order')
    .example('hookrun list tool:pre_execute --tool Bash     # which of them a Bash call runs, and why not the others')
    .action(async (event: string | undefined, flags: CommonFlags) => {
      const { listHooks } = await import('./list.ts')
      await io.stdout(
        await listHooks({
          event,
          tool: text(flags.tool, 'tool'),
          cwd: cwdOf(flags),
          configFiles: configFiles(flags),
          env: io.env,
          json: bool(flags.json, 'json'),
          paint: await paint(),
        }),
      )
    })

  cli
    .command('validate [...files]', 'Check config files (default: the discovered ones); exit 1 on any error')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .example('hookrun validate')
    .example('hookrun validate .hookrun/hooks.json --json')
    .action(async (files: string[], flags: CommonFlags) => {
      const { validateConfig } = await import('./validate.ts')
      await print(validateConfig({ files, cwd: cwdOf(flags), env: io.env, json: bool(flags.json, 'json'), paint: await paint() }))
    })
}

/** `hookrun test`, `hookrun log` and `hookrun doctor`: hooks run against cases, the audit log read, the set-up checked. */
export function registerCheckCommands(cli: CAC, io: Io, setExitCode: (code: number) => void, colour: ColourMode): void {
  const paint = () => paintFor(io, colour, 'stdout')
  const print = printer(io, setExitCode)
  cli
    .command('test [...files]', 'Run hook test cases (default: .hookrun/tests/*.json) through the real pipeline; exit 1 on any failure')
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .example('hookrun test                                  # every case in .hookrun/tests/')
    .example('hookrun test .hookrun/tests/dangerous-commands.json')
    .action(async (files: string[], flags: CommonFlags) => {
      const { runTests } = await import('./test.ts')
      const options = { files, cwd: cwdOf(flags), configFiles: configFiles(flags), env: io.env, json: flags.json === true }
      await print(await runTests({ ...options, paint: await paint() }))
    })

  cli
    .command('log [action]', "Show the audit log as a table (or JSON); 'log verify' checks a chained log for edits and cuts")
    .option('--since <when>', 'Only lines since then: 30m, 2h, 7d, or a date (2026-11-01T09:00)')
    .option('--decision <decision>', 'Only allow, deny or ask')
    .option('--agent <name>', 'Only events from this agent (claude, cursor, …)')
    .option('--file <file>', 'Read this log instead of the configured one')
    .option('--config <file>', 'Find the log setting in this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the config from this folder')
    .option('--json', 'Print the matching lines as a JSON array')
    .example('hookrun log --since 1d --decision deny')
    .action(
      async (action: string | undefined, flags: CommonFlags & { since?: string; decision?: string; agent?: string; file?: string }) => {
        const { showLog, verifyLog } = await import('./log.ts')
        const options = {
          cwd: cwdOf(flags),
          env: io.env,
          file: text(flags.file, 'file'),
          configFiles: configFiles(flags),
          since: text(flags.since, 'since'),
          decision: text(flags.decision, 'decision'),
          agent: text(flags.agent, 'agent'),
          json: bool(flags.json, 'json'),
          paint: await paint(),
        }
        if (action === undefined) return void (await io.stdout(showLog(options)))
        if (action !== 'verify') throw new HookrunError(`hookrun log ${action}: unknown action; use 'hookrun log' or 'hookrun log verify'`)
        await print(verifyLog(options))
      },
    )

  cli
    .command(
      'doctor',
      'Check what would make hooks silently not fire: hookrun on PATH, agents wired, project trusted, config, audit log; exit 1 when a gate is not in force',
    )
    .option('--cwd <dir>', 'Check the project at or above this folder (default: the current one)')
    .option('--json', 'Print JSON')
    .example('hookrun doctor')
    .action(async (flags: CommonFlags) => {
      const { doctorCommand } = await import('./doctor.ts')
      const cwd = cwdOf(flags)
      const extra = await (await import('./serve.ts')).serveDoctorLines(cwd, io.env)
      await print(doctorCommand({ extra, cwd, env: io.env, version: pkg.version, json: bool(flags.json, 'json'), paint: await paint() }))
    })
}
