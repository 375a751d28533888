// One config file → a ConfigDocument (zod validation, shapes normalised, problems named by path).
import { readFileSync } from 'node:fs'
import { type LoadOptions, resolveConfig, type ResolvedConfig } from './load.ts'
import { cachedPolicy } from './policy.ts'
import type { ConfigDocument, ParsedEntry } from './document.ts'
import type { ConfigFileRef, ConfigProblem } from '../core/types.ts'
import { jsonSyntaxError } from '../core/json-error.ts'
import { lintHookEntry } from './lint.ts'
import { normalizeConfig } from './shapes.ts'

/**
 * Reading config files with the zod schemas. `fire` loads this module only when a config file
 * is not in the document cache (src/config/cache.ts); `list`, `validate` and the library use it
 * directly.
 */

/** Discover, read, validate and merge every layer (see `resolveConfig`). */
export function loadConfig(options: LoadOptions): ResolvedConfig {
  return resolveConfig(options, readConfigDocument, (setting) => cachedPolicy(setting, options.env ?? process.env))
}

/** Read one file into validated hook specs; every problem names the file and the JSON path. */
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
    problem('', `not valid JSON: ${jsonSyntaxError(text, (error as Error).message)}; file skipped`)
    return { ref, text, settings: {}, entries: [], problems }
  }
  const { specs, settings } = normalizeConfig(json, problem)
  const entries = specs.map((entry): ParsedEntry => {
    for (const lint of lintHookEntry(entry)) problem(`${entry.path}.${lint.path}`, lint.message, 'warning')
    return { ref, index: entry.ordinal, entry }
  })
  return { ref, text, settings, entries, problems }
}

