// A common `fire` line read without cac: 0.90x the CPU time on the binary (BENCHMARKS.md "Only what a fire needs is loaded").
import type { FireFlags } from './fire.ts'

/** The flags a common fire line has, each taking one value. */
const SIMPLE_FLAGS = new Set(['payload', 'format', 'cwd', 'tool'])

/** `fire [event]` with `--payload`, `--format`, `--cwd`, `--tool` each once; undefined for anything else or cac would read otherwise. */
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
