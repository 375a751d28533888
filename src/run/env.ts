// The environment a hook runs with: the caller's, scrubbed, plus HOOKRUN_* and its own `env`.
import { sessionIdOf, toolInput } from '../payload/fields.ts'
import { hasNul, isUndecoded, LongStringField, textWithin } from '../payload/long-strings.ts'
import { MAX_PAYLOAD_DEPTH } from '../payload/payload.ts'
import type { FiredEvent, Payload } from '../core/types.ts'
import { aliasFor } from '../event/events.ts'

/** Linux's limit on one environment string: `NAME=value` and its NUL (MAX_ARG_STRLEN, 128 KiB). */
const MAX_ENV_STRING_BYTES = 128 * 1024

/** Variables a hook never inherits: they would change how a nested Bun or hookrun behaves. */
const SCRUBBED = ['BUN_OPTIONS', 'BUN_BE_BUN']

/** What hookrun knows about the fire, beyond the event and payload. */
interface EnvContext {
  readonly hookName: string
  readonly projectDir: string
  readonly configDir: string
  readonly depth: number
}

type Extract = (event: FiredEvent, payload: Payload, context: EnvContext) => unknown

/** The first of `keys` `holder` has a value for (as `pick`), a long string not decoded yet as a LongStringField. */
function pickKeepingLongStrings(holder: unknown, ...keys: string[]): unknown {
  if (typeof holder !== 'object' || holder === null) return undefined
  for (const key of keys) {
    if (isUndecoded(holder, key)) return new LongStringField(holder, key)
    const value = (holder as Record<string, unknown>)[key]
    if (value !== undefined && value !== null) return value
  }
  return undefined
}

/** The `HOOKRUN_*` variables, one row each: suffix and where its value comes from. */
export const HOOK_VARIABLES: ReadonlyArray<readonly [suffix: string, extract: Extract]> = [
  ['EVENT', (event) => event.name],
  ['QUALIFIED_EVENT', (event) => event.qualified],
  ['SESSION_ID', (_, payload) => sessionIdOf(payload)],
  ['WORK_DIR', (_, payload) => pickKeepingLongStrings(payload, 'cwd', 'work_dir', 'workDir') ?? process.cwd()],
  ['PROJECT_DIR', (_, __, context) => context.projectDir],
  ['CONFIG_DIR', (_, __, context) => context.configDir],
  ['TOOL_NAME', (event) => event.tool],
  ['TOOL_ARGS', (_, payload) => toolInput(payload)],
  // An MCP call, in every agent's naming (src/event/mcp.ts).
  ['MCP_SERVER', (event) => event.mcp?.server],
  ['MCP_TOOL', (event) => event.mcp?.tool],
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

/** Seed-era variable names (`envPrefixes`) pigo and Code-Forge scripts read; any other prefix mirrors every HOOKRUN_* name. */
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

/** The longest name a HOOKRUN_* value is set under, beyond its prefix. */
const LONGEST_NAME = Math.max(
  ...HOOK_VARIABLES.map(([suffix]) => suffix.length),
  ...Object.values(SEED_VARIABLES).flatMap((table) => table.map(([name]) => name.length)),
)

/** The most UTF-8 bytes a HOOKRUN_* value holds under Linux's limit; a longer value is cut and its `…_TRUNCATED` set. */
export function envValueBytes(prefixes: readonly string[] = []): number {
  return MAX_ENV_STRING_BYTES - 2 - Math.max('HOOKRUN_'.length, ...prefixes.map((prefix) => prefix.length)) - LONGEST_NAME
}

/** The most bytes a HOOKRUN_* value holds (no `envPrefixes`). */
export const ENV_VALUE_CAP = envValueBytes()

/** The environment of one hook: the caller's, minus internals, plus HOOKRUN_* and the hook's own `env`. */
export function hookEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  event: FiredEvent,
  payload: Payload,
  context: EnvContext,
  extra: Readonly<Record<string, string>> | undefined,
  prefixes: readonly string[] = [],
  /** The most bytes a value holds; the default is what Linux allows (tests use less). */
  maxBytes = envValueBytes(prefixes),
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...base }
  const values = new Map<string, string | undefined>()
  for (const [suffix, extract] of HOOK_VARIABLES) {
    const value = asEnvValue(extract(event, payload, context), maxBytes)
    values.set(suffix, value?.text)
    env[`HOOKRUN_${suffix}`] = value?.text
    // Set or cleared: a nested fire must not inherit an outer hook's flag.
    values.set(`${suffix}_TRUNCATED`, value?.truncated ? '1' : undefined)
    env[`HOOKRUN_${suffix}_TRUNCATED`] = value?.truncated ? '1' : undefined
  }
  for (const prefix of prefixes) {
    const table = SEED_VARIABLES[prefix]
    if (table === undefined) {
      for (const [suffix, value] of values) env[`${prefix}${suffix}`] = value
      continue
    }
    for (const [name, from] of table) {
      env[`${prefix}${name}`] = typeof from === 'string' ? values.get(from) : asEnvValue(from(event, payload, context), maxBytes)?.text
    }
  }
  Object.assign(env, extra)
  // Undefined rather than deleted: the spawner merges over process.env and drops undefined values.
  for (const key of SCRUBBED) env[key] = undefined
  return env
}

/** `true`/`false` after a tool ran (pigo's rule); unset before it ran. */
function toolError(event: FiredEvent, payload: Payload): unknown {
  const flag = pickKeepingLongStrings(payload, 'tool_error', 'toolError', 'is_error', 'isError')
  if (typeof flag === 'boolean') return String(flag)
  if (flag === 'true' || flag === 'false') return flag
  // Any other text is the error's message (Auggie's `tool_error`: null, or what went wrong).
  if ((typeof flag === 'string' && flag !== '') || flag instanceof LongStringField) return 'true'
  if (event.name === 'tool:error' || pickKeepingLongStrings(payload, 'error') !== undefined) return 'true'
  return event.name === 'tool:post_execute' ? 'false' : undefined
}

/** The HOOKRUN_* variables whose value would hold a NUL: a variable ends there, so a hook would judge only part (`ls\0; rm -rf ~`). */
export function variablesWithNul(event: FiredEvent, payload: Payload): string[] {
  const context: EnvContext = { hookName: '', projectDir: '', configDir: '', depth: 0 }
  return HOOK_VARIABLES.flatMap(([suffix, extract]) => {
    const value = extract(event, payload, context)
    const nul = value instanceof LongStringField ? hasNul(value.holder, value.key) : typeof value === 'string' && value.includes('\0')
    return nul ? [`HOOKRUN_${suffix}`] : []
  })
}

/** A variable's value, and whether it was cut to fit (its `…_TRUNCATED` variable says so). */
interface EnvValue {
  readonly text: string
  readonly truncated: boolean
}

function asEnvValue(value: unknown, maxBytes: number): EnvValue | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string') return fitted(withoutNul(value), maxBytes, false)
  const { text, complete } = textWithin(value, maxBytes, MAX_PAYLOAD_DEPTH)
  const clean = withoutNul(text)
  // Cut at a NUL in what was read: the value ends there whatever follows (JSON has none: it escapes them).
  return fitted(clean, maxBytes, !complete && clean === text)
}

/** NUL cannot be in an environment variable; cut at it rather than fail the spawn (a gate blocks instead: src/run/hook.ts). */
function withoutNul(text: string): string {
  return text.includes('\0') ? text.slice(0, text.indexOf('\0')) : text
}

/** `text` cut to at most `maxBytes` bytes of UTF-8 (never inside a character). */
function fitted(text: string, maxBytes: number, cutAlready: boolean): EnvValue {
  // Three bytes at most per UTF-16 unit: most values need no encoding to know they fit.
  if (text.length * 3 <= maxBytes) return { text, truncated: cutAlready }
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(maxBytes))
  return read === text.length ? { text, truncated: cutAlready } : { text: text.slice(0, read), truncated: true }
}
