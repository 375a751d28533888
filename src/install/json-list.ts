// Agents' JSON hooks files whose entries are a list, the user's own kept: `hook-list`, a file of hookrun's own whose entries name their
// trigger (Kiro CLI v3), and `argv-list` (Deep Agents Code's `{hooks: [{command: [argv…], events}]}`, run without a shell).
import { shellQuote } from '../core/shell.ts'
import type { AgentTarget } from './agent-target.ts'
import { isRouterCommand } from './agent-target.ts'
import { JsonTextError } from './json-text.ts'
import { type AgentFileResult, type AgentFiles, installedLines, type Narrowing, type OwnFormat, uninstallOwnEntries } from './results.ts'
import { plainWords } from './router-program.ts'

type Entry = Record<string, unknown>

/** How one list format tells hookrun's entries apart and writes them. */
interface ListKind {
  /** An entry's command as a shell line (undefined: none). */
  command(entry: Entry): string | undefined
  /** The event an entry of hookrun's is for. */
  event(entry: Entry): unknown
  /** hookrun's entry for an event, from the target's handler. */
  entry(handler: Record<string, unknown>): Entry
  /** The root the entries are written under (the target's header, or the file's other keys). */
  root(target: AgentTarget, before: string | undefined): Entry
}

const HOOK_LIST_KIND: ListKind = {
  command: (entry) => {
    const action = entry.action as Entry | undefined
    return typeof action === 'object' && action !== null && typeof action.command === 'string' ? action.command : undefined
  },
  event: (entry) => entry.trigger,
  entry: (handler) => handler,
  root: (target) => target.header,
}

const ARGV_KIND: ListKind = {
  // An argv list as the shell line it stands for (plain words stay as they are).
  command: ({ command }) =>
    Array.isArray(command) && command.every((word) => typeof word === 'string')
      ? command.map((word) => shellQuote(word)).join(' ')
      : undefined,
  event: ({ events }) => (Array.isArray(events) && typeof events[0] === 'string' ? events[0] : ''),
  // The words of the command install made, else `sh -c` with it.
  entry: (handler) => ({ ...handler, command: plainWords(String(handler.command)) ?? ['sh', '-c', String(handler.command)] }),
  root: (_target, before) => (before === undefined ? {} : (JSON.parse(before) as Entry)),
}

/** The file's `hooks` list; a file that is not `{version, hooks: [...]}` with the header's version (where it has one) is refused. */
function entriesOf(text: string, target: Pick<AgentTarget, 'label' | 'header'>): Entry[] {
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (error) {
    throw new JsonTextError(`is not JSON (${(error as Error).message})`)
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new JsonTextError('is not a JSON object')
  const { version, hooks } = root as Record<string, unknown>
  const wanted = target.header.version
  if (wanted !== undefined && version !== undefined && version !== wanted)
    throw new JsonTextError(`has version ${JSON.stringify(version)}; hookrun writes ${target.label}'s ${JSON.stringify(wanted)}`)
  if (hooks === undefined) return []
  if (!Array.isArray(hooks) || hooks.some((entry) => typeof entry !== 'object' || entry === null || Array.isArray(entry)))
    throw new JsonTextError(`"hooks" is not a list of objects, as ${target.label} expects`)
  return hooks as Entry[]
}

function listFormat(kind: ListKind): OwnFormat {
  const isRouter = (entry: Entry, target: AgentTarget) => isRouterCommand(kind.command(entry), target.name)
  const textOf = (target: AgentTarget, before: string | undefined, entries: readonly Entry[]) =>
    `${JSON.stringify({ ...kind.root(target, before), hooks: entries }, null, 2)}\n`
  return {
    routers: (text, target) =>
      entriesOf(text, target).flatMap((entry) =>
        isRouter(entry, target) ? [{ event: kind.event(entry), command: kind.command(entry)! }] : [],
      ),
    /** hookrun's entries for the events chosen (or narrowed to), after the user's own; the file rewritten only when that changes it. */
    install(target, file, self, chosen, narrowing: Narrowing | undefined, files: AgentFiles): { lines: string[]; result: AgentFileResult } {
      const native = kind === HOOK_LIST_KIND ? narrowing?.native : undefined
      const events = target.events.filter(
        (event) => (chosen === undefined || chosen.has(event)) && (native === undefined || native.has(event)),
      )
      let found = { existed: false, events, added: [] as string[], removed: [] as string[] }
      const edited = files.edit(file, (before) => {
        const entries = before === undefined ? [] : entriesOf(before, target)
        const routed = new Set(entries.filter((entry) => isRouter(entry, target)).map((entry) => String(kind.event(entry))))
        const own = entries.filter((entry) => !isRouter(entry, target))
        found = {
          existed: before !== undefined,
          events,
          added: events.filter((event) => !routed.has(event)),
          removed: [...routed].filter((event) => !events.includes(event)),
        }
        const ours = events.map((event) => kind.entry(target.handler(target.command(self, event), event)))
        const text = textOf(target, before, [...own, ...ours])
        return text === before ? undefined : text
      })
      return installedLines(
        target,
        file,
        self,
        edited,
        found,
        native === undefined ? undefined : target.events.length - events.length,
        kind === ARGV_KIND,
      )
    },
    /** hookrun's entries out; the file goes (with the folders install made for it) when install created it and nothing of the user's is in it. */
    uninstall: (target, file, env, files) =>
      uninstallOwnEntries(
        target.name,
        file,
        env,
        files,
        (text) => {
          const entries = text === undefined ? [] : entriesOf(text, target)
          const left = entries.filter((entry) => !isRouter(entry, target))
          const root = kind.root(target, text)
          return {
            ours: entries.filter((entry) => isRouter(entry, target)),
            text: textOf(target, text, left),
            empty: left.length === 0 && (kind === HOOK_LIST_KIND || Object.keys(root).every((key) => key === 'hooks')),
          }
        },
        (entry) => String(kind.event(entry)),
      ),
  }
}

export const HOOK_LIST = listFormat(HOOK_LIST_KIND)
export const ARGV_LIST = listFormat(ARGV_KIND)
