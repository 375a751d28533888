// `hookrun log` and `hookrun log verify`: the audit log read for people, and its chain checked.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { verifyChain } from '../audit/chain.ts'
import { loadConfig } from '../config/parse.ts'
import { ExitCode, HookrunError } from '../core/errors.ts'
import { PLAIN } from '../core/paint.ts'
import { table } from '../core/table.ts'
import { count } from '../core/words.ts'
import type { CommandOptions } from './io.ts'

interface LogOptions extends CommandOptions {
  /** The log to read instead of the configured one. */
  readonly file?: string
  /** `30m`, `2h`, `7d`, or a date/time (ISO 8601). */
  readonly since?: string
  readonly decision?: string
  readonly agent?: string
  readonly now?: Date
}

/** One audit line as `hookrun log` shows it (the fields of src/audit/audit.ts it reads). */
interface AuditRecord {
  readonly time?: string
  readonly agent?: string
  readonly event?: string
  readonly decision?: string
  readonly decidedBy?: string
  readonly reason?: string
}

/** The log named by --file, else the `log` setting of the config (managed, user or --config). */
function logFile(options: LogOptions): string {
  if (options.file !== undefined) return resolve(options.cwd, options.file)
  const { settings } = loadConfig({ cwd: options.cwd, env: options.env, configFiles: options.configFiles })
  if (settings.log === undefined)
    throw new HookrunError('no audit log is configured: add "log": {"path": "…"} to your user config, or name one with --file')
  return settings.log.path
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new HookrunError(`cannot read the audit log ${file}: ${(error as Error).message}`)
  }
}

const DURATION = /^(\d+)\s*(s|m|h|d)$/
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/** `--since`: a duration back from now, or a point in time. */
export function sinceTime(since: string, now: Date): number {
  const duration = DURATION.exec(since.trim())
  if (duration) return now.getTime() - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS]
  const time = Date.parse(since)
  if (Number.isNaN(time))
    throw new HookrunError(`--since '${since}': expected a duration such as 30m, 2h or 7d, or a date such as 2026-11-01T09:00`)
  return time
}

const DECISIONS = new Set(['allow', 'deny', 'ask'])

/** The lines that pass the filters, as a table for people or as JSON. */
export function showLog(options: LogOptions): string {
  if (options.decision !== undefined && !DECISIONS.has(options.decision)) {
    throw new HookrunError(`--decision '${options.decision}': expected allow, deny or ask`)
  }
  const since = options.since === undefined ? undefined : sinceTime(options.since, options.now ?? new Date())
  const file = logFile(options)
  const records: AuditRecord[] = []
  for (const line of readLog(file).split('\n')) {
    if (line.trim() === '') continue
    let record: AuditRecord
    try {
      record = JSON.parse(line) as AuditRecord
    } catch {
      continue // `hookrun log verify` reports damaged lines; the table shows what it can read
    }
    if (since !== undefined && !(Date.parse(record.time ?? '') >= since)) continue
    if (options.decision !== undefined && record.decision !== options.decision) continue
    if (options.agent !== undefined && record.agent !== options.agent) continue
    records.push(record)
  }
  if (options.json) return `${JSON.stringify(records, null, 2)}\n`
  if (records.length === 0) return `no matching lines in ${file}\n`
  const paint = options.paint ?? PLAIN
  const decisionCell = (decision: string | undefined) =>
    (decision === 'deny' ? paint.bad : decision === 'ask' ? paint.warn : decision === 'allow' ? paint.good : paint.dim)(decision ?? '-')
  const rows = records.map((record) => [
    paint.dim((record.time ?? '').replace(/\.\d+Z$/, 'Z')),
    record.agent ?? '-',
    record.event ?? '-',
    decisionCell(record.decision),
    record.decidedBy ?? '-',
    oneLine(record.reason ?? ''),
  ])
  return `${table([['TIME', 'AGENT', 'EVENT', 'DECISION', 'BY', 'REASON'].map(paint.dim), ...rows]).join('\n')}\n`
}

/** `hookrun log verify`: exit 0 when the chain holds from its first line to its last. */
export function verifyLog(options: LogOptions): { output: string; exitCode: number } {
  const file = logFile(options)
  const check = verifyChain(readLog(file))
  if (check.chained === 0) {
    return {
      output: `${file}: ${count(check.lines, 'line')}, none chained: set "chain": true in the log setting to make it tamper-evident\n`,
      exitCode: ExitCode.Failure,
    }
  }
  const head = `last line seq ${check.lastSeq ?? '?'}, sha256 ${check.head}`
  if (check.problems.length === 0) {
    return {
      output: `${file}: ${count(check.lines, 'line')}, the chain holds (${head}); keep that hash elsewhere to notice lines cut off the end later\n`,
      exitCode: ExitCode.Proceed,
    }
  }
  const lines = [
    `${file}: the chain is broken in ${count(check.problems.length, 'place')}:`,
    ...check.problems.map((problem) => `  ${problem}`),
    `(${head})`,
  ]
  return { output: `${lines.join('\n')}\n`, exitCode: ExitCode.Failure }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat
}
