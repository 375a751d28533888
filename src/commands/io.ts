// What every command's part of the command line shares: where it writes, its flags, colour, errors.
import { resolve } from 'node:path'
import { statSync } from 'node:fs'
import { ExitCode, formatError, HookrunError } from '../core/errors.ts'
import type { ColourMode, Paint } from '../core/paint.ts'

/** Where the CLI writes; tests pass their own. */
export interface Io {
  stdout(text: string): Promise<void> | void
  stderr(text: string): Promise<void> | void
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdin: AsyncIterable<Uint8Array>
  /** stderr is a terminal (a person is watching): fire names a hook that runs long. */
  readonly stderrIsTerminal?: boolean
  /** stdout is a terminal: human output may be coloured (`--color=auto`). */
  readonly stdoutIsTerminal?: boolean
  /** The width of the terminal stdout is, when it is one: help wraps to it. */
  readonly stdoutColumns?: number
  /** Writes to the agent's terminal (`/dev/tty`) for agents that show no hook output (`Rendered.terminal`); false when there is none. */
  terminal?(text: string): boolean
}

/** What most commands' functions are given. */
export interface CommandOptions {
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly configFiles?: readonly string[]
  readonly json: boolean
  readonly paint?: Paint
}

export interface CommonFlags {
  config?: string | string[]
  cwd?: string
  tool?: string
  json?: boolean
}

/** `--config` may be given once (a string) or repeatedly (an array). */
export function configFiles(flags: CommonFlags): string[] | undefined {
  if (flags.config === undefined) return undefined
  return (Array.isArray(flags.config) ? flags.config : [flags.config]).map((value) => text(value, 'config')!)
}

/** A flag that takes one value: given twice is a contradiction, not a choice. */
export function text(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined
  if (Array.isArray(value)) throw new HookrunError(`--${flag} was given ${value.length} times (${value.join(', ')}); give it once`)
  if (typeof value !== 'string' && typeof value !== 'number') throw new HookrunError(`--${flag} needs a value`)
  return String(value)
}

export function bool(value: unknown, flag: string): boolean {
  if (Array.isArray(value)) throw new HookrunError(`--${flag} was given ${value.length} times; give it once`)
  return value === true
}

/** A flag that takes a whole number from `min` to `max` (`--port`). */
export function wholeFlag(value: unknown, flag: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback
  const number = Number(value)
  if (!Number.isInteger(number) || number < min || number > max)
    throw new HookrunError(`--${flag} ${String(value)}: expected a whole number from ${min} to ${max}`)
  return number
}

/** A repeatable, comma-separated flag (`--events a,b --events c`). */
export function list(value: unknown): string[] | undefined {
  if (value === undefined) return undefined
  return (Array.isArray(value) ? value : [value])
    .flatMap((item) => String(item).split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/** `--cwd`, else the working directory. */
export const cwdOf = (flags: { cwd?: unknown }): string => folder(flags.cwd) ?? process.cwd()

/** `--cwd` must name a folder: hooks run there, so a typo must not become a failing hook. */
export function folder(value: unknown): string | undefined {
  const dir = text(value, 'cwd')
  if (dir === undefined) return undefined
  let isFolder = false
  try {
    isFolder = statSync(dir).isDirectory()
  } catch {}
  if (!isFolder) throw new HookrunError(`--cwd ${resolve(dir)}: no such folder`)
  return dir
}

/** How output for a person is painted; src/core/paint.ts loads only when colour may be wanted (not by a fire piped to an agent). */
export async function paintFor(io: Io, colour: ColourMode, stream: 'stdout' | 'stderr'): Promise<Paint | undefined> {
  const terminal = stream === 'stdout' ? io.stdoutIsTerminal === true : io.stderrIsTerminal === true
  if (colour === 'never' || (colour === 'auto' && !terminal && io.env.FORCE_COLOR === undefined)) return undefined
  const { paintFor: paint, wantsColour } = await import('../core/paint.ts')
  return paint(wantsColour(colour, io.env, terminal))
}

/** A command's action's result: its output on stdout, its exit code set. */
export const printer =
  (io: Io, setExitCode: (code: number) => void) =>
  async (result: { output: string; exitCode: number }): Promise<void> => {
    await io.stdout(result.output)
    setExitCode(result.exitCode)
  }

/** One line on stderr for an error (a stack trace only with HOOKRUN_DEBUG=1); its exit code. */
export async function reportError(io: Io, colour: ColourMode, error: unknown): Promise<number> {
  const paint = await paintFor(io, colour, 'stderr')
  await io.stderr(`${formatError(error, io.env.HOOKRUN_DEBUG === '1').replace(/^hookrun:/, (prefix) => paint?.bad(prefix) ?? prefix)}\n`)
  return error instanceof HookrunError ? error.exitCode : ExitCode.Failure
}
