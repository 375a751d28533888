// Usage errors from the flag parser (cac), rewritten to say what was expected and what to do.
import type { CAC, Command } from 'cac'
import { HookrunError } from '../core/errors.ts'
import { didYouMean } from '../core/suggest.ts'

export function unknownCommand(cli: CAC, name: string): HookrunError {
  const names = cli.commands.map((command) => command.name).filter((each) => each !== '')
  return new HookrunError(
    `unknown command '${name}'${didYouMean(name, names, (found) => `'hookrun ${found}'`)}; run 'hookrun help' for the commands`,
  )
}

/** cac's own messages become one line naming the command, what it takes, the nearest option and where to read more. */
export function explainUsageError(error: unknown, cli: CAC): unknown {
  if (!(error instanceof Error) || error.name !== 'CACError') return error
  const command = cli.matchedCommand
  const name = command?.name ? `hookrun ${command.name}` : 'hookrun'
  const help = `run '${command?.name ? `hookrun help ${command.name}` : 'hookrun help'}' for its options`
  const unknown = /^Unknown option `(-{1,2})(.+)`$/.exec(error.message)
  if (unknown) {
    const given = `${unknown[1]}${unknown[2]}`
    const options = [...(command?.options ?? []), ...cli.globalCommand.options].flatMap((option) => option.names.map((each) => `--${each}`))
    return new HookrunError(`'${name}' has no option ${given}${didYouMean(given, options)}; ${help}`)
  }
  const unused = /^Unused args: (.+)$/.exec(error.message)
  if (unused) {
    const extra = [...unused[1]!.matchAll(/`([^`]*)`/g)].map((match) => match[1])
    return new HookrunError(
      `'${name}' takes ${takes(command)}; it was also given ${extra.join(' ')} (quote an argument that has spaces); ${help}`,
    )
  }
  if (/^missing required args/.test(error.message)) {
    const required = command?.args.filter((arg) => arg.required).map((arg) => `<${arg.value}>`) ?? []
    return new HookrunError(`'${name}' needs ${required.join(' ')}; ${help}`)
  }
  const missing = /^option `([^` ]+)[^`]*` value is missing$/.exec(error.message)
  if (missing) return new HookrunError(`${missing[1]} needs a value; ${help}`)
  return new HookrunError(`${error.message}; ${help}`)
}

/** `one argument ([event])`, `no arguments`, ... from the command's declared arguments. */
function takes(command: Command | undefined): string {
  const args = command?.args ?? []
  if (args.length === 0) return 'no arguments'
  const shown = args.map((arg) => (arg.required ? `<${arg.value}>` : `[${arg.value}]`)).join(' ')
  return `${args.length === 1 ? 'one argument' : `${args.length} arguments`} (${shown})`
}

/** `hookrun 0.1.0 (bun 1.4.5, linux-x64)`: the runtime that runs it, by its own version. */
export function versionLine(version: string): string {
  const runtime = globalThis as { Deno?: { version: { deno: string } }; Bun?: { version: string } }
  const [name, runtimeVersion] = runtime.Deno
    ? ['deno', runtime.Deno.version.deno]
    : runtime.Bun
      ? ['bun', runtime.Bun.version]
      : ['node', process.versions.node]
  return `hookrun ${version} (${name} ${runtimeVersion}, ${process.platform}-${process.arch})\n`
}
