// `hookrun doctor`: everything that makes hooks silently not fire, one line each with its fix.
import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path'
import { loadConfig } from '../config/parse.ts'
import { formatProblem } from '../config/load.ts'
import { AGENTS, defaultHome, type Places, PORTABLE_SELF, type Scope } from './agents.ts'
import { describeOverlap, findOverlaps, routedEvents } from './overlaps.ts'
import { readCommands } from './router-commands.ts'
import { count } from '../core/words.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * One finding. `fail`: a gate is not in force (doctor exits 1); `warn`: something a user should
 * know or fix, the gates still hold; `ok`: checked and fine. `fix` is the command that fixes it.
 */
export interface DoctorLine {
  readonly status: 'ok' | 'warn' | 'fail'
  readonly what: string
  readonly fix?: string
}

export interface DoctorContext {
  readonly cwd: string
  readonly env: Env
  readonly places: Places
  /** This hookrun's version, to compare with the one on PATH. */
  readonly version: string
}

/** A check adds lines; other modules add their own checks to `DOCTOR_CHECKS`. */
export type DoctorCheck = (context: DoctorContext) => DoctorLine[]

/** Where the agents' config files say hookrun is, with the agents and files that say so. */
interface Wiring {
  readonly agent: string
  readonly label: string
  readonly scope: Scope
  readonly file: string
  readonly events: readonly string[]
  readonly commands: readonly string[]
}

function wirings(context: DoctorContext): Wiring[] {
  const found: Wiring[] = []
  for (const target of AGENTS) {
    for (const scope of ['user', 'project'] as const) {
      const file = target.file(scope, context.places)
      // In the home folder the project file is the user file: once.
      if (found.some((wiring) => wiring.file === file)) continue
      const events = routedEvents(file, target.name)
      if (events.length === 0) continue
      found.push({ agent: target.name, label: target.label, scope, file, events, commands: readCommands(file, target.name) })
    }
  }
  return found
}

/** The executable `PATH` finds for `name`, as a shell would. */
export function onPath(name: string, env: Env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue
    const file = join(dir, name)
    try {
      if (statSync(file).isFile()) {
        accessSync(file, constants.X_OK)
        return file
      }
    } catch {
      // Not here.
    }
  }
  return undefined
}

const installCommand = (wiring: Pick<Wiring, 'agent' | 'scope'>) => `hookrun install --agent ${wiring.agent}${wiring.scope === 'project' ? ' --project' : ''}`

/** hookrun on PATH (what committed project files run), and its version. */
const binaryCheck: DoctorCheck = (context) => {
  const found = onPath(PORTABLE_SELF, context.env)
  const portable = wirings(context).filter((wiring) => wiring.commands.some((command) => command.startsWith(`${PORTABLE_SELF} `)))
  if (found === undefined) {
    const what = `hookrun is not on PATH${portable.length > 0 ? `, but ${portable.map((wiring) => wiring.file).join(' and ')} run${portable.length === 1 ? 's' : ''} it from there` : ''}`
    return [{ status: portable.length > 0 ? 'fail' : 'warn', what, fix: 'put it there: npm install -g hookrun, or the release installer (README: Install)' }]
  }
  return [{ status: 'ok', what: `hookrun on PATH: ${found}` }]
}

/** Each agent's config: wired, every event it has, and a command that exists. */
const agentsCheck: DoctorCheck = (context) => {
  const all = wirings(context)
  if (all.length === 0) {
    return [{ status: 'fail', what: 'no agent runs hookrun: no router entries in any agent config', fix: 'hookrun install --agent claude   (or cursor, gemini, codex, copilot, …)' }]
  }
  const lines: DoctorLine[] = []
  for (const wiring of all) {
    const broken = wiring.commands.filter((command) => !commandRuns(command, context))
    if (broken.length > 0) {
      lines.push({ status: 'fail', what: `${wiring.label}: ${wiring.file} runs ${broken[0]}, which is not there`, fix: installCommand(wiring) })
    } else {
      lines.push({ status: 'ok', what: `${wiring.label}: ${wiring.file}: ${count(wiring.events.length, 'event')} routed to hookrun` })
    }
  }
  return lines
}

/** Does the command's program exist (an absolute path, or a name PATH finds)? */
function commandRuns(command: string, context: DoctorContext): boolean {
  const program = /^'([^']*)'|^(\S+)/.exec(command)
  const name = program?.[1] ?? program?.[2]
  if (name === undefined) return false
  // A portable `hookrun …` is the binary check's line: one cause, one line.
  if (name === PORTABLE_SELF) return true
  return isAbsolute(name) ? existsSync(name) : onPath(name, context.env) !== undefined
}

/** The project's hooks: trusted (they run) or not (they do not, and what changed); config problems. */
const projectCheck: DoctorCheck = (context) => {
  let config
  try {
    config = loadConfig({ cwd: context.cwd, env: context.env })
  } catch (error) {
    return [{ status: 'fail', what: `config cannot be read: ${(error as Error).message}`, fix: 'hookrun validate' }]
  }
  const lines: DoctorLine[] = []
  const trust = config.trust
  if (trust === undefined) lines.push({ status: 'ok', what: `no project hooks at or above ${context.cwd}` })
  else if (trust.trusted) lines.push({ status: 'ok', what: `project ${trust.root}: trusted${trust.via === 'folder' ? ` (trustedFolders: ${trust.folder})` : ''}; its hooks run` })
  else {
    const why = trust.reason === 'changed' ? `changed since trusted: ${(trust.changed ?? []).join(', ')}` : 'never trusted'
    lines.push({ status: 'fail', what: `project ${trust.root}: ${count(config.untrustedHooks.length, 'hook')} not running, ${why}`, fix: `hookrun trust --diff, then hookrun trust ${trust.root}` })
  }
  const errors = config.problems.filter((problem) => problem.severity === 'error')
  for (const problem of errors.slice(0, 3)) lines.push({ status: 'warn', what: formatProblem(problem), fix: 'hookrun validate' })
  if (errors.length > 3) lines.push({ status: 'warn', what: `${errors.length - 3} more config problems`, fix: 'hookrun validate' })
  if (config.hooks.length === 0 && trust?.trusted !== false) lines.push({ status: 'warn', what: 'no hooks configured: every event is allowed', fix: 'hookrun init' })
  const log = config.settings.log
  if (log !== undefined) lines.push(writable(log.path) ? { status: 'ok', what: `audit log writable: ${log.path}` } : { status: 'warn', what: `audit log ${log.path} (set in ${log.file}) cannot be written`, fix: `mkdir -p ${dirname(log.path)}, or change "log" in ${log.file}` })
  return lines
}

function writable(file: string): boolean {
  for (let at = file; ; at = dirname(at)) {
    if (existsSync(at)) {
      try {
        accessSync(at, constants.W_OK)
        return true
      } catch {
        return false
      }
    }
    if (dirname(at) === at) return false
  }
}

/** Two agents' files answering the same event (issue 16's overlaps). */
const overlapCheck: DoctorCheck = (context) =>
  findOverlaps(context.places)
    .filter((overlap) => overlap.twice.length > 0)
    .map((overlap) => ({ status: 'warn' as const, what: describeOverlap(overlap), fix: `hookrun install --agent ${overlap.reader}${overlap.scope === 'user' ? ' --user' : ' --project'}` }))

/** The checks `hookrun doctor` runs, in order; other modules append theirs. */
export const DOCTOR_CHECKS: DoctorCheck[] = [binaryCheck, agentsCheck, projectCheck, overlapCheck]

export interface DoctorOptions {
  readonly cwd: string
  readonly env: Env
  readonly version: string
  readonly checks?: readonly DoctorCheck[]
}

/** Run every check; exit 1 when a line says a gate is not in force. */
export function runDoctor(options: DoctorOptions): { lines: DoctorLine[]; exitCode: number } {
  const cwd = resolve(options.cwd)
  const context: DoctorContext = { cwd, env: options.env, version: options.version, places: { home: defaultHome(options.env), project: cwd, env: options.env } }
  const lines = (options.checks ?? DOCTOR_CHECKS).flatMap((check) => check(context))
  return { lines, exitCode: lines.some((line) => line.status === 'fail') ? 1 : 0 }
}
