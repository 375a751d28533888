// Settings besides hooks (trusted folders, audit log), read only from files the user chose.
import { homedir } from 'node:os'
import { dirname, resolve } from 'node:path'
import type { ConfigDocument } from './document.ts'
import type { ConfigProblem, Layer, Settings } from '../core/types.ts'

/**
 * Only files the user chose may carry settings: their user config and `--config` files. A
 * project file cannot trust itself or redirect the user's audit log.
 */
const SETTINGS_LAYERS: ReadonlySet<Layer> = new Set(['user', 'config'])

/** Collect settings from the documents in layer order (a later `log` wins); misplaced ones are warnings. */
export function takeSettings(
  documents: readonly ConfigDocument[],
  problems: ConfigProblem[],
  env: Readonly<Record<string, string | undefined>>,
): Settings {
  const trustedFolders: Array<{ pattern: string; file: string }> = []
  let log: Settings['log']
  for (const { ref, settings } of documents) {
    const warn = (path: string, message: string) => problems.push({ severity: 'warning', file: ref.file, path, message })
    if (!SETTINGS_LAYERS.has(ref.layer)) {
      if (settings.trustedFolders !== undefined) warn('trustedFolders', 'only read from your user config; ignored here (a project cannot trust itself)')
      if (settings.log !== undefined) warn('log', 'only read from your user config or a --config file; ignored here')
      continue
    }
    settings.trustedFolders?.forEach((pattern, index) => {
      if (pattern === '~' || pattern.startsWith('~/') || pattern.startsWith('/')) trustedFolders.push({ pattern: expandHome(pattern, env), file: ref.file })
      else warn(`trustedFolders[${index}]`, `'${pattern}' must be an absolute path or start with ~/ (globs allowed); ignored`)
    })
    if (settings.log !== undefined) log = { path: resolve(dirname(ref.file), expandHome(settings.log.path, env)), file: ref.file }
  }
  return { trustedFolders, ...(log !== undefined && { log }) }
}

export function expandHome(path: string, env: Readonly<Record<string, string | undefined>>): string {
  if (path !== '~' && !path.startsWith('~/')) return path
  return `${env.HOME || homedir()}${path.slice(1)}`
}
