// `hookrun events`: the event and tool alias tables for people.
import { CANONICAL_EVENTS, eventAliases } from '../event/events.ts'
import { toolSubjects } from '../event/tool-aliases.ts'
import { type Paint, PLAIN } from '../core/paint.ts'

/** `hookrun events --tools`: each canonical tool subject with every agent's name for it. */
export function formatTools(json: boolean, paint: Paint = PLAIN): string {
  const rows = toolSubjects()
  if (json) return `${JSON.stringify(rows, null, 2)}\n`
  const width = Math.max(...rows.map((row) => row.subject.length))
  return `${rows.map((row) => `${paint.strong(row.subject.padEnd(width))}  ${row.names.map((entry) => `${entry.name} ${paint.dim(`(${entry.from.join(', ')})`)}`).join(', ')}`).join('\n')}\n`
}

/** `hookrun events`: each canonical event with what it means and every alias, with who uses it. */
export function formatEvents(json: boolean, paint: Paint = PLAIN): string {
  const rows = CANONICAL_EVENTS.map((event) => ({
    ...event,
    aliases: eventAliases()
      .filter((alias) => alias.canonical === event.name)
      .map(({ alias, from }) => ({ alias, from })),
  }))
  if (json) return `${JSON.stringify(rows, null, 2)}\n`
  const width = Math.max(...rows.map((row) => row.name.length))
  const lines = rows.map((row) => {
    const flags = [row.gate ? 'gate' : '', row.canBlock ? 'can block' : ''].filter(Boolean).join(', ')
    const aliases = row.aliases.map((entry) => `${entry.alias} (${entry.from.join(', ')})`).join(', ')
    return `${paint.strong(row.name.padEnd(width))}  ${row.description}${flags ? ` ${paint.warn(`[${flags}]`)}` : ''}${aliases ? `\n${' '.repeat(width + 2)}${paint.dim(`aliases: ${aliases}`)}` : ''}`
  })
  return `${lines.join('\n')}\n`
}
