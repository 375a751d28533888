// The environment a hook runs with: the caller's, scrubbed, plus HOOKRUN_* and its own `env`.
import { sessionIdOf, toolInput } from '../payload/fields.ts'
import { hasNul, isUndecoded, leadingChars } from '../payload/long-strings.ts'
import { MAX_PAYLOAD_DEPTH } from '../payload/payload.ts'
import type { FiredEvent, Payload } from '../core/types.ts'
import { aliasFor } from '../event/events.ts'

/** Values longer than this are cut in the environment; the full data is always on stdin. */
export const ENV_VALUE_CAP = 10_000

/** Variables a hook never inherits: they would change how a nested Bun or hookrun behaves. */
const SCRUBBED = ['BUN_OPTIONS', 'BUN_BE_BUN']

/** What hookrun knows about the fire, beyond the event and payload. */
export interface EnvContext {
  readonly hookName: string
  readonly projectDir: string
  readonly configDir: string
  readonly depth: number
}

type Extract = (event: FiredEvent, payload: Payload, context: EnvContext) => unknown

/**
 * A long string of a large payload, not decoded (src/payload/long-strings.ts): a variable needs
 * only its first ENV_VALUE_CAP characters and whether it holds a NUL, both read from its bytes.
 */
class LongStringField {
  readonly holder: object
  readonly key: string
  constructor(holder: object, key: string) {
    this.holder = holder
    this.key = key
  }
}

/**
 * The first of `keys` `holder` has a value for, as src/payload/fields.ts `pick` gives it, except
 * that a long string not decoded yet stays so (a LongStringField).
 */
function pickKeepingLongStrings(holder: unknown, ...keys: string[]): unknown {
  if (typeof holder !== 'object' || holder === null) return undefined
  for (const key of keys) {
    if (isUndecoded(holder, key)) return new LongStringField(holder, key)
    const value = (holder as Record<string, unknown>)[key]
    if (value !== undefined && value !== null) return value
  }
  return undefined
}

/**
 * The `HOOKRUN_*` variables, one row each: suffix and where its value comes from. The payload
 * keys cover the spellings of the agents hookrun serves (snake_case, camelCase).
 */
export const HOOK_VARIABLES: ReadonlyArray<readonly [suffix: string, extract: Extract]> = [
  ['EVENT', (event) => event.name],
  ['QUALIFIED_EVENT', (event) => event.qualified],
  ['SESSION_ID', (_, payload) => sessionIdOf(payload)],
  ['WORK_DIR', (_, payload) => pickKeepingLongStrings(payload, 'cwd', 'work_dir', 'workDir') ?? process.cwd()],
  ['PROJECT_DIR', (_, __, context) => context.projectDir],
  ['CONFIG_DIR', (_, __, context) => context.configDir],
  ['TOOL_NAME', (event) => event.tool],
  ['TOOL_ARGS', (_, payload) => toolInput(payload)],
  ['BASH_COMMAND', (_, payload) => pickKeepingLongStrings(toolInput(payload), 'command')],
  ['TOOL_OUTPUT', (_, payload) => pickKeepingLongStrings(payload, 'tool_response', 'tool_output', 'toolOutput', 'tool_result', 'output')],
  ['TOOL_ERROR', (event, payload) => toolError(event, payload)],
  ['TURN_NUMBER', (_, payload) => pickKeepingLongStrings(payload, 'turn_number', 'turnNumber', 'turn')],
  ['MODEL', (_, payload) => pickKeepingLongStrings(payload, 'model')],
  // Inside a subagent (Claude Code, Codex §9.3): which one.
  ['AGENT_ID', (_, payload) => pickKeepingLongStrings(payload, 'agent_id', 'agentId')],
  ['AGENT_TYPE', (_, payload) => pickKeepingLongStrings(payload, 'agent_type', 'agentType')],
  ['USER_MESSAGE', (_, payload) => pickKeepingLongStrings(payload, 'prompt', 'user_message', 'userMessage', 'message')],
  ['ASSISTANT_MESSAGE', (_, payload) => pickKeepingLongStrings(payload, 'last_assistant_message', 'assistant_message', 'assistantMessage')],
  ['HOOK_NAME', (_, __, context) => context.hookName],
  ['DEPTH', (_, __, context) => context.depth + 1],
]

/**
 * Seed-era variable names (`envPrefixes`). pigo and Code-Forge scripts read their own names, which
 * are not all `HOOKRUN_*` names with another prefix; any other prefix mirrors every HOOKRUN_* name.
 */
const SEED_VARIABLES: Readonly<Record<string, ReadonlyArray<readonly [name: string, from: string | Extract]>>> = {
  PIGO_: [
    ['EVENT', (event) => aliasFor(event.name, 'pigo') ?? event.name],
    ['WORK_DIR', 'WORK_DIR'],
    ['MODEL', 'MODEL'],
    ['USER_MESSAGE', 'USER_MESSAGE'],
    ['ASSISTANT_MESSAGE', 'ASSISTANT_MESSAGE'],
    ['TOOL_NAME', 'TOOL_NAME'],
    ['TOOL_ARGS', 'TOOL_ARGS'],
    ['TOOL_INPUT', 'BASH_COMMAND'],
    ['TOOL_OUTPUT', 'TOOL_OUTPUT'],
    ['TOOL_ERROR', 'TOOL_ERROR'],
    ['TURN_NUMBER', 'TURN_NUMBER'],
  ],
  FORGE_: [
    ['EVENT', 'EVENT'],
    ['SESSION_ID', 'SESSION_ID'],
    ['WORKING_DIR', 'WORK_DIR'],
    ['TOOL_NAME', 'TOOL_NAME'],
    ['TOOL_ARGS', 'TOOL_ARGS'],
    ['TOOL_RESULT', (_, payload) => pickKeepingLongStrings(payload, 'tool_result', 'tool_response', 'tool_output', 'result')],
    ['LLM_MODEL', 'MODEL'],
    ['LLM_TOKENS', (_, payload) => pickKeepingLongStrings(payload, 'tokens', 'token_count', 'llm_tokens')],
    ['PERM_LEVEL', (_, payload) => pickKeepingLongStrings(payload, 'permission_level', 'perm_level', 'permission_mode')],
    ['PERM_RULE', (_, payload) => pickKeepingLongStrings(payload, 'permission_rule', 'perm_rule')],
  ],
}

/** The environment of one hook: the caller's, minus internals, plus HOOKRUN_* and the hook's own `env`. */
export function hookEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  event: FiredEvent,
  payload: Payload,
  context: EnvContext,
  extra: Readonly<Record<string, string>> | undefined,
  prefixes: readonly string[] = [],
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...base }
  const values = new Map<string, string | undefined>()
  for (const [suffix, extract] of HOOK_VARIABLES) {
    const value = asEnvValue(extract(event, payload, context))
    values.set(suffix, value)
    env[`HOOKRUN_${suffix}`] = value
  }
  for (const prefix of prefixes) {
    const table = SEED_VARIABLES[prefix]
    if (table === undefined) {
      for (const [suffix, value] of values) env[`${prefix}${suffix}`] = value
      continue
    }
    for (const [name, from] of table) {
      env[`${prefix}${name}`] = typeof from === 'string' ? values.get(from) : asEnvValue(from(event, payload, context))
    }
  }
  Object.assign(env, extra)
  // Set to undefined rather than deleted: the spawner merges over process.env, and undefined
  // values are dropped when the child is created.
  for (const key of SCRUBBED) env[key] = undefined
  return env
}


/** `true`/`false` after a tool ran (pigo's rule); unset before it ran. */
function toolError(event: FiredEvent, payload: Payload): unknown {
  const flag = pickKeepingLongStrings(payload, 'tool_error', 'toolError', 'is_error', 'isError')
  if (typeof flag === 'boolean') return String(flag)
  if (flag === 'true' || flag === 'false') return flag
  if (event.name === 'tool:error' || pickKeepingLongStrings(payload, 'error') !== undefined) return 'true'
  return event.name === 'tool:post_execute' ? 'false' : undefined
}

/**
 * The HOOKRUN_* variables whose value would hold a NUL character: an environment variable ends at
 * the first NUL, so a hook reading it would judge only the part before it (`ls\0; rm -rf ~`).
 * Values made from JSON never do (JSON writes NUL as `\u0000`).
 */
export function variablesWithNul(event: FiredEvent, payload: Payload): string[] {
  const context: EnvContext = { hookName: '', projectDir: '', configDir: '', depth: 0 }
  return HOOK_VARIABLES.flatMap(([suffix, extract]) => {
    const value = extract(event, payload, context)
    const nul = value instanceof LongStringField ? hasNul(value.holder, value.key) : typeof value === 'string' && value.includes('\0')
    return nul ? [`HOOKRUN_${suffix}`] : []
  })
}

function asEnvValue(value: unknown): string | undefined {
  if (value === undefined) return undefined
  const text =
    typeof value === 'string' ? value : value instanceof LongStringField ? leadingChars(value.holder, value.key, ENV_VALUE_CAP)! : JSON.stringify(cutLongStrings(value, 0))
  // NUL cannot be in an environment variable; cut at it rather than fail the spawn.
  const clean = text.includes('\0') ? text.slice(0, text.indexOf('\0')) : text
  return clean.length > ENV_VALUE_CAP ? clean.slice(0, ENV_VALUE_CAP) : clean
}

/**
 * `value` with every string longer than ENV_VALUE_CAP cut there. Only the first ENV_VALUE_CAP
 * characters of the JSON are kept, and a string's first ENV_VALUE_CAP characters serialise to at
 * least that many, so the value is the same without serialising a 10 MB file write once per
 * hook, or decoding it at all when the payload left it undecoded (src/payload/long-strings.ts).
 */
function cutLongStrings(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > ENV_VALUE_CAP ? value.slice(0, ENV_VALUE_CAP) : value
  // What JSON.stringify serialises its own way (toJSON) is left to it, as is anything nested past any payload's depth.
  if (typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function' || depth > MAX_PAYLOAD_DEPTH) return value
  const source = value as Record<string, unknown>
  // No prototype: a key named __proto__ is then a property like any other, as JSON.stringify sees it.
  const copy = (Array.isArray(value) ? new Array<unknown>(value.length) : Object.create(null)) as Record<string, unknown>
  for (const key of Object.keys(source)) copy[key] = leadingChars(source, key, ENV_VALUE_CAP) ?? cutLongStrings(source[key], depth + 1)
  return copy
}
