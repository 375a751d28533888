// What trust pins: every file of the hook folders, and every file a hook command names.
import { type Dirent, readdirSync } from 'node:fs'
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { isDirectory, isFile, isInside, realPath } from '../discover/folders.ts'
import { envPaths, envRefusals } from './hook-env.ts'
import { shellWords } from './shell-words.ts'

/**
 * A project's material covers what runs by construction, not by guessing:
 *
 * 1. every file under the folders hooks live in (`.hookrun/` and the agents' hook folders), at any
 *    depth, hidden or not, with no count limit;
 * 2. every file a hook command names, after expanding the variables hookrun sets, through wrappers
 *    (`timeout`, `env`, `cd … &&`, `source`, interpreters, `sh -c '…'`); outside the project too,
 *    but for the system's own programs (`/usr`, `/bin`, `/sbin`);
 * 3. links followed: a file reached through one is pinned by its target's content, under its own path;
 * 4. the files a hook's `env` makes its processes load (`BASH_ENV`, `NODE_OPTIONS --require`,
 *    `LD_PRELOAD`, …); a search path (`PATH`, `PYTHONPATH`, …) cannot be pinned: `envRefusals` refuses it.
 *
 * What cannot be pinned this way (an unset variable, a command substitution, a program on PATH) is
 * "not covered", and what cannot be pinned at all (a link to a folder holding the project) refused,
 * so `hookrun trust` says exactly what its hash covers.
 */
export const HOOK_FOLDERS = ['.hookrun', '.claude/hooks', '.gemini/hooks', '.cursor/hooks'] as const

/** `hookrun test`'s cases: never run by a fire, so left out (adding one revokes nothing); a file a command names is still pinned. */
const TEST_CASES_FOLDER = join('.hookrun', 'tests')

/** The JSON Schema written beside hooks.json for editors: no fire reads it, so a newer one revokes nothing. */
const SCHEMA_BESIDE_CONFIG = join('.hookrun', 'hooks.schema.json')

/** Data hooks write beside themselves (`.hookrun/audit.log`): left out, and named. */
const LOG_FILE = /\.log$/i

export interface Material {
  /** Absolute paths, unique, sorted. */
  readonly files: readonly string[]
  /** One line per thing trust does not pin (see the module comment). */
  readonly notCovered: readonly string[]
  /** One line per thing trust cannot pin and will not trust (`hookrun trust` refuses). */
  readonly refused: readonly string[]
}

/** A hook command and where it comes from, for `commandMaterial`. */
export interface CommandSource {
  readonly command: string
  /** Where the command starts (the hook's `cwd`, else the project root). */
  readonly cwd: string
  /** The variables hookrun sets that the command may use, besides `PWD`. */
  readonly vars: Readonly<Record<string, string>>
  /** How "not covered" lines name the hook: `.hookrun/hooks.json hooks[2] 'gate'`. */
  readonly label: string
  /** The hook's own `env`: the files its loader variables name are material too. */
  readonly env?: Readonly<Record<string, string>>
}

/** The files of the hook folders and of the commands, and what is not covered. */
export function collectMaterial(projectRoot: string, configFiles: readonly string[], commands: readonly CommandSource[]): Material {
  const files = new Set<string>(configFiles)
  const notCovered: string[] = []
  const refused: string[] = []
  for (const folder of HOOK_FOLDERS) walkFolder(projectRoot, join(projectRoot, folder), files, notCovered, refused)
  if (isDirectory(join(projectRoot, TEST_CASES_FOLDER)))
    notCovered.push(`${TEST_CASES_FOLDER}/ (hookrun test's cases; left out, as no fire runs them)`)
  const programs = new Set<string>()
  for (const source of commands) {
    const found = commandMaterial(projectRoot, source)
    for (const file of found.files) files.add(file)
    for (const line of found.notCovered) notCovered.push(`${source.label}: ${line}`)
    for (const line of envRefusals(source.env ?? {})) refused.push(`${source.label}: ${line}`)
    for (const program of found.programs) programs.add(program)
  }
  if (programs.size > 0) notCovered.push(`programs found on PATH (not hashed): ${[...programs].sort().join(', ')}`)
  return { files: [...files].sort(), notCovered, refused }
}

/**
 * The files of `collectMaterial`, given the paths the commands name (`commandPaths`) instead of
 * the commands: of those, the ones that are files now. What `fire` checks trust with.
 */
export function collectFiles(projectRoot: string, configFiles: readonly string[], commandPaths: readonly string[]): string[] {
  const files = new Set<string>(configFiles)
  for (const folder of HOOK_FOLDERS) walkFolder(projectRoot, join(projectRoot, folder), files, [], [])
  for (const path of commandPaths) if (isFile(path)) files.add(path)
  return [...files].sort()
}

/** The paths a command (and its `env`) names, as if each were a file: text work only, cached per config content (src/config/cache.ts). */
export function commandPaths(projectRoot: string, source: Omit<CommandSource, 'label'>): string[] {
  return commandMaterial(projectRoot, source, () => true).files
}

/** Every regular file below a hook folder, links followed (see `walkFiles`). */
function walkFolder(root: string, dir: string, out: Set<string>, notCovered: string[], refused: string[]): void {
  walkFiles(root, dir, realPath(dir), new Set(), out, notCovered, refused)
}

/**
 * Every regular file below `dir`, whose real path is `real`. A link is followed: to a file, its
 * content is what runs; to a folder, its files are pinned under the path that reaches them (a
 * link later pointed elsewhere shows as files removed and added). A link back to a folder the walk
 * is in adds nothing new and is not walked again; a link to a folder holding the project would
 * walk far beyond it, and is refused.
 */
function walkFiles(
  root: string,
  dir: string,
  real: string,
  walking: Set<string>,
  out: Set<string>,
  notCovered: string[],
  refused: string[],
): void {
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') notCovered.push(`${relativePath(root, dir)}/ cannot be read (${code})`)
    return
  }
  walking.add(real)
  for (const entry of entries) {
    const path = join(dir, entry.name)
    // A real folder there only: a link is walked (or refused) as any other.
    if (entry.isDirectory() && path === join(root, TEST_CASES_FOLDER)) continue
    if (entry.isFile() && path === join(root, SCHEMA_BESIDE_CONFIG)) continue
    if (entry.isDirectory()) walkFiles(root, path, join(real, entry.name), walking, out, notCovered, refused)
    else if (entry.isSymbolicLink() && isDirectory(path)) {
      const target = realPath(path)
      if (walking.has(target)) continue
      const rootReal = realPath(root)
      if (target === rootReal || isInside(target, rootReal)) {
        refused.push(
          `${relativePath(root, path)} links to ${target}, a folder that holds the project: trust cannot pin it; point it at the folder it needs`,
        )
        // Material all the same (it hashes as unreadable): such a link made after the trust revokes it.
        out.add(path)
      } else walkFiles(root, path, target, walking, out, notCovered, refused)
    } else if (entry.isFile() || (entry.isSymbolicLink() && isFile(path))) {
      if (LOG_FILE.test(entry.name)) notCovered.push(`${relativePath(root, path)} (a log file; left out so that hooks can write it)`)
      else out.add(path)
    }
  }
  walking.delete(real)
}

const INTERPRETERS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'fish',
  'node',
  'deno',
  'bun',
  'tsx',
  'python',
  'python3',
  'ruby',
  'perl',
  'php',
  'pwsh',
  'lua',
])
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh'])
/** Wrappers that run the rest of the line as a command; the value is how many option words take a value. */
const WRAPPERS: Readonly<Record<string, ReadonlySet<string>>> = {
  exec: new Set(['-a']),
  command: new Set(),
  builtin: new Set(),
  nohup: new Set(),
  time: new Set(['-f', '-o']),
  nice: new Set(['-n']),
  timeout: new Set(['-s', '-k']),
  env: new Set(['-u', '-C', '-S']),
  stdbuf: new Set(['-i', '-o', '-e']),
  ionice: new Set(['-c', '-n', '-p']),
  setsid: new Set(),
  xargs: new Set(['-I', '-n', '-P', '-d', '-L', '-s', '-E']),
}
const ASSIGNMENT = /^[A-Za-z_]\w*=/
const REDIRECTION = /^\d*(?:[<>]|>>|<<|&>|>&|<&)/
/** Separators of simple commands; `$(`, backticks and parentheses open and close sub-commands. */
const SEPARATOR = /^(?:&&|\|\||\$\(|[;&|\n()`])/

/** The simple commands of a command line, split outside single quotes (a `sh -c '…'` body stays whole). */
function simpleCommands(command: string): string[] {
  const parts: string[] = []
  let start = 0
  let quote: string | undefined
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!
    if (quote === "'") {
      if (char === "'") quote = undefined
      continue
    }
    if (char === '\\') {
      index++
      continue
    }
    if (char === '"') quote = quote === '"' ? undefined : '"'
    else if (char === "'" && quote === undefined) quote = "'"
    else {
      const separator = (quote === undefined || char === '$' || char === '`') && SEPARATOR.exec(command.slice(index, index + 2))
      if (separator) {
        parts.push(command.slice(start, index))
        index += separator[0].length - 1
        start = index + 1
      }
    }
  }
  parts.push(command.slice(start))
  return parts
}

interface CommandFiles {
  readonly files: string[]
  readonly notCovered: string[]
  readonly programs: string[]
  /** The folders it starts programs in (its own, and those it `cd`s to). */
  readonly folders: string[]
}

/**
 * The files one command runs. Each simple command is read like a shell would (quotes, escapes,
 * the variables hookrun sets); `cd DIR` moves where later relative paths resolve. A word in the
 * program position, after `.`/`source` or after an interpreter is code: it is pinned when it is a
 * file, inside the project or outside it (the system's own programs aside), and named as not
 * covered otherwise. Other words that are files inside the project are pinned too (a config file a
 * hook reads decides what it does). The hook's `env` adds the files its loader variables name
 * (`envPaths`), resolved from every folder the command starts processes in.
 */
export function commandMaterial(
  projectRoot: string,
  source: Omit<CommandSource, 'label'>,
  exists: (file: string) => boolean = isFile,
): CommandFiles {
  const files: string[] = []
  const notCovered: string[] = []
  const programs: string[] = []
  if (/\$\(|`/.test(source.command)) notCovered.push('runs what a command substitution prints, which trust cannot pin')
  if (/(^|[\s;&|(])eval\s/.test(source.command)) notCovered.push('uses eval, which trust cannot pin')
  let cwd: string | undefined = source.cwd
  const folders = new Set<string>([source.cwd])
  const pin = (word: string, code: boolean) => {
    if (word === '' || word.startsWith('-')) return
    const unset = /\$\{?(\w+)/.exec(word)
    if (unset !== null || word.startsWith('~')) {
      if (code) notCovered.push(`${word} uses ${unset === null ? '~' : `$${unset[1]}`}, which hookrun does not set`)
      return
    }
    if (cwd === undefined && !isAbsolute(word)) {
      if (code && word.includes('/')) notCovered.push(`${word} is named after a cd to a folder hookrun cannot tell`)
      return
    }
    const path = resolve(cwd ?? projectRoot, word)
    // The hook's own folder as well: a `cd` inside a subshell does not move later commands.
    const alsoFrom = isAbsolute(word) ? undefined : resolve(source.cwd, word)
    const inside = isInside(projectRoot, path)
    const system = !inside && SYSTEM_PROGRAM.test(path)
    // Code outside the project is pinned like code inside it; other words only inside it.
    const pinned = (file: string) => (isInside(projectRoot, file) || (code && !SYSTEM_PROGRAM.test(file))) && exists(file)
    if (pinned(path)) files.push(path)
    if (alsoFrom !== undefined && alsoFrom !== path && pinned(alsoFrom)) files.push(alsoFrom)
    if (!code) return
    if (system) programs.push(word)
    else if (!exists(path) && (alsoFrom === undefined || !exists(alsoFrom)))
      notCovered.push(`${word} does not exist (yet); the trust is revoked if it appears`)
  }
  for (const part of simpleCommands(source.command)) {
    const words: string[] = shellWords(part, { ...source.vars, ...(cwd !== undefined && { PWD: cwd }) }).filter((word, index, all) => {
      // Redirections and their targets are not commands.
      return !REDIRECTION.test(word) && !(index > 0 && /^\d*[<>]{1,2}&?$/.test(all[index - 1]!))
    })
    let index = 0
    while (index < words.length && ASSIGNMENT.test(words[index]!)) index++
    for (;;) {
      const name = words[index] === undefined ? undefined : basename(words[index]!)
      const wrapper = name === undefined ? undefined : WRAPPERS[name]
      if (wrapper === undefined) break
      index++
      while (index < words.length && (words[index]!.startsWith('-') || ASSIGNMENT.test(words[index]!))) {
        if (wrapper.has(words[index]!)) index++
        index++
      }
      if (name === 'timeout' && index < words.length) index++ // the duration
    }
    const program = words[index]
    if (program === undefined || program === '') continue
    const args = words.slice(index + 1)
    if (program === 'cd' || program === 'pushd') {
      const target = args.find((word) => !word.startsWith('-'))
      cwd =
        target === undefined || /\$|^~/.test(target)
          ? target === undefined
            ? projectRoot
            : undefined
          : resolve(cwd ?? projectRoot, target)
      if (cwd !== undefined) folders.add(cwd)
      continue
    }
    if (program === '.' || program === 'source') {
      if (args[0] !== undefined) pin(args[0], true)
      continue
    }
    if (program.includes('/') || program.includes('$')) pin(program, true)
    else programs.push(program)
    const interpreter = INTERPRETERS.has(basename(program))
    if (interpreter && SHELLS.has(basename(program)) && args.includes('-c')) {
      const inline = args[args.indexOf('-c') + 1]
      if (inline !== undefined) {
        const inner = commandMaterial(projectRoot, { ...source, env: undefined, command: inline, cwd: cwd ?? source.cwd }, exists)
        files.push(...inner.files)
        notCovered.push(...inner.notCovered)
        programs.push(...inner.programs)
        for (const folder of inner.folders) folders.add(folder)
      }
      continue
    }
    for (const word of args) pin(word, interpreter && word !== 'run' && !word.includes('=') && !/^[a-z]+$/.test(word))
  }
  if (source.env !== undefined) for (const path of envPaths(source.env, [...folders])) if (exists(path)) files.push(path)
  return { files, notCovered: [...new Set(notCovered)], programs, folders: [...folders] }
}

/** The system's own programs: not pinned (an update would revoke every trust), like those found on PATH. */
const SYSTEM_PROGRAM = /^\/(usr|bin|sbin)\//

export function relativePath(root: string, file: string): string {
  return relative(root, file).split(sep).join('/')
}
