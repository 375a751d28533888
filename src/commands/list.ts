// `hookrun list`: every configured hook with where it came from.
import { table } from '../core/table.ts'
import { relative } from 'node:path'
import { type FiredEvent, formatProblem, type Hook } from '../core/types.ts'
import { loadConfig } from '../config/parse.ts'
import { qualifyEvent } from '../event/event.ts'
import { withFolderHooks } from '../folders/hooks.ts'
import { selectionOf } from '../select/select.ts'
import type { ProjectTrust } from '../trust/trust.ts'
import { needsTrust } from '../core/types.ts'
import { projectRootOf } from '../core/types.ts'
import { type Paint, PLAIN } from '../core/paint.ts'
import type { CommandOptions } from './io.ts'

interface ListOptions extends CommandOptions {
  readonly event?: string
  readonly tool?: string
}

/** Every configured hook in run order, where it comes from, and (given an event) whether it runs. */
export async function listHooks(options: ListOptions): Promise<string> {
  const config = await withFolderHooks(loadConfig(options), { env: options.env })
  const event = options.event === undefined ? undefined : qualifyEvent(options.event, {}, options.tool)
  const untrusted = new Set(config.untrustedHooks)
  const all = [...config.hooks, ...config.untrustedHooks]
  // An untrusted hook that would have run says so; one that would not run anyway says that.
  const status = (hook: Hook, at: FiredEvent) => {
    const selection = selectionOf(hook, at)
    return untrusted.has(hook) && selection === 'matched' ? 'untrusted' : selection
  }
  const rows = all.map((hook) => ({
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
    // An agent's handler: the long name earlier versions showed, which still names it.
    ...(hook.identity !== undefined && { identity: hook.identity }),
    ...(hook.disabledBy !== undefined && { disabledBy: hook.disabledBy }),
    ...(untrusted.has(hook) && { trusted: false }),
    ...(event !== undefined && { status: status(hook, event) }),
  }))
  const shadowed = config.shadowed.map((hook) => ({
    name: hook.name,
    source: hook.source.layer,
    file: hook.source.file,
    shadowedBy: { source: hook.by.layer, file: hook.by.file },
  }))
  const skipped = config.discovery?.skipped ?? []
  if (options.json) {
    const trust = config.trust
    const json = {
      ...(event && { event: event.qualified }),
      files: config.files,
      ...(trust && { trust }),
      hooks: rows,
      shadowed,
      skipped,
      problems: config.problems,
    }
    return `${JSON.stringify(json, null, 2)}\n`
  }
  const paint = options.paint ?? PLAIN
  const lines: string[] = []
  if (all.length === 0 && config.shadowed.length === 0 && config.files.length === 0) {
    lines.push('no hooks found (user: ~/.config/hookrun/hooks.json and hooks/, project: .hookrun/hooks.json and hooks/, plugins)')
  }
  // Each project's files under its own trust (an enclosing project's too).
  const trustOf = (ref: (typeof config.files)[number]) =>
    config.trusts.find((trust) => trust.root === (projectRootOf(ref) ?? config.projectRoot)) ?? config.trust
  for (const ref of config.files)
    lines.push(`${ref.layer.padEnd(7)} ${ref.file}${needsTrust(ref.layer) ? `  (${trustLabel(trustOf(ref))})` : ''}`)
  if (all.length > 0) lines.push('')
  const table = all.map((hook) => [
    stateCell(
      event === undefined ? (untrusted.has(hook) ? 'untrusted' : hook.enabled ? 'on' : 'off') : statusLabel(hook, status(hook, event)),
      paint,
    ),
    hook.name,
    hook.event.join(','),
    paint.dim(where(hook, options.cwd)),
    hook.description ?? hook.command,
  ])
  const hidden = config.shadowed.map((hook) => [
    paint.dim('shadowed'),
    hook.name,
    '',
    paint.dim(where({ source: hook.source }, options.cwd)),
    paint.dim(`by ${where({ source: hook.by }, options.cwd)}`),
  ])
  lines.push(
    ...formatTable(
      (event === undefined ? ['STATE', 'NAME', 'EVENT', 'FROM', 'WHAT'] : ['RUNS', 'NAME', 'EVENT', 'FROM', 'WHAT']).map(paint.dim),
      [...table, ...hidden],
    ),
  )
  for (const file of skipped) lines.push(`${paint.warn('skipped:')} ${file.path}: ${file.why}`)
  for (const problem of config.problems)
    lines.push(`${(problem.severity === 'error' ? paint.bad : paint.warn)(`${problem.severity}:`)} ${formatProblem(problem)}`)
  for (const trust of config.trusts.filter((each) => !each.trusted)) {
    const why = trust.reason === 'changed' ? `changed since you trusted them (${trust.changed?.join(', ')})` : 'not trusted'
    const whose = trust.root === config.projectRoot ? 'project hooks' : `hooks of the enclosing project ${trust.root}`
    lines.push(paint.warn(`${whose} ${why}: they do not run. Review them, then run: ${trust.command}`))
  }
  return `${lines.join('\n')}\n`
}

function trustLabel(trust: ProjectTrust | undefined): string {
  if (trust?.trusted) return trust.via === 'folder' ? `trusted: trustedFolders '${trust.folder}'` : 'trusted'
  return trust?.reason === 'changed' ? 'changed since trusted: not run' : 'not trusted: not run'
}

/** `yes`/`on` green, `no` dim, switched off or untrusted yellow. */
function stateCell(state: string, paint: Paint): string {
  if (state === 'on' || state.startsWith('yes')) return paint.good(state)
  return state === 'no' ? paint.dim(state) : paint.warn(state)
}

function statusLabel(hook: Hook, status: ReturnType<typeof selectionOf> | 'untrusted'): string {
  if (status === 'matched') return hook.blocking ? 'yes' : 'yes (bg)'
  return status === 'disabled' || status === 'untrusted' ? status : 'no'
}

function where(hook: Pick<Hook, 'source' | 'disabledBy'>, cwd: string): string {
  const path = relative(cwd, hook.source.file)
  const shown = path.startsWith('..') ? hook.source.file : path
  const disabled = hook.disabledBy ? ` (off: ${relative(cwd, hook.disabledBy.file) || hook.disabledBy.file}#${hook.disabledBy.index})` : ''
  // An executable is a whole file; a hooks.json hook is an entry in one.
  return `${hook.source.layer} ${shown}${hook.source.executable ? '' : `#${hook.source.index}`}${disabled}`
}

/** Aligned columns (no width cap: a long name would push its row out of line). */
export function formatTable(header: string[], rows: string[][]): string[] {
  return rows.length === 0 ? [] : table([header, ...rows])
}
