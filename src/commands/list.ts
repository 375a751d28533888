import { relative } from 'node:path'
import { formatProblem, type Hook, loadConfig } from '../config/load.ts'
import { qualifyEvent } from '../event.ts'
import { selectionOf } from '../select.ts'

export interface ListOptions {
  readonly event?: string
  readonly tool?: string
  readonly cwd: string
  readonly configFiles?: readonly string[]
  readonly env: Readonly<Record<string, string | undefined>>
  readonly json: boolean
}

/** Every configured hook in run order, where it comes from, and (given an event) whether it runs. */
export function listHooks(options: ListOptions): string {
  const config = loadConfig(options)
  const event = options.event === undefined ? undefined : qualifyEvent(options.event, {}, options.tool)
  const rows = config.hooks.map((hook) => ({
    name: hook.name,
    event: hook.event.join(','),
    command: hook.command,
    blocking: hook.blocking,
    timeout: hook.timeout,
    enabled: hook.enabled,
    source: hook.source.layer,
    file: hook.source.file,
    index: hook.source.index,
    ...(hook.description !== undefined && { description: hook.description }),
    ...(hook.disabledBy !== undefined && { disabledBy: hook.disabledBy }),
    ...(event !== undefined && { status: selectionOf(hook, event) }),
  }))
  if (options.json) {
    return `${JSON.stringify({ ...(event && { event: event.qualified }), files: config.files, hooks: rows, problems: config.problems }, null, 2)}\n`
  }
  const lines: string[] = []
  if (config.files.length === 0) lines.push('no hooks.json found (user: ~/.config/hookrun/hooks.json, project: .hookrun/hooks.json)')
  for (const ref of config.files) lines.push(`${ref.layer.padEnd(7)} ${ref.file}`)
  if (config.hooks.length > 0) lines.push('')
  const table = config.hooks.map((hook) => [
    event === undefined ? (hook.enabled ? 'on' : 'off') : statusLabel(hook, selectionOf(hook, event)),
    hook.name,
    hook.event.join(','),
    where(hook, options.cwd),
    hook.description ?? hook.command,
  ])
  lines.push(...formatTable(event === undefined ? ['STATE', 'NAME', 'EVENT', 'FROM', 'WHAT'] : ['RUNS', 'NAME', 'EVENT', 'FROM', 'WHAT'], table))
  for (const problem of config.problems) lines.push(`${problem.severity}: ${formatProblem(problem)}`)
  return `${lines.join('\n')}\n`
}

function statusLabel(hook: Hook, status: ReturnType<typeof selectionOf>): string {
  if (status === 'matched') return hook.blocking ? 'yes' : 'yes (bg)'
  return status === 'disabled' ? 'disabled' : 'no'
}

function where(hook: Hook, cwd: string): string {
  const path = relative(cwd, hook.source.file)
  const shown = path.startsWith('..') ? hook.source.file : path
  const disabled = hook.disabledBy ? ` (off: ${relative(cwd, hook.disabledBy.file) || hook.disabledBy.file}#${hook.disabledBy.index})` : ''
  return `${hook.source.layer} ${shown}#${hook.source.index}${disabled}`
}

function formatTable(header: string[], rows: string[][]): string[] {
  if (rows.length === 0) return []
  const all = [header, ...rows]
  const widths = header.map((_, column) => Math.min(40, Math.max(...all.map((row) => row[column]!.length))))
  return all.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd(),
  )
}
