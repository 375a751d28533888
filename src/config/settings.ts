// Settings besides hooks (trusted folders, audit log), read only from files the user chose.
import { dirname, resolve } from 'node:path'
import { homeOf } from '../core/places.ts'
import type { ConfigDocument } from './document.ts'
import type { ConfigProblem, Hook, HttpHookLimits, Layer, Settings } from '../core/types.ts'

/**
 * Only files the user chose may carry settings: their user config and `--config` files, and the
 * organisation's managed config. A project file cannot trust itself or redirect the user's audit log.
 */
const SETTINGS_LAYERS: ReadonlySet<Layer> = new Set(['managed', 'policy', 'user', 'config'])

/** The organisation's layers: the managed file and the remote policy it names. */
export function isManagedLayer(layer: Layer): boolean {
  return layer === 'managed' || layer === 'policy'
}

/**
 * Collect settings from the documents in layer order (a later `log` wins, except over the managed
 * config's: an organisation's audit log stays where it put it); misplaced ones are warnings.
 */
export function takeSettings(
  documents: readonly ConfigDocument[],
  problems: ConfigProblem[],
  env: Readonly<Record<string, string | undefined>>,
): Settings {
  const trustedFolders: Array<{ pattern: string; file: string }> = []
  let log: Settings['log']
  let managedOnly: Settings['managedOnly']
  let telemetry: Settings['telemetry']
  const urls: Array<{ patterns: readonly string[]; file: string }> = []
  const envVars: Array<{ names: readonly string[]; file: string }> = []
  for (const { ref, settings } of documents) {
    const warn = (path: string, message: string) => problems.push({ severity: 'warning', file: ref.file, path, message })
    // Limits on http hooks: any layer may set them, since each one only narrows (see load.ts for a project's).
    if (settings.allowedHttpHookUrls !== undefined) urls.push({ patterns: settings.allowedHttpHookUrls, file: ref.file })
    if (settings.httpHookAllowedEnvVars !== undefined) envVars.push({ names: settings.httpHookAllowedEnvVars, file: ref.file })
    if (settings.policy !== undefined && ref.layer !== 'managed')
      warn('policy', 'only read from the managed config (/etc/hookrun/hooks.json); ignored here')
    if (settings.allowManagedHooksOnly !== undefined) {
      if (!isManagedLayer(ref.layer))
        warn('allowManagedHooksOnly', 'only read from the managed config (/etc/hookrun/hooks.json); ignored here')
      else if (settings.allowManagedHooksOnly) managedOnly = { file: ref.file }
    }
    if (!SETTINGS_LAYERS.has(ref.layer)) {
      if (settings.trustedFolders !== undefined)
        warn('trustedFolders', 'only read from your user config; ignored here (a project cannot trust itself)')
      if (settings.log !== undefined) warn('log', 'only read from your user config or a --config file; ignored here')
      if (settings.telemetry !== undefined)
        warn('telemetry', 'only read from your user config, the managed config or a --config file; ignored here')
      continue
    }
    settings.trustedFolders?.forEach((pattern, index) => {
      if (pattern === '~' || pattern.startsWith('~/') || pattern.startsWith('/'))
        trustedFolders.push({ pattern: expandHome(pattern, env), file: ref.file })
      else warn(`trustedFolders[${index}]`, `'${pattern}' must be an absolute path or start with ~/ (globs allowed); ignored`)
    })
    if (settings.telemetry !== undefined) {
      // An organisation's telemetry stays on: a user config cannot redirect or drop it.
      if (telemetry !== undefined && isManaged(documents, telemetry.file))
        warn('telemetry', `the managed config ${telemetry.file} sets telemetry; ignored here`)
      else telemetry = { ...settings.telemetry, file: ref.file }
    }
    if (settings.log === undefined) continue
    if (log !== undefined && isManaged(documents, log.file)) {
      warn('log', `the managed config ${log.file} sets the audit log; ignored here`)
      continue
    }
    log = {
      path: resolve(dirname(ref.file), expandHome(settings.log.path, env)),
      file: ref.file,
      ...(settings.log.chain === true && { chain: true }),
    }
  }
  const httpHooks =
    urls.length > 0 || envVars.length > 0 ? { ...(urls.length > 0 && { urls }), ...(envVars.length > 0 && { envVars }) } : undefined
  return {
    trustedFolders,
    ...(log !== undefined && { log }),
    ...(telemetry !== undefined && { telemetry }),
    ...(managedOnly !== undefined && { managedOnly }),
    ...(httpHooks !== undefined && { httpHooks }),
  }
}

/**
 * The limits without those set in `files` (an untrusted project's: its hooks do not run, and its
 * settings must not block the user's own http hooks either).
 */
export function httpLimitsWithout(limits: HttpHookLimits | undefined, files: ReadonlySet<string>): HttpHookLimits | undefined {
  if (limits === undefined || files.size === 0) return limits
  const urls = limits.urls?.filter((limit) => !files.has(limit.file)) ?? []
  const envVars = limits.envVars?.filter((limit) => !files.has(limit.file)) ?? []
  return urls.length > 0 || envVars.length > 0 ? { ...(urls.length > 0 && { urls }), ...(envVars.length > 0 && { envVars }) } : undefined
}

/** Each http hook with the limits it runs under (src/run/http.ts checks them when it posts). */
export function withHttpLimits(hooks: readonly Hook[], limits: HttpHookLimits | undefined): Hook[] {
  if (limits === undefined) return [...hooks]
  return hooks.map((hook) => (hook.http === undefined ? hook : { ...hook, http: { ...hook.http, limits } }))
}

function isManaged(documents: readonly ConfigDocument[], file: string): boolean {
  return documents.some((document) => document.ref.file === file && isManagedLayer(document.ref.layer))
}

function expandHome(path: string, env: Readonly<Record<string, string | undefined>>): string {
  if (path !== '~' && !path.startsWith('~/')) return path
  return `${homeOf(env)}${path.slice(1)}`
}
