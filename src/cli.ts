import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { cac, type CAC } from 'cac'
import pkg from '../package.json' with { type: 'json' }
import { ExitCode, formatError, HookrunError } from './errors.ts'
import { fire } from './fire.ts'
import { readPayload } from './payload.ts'
import { renderNative } from './render.ts'

/** Where the CLI writes; tests pass their own. */
export interface Io {
  stdout(text: string): Promise<void> | void
  stderr(text: string): Promise<void> | void
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdin: AsyncIterable<Uint8Array>
}

interface CommonFlags {
  config?: string | string[]
  cwd?: string
  tool?: string
  json?: boolean
}

/** `--config` may be given once (a string) or repeatedly (an array). */
function configFiles(flags: CommonFlags): string[] | undefined {
  if (flags.config === undefined) return undefined
  return (Array.isArray(flags.config) ? flags.config : [flags.config]).map((value) => text(value, 'config')!)
}

/** A flag that takes one value: given twice is a contradiction, not a choice. */
function text(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined
  if (Array.isArray(value)) throw new HookrunError(`--${flag} was given ${value.length} times (${value.join(', ')}); give it once`)
  if (typeof value !== 'string' && typeof value !== 'number') throw new HookrunError(`--${flag} needs a value`)
  return String(value)
}

function bool(value: unknown, flag: string): boolean {
  if (Array.isArray(value)) throw new HookrunError(`--${flag} was given ${value.length} times; give it once`)
  return value === true
}

/** `--cwd` must name a folder: hooks run there, so a typo must not become a failing hook. */
function folder(value: unknown): string | undefined {
  const dir = text(value, 'cwd')
  if (dir === undefined) return undefined
  let isFolder = false
  try {
    isFolder = statSync(dir).isDirectory()
  } catch {}
  if (!isFolder) throw new HookrunError(`--cwd ${resolve(dir)}: no such folder`)
  return dir
}

export function createCli(io: Io, setExitCode: (code: number) => void): CAC {
  const cli = cac('hookrun')

  cli
    .command('fire <event>', 'Run the hooks that match an event and print the decision as JSON')
    .option('--payload <file>', "Event JSON from a file, or '-' for stdin (default: {})")
    .option('--tool <name>', "The event's subject (default: the payload's tool_name)")
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder (default: the current one)')
    .option('--strict', 'Treat any config problem as fatal (exit 1)')
    .example("echo '{\"tool_name\":\"bash\",\"tool_input\":{\"command\":\"sudo ls\"}}' | hookrun fire tool:pre_execute --payload -")
    .action(async (event: string, flags: CommonFlags & { payload?: string; strict?: boolean }) => {
      const payload = await readPayload(text(flags.payload, 'payload'), io.stdin)
      const controller = new AbortController()
      const stop = (signal: NodeJS.Signals) => controller.abort(signal)
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
      try {
        const decision = await fire({
          event,
          payload,
          tool: text(flags.tool, 'tool'),
          cwd: folder(flags.cwd),
          configFiles: configFiles(flags),
          strict: bool(flags.strict, 'strict'),
          env: io.env,
          signal: controller.signal,
        })
        if (controller.signal.aborted) {
          const signal = String(controller.signal.reason)
          throw new HookrunError(`interrupted by ${signal}: running hooks were killed`, signal === 'SIGINT' ? 130 : 143)
        }
        for (const warning of decision.warnings) await io.stderr(`hookrun: warning: ${warning}\n`)
        const rendered = renderNative(decision)
        await io.stdout(rendered.stdout)
        setExitCode(rendered.exitCode)
      } finally {
        process.off('SIGINT', stop)
        process.off('SIGTERM', stop)
      }
    })

  cli
    .command('list [event]', 'Show configured hooks, or those an event would run, with their files')
    .option('--tool <name>', "The event's subject")
    .option('--config <file>', 'Use this config file instead of discovery (repeatable)')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .action(async (event: string | undefined, flags: CommonFlags) => {
      const { listHooks } = await import('./commands/list.ts')
      const output = listHooks({ event, tool: text(flags.tool, 'tool'), cwd: folder(flags.cwd) ?? process.cwd(), configFiles: configFiles(flags), env: io.env, json: bool(flags.json, 'json') })
      await io.stdout(output)
    })

  cli
    .command('validate [...files]', 'Check config files (default: the discovered ones); exit 1 on any error')
    .option('--cwd <dir>', 'Discover the project from this folder')
    .option('--json', 'Print JSON')
    .action(async (files: string[], flags: CommonFlags) => {
      const { validateConfig } = await import('./commands/validate.ts')
      const result = validateConfig({ files, cwd: folder(flags.cwd) ?? process.cwd(), env: io.env, json: bool(flags.json, 'json') })
      await io.stdout(result.output)
      setExitCode(result.exitCode)
    })

  cli
    .command('trust [dir]', "Let the project's hooks run: trust its hook files as they are now (any change revokes it)")
    .example('hookrun trust            # the project at or above the current folder')
    .action(async (dir: string | undefined) => {
      const { trustProject } = await import('./commands/trust.ts')
      await io.stdout(trustProject({ dir: dir === undefined ? undefined : String(dir), cwd: process.cwd(), env: io.env }))
    })

  cli.command('untrust [dir]', "Stop the project's hooks: forget the trust given with 'hookrun trust'").action(async (dir: string | undefined) => {
    const { untrustProject } = await import('./commands/trust.ts')
    await io.stdout(untrustProject({ dir: dir === undefined ? undefined : String(dir), cwd: process.cwd(), env: io.env }))
  })

  cli.command('schema', 'Print the JSON Schema of hooks.json').action(async () => {
    const { configJsonSchema } = await import('./commands/schema.ts')
    await io.stdout(`${JSON.stringify(configJsonSchema(), null, 2)}\n`)
  })

  cli.help()
  cli.version(pkg.version)
  return cli
}

/** Run the CLI; returns the exit code. Every user error becomes one line on stderr. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let exitCode: number = ExitCode.Proceed
  const cli = createCli(io, (code) => {
    exitCode = code
  })
  try {
    cli.parse(['hookrun', 'hookrun', ...prepareArgv(argv, valueFlags(cli))], { run: false })
    if (cli.options.help || cli.options.version) return ExitCode.Proceed
    if (!cli.matchedCommand) {
      const [unknown] = cli.args
      if (unknown === undefined) {
        cli.outputHelp()
        return ExitCode.Proceed
      }
      throw new HookrunError(`unknown command '${unknown}'; run 'hookrun --help' for the commands`)
    }
    await cli.runMatchedCommand()
    return exitCode
  } catch (error) {
    await io.stderr(`${formatError(error, io.env.HOOKRUN_DEBUG === '1')}\n`)
    return error instanceof HookrunError ? error.exitCode : ExitCode.Failure
  }
}

/** The long flags that take a value (`--payload <file>`), from cac's own option table. */
function valueFlags(cli: CAC): Set<string> {
  const options = [...cli.globalCommand.options, ...cli.commands.flatMap((command) => command.options)]
  return new Set(options.filter((option) => option.required === true).flatMap((option) => option.names.map((name) => `--${name}`)))
}

/**
 * Two things the flag parser (mri) gets wrong, fixed before it runs: a lone `-` reads as no
 * value, yet `--payload -` means stdin, so it is passed as `--payload=-`; and an empty value
 * (`--config ''`) would become the number 0, so it is refused here.
 */
function prepareArgv(argv: readonly string[], takesValue: ReadonlySet<string>): string[] {
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
