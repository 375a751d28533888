// The command line: a common `fire` goes straight to its command; every other line to cac (src/commands/program.ts, loaded then).
import { ExitCode, HookrunError } from './core/errors.ts'
import type { ColourMode } from './core/paint.ts'
import { fireCommand } from './commands/fire.ts'
import { simpleFireArgs } from './commands/fire-args.ts'
import { type Io, reportError } from './commands/io.ts'

export type { Io } from './commands/io.ts'

/**
 * Run the CLI; returns the exit code. Every user error becomes one line on stderr. An agent runs
 * `hookrun fire` on every event: its usual command lines (`fire --format claude`, `fire EVENT
 * --payload -`) are read here without cac, whose command table cost each event about a
 * millisecond; anything else (other flags, help, a typo) is read by cac exactly as before.
 */
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

/**
 * `--color`, `--color=auto|always|never` and `--no-color`, anywhere on the line (before or after
 * the command), as git, ls and grep take them: a bare `--color` is `always`, and a value is given
 * with `=` only, so `--color list` never swallows the command. The last one given wins.
 */
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
