// Who runs an agent's hookrun entries besides that agent (Cursor, VS Code, Copilot CLI, Devin CLI
// and Agent SDK apps run Claude Code's: src/agents/callers.ts), and when the caller's own hookrun
// answer makes the entry's a second one.
import { aliasFor, resolveAlias } from '../event/events.ts'
import { homeOf } from '../core/places.ts'
import { AGENTS, agentNamed, callersOf } from '../agents/registry.ts'
import { type CallerAnswer, listsEvent } from '../agents/callers.ts'
import { agentTarget } from './agents.ts'
import type { Places } from './agent-target.ts'
import { answeredByReaderEntry, answeredByThisHookrun } from './overlaps.ts'

type Env = Readonly<Record<string, string | undefined>>
type Payload = Readonly<Record<string, unknown>>

/**
 * An agent that runs another's entries with its own payload, told apart by the owner's `--format`; where the caller runs an answer
 * of hookrun's own for the event too, the owner's entry gives no opinion, so hooks run once.
 */
type EntryCaller = ReturnType<typeof callersOf>[number] & {
  /** The agent whose entries it runs. */
  readonly owner: string
}

/** Every agent's callers, owner by owner, each owner's in detection order. */
export const CALLERS: readonly EntryCaller[] = AGENTS.flatMap((agent) =>
  callersOf(agent.name).map((caller) => ({ ...caller, owner: agent.name })),
)

/** Where hookrun's own answer for the owner's event is in the caller, if any. */
function ownAnswer(caller: EntryCaller, ownerEvent: string, places: Places, payload: Payload): string | undefined {
  const answer: CallerAnswer | undefined = caller.ownAnswer
  if (answer === undefined) return undefined
  if (answer.kind === 'reader-entry') return answeredByReaderEntry(caller.owner, ownerEvent, places, payload)?.file
  if (answer.kind === 'listed') return listsEvent(places.env, answer, ownerEvent) ? answer.answer : undefined
  return routerFor(answer.agent, ownerEvent, places)
}

/** hookrun's entry for `agent` routing this event of the owner's to this very hookrun (a planted look-alike is not one). */
function routerFor(agent: string, ownerEvent: string, places: Places): string | undefined {
  const event = aliasFor(resolveAlias(ownerEvent) ?? ownerEvent, agent)
  if (event === undefined) return undefined
  const target = agentTarget(agent)!
  return (['project', 'user'] as const)
    .map((scope) => target.file(scope, places))
    .find((file) => answeredByThisHookrun(file, target.name).includes(event))
}

/** The agent other than the owner (default: any owner) that runs this entry, if the payload or environment tells one. */
export function entryCaller(payload: Payload, env: Env, owner?: string): EntryCaller | undefined {
  return CALLERS.find((caller) => (owner === undefined || caller.owner === owner) && caller.detect(payload, env))
}

/** Another answer of hookrun's own for this entry's event in the agent that runs it (then this one answers "no opinion"). */
export function answeredByCaller(
  ownerEvent: string,
  where: { readonly project: string; readonly env: Env },
  payload: Payload,
  owner?: string,
): { caller: EntryCaller; answer: string } | undefined {
  const caller = entryCaller(payload, where.env, owner)
  if (caller === undefined) return undefined
  const answer = ownAnswer(caller, ownerEvent, { ...where, home: homeOf(where.env) }, payload)
  return answer === undefined ? undefined : { caller, answer }
}

/** For doctor: a line naming every other agent that runs the owner's entries in `files`, and when. */
export function callerLines(owner: string, files: readonly string[]): Array<{ status: 'ok'; what: string }> {
  const callers = callersOf(owner)
  if (files.length === 0 || callers.length === 0) return []
  const label = agentNamed(owner)?.label ?? owner
  return [
    {
      status: 'ok',
      what: `${label}'s entries in ${files.join(' and ')} also run in ${callers.map((caller) => `${caller.label} (${caller.when})`).join(', ')}; --format ${owner} tells each apart and answers an event once where it runs hookrun's own answer too`,
    },
  ]
}
