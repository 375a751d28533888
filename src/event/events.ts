// The event vocabulary (docs/events.md): canonical `domain:action` names, and every seed's and agent's name as an alias of one.
import { VOCABULARY } from '../agents/vocabulary.ts'
import type { AgentEvents } from '../agents/types.ts'
export interface CanonicalEvent {
  readonly name: string
  /** A failing blocking hook blocks by default here (fail closed); elsewhere a failure only warns. */
  readonly gate: boolean
  /** A block has an effect on this event (Claude Code's "exit 2 blocks" column). */
  readonly canBlock: boolean
  readonly description: string
}

interface EventAlias {
  readonly alias: string
  readonly canonical: string
  /** The agents and seeds that use this name (src/agents/<agent>.ts, `SEED_ALIASES`). */
  readonly from: readonly string[]
  /** The tool subject the agent's event implies (`beforeShellExecution` → bash): a handler on it runs for that tool only. */
  readonly subject?: string
}

const event = (name: string, gate: boolean, canBlock: boolean, description: string): CanonicalEvent => ({
  name,
  gate,
  canBlock,
  description,
})

export const CANONICAL_EVENTS: readonly CanonicalEvent[] = [
  event('tool:pre_execute', true, true, 'before a tool runs; a block cancels the call'),
  event('tool:post_execute', false, true, 'after a tool succeeded; a block sends the reason back to the model'),
  event('tool:error', false, false, 'after a tool failed'),
  event('tool:post_batch', false, true, 'after a batch of parallel tool calls'),
  event('llm:pre_request', true, true, 'before a model request'),
  event('llm:post_response', false, false, 'after a model response'),
  event('llm:stream_start', false, false, 'a model response starts streaming'),
  event('llm:stream_end', false, false, 'a model response finished streaming'),
  event('llm:message_display', false, false, 'assistant text is shown to the user'),
  event('llm:thought', false, false, 'the model finished a thinking block'),
  event('llm:tool_selection', false, false, 'before the model picks which tools it may call'),
  event('llm:pre_model_switch', true, true, 'before the session switches to another model; a block keeps the current one'),
  event('llm:post_model_switch', false, false, 'after the session switched to another model'),
  event('session:start', false, false, 'a session starts or resumes'),
  event('session:end', false, false, 'a session ends'),
  event('session:message', false, false, 'a message is added to the session'),
  event('session:setup', false, false, 'one-time setup or maintenance run'),
  event('session:cwd_changed', false, false, 'the working directory changed'),
  event('session:directory_added', false, false, 'a directory was added to the workspace'),
  event('session:delete', false, false, 'a saved session was deleted'),
  event('permission:check', true, true, 'a permission is checked'),
  event('permission:prompt', true, true, 'the user is about to be asked for a permission'),
  event('permission:granted', false, false, 'a permission was granted'),
  event('permission:denied', false, false, 'a permission was denied'),
  event('user:prompt_submit', true, true, 'the user submitted a prompt; a block erases it'),
  event('user:prompt_expansion', true, true, 'a slash command or MCP prompt expands'),
  event('user:interrupt', false, false, 'the user interrupted the agent'),
  event('user:trigger', false, false, "the user ran a hook by hand (Kiro's Manual trigger)"),
  event('agent:start', false, false, 'the agent begins processing user input'),
  event('agent:stop', false, true, 'the agent finished; a block asks it to keep going'),
  event('agent:stop_failure', false, false, 'the turn ended on an API error'),
  event('agent:error', false, false, 'an error occurred while the agent ran'),
  event('turn:start', false, false, 'before each model turn'),
  event('turn:end', false, false, 'after each model turn'),
  event('subagent:start', false, false, 'a subagent was started'),
  event('subagent:stop', false, true, 'a subagent finished; a block asks it to keep going'),
  event('task:created', false, true, 'a task is being created'),
  event('task:completed', false, true, 'a task is being marked complete'),
  event('task:start', true, true, 'a planned task (a Kiro spec task) is about to start; a block keeps it from starting'),
  event('teammate:idle', false, true, 'a teammate agent is about to go idle'),
  event('notification', false, false, 'the agent shows a notification'),
  event('context:pre_compact', false, true, 'before the conversation is compacted'),
  event('context:post_compact', false, false, 'after the conversation was compacted'),
  event('context:instructions_loaded', false, false, 'instruction files (CLAUDE.md, rules) were loaded'),
  event('config:change', false, true, 'a settings file changed'),
  event('file:changed', false, false, 'a watched file changed on disk'),
  event('file:created', false, false, 'a file was created'),
  event('file:deleted', false, false, 'a file was deleted'),
  event('worktree:create', false, true, 'a git worktree is being created'),
  event('worktree:remove', false, false, 'a git worktree was removed'),
  event('worktree:setup', false, false, 'a git worktree was set up for the agent'),
  event('mcp:elicitation', false, true, 'an MCP server asks the user for input'),
  event('mcp:elicitation_result', false, true, 'the user answered an MCP elicitation'),
]

/** The seeds' own event names (pigo, seed 000; kodelet, seed 002). */
const SEED_ALIASES: Readonly<Record<string, AgentEvents>> = {
  pigo: {
    agent_start: 'agent:start',
    turn_start: 'turn:start',
    tool_start: 'tool:pre_execute',
    tool_end: 'tool:post_execute',
    turn_end: 'turn:end',
    agent_end: 'agent:stop',
  },
  kodelet: {
    before_tool_call: 'tool:pre_execute',
    after_tool_call: 'tool:post_execute',
    user_message_send: 'user:prompt_submit',
    turn_end: 'turn:end',
    agent_stop: 'agent:stop',
  },
}

/** Seeds that use agents' names: the SDK spec (seed 001) names 15 of Claude Code's events, the Rust plan (seed 004) four. */
const SEEDS_IN_AGENTS_NAMES: ReadonlyArray<readonly [string, readonly string[]]> = [
  [
    'sdk',
    [
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'Notification',
      'SessionStart',
      'SessionEnd',
      'Stop',
      'SubagentStart',
      'SubagentStop',
      'PreCompact',
      'PermissionRequest',
      'Setup',
      'TeammateIdle',
      'TaskCompleted',
    ],
  ],
  ['rust', ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit']],
]

/**
 * The look-up tables a fire asks (kept as data in the vocabulary): the canonical event of each name (any case), and the
 * subject a name implies. The first meaning of each spelling counts.
 */
export function eventNameTables(agentEvents: ReadonlyArray<readonly [string, AgentEvents]>): {
  eventNames: Record<string, string>
  eventSubjects: Record<string, string>
} {
  const eventNames: Record<string, string> = {}
  const eventSubjects: Record<string, string> = {}
  const seen = new Set<string>()
  for (const [, events] of [...Object.entries(SEED_ALIASES), ...agentEvents]) {
    for (const alias in events) {
      if (seen.has(alias)) continue
      seen.add(alias)
      const meaning = events[alias]!
      eventNames[alias.toLowerCase()] = typeof meaning === 'string' ? meaning : meaning.event
      if (typeof meaning !== 'string') eventSubjects[alias.toLowerCase()] = meaning.subject
    }
  }
  return { eventNames, eventSubjects }
}

/** A table's entry for `key`, never what every object inherits (`constructor`). */
const entryOf = (table: Readonly<Record<string, string>>, key: string): string | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined

let ROWS: readonly EventAlias[] | undefined

/** Every name an agent or seed uses for an event, with who uses it (docs/events.md); built when first asked (no fire asks). */
export function eventAliases(): readonly EventAlias[] {
  if (ROWS !== undefined) return ROWS
  const rows = new Map<string, { alias: string; canonical: string; from: string[]; subject?: string }>()
  for (const [source, events] of [...Object.entries(SEED_ALIASES), ...VOCABULARY.events]) {
    for (const [alias, meaning] of Object.entries(events)) {
      const row = rows.get(alias)
      if (row !== undefined) {
        row.from.push(source)
        continue
      }
      const canonical = typeof meaning === 'string' ? meaning : meaning.event
      const subject = typeof meaning === 'string' ? undefined : meaning.subject
      rows.set(alias, { alias, canonical, from: [source], ...(subject !== undefined && { subject }) })
    }
  }
  for (const [source, names] of SEEDS_IN_AGENTS_NAMES) for (const name of names) rows.get(name)?.from.push(source)
  ROWS = [...rows.values()]
  return ROWS
}

const BY_NAME = new Map(CANONICAL_EVENTS.map((canonical) => [canonical.name, canonical]))

export function canonicalEvent(name: string): CanonicalEvent | undefined {
  return BY_NAME.get(name)
}

/** The pattern an agent's event name stands for (`beforeShellExecution` → `tool:pre_execute:bash`); an unknown name stays. */
export function eventPattern(name: string): string {
  const canonical = resolveAlias(name)
  if (canonical === undefined) return name
  const subject = entryOf(VOCABULARY.eventSubjects, name.toLowerCase())
  return subject === undefined ? canonical : `${canonical}:${subject}`
}

/** The canonical name for an alias (any case), or undefined if `name` is not an alias. */
export function resolveAlias(name: string): string | undefined {
  return entryOf(VOCABULARY.eventNames, name.toLowerCase())
}

/** Whether a failing blocking hook on this event blocks by default (see `gate`). */
export function isGate(name: string): boolean {
  return BY_NAME.get(name)?.gate ?? false
}

/** Whether a block means anything on this event (unknown events: yes, the agent decides). */
export function canBlock(name: string): boolean {
  return BY_NAME.get(name)?.canBlock ?? true
}

/** The name a given system uses for a canonical event (for example pigo's `tool_start`). */
export function aliasFor(canonical: string, source: string): string | undefined {
  return eventAliases().find((entry) => entry.canonical === canonical && entry.from.includes(source))?.alias
}

let NAMES_BY_SOURCE: Map<string, Set<string>> | undefined

/** Every event name a system uses, spelled as it spells it; the index is built once, on the first question. */
export function namesOf(source: string): ReadonlySet<string> {
  if (NAMES_BY_SOURCE === undefined) {
    NAMES_BY_SOURCE = new Map()
    for (const entry of eventAliases()) {
      for (const from of entry.from) {
        const names = NAMES_BY_SOURCE.get(from)
        if (names === undefined) NAMES_BY_SOURCE.set(from, new Set([entry.alias]))
        else names.add(entry.alias)
      }
    }
  }
  return NAMES_BY_SOURCE.get(source) ?? new Set()
}

/** Is this an event hookrun knows, by canonical name or alias? */
export function isKnownEvent(name: string): boolean {
  return BY_NAME.has(name) || Object.hasOwn(VOCABULARY.eventNames, name.toLowerCase())
}
