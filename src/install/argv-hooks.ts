// Deep Agents Code's ~/.deepagents/hooks.json (`{hooks: [{command: [argv…], events: [names]}]}`,
// docs.langchain.com/oss/python/deepagents/code/hooks): hookrun's entries, one per event, after the
// user's own, which are kept as they are; removed by uninstall, the file with them when install
// made it and nothing of the user's is left. Its command runs without a shell: an argv list.
import { shellQuote } from '../core/shell.ts'
import { agentTarget } from './agents.ts'
import { type AgentName, type AgentTarget, isRouterCommand } from './agent-target.ts'
import { type Entry, entriesOf } from './hook-list-read.ts'
import { installedLines } from './own-file-lines.ts'
import { type AgentFileResult, type AgentFiles, uninstallOwnEntries } from './results.ts'
import { plainWords } from './router-program.ts'

/** An argv list as the shell line it stands for (plain words stay as they are). */
function lineOf(argv: unknown): string | undefined {
  return Array.isArray(argv) && argv.every((word) => typeof word === 'string') ? argv.map((word) => shellQuote(word)).join(' ') : undefined
}

function isRouter(entry: Entry, agent: AgentName): boolean {
  return isRouterCommand(lineOf(entry.command), agent)
}

/** The event of one of hookrun's entries (it names one). */
function eventOf(entry: Entry): string {
  return Array.isArray(entry.events) && typeof entry.events[0] === 'string' ? entry.events[0] : ''
}

/** The router's command as the argv list the agent runs: the words of the command install made, else `sh -c` with it. */
function argvOf(command: string): string[] {
  return plainWords(command) ?? ['sh', '-c', command]
}

/** The file's text with the root's other keys kept and `hooks` set. */
function textOf(before: string | undefined, entries: readonly Entry[]): string {
  const root = before === undefined ? {} : (JSON.parse(before) as Record<string, unknown>)
  return `${JSON.stringify({ ...root, hooks: entries }, null, 2)}\n`
}

/** hookrun's entries for the events chosen, after the user's own; the file rewritten only when that changes it. */
export function installArgvFile(
  target: AgentTarget,
  file: string,
  self: string,
  chosen: ReadonlySet<string> | undefined,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
  const events = target.events.filter((event) => chosen === undefined || chosen.has(event))
  let found = { existed: false, events, added: [] as string[], removed: [] as string[] }
  const edited = files.edit(file, (before) => {
    const entries = before === undefined ? [] : entriesOf(before, target)
    const routed = new Set(entries.filter((entry) => isRouter(entry, target.name)).map(eventOf))
    const own = entries.filter((entry) => !isRouter(entry, target.name))
    found = {
      existed: before !== undefined,
      events,
      added: events.filter((event) => !routed.has(event)),
      removed: [...routed].filter((event) => !events.includes(event)),
    }
    const ours = events.map((event) => {
      const handler = target.handler(target.command(self, event), event)
      return { ...handler, command: argvOf(String(handler.command)) }
    })
    const text = textOf(before, [...own, ...ours])
    return text === before ? undefined : text
  })
  return installedLines(target, file, self, edited, found)
}

/** hookrun's entries out; the file goes when install created it and nothing of the user's is in it. */
export function uninstallArgvFile(
  target: AgentTarget,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  files: AgentFiles,
): { lines: string[]; result: AgentFileResult } {
  return uninstallOwnEntries(
    target.name,
    file,
    env,
    files,
    (text) => {
      const entries = text === undefined ? [] : entriesOf(text, target)
      const left = entries.filter((entry) => !isRouter(entry, target.name))
      const root = text === undefined ? {} : (JSON.parse(text) as Record<string, unknown>)
      return {
        ours: entries.filter((entry) => isRouter(entry, target.name)),
        text: textOf(text, left),
        empty: left.length === 0 && Object.keys(root).every((key) => key === 'hooks'),
      }
    },
    eventOf,
  )
}

/** The events of hookrun's entries in the file's text (none when it is not a file install could edit). */
export function routedEventsArgv(text: string, agent: AgentName): string[] {
  try {
    const target = agentTarget(agent)
    if (target === undefined) return []
    return [...new Set(entriesOf(text, target).flatMap((entry) => (isRouter(entry, agent) ? [eventOf(entry)] : [])))]
  } catch {
    return []
  }
}

/** The commands of hookrun's entries, as shell lines. */
export function routerCommandsArgv(text: string, agent: AgentName): string[] {
  try {
    const target = agentTarget(agent)
    if (target === undefined) return []
    return [...new Set(entriesOf(text, target).flatMap((entry) => (isRouter(entry, agent) ? [lineOf(entry.command)!] : [])))]
  } catch {
    return []
  }
}
