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
 * An agent that runs another's hook entries with a payload of its own (shared reference §10.14).
 * The owner's `--format` tells it from the owner by what it sends; where the caller also runs an
 * answer of hookrun's own for the same event (its own router entry, or `hookrunHooks()` in an SDK
 * app), the owner's entry gives no opinion, so the hooks run once per tool call.
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

/**
 * hookrun's router entry for `agent` (in the project's file, or the user's) that routes this
 * event of the owner's to this very hookrun, if any (a look-alike a repository planted is not one).
 */
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

/**
 * Does another answer of hookrun's own cover this entry's event in the agent that runs it? Then
 * this entry answers "no opinion" without running the hooks a second time. Returns the caller and
 * where its answer is.
 */
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

/**
 * For `hookrun doctor`: one line naming every agent besides the owner that runs hookrun's entries
 * of the owner's in `files`, and when (none when there are no such entries).
 */
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
