// `hookrun scan [DIR]`: every hook the project makes an agent run, as a table or JSON (docs/scan.md);
// exit 3 when any is foreign, or a file cannot be read and might hold one.
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { z } from 'zod'
import { HookrunError } from '../core/errors.ts'
import { shellQuote } from '../core/shell.ts'
import { type Paint, PLAIN } from '../core/paint.ts'
import { table } from '../core/table.ts'
import { count } from '../core/words.ts'
import { SCAN_FLAGS } from '../install/scan-flags.ts'
import { type ScannedFile, type ScanReport, scanProject } from '../install/scan.ts'
import type { CommandOptions } from './io.ts'

/** Exit code of `hookrun scan` when the project holds a foreign hook or a file it cannot read (docs/guarantees.md "Exit codes"). */
export const FOREIGN_HOOKS_EXIT = 3

const Hook = z.strictObject({
  event: z.string(),
  matcher: z.string().optional(),
  kind: z.enum(['command', 'http', 'prompt', 'mcp', 'executable', 'plugin', 'package']),
  runs: z.string(),
  own: z.boolean(),
  flags: z.array(z.enum(SCAN_FLAGS)),
  at: z.string(),
  note: z.string().optional(),
})

/** What `hookrun scan --json` prints (docs/scan.md "JSON"): version 1 of this shape. */
export const ScanJson = z.strictObject({
  scan: z.literal(1),
  project: z.string(),
  foreign: z.number().int(),
  own: z.number().int(),
  unreadable: z.number().int(),
  exitCode: z.union([z.literal(0), z.literal(FOREIGN_HOOKS_EXIT)]),
  git: z.union([z.literal('asked'), z.string().startsWith('unknown: ')]),
  files: z.array(
    z.strictObject({
      file: z.string(),
      agents: z.array(z.string()),
      tracked: z.union([z.boolean(), z.literal('unknown')]),
      problem: z.string().optional(),
      import: z.string().optional(),
      hooks: z.array(Hook),
    }),
  ),
  looked: z.array(z.strictObject({ agent: z.string(), label: z.string(), files: z.array(z.string()), note: z.string().optional() })),
})

interface ScanOptions extends CommandOptions {
  /** The folder given on the command line (`hookrun scan DIR` or `--cwd DIR`), for the import command printed. */
  readonly given?: string
}

/** The command that moves a file's foreign hooks under hookrun, when `hookrun import` reads that file. */
function importCommand(file: ScannedFile, given: string | undefined): string | undefined {
  if (file.importAgent === undefined || file.problem !== undefined || !file.hooks.some((hook) => !hook.own && hook.kind === 'command'))
    return undefined
  return `hookrun import --agent ${file.importAgent} --project${given === undefined ? '' : ` --cwd ${shellQuote(given)}`}`
}

export function scanCommand(options: ScanOptions): { output: string; exitCode: number } {
  const project = resolve(options.cwd)
  if (!statSync(project, { throwIfNoEntry: false })?.isDirectory()) throw new HookrunError(`scan ${options.cwd}: no such folder`)
  const report = scanProject(project, options.env)
  const hooks = report.files.flatMap((file) => file.hooks)
  const foreign = hooks.filter((hook) => !hook.own).length
  const unreadable = report.files.filter((file) => file.problem !== undefined).length
  const exitCode = foreign > 0 || unreadable > 0 ? FOREIGN_HOOKS_EXIT : 0
  if (options.json) {
    const json = ScanJson.parse({
      scan: 1,
      project: report.project,
      foreign,
      own: hooks.length - foreign,
      unreadable,
      exitCode,
      git: report.gitUnknown === undefined ? 'asked' : `unknown: ${report.gitUnknown}`,
      files: report.files.map((file) => {
        const command = importCommand(file, options.given)
        const { importAgent: _, ...rest } = file
        return { ...rest, agents: [...file.agents], ...(command !== undefined && { import: command }) }
      }),
      looked: report.looked.map((each) => ({ ...each, files: [...each.files] })),
    })
    return { output: `${JSON.stringify(json, null, 2)}\n`, exitCode }
  }
  const shown = { ...report, files: report.files.map(visibleFile) }
  return { output: renderScan(shown, options.paint ?? PLAIN, options.given, { foreign, unreadable }), exitCode }
}

/** A file with a foreign hook or a problem: each foreign hook a row (event, matcher, what it runs, flags). */
function renderFile(file: ScannedFile, paint: Paint, given: string | undefined): string[] {
  const tracked = file.tracked === false ? ', not tracked by git' : ''
  const lines = [`${paint.strong(file.file)}${paint.dim(` (runs in: ${file.agents.join(', ')}${tracked})`)}`]
  if (file.problem !== undefined) {
    lines.push(
      `  ${paint.bad('unreadable')}: ${file.problem}; the agents skip what they cannot parse, so what it would run is unknown: fix or remove it`,
    )
    return lines
  }
  const foreign = file.hooks.filter((hook) => !hook.own)
  const rows = foreign.map((hook) => [
    `  ${paint.bad('foreign')}`,
    hook.event,
    hook.matcher ?? paint.dim('(any)'),
    oneLine(hook.runs),
    paint.warn(hook.flags.join(' ')),
  ])
  lines.push(...table(rows))
  for (const hook of foreign) if (hook.note !== undefined) lines.push(paint.dim(`  note (${hook.at}): ${hook.note}`))
  const own = file.hooks.length - foreign.length
  if (own > 0) lines.push(`  ${paint.good("and hookrun's own")}: ${count(own, 'router entry', 'router entries')}`)
  const command = importCommand(file, given)
  if (command !== undefined) lines.push(`  to run them under hookrun's trust: ${command} && hookrun trust`)
  else
    lines.push(
      paint.dim(
        '  hookrun import does not read this file: review it, and move what it runs into .hookrun/hooks.json by hand, or delete it',
      ),
    )
  return lines
}

/** A command on one line, at most 100 characters. */
function oneLine(text: string): string {
  return text.length > 100 ? `${text.slice(0, 99)}…` : text
}

/** Project text for a terminal: control characters (a hostile escape sequence) written out as \xNN. */
function visible(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it escapes
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

/** The report with every text a file gave made visible (a command's lines joined with ⏎). */
function visibleFile(file: ScannedFile): ScannedFile {
  return {
    ...file,
    file: visible(file.file),
    ...(file.problem !== undefined && { problem: visible(file.problem) }),
    hooks: file.hooks.map((hook) => ({
      ...hook,
      event: visible(hook.event),
      ...(hook.matcher !== undefined && { matcher: visible(hook.matcher) }),
      runs: visible(hook.runs.replace(/\s*\n\s*/g, ' ⏎ ')),
      at: visible(hook.at),
      ...(hook.note !== undefined && { note: visible(hook.note) }),
    })),
  }
}

function renderScan(report: ScanReport, paint: Paint, given: string | undefined, counts: { foreign: number; unreadable: number }): string {
  const lines: string[] = [`hookrun scan: ${report.project} (read only: nothing in it was run)`, '']
  const flagged = report.files.filter((file) => file.problem !== undefined || file.hooks.some((hook) => !hook.own))
  for (const file of flagged) lines.push(...renderFile(file, paint, given), '')
  const ownOnly = report.files.filter((file) => !flagged.includes(file))
  if (ownOnly.length > 0) {
    const rows = ownOnly.map((file) => {
      const events = [...new Set(file.hooks.map((hook) => hook.event))]
      const kind = file.hooks[0]?.kind
      const what =
        file.hooks.length === 0
          ? 'no hooks'
          : kind === 'plugin' || kind === 'executable'
            ? `hookrun's ${kind === 'plugin' ? 'plugin' : 'wrapper'}`
            : count(file.hooks.length, 'router entry', 'router entries')
      return [`  ${file.file}`, what, paint.dim(`${events.length === 1 ? `${events[0]}, ` : ''}runs in: ${file.agents.join(', ')}`)]
    })
    lines.push(paint.good("hookrun's own:"), ...table(rows), '')
  }
  if (report.files.length === 0) lines.push('no agent reads a hook file here', '')
  const own = report.files.flatMap((file) => file.hooks).filter((hook) => hook.own).length
  const summary = [
    `${count(report.files.length, 'file')}`,
    `${counts.foreign} foreign ${counts.foreign === 1 ? 'hook' : 'hooks'}`,
    `${own} of hookrun's own`,
    ...(counts.unreadable > 0 ? [`${counts.unreadable} unreadable`] : []),
  ].join(', ')
  lines.push(counts.foreign > 0 || counts.unreadable > 0 ? paint.bad(summary) : paint.good(summary))
  if (report.gitUnknown !== undefined) lines.push(paint.dim(`git: unknown (${report.gitUnknown}): no hook is flagged untracked`))
  lines.push('', paint.dim('looked at, per agent:'))
  for (const each of report.looked)
    lines.push(paint.dim(`  ${each.label}: ${each.files.length === 0 ? (each.note ?? 'no project file') : each.files.join(' ')}`))
  return `${lines.join('\n')}\n`
}
