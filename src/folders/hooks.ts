// Hook folders and plugins become hooks: executables asked which events they serve, plugin configs read.
import { dirname, sep } from 'node:path'
import { HOOK_DEFAULTS } from '../config/defaults.ts'
import type { ResolvedConfig } from '../config/load.ts'
import { withHttpLimits } from '../config/settings.ts'
import type { ConfigProblem, Hook } from '../core/types.ts'
import { patternProblem } from '../event/pattern.ts'
import { runCommand } from '../run/command.ts'
import { answerCacheIn, type CachedAnswer, hookAnswerCacheFile, readAnswerCache, writeAnswerCache } from './cache.ts'
import { needsTrust } from '../core/types.ts'
import { type Discovery, type FoundExecutable, type FoundSource, pluginsDir } from '../discover/folders.ts'
import { pluginConfigHooks, type PluginConfigReader } from './plugin-config.ts'

/**
 * Folder and plugin hooks as ordinary `Hook`s, run after every hooks.json hook (the reviewed, explicit
 * config gates first), in precedence order: project folder, project plugins, user folder, user plugins;
 * by file name within a folder; a plugin's hooks.json before its executables. Names are one namespace:
 * a hooks.json hook or a higher-precedence one shadows a folder hook, and a name-only `enabled: false`
 * entry switches one off.
 */

type Env = Readonly<Record<string, string | undefined>>

export interface ShadowedHook {
  readonly name: string
  readonly source: Hook['source']
  /** The hook that runs under this name instead. */
  readonly by: Hook['source']
}

export interface ConfigWithFolders extends ResolvedConfig {
  readonly shadowed: readonly ShadowedHook[]
  /** What discovery found; absent when `--config`/`HOOKRUN_CONFIG` replaced discovery. */
  readonly discovery?: Discovery
}

interface FolderHookOptions {
  readonly env?: Env
  /** hookrun's cache folder, as the fire's look resolved it (`Observation.places`); default: the environment's. */
  readonly cacheDir?: string
  /** Aborting stops `hook` queries still running. */
  readonly signal?: AbortSignal
}

/** How long an executable may take to say which events it serves. */
const HOOK_QUERY_TIMEOUT_MS = 5000

/**
 * Add the folder and plugin hooks to a loaded config. Executables are asked `hook` only when the
 * answer cache has nothing for their current size and modification time, so a fire whose event
 * none of them serves starts no process at all.
 */
export async function withFolderHooks(config: ResolvedConfig, options: FolderHookOptions = {}): Promise<ConfigWithFolders> {
  // Files named with --config / HOOKRUN_CONFIG replace discovery, folders included.
  const discovery = config.discovery
  if (discovery === undefined) return { ...config, shadowed: [] }
  if (discovery.sources.length === 0 && discovery.problems.length === 0) return { ...config, shadowed: [], discovery }
  const env = options.env ?? process.env
  const answerCache = options.cacheDir === undefined ? hookAnswerCacheFile(env) : answerCacheIn(options.cacheDir)

  // Project folders and plugins come with the repository: an untrusted project's executables are
  // not even asked which events they serve (that would run them). They are listed from the
  // answer cache when it knows them, else as serving every event, so `fire` and `list` can say
  // what was skipped.
  const trusted = config.trust?.trusted === true
  const runnable = discovery.sources.filter((source) => trusted || !needsTrust(source.layer))
  const held = discovery.sources.filter((source) => !trusted && needsTrust(source.layer))
  // A plugin's hooks.json is read with the config parser, loaded only when there is one.
  const reader: PluginConfigReader | undefined = discovery.sources.some((source) => source.kind === 'config')
    ? await import('../config/parse.ts')
    : undefined
  const untrustedHooks = [...config.untrustedHooks, ...heldHooks(held, answerCache, reader)]

  // A broken manifest blocks gates like a broken hooks.json, once its plugin's hooks could run.
  const heldPlugins = trusted ? undefined : pluginsDir('project', config.projectRoot, env) + sep
  const problems: ConfigProblem[] = [
    ...config.problems,
    ...discovery.problems.filter((problem) => heldPlugins === undefined || !problem.file.startsWith(heldPlugins)),
  ]
  const executables = runnable.filter((source): source is FoundExecutable => source.kind === 'executable')
  const answers = await hookAnswers(executables, answerCache, { env, projectRoot: config.projectRoot, signal: options.signal })
  const candidates: Hook[] = []
  for (const source of runnable) {
    if (source.kind === 'config') candidates.push(...pluginConfigHooks(source, problems, reader!).hooks)
    else {
      const hook = executableHook(source, answers.get(source.path), problems)
      if (hook !== undefined) candidates.push(hook)
    }
  }

  const owners = new Map<string, Hook['source']>(config.hooks.map((hook) => [hook.name, hook.source]))
  const hooks = [...config.hooks]
  const shadowed: ShadowedHook[] = []
  for (const hook of withHttpLimits(candidates, config.settings.httpHooks)) {
    const owner = owners.get(hook.name)
    if (owner !== undefined) {
      shadowed.push({ name: hook.name, source: hook.source, by: owner })
      continue
    }
    owners.set(hook.name, hook.source)
    const off = config.switchedOff?.get(hook.name)
    hooks.push(off === undefined ? hook : { ...hook, enabled: false, disabledBy: off })
  }
  return { ...config, hooks, problems, shadowed, discovery, untrustedHooks }
}

/** Hooks of an untrusted project's folders and plugins, for reporting only: nothing is run. */
function heldHooks(sources: readonly FoundSource[], answerCache: string, reader: PluginConfigReader | undefined): Hook[] {
  if (sources.length === 0) return []
  const cache = readAnswerCache(answerCache)
  return sources.flatMap((source): Hook[] => {
    if (source.kind === 'config') return pluginConfigHooks(source, [], reader!).hooks
    const cached = cache.get(source.path)
    const known = cached !== undefined && cached.size === source.size && cached.mtimeMs === source.mtimeMs
    const hook = executableHook(source, known ? cached : { exitCode: 0, stdout: '*', size: source.size, mtimeMs: source.mtimeMs }, [])
    return hook === undefined ? [] : [known ? hook : { ...hook, description: 'events unknown until the project is trusted' }]
  })
}

/** An executable as a hook: its command is the file itself with the argument `run`. */
function executableHook(source: FoundExecutable, answer: AnswerOrFailure | undefined, problems: ConfigProblem[]): Hook | undefined {
  const skip = (message: string) => {
    problems.push({ severity: 'warning', file: source.path, path: '', message: `${message}; hook '${source.name}' skipped` })
    return undefined
  }
  if (answer === undefined) return undefined // aborted
  if ('failure' in answer) return skip(answer.failure)
  const read = patternsFromAnswer(answer)
  if ('problem' in read) return skip(read.problem)
  return {
    name: source.name,
    named: true,
    event: read.patterns,
    command: `${shellQuote(source.path)} run`,
    timeout: HOOK_DEFAULTS.timeout,
    blocking: HOOK_DEFAULTS.blocking,
    enabled: true,
    shape: 'hookrun',
    envPrefixes: [],
    ...(source.plugin !== undefined && { env: { HOOKRUN_PLUGIN_DIR: source.plugin.dir } }),
    source: { layer: source.layer, file: source.path, index: 0, path: '', executable: true },
  }
}

/**
 * The event patterns in an answer to `hook`: one or more, separated by white space or lines.
 * kodelet's type names (`before_tool_call`, …) are event aliases, so they match as they are.
 */
export function patternsFromAnswer(answer: Pick<CachedAnswer, 'exitCode' | 'stdout'>): { patterns: string[] } | { problem: string } {
  const text = answer.stdout.trim()
  if (answer.exitCode !== 0)
    return { problem: `answered './hook hook' with exit ${answer.exitCode}; it must exit 0 and print the event pattern(s) it serves` }
  if (text === '')
    return { problem: "printed nothing for './hook hook'; it must print the event pattern(s) it serves, e.g. tool:pre_execute" }
  const patterns = text.split(/\s+/)
  for (const pattern of patterns) {
    const problem = patternProblem(pattern)
    if (problem !== undefined) return { problem: `answered './hook hook' with '${firstLine(text)}': pattern '${pattern}' ${problem}` }
  }
  return { patterns }
}

type AnswerOrFailure = CachedAnswer | { readonly failure: string }

/** Every executable's answer to `hook`: from the cache, else asked now (all at once) and cached. */
async function hookAnswers(
  executables: readonly FoundExecutable[],
  cacheFile: string,
  context: { env: Env; projectRoot: string; signal?: AbortSignal },
): Promise<Map<string, AnswerOrFailure>> {
  const answers = new Map<string, AnswerOrFailure>()
  if (executables.length === 0) return answers
  const cache = readAnswerCache(cacheFile)
  const stale = executables.filter((file) => {
    const cached = cache.get(file.path)
    if (cached === undefined || cached.size !== file.size || cached.mtimeMs !== file.mtimeMs) return true
    answers.set(file.path, cached)
    return false
  })
  if (stale.length === 0) return answers
  let learned = false
  await Promise.all(
    stale.map(async (file) => {
      const answer = await askHook(file, context)
      if (answer === undefined) return
      answers.set(file.path, answer)
      if ('failure' in answer) return // a timeout or a failed start may pass: ask again next time
      cache.set(file.path, answer)
      learned = true
    }),
  )
  if (learned) writeAnswerCache(cacheFile, cache)
  return answers
}

async function askHook(
  file: FoundExecutable,
  context: { env: Env; projectRoot: string; signal?: AbortSignal },
): Promise<AnswerOrFailure | undefined> {
  const run = await runCommand(`${shellQuote(file.path)} hook`, {
    cwd: context.projectRoot,
    env: {
      ...context.env,
      HOOKRUN_HOOK_NAME: file.name,
      HOOKRUN_PROJECT_DIR: context.projectRoot,
      HOOKRUN_CONFIG_DIR: dirname(file.path),
      ...(file.plugin !== undefined && { HOOKRUN_PLUGIN_DIR: file.plugin.dir }),
      BUN_OPTIONS: undefined,
      BUN_BE_BUN: undefined,
    },
    input: '',
    timeoutMs: HOOK_QUERY_TIMEOUT_MS,
    signal: context.signal,
  })
  if (context.signal?.aborted) return undefined
  if (run.spawnError !== undefined) return { failure: `could not be asked './hook hook': ${run.spawnError}` }
  if (run.timedOut) return { failure: `did not answer './hook hook' within ${HOOK_QUERY_TIMEOUT_MS / 1000}s` }
  if (run.exitCode === null) return { failure: `was killed by ${run.signal ?? 'a signal'} while answering './hook hook'` }
  // 126/127: the interpreter of its shebang is missing or not executable; that can be fixed
  // without touching the file, so it is not remembered.
  if (run.exitCode === 126 || run.exitCode === 127) {
    return {
      failure: `could not start for './hook hook' (exit ${run.exitCode}; check its shebang line and that the interpreter is on PATH)`,
    }
  }
  // Keep the answer small: it is a list of patterns, not a hook's real output.
  return { size: file.size, mtimeMs: file.mtimeMs, exitCode: run.exitCode, stdout: run.stdout.slice(0, 4096) }
}

/** A path as one word for `sh -c`, whatever characters it holds (always quoted: a script without a shebang still runs through sh). */
export function shellQuote(path: string): string {
  return `'${path.replaceAll("'", `'\\''`)}'`
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!
  return line.length > 120 ? `${line.slice(0, 120)}…` : line
}
