// Agents that run another agent's hook entries (Copilot CLI, VS Code, Devin, Cursor run Claude Code's), and
// how a fire tells them apart: data for src/install/callers.ts and src/dialect.ts.
import type { Decision, Rendered } from '../core/protocol.ts'
import type { Payload } from '../core/types.ts'
import { parentPid } from '../core/processes.ts'

type Env = Readonly<Record<string, string | undefined>>

/** Where an agent's files are: the user's home, the project, the environment. */
interface CallerPlaces {
  readonly home: string
  readonly project: string
  readonly env: Env
}

/**
 * Where hookrun's own answer for the owner's event is in the caller: `reader-entry` its entry in the
 * caller's own file; `router` its entry in another agent's file the caller runs (`agent`); `listed` an
 * answer inside the app, which names itself and the events it answers in `variable` (`PID:EVENT,…`);
 * that counts only for the owner process the app started (`ownerPid`'s parent is PID), not one started
 * inside it, which inherits the variable.
 */
export type CallerAnswer =
  | { readonly kind: 'reader-entry' }
  | { readonly kind: 'router'; readonly agent: string }
  | { readonly kind: 'listed'; readonly variable: string; readonly ownerPid: string; readonly answer: string }

/**
 * Does the app's `listed` answer cover this event of the owner's process? Where that cannot be told it
 * does not: the hooks then run twice at worst, never not at all.
 */
export function listsEvent(env: Env, answer: { readonly variable: string; readonly ownerPid: string }, ownerEvent: string): boolean {
  const listed = /^(\d+):(.*)$/.exec(env[answer.variable] ?? '')
  if (listed === null || !listed[2]!.split(',').includes(ownerEvent)) return false
  const owner = Number(env[answer.ownerPid])
  return Number.isInteger(owner) && owner > 0 && parentPid(owner) === Number(listed[1])
}

/**
 * What any fire from a caller has: one of these payload fields or variables; only then does a fire load
 * the caller's module (src/agents/loaded.ts `callersOf`).
 */
interface CallerMarks {
  readonly fields?: readonly string[]
  readonly variables?: readonly string[]
}

/** Are the caller's marks in this fire? */
export function marked(marks: CallerMarks, payload: Payload, env: Env): boolean {
  return (
    (marks.fields ?? []).some((field) => payload[field] !== undefined) || (marks.variables ?? []).some((name) => env[name] !== undefined)
  )
}

/** The caller reads the owner's answer its own way: the payloads it sends, and the answer in its reading. */
interface CallerReading {
  from(payload: Payload): boolean
  render(decision: Decision, payload: Payload, agentEvent: string | undefined): Rendered & { readonly warnings: readonly string[] }
}

/**
 * One agent running another's hook entries with a payload of its own (shared reference §10.14).
 * The owner's agent lists its callers by name (`Agent.callers`), in detection order.
 */
export interface Caller {
  /** Its name where it differs from the agent's label (`Copilot CLI`). */
  readonly label?: string
  /** When it runs the owner's entries: the setting or option that decides it (a few words). */
  readonly when: string
  /** Does this fire come from it? (payload fields, or the variables it sets for its hooks) */
  detect(payload: Payload, env: Env): boolean
  /** What every fire from it has, which `detect` and `reading.from` need (above). */
  readonly marks: CallerMarks
  /** Where hookrun's own answer for the owner's event is in it; absent: it has none. */
  readonly ownAnswer?: CallerAnswer
  /** The owner's files it runs, each with the scope it has for it (to find hookrun answering twice). */
  files?(places: CallerPlaces): ReadonlyArray<{ readonly file: string; readonly scope: 'project' | 'user' }>
  /**
   * Where it says its project is when it runs the owner's entry (its variable, else the payload
   * field, a list's first item): the project a fire looks for its own answer in.
   */
  readonly project?: { readonly variables: readonly string[]; readonly payloadField?: string }
  /** It reads the owner's answer its own way. */
  readonly reading?: CallerReading
  readonly source: string
}
