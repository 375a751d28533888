// How an agent should call this hookrun (the command line written into its config).
import { isAbsolute, resolve } from 'node:path'
import { shellQuote } from '../core/shell.ts'

/**
 * The command that runs this hookrun, with absolute paths (agents start hooks without our PATH or folder): the compiled binary, or
 * the runtime and its script (Deno also needs `run -A`).
 */
export function selfCommand(argv: readonly string[] = process.argv, execPath: string = process.execPath): string[] {
  const script = argv[1]
  // A `bun build --compile` binary runs its bundle from a virtual folder.
  if (script === undefined || script.startsWith('/$bunfs/') || /^[A-Z]:[\\/]~BUN[\\/]/.test(script)) return [execPath]
  const path = isAbsolute(script) ? script : resolve(script)
  if ('Deno' in globalThis) return [execPath, 'run', '-A', path]
  return [execPath, path]
}

/** Quote for `sh -c` only where needed, so ordinary paths stay readable in the agent's config. */
export function shellWords(words: readonly string[]): string {
  return words.map(shellQuote).join(' ')
}
