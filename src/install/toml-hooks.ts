// Agents whose hooks are `[[hooks]]` tables in a TOML file (Kimi Code CLI): hookrun's tables read,
// added and removed as lines, so the rest of the user's file keeps every byte.
import { count } from '../core/words.ts'
import { type AgentName, type AgentTarget, isRouterCommand } from './agent-target.ts'
import { JsonTextError } from './json-text.ts'
import { type AgentFileResult, type AgentFiles, type OwnFormat, throughLink, uninstallOwnEntries } from './results.ts'

/** One `[[hooks]]` table: its lines (`start` inclusive, `end` exclusive) and the plain values it sets. */
interface HookTable {
  readonly start: number
  readonly end: number
  readonly fields: Readonly<Record<string, string | number>>
  /** The line that sets `command`. */
  readonly commandLine?: number
}

const TABLE = /^\s*\[\[\s*hooks\s*\]\]\s*(?:#.*)?$/
const HEADER = /^\s*\[/
const KEY_VALUE = /^\s*([A-Za-z0-9_-]+)\s*=\s*(.*?)\s*$/

/** A TOML basic string, literal string or integer; undefined for anything else (arrays, tables, …). */
function plainValue(raw: string): string | number | undefined {
  const basic = /^("(?:[^"\\]|\\.)*")\s*(?:#.*)?$/.exec(raw)
  if (basic !== null) {
    try {
      return JSON.parse(basic[1]!) as string
    } catch {
      return undefined
    }
  }
  const literal = /^'([^']*)'\s*(?:#.*)?$/.exec(raw)
  if (literal !== null) return literal[1]
  const integer = /^([+-]?\d+)\s*(?:#.*)?$/.exec(raw)
  return integer === null ? undefined : Number(integer[1])
}

/** The file's `[[hooks]]` tables. A top-level `hooks = …` (an inline array) is refused: hookrun adds tables. */
export function hookTables(text: string): HookTable[] {
  const lines = text.split('\n')
  const tables: HookTable[] = []
  let current: { start: number; fields: Record<string, string | number>; commandLine?: number } | undefined
  let topLevel = true
  const close = (end: number) => {
    if (current !== undefined) tables.push({ ...current, end })
    current = undefined
  }
  lines.forEach((line, index) => {
    if (TABLE.test(line)) {
      close(index)
      topLevel = false
      current = { start: index, fields: {} }
      return
    }
    if (HEADER.test(line)) {
      close(index)
      topLevel = false
      return
    }
    const pair = KEY_VALUE.exec(line)
    if (pair === null) return
    if (topLevel && pair[1] === 'hooks')
      throw new JsonTextError(`line ${index + 1}: "hooks" is set inline; hookrun adds [[hooks]] tables, so write the hooks as tables`)
    const value = plainValue(pair[2]!)
    if (current === undefined || value === undefined) return
    current.fields[pair[1]!] = value
    if (pair[1] === 'command') current.commandLine = index
  })
  close(lines.length)
  return tables
}

/** hookrun's tables for the agent (its router command). */
function routerTables(text: string, agent: AgentName): HookTable[] {
  return hookTables(text).filter((table) => isRouterCommand(table.fields.command, agent))
}

/** The event a table is for (Kimi: `event`, Vibe: `type`). */
function eventOf(table: HookTable, target: AgentTarget): string {
  return String(table.fields[target.tomlEventKey ?? 'event'])
}

function tableText(target: AgentTarget, event: string, command: string): string {
  const fields = target.tomlTable?.(event, command) ?? { event, command }
  // A TOML basic string takes JSON's escapes.
  const lines = Object.entries(fields).map(
    ([key, value]) => `${key} = ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
  )
  return `[[hooks]]\n${lines.join('\n')}\n`
}

/** One table for each of the agent's events that has none, and hookrun's tables pointed at `self` (this hookrun). */
function installToml(target: AgentTarget, file: string, self: string, files: AgentFiles): { lines: string[]; result: AgentFileResult } {
  let added: string[] = []
  let updated = 0
  let existed = false
  let removedEvents: string[] = []
  // Computed on the file's text, again if another program writes it meanwhile (src/install/agent-write.ts).
  const edited = files.edit(file, (before) => {
    existed = before !== undefined
    // hookrun's tables for events this shape does not have go (Vibe's names before 2.21, which 2.21 refuses).
    const stale = routerTables(before ?? '', target.name).filter((table) => !target.events.includes(eventOf(table, target)))
    removedEvents = [...new Set(stale.map((table) => eventOf(table, target)))]
    const kept = stale.length === 0 ? (before ?? '') : withoutTables(before!, stale)
    const tables = routerTables(kept, target.name)
    const lines = kept.split('\n')
    updated = 0
    for (const table of tables) {
      const command = target.command(self, eventOf(table, target))
      if (table.fields.command === command || table.commandLine === undefined) continue
      lines[table.commandLine] = `command = ${JSON.stringify(command)}`
      updated++
    }
    let text = lines.join('\n')
    const routed = new Set(tables.map((table) => eventOf(table, target)))
    added = target.events.filter((event) => !routed.has(event))
    for (const event of added) {
      if (text !== '' && !text.endsWith('\n')) text += '\n'
      if (text !== '' && !text.endsWith('\n\n')) text += '\n'
      text += tableText(target, event, target.command(self, event))
    }
    return added.length === 0 && updated === 0 && stale.length === 0 ? undefined : text
  })
  const status = added.length === 0 && updated === 0 && removedEvents.length === 0 ? 'unchanged' : existed ? 'updated' : 'created'
  const out =
    status === 'unchanged'
      ? [`${target.name}: already installed in ${file} (${target.events.length} events)`]
      : [
          `${target.name}: ${status} ${file}${throughLink(edited)}: ${count(added.length, 'event')} added${updated > 0 ? `, ${count(updated, 'entry', 'entries')} pointed at this hookrun` : ''}${removedEvents.length > 0 ? `, hookrun's ${removedEvents.join(', ')} removed` : ''}`,
          `  command: ${target.command(self, target.events[0]!)}`,
          `  events:  ${target.events.join(', ')}`,
          ...(target.note === undefined ? [] : [`  note: ${target.note}`]),
        ]
  const notes = out.slice(1).flatMap((line) => (line.startsWith('  note: ') ? [line.slice(8)] : []))
  return {
    lines: out,
    result: {
      agent: target.name,
      file,
      status,
      eventsAdded: added,
      eventsRemoved: removedEvents,
      events: target.events,
      entriesUpdated: updated,
      notes,
      warnings: [],
    },
  }
}

export const TOML: OwnFormat = {
  routers: (text, target) =>
    routerTables(text, target.name).map((table) => ({ event: eventOf(table, target), command: String(table.fields.command) })),
  install: (target, file, self, _chosen, _narrowing, files) => installToml(target, file, self, files),
  /** hookrun's tables taken out, every other line kept; a file install created that is left empty goes. */
  uninstall: (target, file, env, files) =>
    uninstallOwnEntries<HookTable>(
      target.name,
      file,
      env,
      files,
      (text) => {
        const ours = routerTables(text ?? '', target.name)
        const left = withoutTables(text ?? '', ours)
        return { ours, text: left, empty: left.trim() === '' }
      },
      (table) => eventOf(table, target),
    ),
}

/** The text without these tables: each one's own lines (not the blank ones after it), and the blank line install put before it. */
function withoutTables(text: string, tables: readonly HookTable[]): string {
  const lines = text.split('\n')
  const gone = new Set<number>()
  for (const table of tables) {
    let end = table.end
    while (end > table.start + 1 && lines[end - 1]!.trim() === '') end--
    for (let line = table.start; line < end; line++) gone.add(line)
    if (table.start > 0 && lines[table.start - 1]!.trim() === '') gone.add(table.start - 1)
  }
  return lines.filter((_, index) => !gone.has(index)).join('\n')
}
