import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import type { z } from 'zod'
import { HookrunError } from '../errors.ts'
import { needsTrust, type ProjectTrust, resolveTrust } from '../trust.ts'
import { lintHookEntry } from './lint.ts'
import { type Settings, takeSettings } from './settings.ts'
import {
  ConfigEnvelopeSchema,
  type FileSettings,
  HookSchema,
  LenientConfigEnvelopeSchema,
  LenientHookSchema,
  LogSchema,
  TrustedFoldersSchema,
  type HookEntry,
} from './schema.ts'

/** Where a config file came from. Later layers override earlier ones by hook name. */
export type Layer = 'user' | 'project' | 'local' | 'config'

export interface ConfigFileRef {
  readonly layer: Layer
  readonly file: string
}

/** A hook ready to select and run, with where it was written. */
export interface Hook {
  /** The hook's `name`, or `<layer>#<index>` for an unnamed hook. */
  readonly name: string
  readonly named: boolean
  readonly event: readonly string[]
  readonly command: string
  /** Seconds. */
  readonly timeout: number
  readonly blocking: boolean
  readonly onError?: 'block' | 'allow'
  readonly cwd?: string
  readonly env?: Readonly<Record<string, string>>
  readonly enabled: boolean
  readonly description?: string
  readonly source: { readonly layer: Layer; readonly file: string; readonly index: number }
  /** Set when a later entry of the same name switched this hook off. */
  readonly disabledBy?: { readonly file: string; readonly index: number }
}

export interface ConfigProblem {
  readonly severity: 'error' | 'warning'
  readonly file: string
  /** JSON path inside the file, e.g. `hooks[2].timeout`; empty for the whole file. */
  readonly path: string
  readonly message: string
}

export interface ResolvedConfig {
  readonly hooks: readonly Hook[]
  readonly problems: readonly ConfigProblem[]
  readonly files: readonly ConfigFileRef[]
  /** Where hooks run by default: the folder holding `.hookrun/`, else the working directory. */
  readonly projectRoot: string
  /** Trusted folders and the audit log, from the user config (or --config files). */
  readonly settings: Settings
  /** Whether the project's own hooks may run; undefined when there are none (see src/trust.ts). */
  readonly trust?: ProjectTrust
  /** Hooks of an untrusted project: shown by `list`, never run. */
  readonly untrustedHooks: readonly Hook[]
}

export interface LoadOptions {
  /** Working directory to discover the project from. */
  readonly cwd: string
  /** Files named by the caller (`--config`); they replace discovery. */
  readonly configFiles?: readonly string[]
  readonly env?: Readonly<Record<string, string | undefined>>
}

export function formatProblem(problem: ConfigProblem): string {
  const where = problem.path === '' ? problem.file : `${problem.file}: ${problem.path}`
  return `${where}: ${problem.message}`
}

/** Find the config layers (DESIGN §4): user, project, local — or only the files the caller named. */
export function findConfigFiles(options: LoadOptions): { files: ConfigFileRef[]; projectRoot: string } {
  const env = options.env ?? process.env
  const cwd = resolve(options.cwd)
  const named = options.configFiles?.length ? options.configFiles : splitList(env.HOOKRUN_CONFIG)
  if (named.length > 0) {
    const files = named.map((file) => ({ layer: 'config' as const, file: resolve(cwd, file) }))
    for (const { file } of files) {
      if (!existsSync(file)) throw new HookrunError(`config file ${file} does not exist (named by --config or HOOKRUN_CONFIG)`)
    }
    return { files, projectRoot: cwd }
  }
  const files: ConfigFileRef[] = []
  const userFile = join(userConfigDir(env), 'hooks.json')
  if (existsSync(userFile)) files.push({ layer: 'user', file: userFile })
  const projectRoot = findProjectRoot(cwd)
  if (projectRoot !== undefined) {
    const project = join(projectRoot, '.hookrun', 'hooks.json')
    const local = join(projectRoot, '.hookrun', 'hooks.local.json')
    // The user's own file can sit at ~/.hookrun too when the project is the home folder: read it once.
    if (existsSync(project) && project !== userFile) files.push({ layer: 'project', file: project })
    if (existsSync(local)) files.push({ layer: 'local', file: local })
  }
  return { files, projectRoot: projectRoot ?? cwd }
}

/** `$XDG_CONFIG_HOME/hookrun`, default `~/.config/hookrun`. */
export function userConfigDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const xdg = env.XDG_CONFIG_HOME
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config')
  return join(base, 'hookrun')
}

/** The nearest folder at or above `cwd` that holds `.hookrun/hooks.json` or `.hookrun/hooks.local.json`. */
export function findProjectRoot(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const folder = join(dir, '.hookrun')
    if (existsSync(join(folder, 'hooks.json')) || existsSync(join(folder, 'hooks.local.json'))) return dir
    if (dirname(dir) === dir) return undefined
  }
}

/**
 * Discover, read, validate and merge every layer. Never throws for a bad file: it becomes a problem.
 * Project layers take part only when the project is trusted (src/trust.ts).
 */
export function loadConfig(options: LoadOptions): ResolvedConfig {
  const env = options.env ?? process.env
  const { files, projectRoot } = findConfigFiles(options)
  const documents = files.map(readConfigDocument)
  const problems: ConfigProblem[] = []
  const settings = takeSettings(documents, problems, env)
  const trust = resolveTrust(projectRoot, documents.filter((document) => needsTrust(document.ref.layer)), settings, env)
  const runs = (document: ConfigDocument) => !needsTrust(document.ref.layer) || trust?.trusted === true
  const runnable = documents.filter(runs)
  for (const document of runnable) problems.push(...document.problems)
  const hooks = mergeHooks(runnable.flatMap((document) => document.entries), problems)
  const untrustedHooks = mergeHooks(documents.filter((document) => !runs(document)).flatMap((document) => document.entries), [])
  return { hooks, problems, files, projectRoot, settings, trust, untrustedHooks }
}

export interface ParsedEntry {
  readonly ref: ConfigFileRef
  readonly index: number
  readonly entry: HookEntry
}

/** One config file as read: its text (what trust hashes), settings, valid entries and problems. */
export interface ConfigDocument {
  readonly ref: ConfigFileRef
  /** Undefined when the file could not be read. */
  readonly text?: string
  readonly settings: FileSettings
  readonly entries: ParsedEntry[]
  readonly problems: ConfigProblem[]
}

/** Read one file into validated entries; every problem names the file and the JSON path. */
export function readConfigFile(ref: ConfigFileRef, problems: ConfigProblem[]): ParsedEntry[] {
  const document = readConfigDocument(ref)
  problems.push(...document.problems)
  return document.entries
}

export function readConfigDocument(ref: ConfigFileRef): ConfigDocument {
  let text: string
  try {
    text = readFileSync(ref.file, 'utf8')
  } catch (error) {
    const problem = { severity: 'error' as const, file: ref.file, path: '', message: `cannot read: ${(error as Error).message}; file skipped` }
    return { ref, settings: {}, entries: [], problems: [problem] }
  }
  return parseConfigDocument(ref, text)
}

/** Parse a config file's text. Never throws: whatever the text, the answer is entries and problems. */
export function parseConfigDocument(ref: ConfigFileRef, text: string): ConfigDocument {
  const problems: ConfigProblem[] = []
  const problem = (path: string, message: string, severity: ConfigProblem['severity'] = 'error') =>
    problems.push({ severity, file: ref.file, path, message })
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    problem('', `invalid JSON (${(error as Error).message}); file skipped`)
    return { ref, text, settings: {}, entries: [], problems }
  }
  const envelope = parseReportingUnknownKeys(ConfigEnvelopeSchema, LenientConfigEnvelopeSchema, json, '', problem)
  if (envelope === undefined) return { ref, text, settings: {}, entries: [], problems }
  const entries: ParsedEntry[] = []
  envelope.hooks.forEach((raw, index) => {
    const entry = parseReportingUnknownKeys(HookSchema, LenientHookSchema, raw, `hooks[${index}]`, problem)
    if (entry === undefined) return
    for (const lint of lintHookEntry(entry)) problem(`hooks[${index}].${lint.path}`, lint.message, 'warning')
    entries.push({ ref, index, entry })
  })
  const setting = <T>(key: string, schema: z.ZodType<T>, value: unknown): T | undefined => {
    if (value === undefined) return undefined
    const result = schema.safeParse(value)
    if (result.success) return result.data
    for (const issue of result.error.issues) problem(joinPath(key, issue.path), `${describeIssue(issue)}; setting ignored`)
    return undefined
  }
  const settings = { trustedFolders: setting('trustedFolders', TrustedFoldersSchema, envelope.trustedFolders), log: setting('log', LogSchema, envelope.log) }
  return { ref, text, settings, entries, problems }
}

/**
 * Parse strictly; if the only trouble is unknown keys, report them as warnings and keep the
 * value without them. Any other issue is an error and the value is dropped (the caller skips it).
 */
function parseReportingUnknownKeys<T>(
  strict: z.ZodType<T>,
  lenient: z.ZodType<T>,
  raw: unknown,
  prefix: string,
  problem: (path: string, message: string, severity?: ConfigProblem['severity']) => void,
): T | undefined {
  const result = strict.safeParse(raw)
  if (result.success) return result.data
  const unknown = result.error.issues.filter((issue) => issue.code === 'unrecognized_keys')
  const other = result.error.issues.filter((issue) => issue.code !== 'unrecognized_keys')
  for (const issue of unknown) {
    for (const key of issue.keys) {
      problem(joinPath(prefix, [...issue.path, key]), 'unknown key, ignored (see `hookrun schema` for the fields)', 'warning')
    }
  }
  if (other.length === 0) {
    const lenientResult = lenient.safeParse(raw)
    if (lenientResult.success) return lenientResult.data
  }
  const what = prefix === '' ? 'file skipped' : 'hook skipped'
  for (const issue of other) problem(joinPath(prefix, issue.path), `${describeIssue(issue)}; ${what}`)
  return undefined
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // zod says "Invalid input: expected number, received string"; the first words add nothing.
  return issue.message.replace(/^Invalid input: /, '')
}

function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`
  return out
}

/**
 * Merge in layer order. A hook whose name was seen before replaces the earlier one in its place;
 * a name-only `enabled: false` entry switches the earlier one off.
 */
export function mergeHooks(entries: readonly ParsedEntry[], problems: ConfigProblem[]): Hook[] {
  const merged: Hook[] = []
  const positions = new Map<string, number>()
  const seenInFile = new Map<string, number>()
  for (const { ref, index, entry } of entries) {
    const source = { layer: ref.layer, file: ref.file, index }
    if (entry.name !== undefined) {
      const key = `${ref.file}\0${entry.name}`
      const first = seenInFile.get(key)
      if (first !== undefined) {
        problems.push({
          severity: 'warning',
          file: ref.file,
          path: `hooks[${index}].name`,
          message: `duplicate name '${entry.name}' (also hooks[${first}]); this entry replaces that one`,
        })
      } else seenInFile.set(key, index)
    }
    const earlier = entry.name === undefined ? undefined : positions.get(entry.name)
    if (entry.command === undefined || entry.event === undefined) {
      // A name-only `enabled: false` entry (the schema allows nothing else without a command).
      if (earlier !== undefined) merged[earlier] = { ...merged[earlier]!, enabled: false, disabledBy: { file: ref.file, index } }
      continue
    }
    const hook: Hook = {
      name: entry.name ?? `${ref.layer}#${index}`,
      named: entry.name !== undefined,
      event: typeof entry.event === 'string' ? [entry.event] : entry.event,
      command: entry.command,
      timeout: entry.timeout,
      blocking: entry.blocking,
      onError: entry.onError,
      cwd: entry.cwd,
      env: entry.env,
      enabled: entry.enabled,
      description: entry.description,
      source,
    }
    if (earlier !== undefined) merged[earlier] = hook
    else {
      if (entry.name !== undefined) positions.set(entry.name, merged.length)
      merged.push(hook)
    }
  }
  return merged
}

function splitList(value: string | undefined): string[] {
  return value ? value.split(delimiter).filter((item) => item !== '') : []
}
