// What trust pins: every file of the hook folders, and every file a hook command names.
import { type Dirent, readdirSync, statSync } from 'node:fs'
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path'

/**
 * A project's material is built so that what runs is covered by construction, not by guessing:
 *
 * 1. every file under the folders hooks live in — `.hookrun/` (its hooks.json files, hook folder,
 *    plugins, scripts) and the agents' hook folders `.claude/hooks/`, `.gemini/hooks/`,
 *    `.cursor/hooks/` — at any depth, hidden or not, with no count limit;
 * 2. every file a hook command names, after expanding the variables hookrun itself sets
 *    (`$HOOKRUN_CONFIG_DIR`, `$HOOKRUN_PROJECT_DIR`, `$HOOKRUN_PLUGIN_DIR`, `$CLAUDE_PROJECT_DIR`,
 *    `$PWD`), through wrappers (`timeout`, `nice`, `env`, `exec`, `cd … &&`, `.`/`source`,
 *    interpreters, `sh -c '…'`).
 *
 * What a command runs that cannot be pinned this way (a variable hookrun does not set, a path
 * outside the project, a command substitution, a program found on PATH) is listed as "not
 * covered", so `hookrun trust` can say exactly what its hash covers.
 */
export const HOOK_FOLDERS = ['.hookrun', '.claude/hooks', '.gemini/hooks', '.cursor/hooks'] as const

/**
 * `hookrun test`'s cases (`.hookrun/tests/`): payloads and expected answers, never run by a fire.
 * Left out of the walk, so that adding a case does not revoke trust; a file there that a hook
 * command names is still pinned as the command's (`commandMaterial`).
 */
export const TEST_CASES_FOLDER = join('.hookrun', 'tests')

/** Data hooks write beside themselves (`.hookrun/audit.log`): left out, and named. */
const LOG_FILE = /\.log$/i

export interface Material {
  /** Absolute paths, unique, sorted. */
  readonly files: readonly string[]
  /** One line per thing trust does not pin (see the module comment). */
  readonly notCovered: readonly string[]
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
  /** The hook's `env` sets PATH: its programs may be found anywhere. */
  readonly setsPath?: boolean
}

/** The files of the hook folders and of the commands, and what is not covered. */
export function collectMaterial(projectRoot: string, configFiles: readonly string[], commands: readonly CommandSource[]): Material {
  const files = new Set<string>(configFiles)
  const notCovered: string[] = []
  for (const folder of HOOK_FOLDERS) walkFiles(projectRoot, join(projectRoot, folder), files, notCovered)
  if (isDirectory(join(projectRoot, TEST_CASES_FOLDER))) notCovered.push(`${TEST_CASES_FOLDER}/ (hookrun test's cases; left out, as no fire runs them)`)
  const programs = new Set<string>()
  for (const source of commands) {
    const found = commandMaterial(projectRoot, source)
    for (const file of found.files) files.add(file)
    for (const line of found.notCovered) notCovered.push(`${source.label}: ${line}`)
    if (source.setsPath) notCovered.push(`${source.label}: its env sets PATH; the programs it finds there are not pinned`)
    for (const program of found.programs) programs.add(program)
  }
  if (programs.size > 0) notCovered.push(`programs found on PATH (not hashed): ${[...programs].sort().join(', ')}`)
  return { files: [...files].sort(), notCovered }
}

/**
 * The files of `collectMaterial`, given the paths the commands name (`commandPaths`) instead of
 * the commands: of those, the ones that are files now. What `fire` checks trust with.
 */
export function collectFiles(projectRoot: string, configFiles: readonly string[], commandPaths: readonly string[]): string[] {
  const files = new Set<string>(configFiles)
  for (const folder of HOOK_FOLDERS) walkFiles(projectRoot, join(projectRoot, folder), files, [])
  for (const path of commandPaths) if (isFile(path)) files.add(path)
  return [...files].sort()
}

/**
 * The paths inside the project that a command names, each pinned when it is a file: the files
 * `commandMaterial` finds, had every path been a file. Text work only (no file is looked at), so
 * it can be done once per config content and cached (src/config/cache.ts).
 */
export function commandPaths(projectRoot: string, source: Omit<CommandSource, 'label'>): string[] {
  return commandMaterial(projectRoot, source, () => true).files
}

/** Every regular file below `dir` (symlinks to files too: their content is what runs). */
function walkFiles(root: string, dir: string, out: Set<string>, notCovered: string[]): void {
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') notCovered.push(`${relativePath(root, dir)}/ cannot be read (${code})`)
    return
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory() && path === join(root, TEST_CASES_FOLDER)) continue
    if (entry.isDirectory()) walkFiles(root, path, out, notCovered)
    else if (entry.isFile() || entry.isSymbolicLink()) {
      if (entry.isSymbolicLink() && !isFile(path)) {
        if (isDirectory(path)) notCovered.push(`${relativePath(root, path)} (a link to a folder, not followed)`)
        continue
      }
      if (LOG_FILE.test(entry.name)) notCovered.push(`${relativePath(root, path)} (a log file; left out so that hooks can write it)`)
      else out.add(path)
    }
  }
}

const INTERPRETERS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'fish', 'node', 'deno', 'bun', 'tsx', 'python', 'python3', 'ruby', 'perl', 'php', 'pwsh', 'lua'])
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
export function simpleCommands(command: string): string[] {
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
}

/**
 * The files one command runs. Each simple command is read like a shell would (quotes, escapes,
 * the variables hookrun sets); `cd DIR` moves where later relative paths resolve. A word in the
 * program position, after `.`/`source` or after an interpreter is code: it is pinned when it is a
 * file inside the project and named as not covered otherwise. Other words that are files inside
 * the project are pinned too (a config file a hook reads decides what it does).
 */
export function commandMaterial(projectRoot: string, source: Omit<CommandSource, 'label'>, exists: (file: string) => boolean = isFile): CommandFiles {
  const files: string[] = []
  const notCovered: string[] = []
  const programs: string[] = []
  if (/\$\(|`/.test(source.command)) notCovered.push('runs what a command substitution prints, which trust cannot pin')
  if (/(^|[\s;&|(])eval\s/.test(source.command)) notCovered.push('uses eval, which trust cannot pin')
  let cwd: string | undefined = source.cwd
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
    if (inside && exists(path)) files.push(path)
    if (alsoFrom !== undefined && alsoFrom !== path && isInside(projectRoot, alsoFrom) && exists(alsoFrom)) files.push(alsoFrom)
    if (!code) return
    if (!inside && /^\/(usr|bin|sbin)\//.test(path)) programs.push(word)
    else if (!inside) notCovered.push(`${word} is outside the project`)
    else if (!exists(path) && (alsoFrom === undefined || !exists(alsoFrom))) notCovered.push(`${word} does not exist (yet)`)
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
      cwd = target === undefined || /\$|^~/.test(target) ? (target === undefined ? projectRoot : undefined) : resolve(cwd ?? projectRoot, target)
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
        const inner = commandMaterial(projectRoot, { ...source, command: inline, cwd: cwd ?? source.cwd }, exists)
        files.push(...inner.files)
        notCovered.push(...inner.notCovered)
        programs.push(...inner.programs)
      }
      continue
    }
    for (const word of args) pin(word, interpreter && word !== 'run' && !word.includes('=') && !/^[a-z]+$/.test(word))
  }
  return { files, notCovered: [...new Set(notCovered)], programs }
}

/** Split like a shell would (quotes, backslashes), expanding only the variables in `vars`. */
export function shellWords(text: string, vars: Readonly<Record<string, string>>): string[] {
  const words: string[] = []
  const variable = /\$(?:\{(\w+)\}|(\w+))/y
  let word = ''
  let inWord = false
  let quote: string | undefined
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (quote === "'") {
      if (char === "'") quote = undefined
      else word += char
      continue
    }
    if (char === '\\' && index + 1 < text.length) {
      word += text[++index]
      inWord = true
    } else if (char === '"' || char === "'") {
      quote = quote === char ? undefined : (quote ?? char)
      if (quote !== undefined && quote !== char) word += char
      inWord = true
    } else if (char === '$') {
      variable.lastIndex = index
      const match = variable.exec(text)
      const name = match?.[1] ?? match?.[2]
      if (match && name !== undefined && Object.hasOwn(vars, name)) {
        word += vars[name]
        index += match[0].length - 1
      } else word += char
      inWord = true
    } else if (quote === undefined && /\s/.test(char)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += char
      inWord = true
    }
  }
  if (inWord) words.push(word)
  return words
}

export function relativePath(root: string, file: string): string {
  return relative(root, file).split(sep).join('/')
}

export function isInside(root: string, file: string): boolean {
  const path = relative(root, file)
  return path !== '' && !path.startsWith('..') && !isAbsolute(path)
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory()
  } catch {
    return false
  }
}
