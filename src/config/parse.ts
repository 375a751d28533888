// One config file → a ConfigDocument (zod validation, shapes normalised, problems named by path).
import { readFileSync } from 'node:fs'
import { resolveConfig, type ResolvedConfig } from './load.ts'
import { findConfigFiles, type LoadOptions } from './files.ts'
import { cachedPolicy } from './policy.ts'
import type { ConfigDocument, ParsedEntry } from './document.ts'
import { type ConfigFileRef, type ConfigProblem, needsTrust, stringsOf } from '../core/types.ts'
import { jsonSyntaxError } from '../core/json-error.ts'
import { lintHookEntry } from './lint.ts'
import { type HookSpec, normalizeConfig } from './shapes.ts'
import { envRefusals } from '../trust/hook-env.ts'
import { isKnownEvent } from '../event/events.ts'
import { patternKeys } from '../event/pattern.ts'
import { canonicalOf, nearestEvent } from '../event/suggest.ts'

/**
 * Reading config files with the zod schemas. `fire` loads this module only when a config file
 * is not in the document cache (src/config/cache.ts); `list`, `validate` and the library use it
 * directly.
 */

/** Discover, read, validate and merge every layer (see `resolveConfig`). */
export function loadConfig(options: LoadOptions): ResolvedConfig {
  const env = options.env ?? process.env
  return resolveConfig(findConfigFiles(options), env, readConfigDocument, (setting) => cachedPolicy(setting, env))
}

/** Read one file into validated hook specs; every problem names the file and the JSON path. */
export function readConfigFile(ref: ConfigFileRef, problems: ConfigProblem[]): ParsedEntry[] {
  const document = readConfigDocument(ref)
  problems.push(...document.problems)
  return document.entries
}

export function readConfigDocument(ref: ConfigFileRef): ConfigDocument {
  const read = (): ConfigDocument => {
    let text: string
    try {
      text = readFileSync(ref.file, 'utf8')
    } catch (error) {
      const problem = {
        severity: 'error' as const,
        file: ref.file,
        path: '',
        message: `cannot read: ${(error as Error).message}; file skipped`,
        brokenHook: {},
      }
      return { ref, settings: {}, entries: [], problems: [problem] }
    }
    return parseConfigDocument(ref, text)
  }
  const first = read()
  if (!first.problems.some((problem) => problem.path === '' && problem.severity === 'error')) return first
  // Caught mid-write (an editor that writes in place)? Read once more after a moment.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, REREAD_AFTER_MS)
  return read()
}

/** How long to wait before reading a config file again that could not be parsed. */
const REREAD_AFTER_MS = 50

/** Parse a config file's text. Never throws: whatever the text, the answer is entries and problems. */
export function parseConfigDocument(ref: ConfigFileRef, text: string): ConfigDocument {
  const problems: ConfigProblem[] = []
  const problem = (path: string, message: string, severity: ConfigProblem['severity'] = 'error') =>
    problems.push({ severity, file: ref.file, path, message })
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    problems.push({
      severity: 'error',
      file: ref.file,
      path: '',
      message: `not valid JSON: ${jsonSyntaxError(text, (error as Error).message)}; file skipped`,
      brokenHook: {},
    })
    return { ref, text, settings: {}, entries: [], problems }
  }
  const { specs, settings } = normalizeConfig(json, problem)
  // A project hook whose env makes its programs load code trust cannot pin does not run at all.
  const kept = needsTrust(ref.layer) ? specs.filter((entry) => trustableEnv(ref, entry, problems)) : specs
  const entries = kept.map((entry): ParsedEntry => {
    for (const lint of lintHookEntry(entry)) problem(`${entry.path}.${lint.path}`, lint.message, 'warning')
    for (const pattern of typeof entry.event === 'string' ? [entry.event] : (entry.event ?? [])) {
      const typo = eventTypo(pattern)
      if (typo !== undefined) {
        problems.push({
          severity: 'warning',
          file: ref.file,
          path: eventPath(entry),
          message: typo.message,
          brokenHook: { events: [typo.meant] },
        })
      }
    }
    return { ref, index: entry.ordinal, entry, ...(entry.event !== undefined && { eventKeys: patternKeys(entry.event) }) }
  })
  return { ref, text, settings, entries, problems: problems.map((found) => withBrokenHook(found, json)) }
}

/**
 * Whether a project hook's `env` can be trusted (src/trust/hook-env.ts `envRefusals`); when it
 * cannot, one problem per variable, naming the hook and the variable, and the hook is skipped.
 */
function trustableEnv(ref: ConfigFileRef, entry: HookSpec, problems: ConfigProblem[]): boolean {
  if (entry.env === undefined) return true
  const refusals = Object.keys(entry.env).flatMap((key) => envRefusals({ [key]: entry.env![key]! }).map((why) => [key, why] as const))
  const hook = entry.name === undefined ? 'this hook' : `hook '${entry.name}'`
  for (const [key, why] of refusals) {
    problems.push({
      severity: 'error',
      file: ref.file,
      path: `${entry.path}.env.${key}`,
      message: `${hook} ${why}, which a project hook may not do: set it in your user config or drop it; hook skipped`,
      untrustable: true,
    })
  }
  return refusals.length === 0
}

/**
 * An error on a hook entry means the hook was dropped: remember which events it was for, read
 * from the raw JSON (its `event`, or the Claude/pigo event key it sits under), so a gate it
 * guarded fails closed. An error that makes the whole file or hook list unusable was for any event.
 */
function withBrokenHook(problem: ConfigProblem, json: unknown): ConfigProblem {
  if (problem.severity !== 'error' || problem.brokenHook !== undefined) return problem
  const path = problem.path
  if (path === '' || path === 'hooks' || path === 'plugins') return { ...problem, brokenHook: {} }
  const flat = /^hooks\[(\d+)\]/.exec(path)
  if (flat) {
    const event = (json as { hooks: Array<{ event?: unknown } | undefined> }).hooks[Number(flat[1])]?.event
    const events = stringsOf(event)
    return { ...problem, brokenHook: events === undefined ? {} : { events: withMeant(events) } }
  }
  const keyed = /^(?:hooks|plugins\[\d+\]\.hooks)\.([^.[]+)/.exec(path)
  if (keyed) return { ...problem, brokenHook: { events: withMeant([keyed[1]!]) } }
  if (/^plugins\[\d+\]/.test(path)) return { ...problem, brokenHook: {} }
  return problem // a setting (trustedFolders, log, envPrefixes): not a hook
}

/** Where an entry's event is written: its field, or the event key of an agent-shaped file. */
export function eventPath(entry: { readonly shape: string; readonly path: string }): string {
  // hookrun's own list (`hooks[3]`, whatever rules the entry keeps) names it in a field.
  return /^hooks\[\d+\]$/.test(entry.path) ? `${entry.path}.event` : entry.path.replace(/\[\d+\](\.hooks\[\d+\])?$/, '')
}

/** Event patterns and, for a typo of a known name, the name it was surely meant to be. */
function withMeant(events: readonly string[]): string[] {
  return events.flatMap((pattern) => [pattern, ...(eventTypo(pattern)?.meant ?? [])])
}

/** `tool:pre_exectue` (or `PreToolUs`): an unknown event this close to a known one is a typo. */
function eventTypo(pattern: string): { message: string; meant: string } | undefined {
  for (const alternative of pattern.split(',')) {
    const segments = alternative.trim().split(':')
    if (isKnownEvent(segments[0]!) || isKnownEvent(segments.slice(0, 2).join(':'))) continue
    // `tool:pre_exectue[:bash]` is a canonical name misspelt; `PreToolUs[:Bash]` an alias.
    for (const length of segments.length >= 2 ? [2, 1] : [1]) {
      const name = segments.slice(0, length).join(':')
      const nearest = nearestEvent(name)
      if (nearest === undefined) continue
      const meant = [canonicalOf(nearest), ...segments.slice(length)].join(':')
      return { message: `unknown event '${name}'; did you mean '${nearest}'?`, meant }
    }
  }
  return undefined
}
