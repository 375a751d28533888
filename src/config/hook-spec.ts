// What every config shape is read into (a hook spec), and the helpers the shapes share to read one entry.
import type { z } from 'zod'
import { didYouMean } from '../core/suggest.ts'
import type { HookShape } from '../core/types.ts'
import type { NativeConfig } from '../agents/native-config.ts'
import { HOOK_DEFAULTS } from './defaults.ts'
import type { HookEntry } from './schema.ts'

/**
 * What every config shape (docs/config.md) is read into. Each spec remembers its shape, because the
 * shapes differ in what a failure means (docs/protocol.md): Claude-shape hooks block only on exit 2.
 */
export interface HookSpec extends HookEntry {
  readonly shape: HookShape
  /** JSON path of the entry in its file, e.g. `hooks[2]` or `hooks.PreToolUse[0].hooks[1]`. */
  readonly path: string
  readonly envPrefixes: readonly string[]
  /** Claude Code's `if` permission rule, e.g. `Bash(git *)`. */
  readonly when?: string
  /** Its Gemini CLI group says `sequential: true`. */
  readonly sequential?: boolean
  /** Position among the file's entries (valid or not), so a bad entry does not rename later ones. */
  readonly ordinal: number
  /**
   * An agent-shaped handler's identity, `PreToolUse[Bash] ./check.sh`: the same handler in two
   * layers runs once (the agents' rule), so layers merge on it. Its `name` is the short one
   * (`shortNames`); this long one, which earlier versions showed, still switches it off.
   */
  readonly identity?: string
}

export type Report = (path: string, message: string, severity?: 'error' | 'warning') => void

/** What one agent's reader reads with. */
export interface Reading {
  readonly native: NativeConfig
  readonly shape: HookShape
  readonly envPrefixes: readonly string[]
  readonly report: Report
  readonly counter: { next: number }
}

/** Where a handler sits in its file. */
export type Site = Pick<HookSpec, 'shape' | 'path' | 'ordinal' | 'envPrefixes'>

/**
 * An agent handler's spec, named `<Event>/<label>` and identified by what it runs (`what`): the same
 * handler in several layers or files runs once (the agents' rule), so later layers replace earlier copies.
 */
export function handlerSpec(
  site: Site,
  eventName: string,
  label: string,
  what: string,
  fields: Omit<HookSpec, 'name' | 'blocking' | 'enabled' | keyof Site> & Partial<Pick<HookSpec, 'name' | 'blocking' | 'enabled'>>,
): HookSpec {
  return {
    name: `${eventName}/${label}`,
    identity: `${eventName}[${fields.matcher ?? '*'}] ${what}`,
    blocking: true,
    enabled: true,
    ...fields,
    ...site,
  }
}

/** Each entry of each event's list, with its path `hooks.<event>[i]`. */
export function eachEventEntry(events: Record<string, unknown[]>, visit: (eventName: string, raw: unknown, path: string) => void): void {
  for (const [eventName, entries] of Object.entries(events))
    for (const [index, raw] of entries.entries()) visit(eventName, raw, `hooks.${eventName}[${index}]`)
}

/** What a command runs, for its short name: the script's file name without its extension, else the program. */
export function commandSlug(command: string): string {
  // The first simple command only: not a redirection's target (`> /dev/null`) or a later pipe stage.
  const words = command
    .split(/[|;&<>]/)[0]!
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/["']/g, ''))
  const program = words.findIndex((word) => !/^\w+=/.test(word))
  const args = program < 0 ? [] : words.slice(program)
  const script = args.find(
    (word) => !word.startsWith('-') && (word.includes('/') || /\.(sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|ps1)$/i.test(word)),
  )
  const file =
    (script ?? args[0] ?? '')
      .split('/')
      .filter((part) => part !== '')
      .pop() ?? ''
  return file.replace(/\.[A-Za-z0-9]+$/, '').replace(/[^\w.@+-]+/g, '-') || 'hook'
}

/** A Claude-style matcher: empty and `*` mean every tool. */
export function claudeMatcher(matcher: string | undefined): string | undefined {
  return matcher === undefined || matcher === '' || matcher === '*' ? undefined : matcher
}

const strictToLenient = new WeakMap<z.ZodObject, z.ZodObject>()

/**
 * Parse strictly; if the only trouble is unknown keys, report them as warnings and keep the value
 * without them. Any other issue is an error and the value is dropped (the caller skips it).
 */
export function parseEntry<T extends z.ZodObject>(schema: T, raw: unknown, path: string, report: Report): z.output<T> | undefined {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  const unknownKeys = result.error.issues.filter((issue) => issue.code === 'unrecognized_keys')
  const other = result.error.issues.filter((issue) => issue.code !== 'unrecognized_keys')
  for (const issue of unknownKeys) {
    // A typo of a field the entry has (timout) names it; nested objects say where the fields are listed.
    const known = issue.path.length === 0 ? Object.keys(schema.shape) : []
    for (const key of issue.keys)
      report(
        joinPath(path, [...issue.path, key]),
        `unknown key, ignored${didYouMean(key, known) || ' (see `hookrun schema` for the fields)'}`,
        'warning',
      )
  }
  if (other.length === 0) {
    let lenient = strictToLenient.get(schema)
    if (!lenient) {
      lenient = schema.strip()
      strictToLenient.set(schema, lenient)
    }
    const stripped = lenient.safeParse(raw)
    if (stripped.success) return stripped.data as z.output<T>
  }
  const what = path === '' ? 'file skipped' : 'hook skipped'
  for (const issue of other) report(joinPath(path, issue.path), `${issue.message.replace(/^Invalid input: /, '')}; ${what}`)
  return undefined
}

export function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`
  return out
}

/** Claude Code's `onFailure`, else Goose's `on_failure`, which Goose honours on PreToolUse only. */
export function onFailureOf(handler: { onFailure?: 'block' | 'allow'; on_failure?: 'block' | 'allow' }, eventName: string) {
  return handler.onFailure ?? (eventName === 'PreToolUse' ? handler.on_failure : undefined)
}

/**
 * A handler's timeout in seconds, as its agent reads it (src/agents/native-config.ts): its own
 * `timeout` in the agent's unit, else the agent's default for the event (`event` is hookrun's
 * name), else hookrun's.
 */
export function nativeTimeout(native: NativeConfig, event: string, timeout: number | undefined): number {
  if (timeout !== undefined) return native.timeoutUnit === 'ms' ? timeout / 1000 : timeout
  if (native.shortTimeout?.events.includes(event)) return native.shortTimeout.seconds
  return native.defaultTimeout ?? HOOK_DEFAULTS.timeout
}
