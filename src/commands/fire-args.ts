// A common `fire` line read by hand, without cac (src/cli.ts): what agents run on every event.
//
// Measured against cac on the fire path (BENCHMARKS.md "Only what a fire needs is loaded"): a fire
// answered from its plan took 0.90x the CPU time of the same line read by cac with the compiled
// binary (8.0 against 9.0 ms) and 0.97x on Node (84.5 against 86.8 ms), paired. It pays: kept.
import type { FireFlags } from './fire.ts'

/** The flags a common fire line has, each taking one value. */
const SIMPLE_FLAGS = new Set(['payload', 'format', 'cwd', 'tool'])

/**
 * `fire [event]` with any of `--payload`, `--format`, `--cwd`, `--tool` (each once, `--flag value`
 * or `--flag=value`): what agents' hook commands and scripts run, read without cac. Undefined for
 * anything else, which cac reads as before; so is anything cac would read differently (its flag
 * parser turns a number-like value into a number, and a value that starts with `-` is a flag).
 */
export function simpleFireArgs(argv: readonly string[]): { event: string | undefined; flags: FireFlags } | undefined {
  if (argv[0] !== 'fire') return undefined
  const flags: Record<string, string> = {}
  let event: string | undefined
  for (let index = 1; index < argv.length; index++) {
    const arg = argv[index]!
    if (!arg.startsWith('-')) {
      if (event !== undefined || !plainValue(arg)) return undefined
      event = arg
      continue
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s) as [string, string | undefined]
    if (!arg.startsWith('--') || !SIMPLE_FLAGS.has(name) || name in flags) return undefined
    const value = inline ?? argv[++index]
    if (value === undefined || !(value === '-' || (plainValue(value) && !value.startsWith('-')))) return undefined
    flags[name] = value
  }
  return { event, flags }
}

/** A value cac's flag parser (mri) keeps as the same text: not empty, not number-like. */
function plainValue(value: string): boolean {
  return value !== '' && +value * 0 !== 0
}
