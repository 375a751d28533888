// The program a router entry in an agent's file runs, for doctor: read without a shell, and which
// hookrun it is learned without running it wherever that can be known (issue 34: a cloned
// repository's file is text to read, never to run).
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative } from 'node:path'
import { routerTail } from '../core/router.ts'
import { PORTABLE_SELF } from './agent-target.ts'
import { onPath, versionOfFile } from './on-path.ts'
import { selfCommand } from './self.ts'

type Env = Readonly<Record<string, string | undefined>>

/** What doctor makes of one router command's program. */
export type ProgramFinding =
  /** `hookrun` from PATH: the PATH line's business. */
  | { readonly kind: 'portable' }
  | { readonly kind: 'version'; readonly program: string; readonly version: string }
  | { readonly kind: 'missing' }
  /** Not a command hookrun writes (shell syntax, a relative path, not named hookrun): never run. */
  | { readonly kind: 'refused'; readonly program: string; readonly why: string }
  /** Maybe hookrun, but doctor would have to run a project's program or a script to know. */
  | { readonly kind: 'unknown'; readonly program: string; readonly why: string }
  /** Asked for its version, it did not answer as hookrun does. */
  | { readonly kind: 'problem'; readonly program: string; readonly problem: string }

interface ProgramContext {
  readonly env: Env
  readonly version: string
  /** The command that runs this hookrun (selfCommand): a router running it is this version. */
  readonly self: readonly string[]
  /** The project whose file names the program: nothing inside it is run (it came with the clone). */
  readonly project?: string
}

/** Characters a word may hold unquoted and mean only themselves to a shell (src/core/shell.ts shellQuote). */
const PLAIN = /[\w@%+=:,./-]/

/** `text` as a shell's words when it holds no shell syntax (plain characters and single quotes, as hookrun quotes); else undefined. */
export function plainWords(text: string): string[] | undefined {
  const words: string[] = []
  let word: string | undefined
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (char === ' ' || char === '\t') {
      if (word !== undefined) words.push(word)
      word = undefined
    } else if (char === "'") {
      const end = text.indexOf("'", index + 1)
      if (end < 0) return undefined
      word = (word ?? '') + text.slice(index + 1, end)
      index = end
    } else if (char === '\\' && text[index + 1] === "'") {
      word = `${word ?? ''}'`
      index++
    } else if (PLAIN.test(char)) word = (word ?? '') + char
    else return undefined
  }
  if (word !== undefined) words.push(word)
  // `NAME=value cmd` sets a variable for the command: shell syntax too.
  return words.length === 0 || /^[A-Za-z_]\w*=/.test(text.trimStart()) ? undefined : words
}

function real(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

const isInside = (path: string, folder: string) => {
  const rest = relative(real(folder), real(path))
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest)
}

/** The version of the hookrun package a file belongs to (npm's `hookrun` or `@hookrun/<platform>`), read from its package.json. */
function packageVersion(file: string): string | undefined {
  let folder = dirname(real(file))
  for (let up = 0; up < 3; up++, folder = dirname(folder)) {
    const manifest = join(folder, 'package.json')
    if (!existsSync(manifest)) continue
    try {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown }
      const ours = name === 'hookrun' || (typeof name === 'string' && name.startsWith('@hookrun/'))
      return ours && typeof version === 'string' ? version : undefined
    } catch {
      return undefined
    }
  }
  return undefined
}

/** The script of a runtime's command line hookrun writes (`node /…/hookrun.mjs`, `deno run -A /…/bin.ts`). */
function scriptOf(words: readonly string[]): string | undefined {
  if (!/^(?:node|nodejs|bun|deno)$/.test(basename(words[0]!))) return undefined
  const script = words.at(-1)!
  return isAbsolute(script) && words.slice(1, -1).every((word) => word === 'run' || word.startsWith('-')) ? script : undefined
}

/**
 * A router command's program, found as the agent would and never run through a shell: this hookrun's words are this version, an
 * installed package's file has its version; only then is a hookrun outside the project asked `--version`, with no shell.
 */
export function findProgram(command: string, context: ProgramContext): ProgramFinding {
  const program = command.replace(routerTail(), '').trim()
  if (program === PORTABLE_SELF) return { kind: 'portable' }
  const words = plainWords(program)
  if (words === undefined)
    return {
      kind: 'refused',
      program,
      why: 'is not a plain command (it has shell syntax): doctor does not run it, and install never writes one',
    }
  const first = words[0]!
  if (!isAbsolute(first) && first.includes('/'))
    return { kind: 'refused', program, why: 'is a relative path: what it runs depends on the folder the agent starts it in' }
  const file = isAbsolute(first) ? first : onPath(first, context.env)
  if (file === undefined || !existsSync(file)) return { kind: 'missing' }
  const same =
    words.length === context.self.length && words.every((word, index) => real(index === 0 ? file : word) === real(context.self[index]!))
  if (same) return { kind: 'version', program, version: context.version }
  const script = words.length === 1 ? file : scriptOf(words)
  const trusted = (path: string) => context.project === undefined || !isInside(path, context.project)
  const packaged = script !== undefined && trusted(script) ? packageVersion(script) : undefined
  if (packaged !== undefined) return { kind: 'version', program, version: packaged }
  if (words.length > 1)
    return script === undefined
      ? { kind: 'refused', program, why: `runs ${first} with arguments, not a hookrun command install writes: doctor does not run it` }
      : { kind: 'unknown', program, why: 'runs a script that is not in a hookrun package: doctor does not run it to learn its version' }
  if (!basename(file).startsWith('hookrun'))
    return { kind: 'refused', program, why: 'is not named hookrun: doctor runs nothing else to ask its version' }
  if (!trusted(file))
    return { kind: 'unknown', program, why: "is inside the project: doctor does not run a project's programs to learn their version" }
  const { version, problem } = versionOfFile(file, context.env)
  return version !== undefined ? { kind: 'version', program, version } : { kind: 'problem', program, problem: problem! }
}

/** Does this router command run this very hookrun (the portable `hookrun`, or this one's command, links followed)? Read, never run. */
export function runsThisHookrun(command: string, self: readonly string[] = selfCommand()): boolean {
  const program = command.replace(routerTail(), '').trim()
  if (program === PORTABLE_SELF) return true
  const words = plainWords(program)
  return words !== undefined && words.length === self.length && words.every((word, index) => real(word) === real(self[index]!))
}
