// The command line: a common `fire` goes straight to its command; every other line to cac (src/commands/program.ts, loaded then).
import { ExitCode, HookrunError } from './core/errors.ts'
import type { ColourMode } from './core/paint.ts'
import { fireCommand } from './commands/fire.ts'
import { simpleFireArgs } from './commands/fire-args.ts'
import { type Io, reportError } from './commands/io.ts'

/** Run the CLI; returns the exit code; a user error is one line on stderr. Usual fire lines skip cac (a millisecond an event). */
export async function main(givenArgv: readonly string[], io: Io): Promise<number> {
  const { args: argv, colour, problem } = colourFlags(givenArgv)
  const simple = problem === undefined ? simpleFireArgs(argv) : undefined
  if (simple === undefined) return (await import('./commands/program.ts')).runProgram(argv, colour, problem, io)
  let exitCode: number = ExitCode.Proceed
  try {
    await fireCommand(io, simple.event, simple.flags, colour, (code) => {
      exitCode = code
    })
    return exitCode
  } catch (error) {
    return reportError(io, colour, error)
  }
}

/** `--color[=auto|always|never]` and `--no-color` anywhere, as git takes them: a value only after `=`; the last one wins. */
function colourFlags(argv: readonly string[]): { args: string[]; colour: ColourMode; problem?: HookrunError } {
  let colour: ColourMode = 'auto'
  let problem: HookrunError | undefined
  const args: string[] = []
  for (const arg of argv) {
    if (arg === '--color') colour = 'always'
    else if (arg === '--no-color') colour = 'never'
    else if (arg.startsWith('--color=')) {
      const value = arg.slice('--color='.length)
      if (value === 'auto' || value === 'always' || value === 'never') colour = value
      else problem = new HookrunError(`${arg}: expected --color=auto, --color=always or --color=never`)
    } else args.push(arg)
  }
  return { args, colour, problem }
}
