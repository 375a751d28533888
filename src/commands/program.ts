// The command line (cac): every command's flags, read into library calls. Commands load lazily.
import { cac, type CAC, type Command } from 'cac'
import pkg from '../../package.json' with { type: 'json' }
import { ExitCode, HookrunError } from '../core/errors.ts'
import type { ColourMode } from '../core/paint.ts'
import { count } from '../core/words.ts'
import { loadGlobs } from '../event/globs.ts'
import { fireCommand as runFire, type FireFlags } from './fire.ts'
import { helpSections, helpWidth, required } from './help.ts'
import { registerAgentConfigCommands } from './program-agents.ts'
import { bool, type CommonFlags, configFiles, folder, type Io, paintFor, reportError, text } from './io.ts'

/**
 * The command line. `only: 'fire'` defines the fire command alone: an agent runs hookrun once per
 * event, and defining every other command first cost each event about a millisecond.
 */
export function createCli(io: Io, setExitCode: (code: number) => void, only?: 'fire', colour: ColourMode = 'auto'): CAC {
  const cli = cac('hookrun')

  const fireCommand = cli
    .command('fire [event]', 'Run the hooks that match an event and print the decision as JSON')
    .option('--payload <file>', "Event JSON from a file, or '-' for stdin (default: {}, or stdin when no event or a --format is given)")
    .option('--tool <name>', "The event's subject (default: the payload's tool_name)")
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder (default: the current one)')
    .option('--strict', 'Treat any config problem as fatal (exit 1)')
    .option(
      '--format <agent>',
      "Read and answer in an agent's protocol: claude, cursor, gemini, codex, copilot, windsurf, droid, kiro, crush, qwen, kimi, vibe (default: detected from the payload; see hookrun agents)",
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

  cli
    .command('events', 'Print the event vocabulary and every alias hookrun understands')
    .option('--json', 'Print JSON')
    .option('--tools', "Print the tool subjects instead: each with every agent's name for it")
    .example('hookrun events')
    .example('hookrun events --tools   # tool:pre_execute:bash is Bash, run_shell_command, ...')
    .action(async (flags: { json?: boolean; tools?: boolean }) => {
      const { formatEvents, formatTools } = await import('./events.ts')
      const paint = await paintFor(io, colour, 'stdout')
      await io.stdout(flags.tools ? formatTools(flags.json === true, paint) : formatEvents(flags.json === true, paint))
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
      await io.stdout(formatAgents(flags.json === true, await paintFor(io, colour, 'stdout')))
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
      const output = await listHooks({
        event,
        tool: text(flags.tool, 'tool'),
        cwd: folder(flags.cwd) ?? process.cwd(),
        configFiles: configFiles(flags),
        env: io.env,
        json: bool(flags.json, 'json'),
        paint: await paintFor(io, colour, 'stdout'),
      })
      await io.stdout(output)
    })

  cli
    .command('validate [...files]', 'Check config files (default: the discovered ones); exit 1 on any error')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .example('hookrun validate')
    .example('hookrun validate .hookrun/hooks.json --json')
    .action(async (files: string[], flags: CommonFlags) => {
      const { validateConfig } = await import('./validate.ts')
      const result = validateConfig({
        files,
        cwd: folder(flags.cwd) ?? process.cwd(),
        env: io.env,
        json: bool(flags.json, 'json'),
        paint: await paintFor(io, colour, 'stdout'),
      })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

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
        cwd: folder(flags.cwd) ?? process.cwd(),
        env: io.env,
        json: flags.json === true,
      })
      for (const warning of warnings) await io.stderr(`hookrun: warning: ${warning}\n`)
      await io.stdout(output)
    })

  cli
    .command('test [...files]', 'Run hook test cases (default: .hookrun/tests/*.json) through the real pipeline; exit 1 on any failure')
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .example('hookrun test                                  # every case in .hookrun/tests/')
    .example('hookrun test .hookrun/tests/dangerous-commands.json')
    .action(async (files: string[], flags: CommonFlags) => {
      const { runTests } = await import('./test.ts')
      const result = await runTests({
        files,
        cwd: folder(flags.cwd) ?? process.cwd(),
        configFiles: configFiles(flags),
        env: io.env,
        json: flags.json === true,
        paint: await paintFor(io, colour, 'stdout'),
      })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

  cli
    .command('init', 'Write a starter .hookrun/hooks.json, scripts and tests; never overwrites a file')
    .option('--template <name>', 'Only this template (repeatable): dangerous-commands, audit-log, notify, git-commit')
    .option('--list', 'List the templates')
    .option('--cwd <dir>', 'The project folder (default: the current one)')
    .option('--json', 'Print the result as JSON: each file written or kept, whether the new hooks are trusted')
    .example('hookrun init                                  # every template; the intrusive ones switched off')
    .example('hookrun init --template dangerous-commands')
    .action(async (flags: { template?: string | string[]; list?: boolean; cwd?: string; json?: boolean }) => {
      const { initProject, initProjectResult, listTemplates } = await import('./init.ts')
      if (flags.list) return void (await io.stdout(listTemplates()))
      const templates =
        flags.template === undefined
          ? []
          : (Array.isArray(flags.template) ? flags.template : [flags.template]).flatMap((name) => String(name).split(','))
      const options = { cwd: folder(flags.cwd) ?? process.cwd(), templates, env: io.env }
      await io.stdout(bool(flags.json, 'json') ? `${JSON.stringify(initProjectResult(options), null, 2)}\n` : initProject(options))
    })

  registerAgentConfigCommands(cli, io, setExitCode)

  cli
    .command('trust [dir]', "Let the project's hooks run: trust its hook files as they are now (any change revokes it)")
    .option('--diff', 'Show what changed since the project was trusted; trust nothing')
    .option('--json', 'Print the result as JSON: the project, the files pinned, what trust does not cover, the hooks it refused')
    .example('hookrun trust            # the project at or above the current folder')
    .example('hookrun trust --diff     # what changed since you trusted it')
    .action(async (dir: string | undefined, flags: { diff?: boolean; json?: boolean }) => {
      const { trustDiff, trustProject, trustProjectResult } = await import('./trust.ts')
      const options = {
        dir: dir === undefined ? undefined : String(dir),
        cwd: process.cwd(),
        env: io.env,
        paint: await paintFor(io, colour, 'stdout'),
      }
      const diff = bool(flags.diff, 'diff')
      if (bool(flags.json, 'json')) {
        if (diff) throw new HookrunError('--json goes with trust, not --diff (which shows the changes for a person)')
        const result = trustProjectResult(options)
        await io.stdout(`${JSON.stringify(result, null, 2)}\n`)
        // Refused: the exit code says so, as the error line does without --json.
        if (!result.trusted) setExitCode(ExitCode.Failure)
        return
      }
      await io.stdout(diff ? trustDiff(options) : trustProject(options))
    })

  cli
    .command('untrust [dir]', "Stop the project's hooks: forget the trust given with 'hookrun trust'")
    .example('hookrun untrust')
    .action(async (dir: string | undefined) => {
      const { untrustProject } = await import('./trust.ts')
      await io.stdout(untrustProject({ dir: dir === undefined ? undefined : String(dir), cwd: process.cwd(), env: io.env }))
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
          cwd: folder(flags.cwd) ?? process.cwd(),
          env: io.env,
          file: text(flags.file, 'file'),
          configFiles: configFiles(flags),
          since: text(flags.since, 'since'),
          decision: text(flags.decision, 'decision'),
          agent: text(flags.agent, 'agent'),
          json: bool(flags.json, 'json'),
          paint: await paintFor(io, colour, 'stdout'),
        }
        if (action === undefined) return void (await io.stdout(showLog(options)))
        if (action !== 'verify') throw new HookrunError(`hookrun log ${action}: unknown action; use 'hookrun log' or 'hookrun log verify'`)
        const result = verifyLog(options)
        await io.stdout(result.output)
        setExitCode(result.exitCode)
      },
    )

  cli
    .command(
      'policy <action> [file]',
      "The managed config's remote policy: status, pull (fetch now), sign --key PRIVATE.pem FILE (make the signed file to serve)",
    )
    .option('--key <file>', 'sign: the Ed25519 private key (PEM)', required({ for: 'sign' }))
    .option('--quiet', 'pull: print nothing (as the background refresh runs it)')
    .option('--cwd <dir>', 'Discover the config from this folder')
    .example('hookrun policy status')
    .example('openssl genpkey -algorithm ed25519 -out policy-key.pem && hookrun policy sign --key policy-key.pem policy.json > signed.json')
    .action(async (action: string, file: string | undefined, flags: { key?: string; quiet?: boolean; cwd?: string }) => {
      const { policyCommand } = await import('./policy.ts')
      const result = await policyCommand(action, {
        cwd: folder(flags.cwd) ?? process.cwd(),
        env: io.env,
        quiet: flags.quiet === true,
        key: text(flags.key, 'key'),
        file,
      })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

  cli
    .command(
      'telemetry <action>',
      'flush: export the spans fires spooled to the OpenTelemetry collector now (fires start this in the background)',
    )
    .option('--linger', 'Keep shipping what new fires spool until none has come for 10 s (how fires start it)')
    .example('hookrun telemetry flush')
    .action(async (action: string, flags: { linger?: boolean }) => {
      if (action !== 'flush') throw new HookrunError(`hookrun telemetry ${action}: unknown action; use 'hookrun telemetry flush'`)
      const { flushSpool } = await import('../telemetry/export.ts')
      const result = await flushSpool(io.env, flags.linger === true)
      if (result.alreadyRunning) return void (await io.stdout('another hookrun telemetry flush is running; it ships the spool\n'))
      for (const failure of result.failures) await io.stderr(`hookrun: warning: telemetry export to ${failure}\n`)
      await io.stdout(
        `${count(result.shipped, 'fire')} exported${result.failures.length > 0 ? `, ${count(result.failures.length, 'export')} failed` : ''}\n`,
      )
      if (result.failures.length > 0) setExitCode(ExitCode.Failure)
    })

  cli
    .command('schema', 'Print the JSON Schema of hooks.json')
    .example('hookrun schema > hooks.schema.json')
    .action(async () => {
      const { configJsonSchema } = await import('./schema.ts')
      await io.stdout(`${JSON.stringify(configJsonSchema(), null, 2)}\n`)
    })

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
      const result = doctorCommand({
        cwd: folder(flags.cwd) ?? process.cwd(),
        env: io.env,
        version: pkg.version,
        json: bool(flags.json, 'json'),
        paint: await paintFor(io, colour, 'stdout'),
      })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
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
  // Commands compile patterns and filters synchronously: glob matching is loaded first. A fire
  // loads it itself, only when its hooks need it (src/fire.ts), as on its common command lines.
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

/**
 * Two things the flag parser (mri) gets wrong, fixed before it runs: a lone `-` reads as no
 * value, yet `--payload -` means stdin, so it is passed as `--payload=-`; and an empty value
 * (`--config ''`) would become the number 0, so it is refused here.
 */
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
