// The command line (cac): every command's flags, read into library calls, registered here and from
// program-*.ts by the groups of `hookrun --help`. Commands load lazily.
import { cac, type CAC, type Command } from 'cac'
import pkg from '../../package.json' with { type: 'json' }
import { ExitCode, HookrunError } from '../core/errors.ts'
import type { ColourMode } from '../core/paint.ts'
import { loadGlobs } from '../event/globs.ts'
import { formatNames } from '../agents/registry.ts'
import { fireCommand as runFire, type FireFlags } from './fire.ts'
import { helpSections, helpWidth } from './help.ts'
import { registerAgentConfigCommands, registerServeCommand } from './program-agents.ts'
import { registerCheckCommands, registerShowCommands } from './program-inspect.ts'
import { registerSetUpCommands } from './program-setup.ts'
import { registerTrustCommands } from './program-trust.ts'
import { type Io, reportError } from './io.ts'

/** The command line; `only: 'fire'` defines fire alone (every other command cost each event about a millisecond). */
export function createCli(io: Io, setExitCode: (code: number) => void, only?: 'fire', colour: ColourMode = 'auto'): CAC {
  const cli = cac('hookrun')

  const fireCommand = defineFire(cli, io, setExitCode, colour)
  if (only === 'fire') return withGlobalOptions(cli, io)

  // `explain` is `fire --explain`, with fire's flags (less --events) and --dry-run.
  const explainCommand = cli.command(
    'explain [event]',
    'Fire an event and show every configured hook: run or why not, each answer, how the decision was reached',
  )
  for (const option of fireCommand.options)
    if (!['events', 'explain', 'pretty'].includes(option.name)) explainCommand.option(option.rawName, option.description, option.config)
  explainCommand
    .option('--dry-run', 'Only show which hooks would run; run none')
    .example('hookrun explain tool:pre_execute --tool Bash --dry-run   # which hooks a Bash call would run')
    .example("hookrun explain --format claude --payload event.json      # every hook's answer to a saved payload")
    .action((event: string | undefined, flags: FireFlags) => fireCommand.commandAction!(event, { ...flags, explain: true, person: true }))

  registerSetUpCommands(cli, io)
  registerAgentConfigCommands(cli, io, setExitCode)
  registerServeCommand(cli, io, setExitCode)
  registerShowCommands(cli, io, setExitCode, colour)
  registerCheckCommands(cli, io, setExitCode, colour)
  registerTrustCommands(cli, io, setExitCode, colour)

  cli
    .command('schema', 'Print the JSON Schema of hooks.json')
    .example('hookrun schema > hooks.schema.json')
    .action(async () => {
      const { configJsonSchema } = await import('./schema.ts')
      await io.stdout(`${JSON.stringify(configJsonSchema(), null, 2)}\n`)
    })

  cli
    .command('completion <shell>', 'Print tab completion of commands, options and their values for bash, zsh or fish')
    .example('eval "$(hookrun completion bash)"                            # in ~/.bashrc (zsh: the same in ~/.zshrc)')
    .example('hookrun completion fish > ~/.config/fish/completions/hookrun.fish')
    .action(async (shell: string) => {
      const { completionScript, completionValues } = await import('./completion.ts')
      const values = completionValues()
      const longNames = (option: Command['options'][number]) => option.rawName.match(/--[\w-]+/g) ?? []
      const commands = cli.commands
        .filter((command) => command.name !== '')
        .map((command) => ({
          name: command.name,
          description: command.description,
          options: [...command.options.flatMap(longNames), '--color', '--no-color'],
          valueFlags: command.options.filter((option) => !option.isBoolean).flatMap(longNames),
          ...values[command.name],
        }))
      await io.stdout(completionScript(String(shell), commands))
    })

  // Parsed before cac sees it (main): `help fire` is `fire --help`.
  cli
    .command('help [command]', "Show the commands, or one command's options and examples")
    .example('hookrun help install   # the same as hookrun install --help')
  return withGlobalOptions(cli, io)
}

/** `hookrun fire`: the command agents run, defined first (and alone, for an agent's fire). */
function defineFire(cli: CAC, io: Io, setExitCode: (code: number) => void, colour: ColourMode): Command {
  return cli
    .command('fire [event]', 'Run the hooks that match an event and print the decision as JSON')
    .option('--payload <file>', "Event JSON from a file, or '-' for stdin (default: {}, or stdin when no event or a --format is given)")
    .option('--tool <name>', "The event's subject (default: the payload's tool_name)")
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder (default: the current one)')
    .option('--strict', 'Treat any config problem as fatal (exit 1)')
    .option(
      '--format <agent>',
      `Read and answer in an agent's protocol: ${formatNames().join(', ')} (default: detected from the payload; see hookrun agents)`,
    )
    .option('--events <file>', "Write hook progress as NDJSON to a file, or '-' for stderr")
    .option('--set <key=value>', 'Add a payload field (repeatable); key:=JSON for a non-string value', { type: [String] })
    .option(
      '--record <dir>',
      'Also save the payload, secrets redacted, as a hookrun test case with this answer in DIR (or set HOOKRUN_RECORD)',
    )
    .option('--explain', 'Print how the decision was reached instead of the decision (with --json: as JSON)')
    .option('--json', 'Print the explanation as JSON (with --explain)')
    .option('--pretty', 'Print the decision for a person: the verdict, then one aligned line per hook (same exit code)')
    .example('echo \'{"tool_name":"bash","tool_input":{"command":"sudo ls"}}\' | hookrun fire tool:pre_execute --payload -')
    .example('hookrun fire --format claude   # as a Claude Code hook command: the event comes from hook_event_name')
    .action((event: string | undefined, flags: FireFlags) => runFire(io, event, flags, colour, setExitCode))
}

/** What every command line has, whichever commands it defines: the help layout and --version. */
function withGlobalOptions(cli: CAC, io: Io): CAC {
  const summary = `hookrun: ${pkg.description.charAt(0).toLowerCase()}${pkg.description.slice(1)}`
  cli.help(() => helpSections(cli, { width: helpWidth(io.env, io.stdoutColumns), summary }))
  // Not cli.version(): cac names Node's version under Bun and Deno; main prints the runtime's own.
  cli.option('-v, --version', 'Print the version and the runtime it runs on')
  // Taken out of the arguments before cac parses them (colourFlags); listed here for help and completion.
  cli.option(
    '--color [when]',
    'Colour human output: --color=auto (the default: on a terminal; NO_COLOR turns it off, FORCE_COLOR on), --color (always), --color=never or --no-color',
  )
  return cli
}

/** Every command line but a common fire (src/cli.ts): read by cac; returns the exit code. */
export async function runProgram(
  argv: readonly string[],
  colour: ColourMode,
  colourProblem: HookrunError | undefined,
  io: Io,
): Promise<number> {
  // Commands compile patterns synchronously: glob matching first (a fire loads it when its hooks need it).
  if (argv[0] !== 'fire') await loadGlobs()
  let exitCode: number = ExitCode.Proceed
  const cli = createCli(
    io,
    (code) => {
      exitCode = code
    },
    argv[0] === 'fire' ? 'fire' : undefined,
    colour,
  )
  try {
    if (colourProblem !== undefined) throw colourProblem
    let args = prepareArgv(argv, valueFlags(cli))
    if (args[0] === 'help') {
      const topic = args.slice(1).find((arg) => !arg.startsWith('-'))
      if (topic !== undefined && !cli.commands.some((command) => command.name === topic))
        throw (await import('./usage.ts')).unknownCommand(cli, topic)
      args = topic === undefined ? ['--help'] : [topic, '--help']
    }
    cli.parse(['hookrun', 'hookrun', ...args], { run: false })
    if (cli.options.help) return ExitCode.Proceed
    if (cli.options.version) {
      await io.stdout((await import('./usage.ts')).versionLine(pkg.version))
      return ExitCode.Proceed
    }
    if (!cli.matchedCommand) {
      const [unknown] = cli.args
      if (unknown === undefined) {
        cli.outputHelp()
        return ExitCode.Proceed
      }
      throw (await import('./usage.ts')).unknownCommand(cli, String(unknown))
    }
    await cli.runMatchedCommand()
    return exitCode
  } catch (caught) {
    const error =
      caught instanceof Error && caught.name === 'CACError' ? (await import('./usage.ts')).explainUsageError(caught, cli) : caught
    return reportError(io, colour, error)
  }
}
/** The long flags that take a value (`--payload <file>`), from cac's own option table. */
export function valueFlags(cli: CAC): Set<string> {
  const options = [...cli.globalCommand.options, ...cli.commands.flatMap((command) => command.options)]
  return new Set(options.filter((option) => option.required === true).flatMap((option) => option.names.map((name) => `--${name}`)))
}

/** mri's two slips fixed before it runs: `--payload -` (a lone `-` reads as no value) passed as `--payload=-`; an empty value (0) refused. */
export function prepareArgv(argv: readonly string[], takesValue: ReadonlySet<string>): string[] {
  const out: string[] = []
  for (const arg of argv) {
    const previous = out.at(-1)
    const afterValueFlag = previous !== undefined && takesValue.has(previous)
    const [flag, value] = arg.split(/=(.*)/s)
    if ((afterValueFlag && arg === '') || (takesValue.has(flag!) && value === '')) {
      throw new HookrunError(`${afterValueFlag ? previous : flag} needs a value; it was given an empty one`)
    }
    if (arg === '-' && afterValueFlag) out[out.length - 1] = `${previous}=-`
    else out.push(arg)
  }
  return out
}
