import { existsSync, readFileSync } from 'node:fs'
import { aliasFor, resolveAlias } from '../event/events.ts'
import { agentTarget } from './agents.ts'
import { type AgentName, hooksPathOf, isRouterCommand, type Places, type Scope, targetForFile } from './agent-target.ts'
import type { Node } from 'jsonc-parser'
import { child, keysOf, nodeAt, nodeValue, parseJson } from './json-text.ts'
import { isServeHandler } from './serve-entries.ts'
import { homeOf } from '../core/places.ts'
import { ownRoutedEvents } from './own-formats.ts'
import { runsThisHookrun } from './router-program.ts'
import { AGENTS, callersOf } from '../agents/registry.ts'
import { SERVED_AGENTS } from '../serve/served.ts'

/** Agents that also run hooks in another agent's files (`Caller.files`: Cursor runs Claude Code's), so hookrun in both answers twice. */
interface ForeignRead {
  readonly reader: AgentName
  readonly owner: AgentName
  /** The owner's files the reader runs, each with the scope it has for the reader. */
  files(places: Places): ReadonlyArray<{ readonly file: string; readonly scope: Scope }>
  /** Does this payload come from the reader running the owner's entry? */
  runningUnder(payload: Readonly<Record<string, unknown>>): boolean
  readonly source: string
}

export const FOREIGN_READS: readonly ForeignRead[] = AGENTS.flatMap((owner) =>
  callersOf(owner.name).flatMap(({ name, files, detect, source }) =>
    files === undefined
      ? []
      : [
          {
            reader: name as AgentName,
            owner: owner.name as AgentName,
            files,
            // From the payload alone: a variable may be inherited from the terminal the owner started in.
            runningUnder: (payload: Readonly<Record<string, unknown>>) => detect(payload, {}),
            source,
          },
        ],
  ),
)

/**
 * "No double firing": hookrun's entry in the owner's file (Claude Code's), run by the reader (Cursor), answers "no opinion" when the
 * reader's own file has hookrun's entry for the event too. Returns that file, or undefined when this call must run the hooks.
 */
export function answeredByReaderEntry(
  owner: string,
  ownerEvent: string,
  where: { readonly project: string; readonly env: Places['env'] },
  payload: Readonly<Record<string, unknown>>,
): { reader: AgentName; file: string } | undefined {
  const places = { ...where, home: homeOf(where.env) }
  for (const read of FOREIGN_READS) {
    if (read.owner !== owner || !read.runningUnder(payload)) continue
    const event = aliasFor(resolveAlias(ownerEvent) ?? ownerEvent, read.reader)
    if (event === undefined) continue
    const target = agentTarget(read.reader)!
    for (const scope of ['project', 'user'] as const) {
      const file = target.file(scope, places)
      if (answeredByThisHookrun(file, read.reader).includes(event)) return { reader: read.reader, file }
    }
  }
  return undefined
}

/** hookrun's entries in one agent's file that another agent runs too. */
interface Overlap {
  readonly reader: AgentName
  readonly owner: AgentName
  /** The owner's file with hookrun entries that the reader runs. */
  readonly file: string
  readonly scope: Scope
  /** The reader's events those entries already answer (in the reader's spelling). */
  readonly events: readonly string[]
  /** The reader's own files holding hookrun entries for the same events: the double firing. */
  readonly twice: ReadonlyArray<{ readonly file: string; readonly events: readonly string[] }>
  readonly source: string
}

/** Every place hookrun would answer an event twice (or would, `twice` empty, once the reader is installed too): install, explain, doctor. */
export function findOverlaps(places: Places): Overlap[] {
  const overlaps: Overlap[] = []
  for (const read of FOREIGN_READS) {
    const readerTarget = agentTarget(read.reader)!
    // When the home is the project (as in a test), the user's files are the project's: one each.
    const readerFiles = [...new Set((['project', 'user'] as const).map((scope) => readerTarget.file(scope, places)))]
    const seen = new Set<string>()
    for (const { file, scope } of read.files(places)) {
      if (seen.has(file)) continue
      seen.add(file)
      const events = routedEvents(file, read.owner)
        .map((event) => aliasFor(resolveAlias(event) ?? event, read.reader))
        .filter((event): event is string => event !== undefined && readerTarget.events.includes(event))
      if (events.length === 0) continue
      const twice = readerFiles
        .map((readerFile) => ({
          file: readerFile,
          events: routedEvents(readerFile, read.reader).filter((event) => events.includes(event)),
        }))
        .filter((entry) => entry.events.length > 0)
      overlaps.push({ reader: read.reader, owner: read.owner, file, scope, events: [...new Set(events)], twice, source: read.source })
    }
  }
  return overlaps
}

/** The events of an agent's file that hold a hookrun router entry for that agent. */
export function routedEvents(file: string, agent: AgentName): string[] {
  const given = agentTarget(agent)
  const target = given === undefined ? undefined : targetForFile(given, file)
  if (target?.format !== undefined) return ownRoutedEvents(file, target)
  const at = target === undefined ? ['hooks'] : hooksPathOf(target)
  return existsSync(file) ? routedEventsIn(readFileSync(file, 'utf8'), agent, at) : []
}

/**
 * The events of an agent's JSON file that an entry of this very hookrun answers, as install writes it (router-program.ts), with no
 * `env` or `cwd`: only such an entry may let a Claude Code entry stand aside, never a repository's look-alike.
 */
export function answeredByThisHookrun(file: string, agent: AgentName): string[] {
  const given = agentTarget(agent)
  if (given === undefined || !existsSync(file)) return []
  let root: Node
  try {
    root = parseJson(readFileSync(file, 'utf8'), true)
  } catch {
    return []
  }
  const at = hooksPathOf(targetForFile(given, file))
  const plain = (node: Node | undefined) => child(node, 'env') === undefined && child(node, 'cwd') === undefined
  const ours = (node: Node | undefined, event: string) => {
    const command = child(node, 'command')?.value ?? child(node, 'bash')?.value
    return (
      plain(node) &&
      isRouterCommand(command, agent) &&
      String(command).endsWith(given.command('', event)) &&
      runsThisHookrun(String(command))
    )
  }
  return keysOf(nodeAt(root, at)).filter((event) =>
    (nodeAt(root, [...at, event])?.children ?? []).some(
      (item) => ours(item, event) || (plain(item) && (child(item, 'hooks')?.children ?? []).some((handler) => ours(handler, event))),
    ),
  )
}

/** The same for a file's text (`hookrun import` asks before it writes); `at`: where its event map is. */
export function routedEventsIn(text: string, agent: AgentName, at: readonly string[] = ['hooks']): string[] {
  let root: Node
  try {
    root = parseJson(text, true)
  } catch {
    return [] // not JSON: install and doctor report that file on their own
  }
  const hooks = nodeAt(root, at)
  return keysOf(hooks).filter((event) => {
    const list = nodeAt(root, [...at, event])
    return (list?.children ?? []).some((item) => {
      const served = SERVED_AGENTS.some((each) => each.name === agent)
      if (isRouterCommand(child(item, 'command')?.value ?? child(item, 'bash')?.value, agent)) return true
      if (served && isServeHandler(nodeValue(item))) return true
      return (child(item, 'hooks')?.children ?? []).some(
        (handler) => isRouterCommand(child(handler, 'command')?.value, agent) || (served && isServeHandler(nodeValue(handler))),
      )
    })
  })
}

/** One line per overlap, for `explain` and `doctor`. */
export function describeOverlap(overlap: Overlap): string {
  const reader = agentTarget(overlap.reader)!.label
  const owner = agentTarget(overlap.owner)!.label
  const where = overlap.twice.map((entry) => entry.file).join(' and ')
  const own = new Set(overlap.twice.flatMap((entry) => entry.events))
  const only = overlap.events.filter((event) => !own.has(event))
  return only.length === 0
    ? `${reader} runs hookrun's ${owner} entries in ${overlap.file} and its own in ${where}: the ${owner} entry answers "no opinion" there, so hooks run once (${overlap.source})`
    : `${reader} answers ${only.join(', ')} only through hookrun's ${owner} entries in ${overlap.file}, which it runs only with its third-party hooks setting on: without it those gates do not run in ${reader} (${overlap.source})`
}
