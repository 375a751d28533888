// A hook's `env`: what the processes it starts load, for trust to pin (`envPaths`), and the
// variables trust cannot pin, so a project hook that sets them is refused (`envRefusals`).
import { isAbsolute, resolve } from 'node:path'
import { shellWords } from './shell-words.ts'

/**
 * Variables that make a program load code from a file it names. `file`: the value is one path;
 * `list`: paths split at `:` (and white space for LD_PRELOAD); a function reads options.
 */
type Loader = 'file' | 'list' | ((value: string) => LoaderFiles)
interface LoaderFiles {
  readonly paths: readonly string[]
  /** Why the value cannot be pinned, when it cannot. */
  readonly refused?: string
}

const ENV_LOADERS: Readonly<Record<string, Loader>> = {
  BASH_ENV: 'file',
  ENV: 'file',
  PYTHONSTARTUP: 'file',
  GIT_CONFIG_GLOBAL: 'file',
  GIT_CONFIG_SYSTEM: 'file',
  LD_PRELOAD: 'list',
  LD_AUDIT: 'list',
  DYLD_INSERT_LIBRARIES: 'list',
  NODE_OPTIONS: nodeOptions,
  PERL5OPT: perlOptions,
  RUBYOPT: rubyOptions,
  LUA_INIT: luaInit,
  LUA_INIT_5_2: luaInit,
  LUA_INIT_5_3: luaInit,
  LUA_INIT_5_4: luaInit,
  JAVA_TOOL_OPTIONS: javaOptions,
  JDK_JAVA_OPTIONS: javaOptions,
  _JAVA_OPTIONS: javaOptions,
}

/**
 * Search paths: folders a program looks for code in, by name. What it finds there cannot be pinned
 * file by file (any file added to such a folder may be found), so a project hook cannot set one.
 */
const SEARCH_PATHS: ReadonlySet<string> = new Set([
  'PATH',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONUSERBASE',
  'NODE_PATH',
  'LD_LIBRARY_PATH',
  'DYLD_LIBRARY_PATH',
  'DYLD_FALLBACK_LIBRARY_PATH',
  'DYLD_FRAMEWORK_PATH',
  'DYLD_FALLBACK_FRAMEWORK_PATH',
  'PERL5LIB',
  'PERLLIB',
  'RUBYLIB',
  'GEM_HOME',
  'GEM_PATH',
  'LUA_PATH',
  'LUA_CPATH',
  'CLASSPATH',
  'GCONV_PATH',
  'ZDOTDIR',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
])

/**
 * Folders programs read their configuration from, and so code (git's core.fsmonitor, a shell's
 * rc files, npm's node-options): pointed into the project, any file added there may run.
 */
// Keys of a hook's `env`, not variables hookrun reads (so not written as names the plan test looks for).
const CONFIG_FOLDERS: ReadonlySet<string> = new Set('HOME XDG_CONFIG_HOME XDG_CONFIG_DIRS XDG_DATA_HOME XDG_DATA_DIRS GIT_DIR'.split(' '))

/**
 * Why each variable of a project hook's `env` cannot be trusted, one line each (empty: all can):
 * a search path, or a loader variable whose value names code trust cannot pin (a module found by
 * name, a path behind a variable). The config stage refuses such a hook (src/config/parse.ts).
 */
export function envRefusals(env: Readonly<Record<string, string>>): string[] {
  const lines: string[] = []
  for (const [key, value] of Object.entries(env)) {
    if (SEARCH_PATHS.has(key)) lines.push(`sets ${key}, a search path whose files trust cannot pin one by one`)
    else if (CONFIG_FOLDERS.has(key))
      lines.push(`sets ${key}, a folder programs read their configuration (and so code) from, which trust cannot pin one file at a time`)
    else {
      const refused = loaderFiles(key, value)?.refused
      if (refused !== undefined) lines.push(`sets ${key}: ${refused}`)
    }
  }
  return lines
}

/**
 * The paths a hook's `env` names, for trust to pin when they are files: what its loader variables
 * load, and any other value's words that are paths (`GIT_SSH_COMMAND=./tools/ssh.sh`). A relative
 * path resolves from each folder in `from` (the hook's working folder, and those it `cd`s to).
 */
export function envPaths(env: Readonly<Record<string, string>>, from: readonly string[]): string[] {
  const paths: string[] = []
  for (const [key, value] of Object.entries(env)) {
    const named = loaderFiles(key, value)?.paths ?? pathWords(value)
    for (const path of named) {
      if (/[$`]|^~/.test(path)) continue
      if (isAbsolute(path)) paths.push(path)
      else for (const folder of from) paths.push(resolve(folder, path))
    }
  }
  return [...new Set(paths)]
}

/** The words of a value that look like paths: with a slash, not an option, not a URL. */
function pathWords(value: string): string[] {
  const words = value.split(/\s+/).filter((word) => !/^[a-z][\w+.-]*:\/\//i.test(word))
  return words.flatMap((word) => word.split(/[:=,;]+/)).filter((word) => word.includes('/') && !word.startsWith('-'))
}

function loaderFiles(key: string, value: string): LoaderFiles | undefined {
  const loader = ENV_LOADERS[key]
  if (loader === undefined) return undefined
  const named = loader === 'file' ? [value.trim()] : loader === 'list' ? value.split(key === 'LD_PRELOAD' ? /[\s:]+/ : /:+/) : undefined
  if (named === undefined) return (loader as (value: string) => LoaderFiles)(value)
  const paths = named.filter((path) => path !== '')
  const dynamic = paths.find((path) => /[$`]|^~/.test(path))
  if (dynamic !== undefined) return { paths: [], refused: `${dynamic} is expanded when it is loaded, which trust cannot pin` }
  // LD_PRELOAD=libx.so (no slash) is looked up in the library path.
  const byName = loader === 'list' ? paths.find((path) => !path.includes('/')) : undefined
  if (byName !== undefined)
    return {
      paths: [],
      refused: `${byName} is found by name in the library path, which trust cannot pin; name it by a path (./lib/${byName})`,
    }
  return { paths }
}

/** A module named by path (pinned), or by name (found through node_modules, @INC, …: refused). */
function moduleFile(option: string, module: string, how: string): LoaderFiles {
  if (/^(\.{1,2}\/|\/)/.test(module)) return { paths: [module] }
  if (module.startsWith('file:')) {
    try {
      return { paths: [new URL(module).pathname] }
    } catch {
      return { paths: [], refused: `${option} ${module} is not a file URL` }
    }
  }
  return { paths: [], refused: `${option} ${module} loads a module found by name ${how}, which trust cannot pin; name it by a path (./…)` }
}

/** Options of `node` that load code (pinned when named by path), and those that read files trust cannot follow. */
const NODE_LOADING = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader'])
const NODE_FILES = new Set([
  '--env-file',
  '--env-file-if-exists',
  '--openssl-config',
  '--experimental-policy',
  '--experimental-config-file',
  '--snapshot-blob',
  '--icu-data-dir',
  '--experimental-sea-config',
])

function nodeOptions(value: string): LoaderFiles {
  const paths: string[] = []
  const words = shellWords(value, {})
  for (let index = 0; index < words.length; index++) {
    const [option, inline] = splitOption(words[index]!)
    const argument = () => inline ?? words[++index] ?? ''
    if (NODE_LOADING.has(option)) {
      const found = moduleFile(`NODE_OPTIONS ${option}`, argument(), 'through node_modules')
      if (found.refused !== undefined) return found
      paths.push(...found.paths)
    } else if (NODE_FILES.has(option))
      return { paths: [], refused: `NODE_OPTIONS ${option} makes node read a file whose effects trust cannot pin` }
  }
  return { paths }
}

function perlOptions(value: string): LoaderFiles {
  const loading = shellWords(value, {}).find((word) => /^-[MmId]/.test(word))
  return loading === undefined
    ? { paths: [] }
    : { paths: [], refused: `PERL5OPT ${loading} loads modules found through @INC, which trust cannot pin` }
}

function rubyOptions(value: string): LoaderFiles {
  const paths: string[] = []
  const words = shellWords(value, {})
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!
    if (word.startsWith('-I')) return { paths: [], refused: `RUBYOPT ${word} adds a folder to the load path, which trust cannot pin` }
    if (!word.startsWith('-r')) continue
    const library = word.length > 2 ? word.slice(2) : (words[++index] ?? '')
    const found = moduleFile('RUBYOPT -r', library, 'in the load path')
    if (found.refused !== undefined) return found
    paths.push(...found.paths)
  }
  return { paths }
}

function luaInit(value: string): LoaderFiles {
  // `@file` runs the file; anything else is Lua code, written in the config (pinned with it).
  return value.startsWith('@') ? { paths: [value.slice(1)] } : { paths: [] }
}

function javaOptions(value: string): LoaderFiles {
  const paths: string[] = []
  for (const word of shellWords(value, {})) {
    const agent = /^-(?:javaagent|agentpath):([^=]+)/.exec(word)
    if (agent !== null) paths.push(agent[1]!)
    else if (/^(-agentlib:|-Xbootclasspath|-cp$|-classpath$|--class-path|-Djava\.(class|library)\.path|-Djava\.ext\.dirs|@)/.test(word)) {
      return { paths: [], refused: `${word} makes java load code trust cannot pin` }
    }
  }
  return { paths }
}

/** `--require=x` → [`--require`, `x`]; `--require` → [`--require`, undefined]. */
function splitOption(word: string): [string, string | undefined] {
  const equals = word.indexOf('=')
  return word.startsWith('--') && equals !== -1 ? [word.slice(0, equals), word.slice(equals + 1)] : [word, undefined]
}
