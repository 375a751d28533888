// `hookrun doctor`: everything that makes hooks silently not fire, one line each with its fix.
import { accessSync, constants, existsSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { loadConfig } from '../config/parse.ts'
import type { ResolvedConfig } from '../config/load.ts'
import { qualifyEvent } from '../event/event.ts'
import { gateBlock } from '../answer/blocks.ts'
import { AGENTS, agentTarget } from './agents.ts'
import { PORTABLE_SELF, ROUTER_TIMEOUT_SECONDS, type Scope, targetForFile } from './agent-target.ts'
import { describeOverlap, findOverlaps, routedEvents } from './overlaps.ts'
import { entryReview } from './hook-reviews.ts'
import { folderAgentsCheck, folderInstalls } from './hook-folder-doctor.ts'
import { CALLERS, callerLines } from './callers.ts'
import { ignoredRouterFiles, readCommands, readRouterTimeouts } from './router-commands.ts'
import { CHAIN_BUDGET_SECONDS } from '../config/defaults.ts'
import { count } from '../core/words.ts'
import { homeOf } from '../core/places.ts'
import { onPath, versionOfFile } from './on-path.ts'
import { type DoctorCheck, type DoctorContext, type DoctorLine, installCommand } from './doctor-types.ts'
import { discardedBecause, discardedFilesCheck, discardedRouterFiles } from './discarded-files.ts'
import { findProgram, type ProgramFinding } from './router-program.ts'
import { pluginInstalls } from './plugin-agents.ts'
import { selfCommand } from './self.ts'
import { mcpGateLines, mcpGates } from './mcp-doctor.ts'
import { formatProblem, type Hook } from '../core/types.ts'

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
  // An agent's older shape (Kiro CLI 2's agent config) may be what is installed.
  for (const target of AGENTS.flatMap((each) => (each.legacy?.ownsFile === undefined ? [each] : [each, each.legacy]))) {
    for (const scope of ['user', 'project'] as const) {
      const file = target.file(scope, context.places)
      // In the home folder the project file is the user file: once. A file the agent discards
      // whole runs nothing (discardedFilesCheck says so).
      if (found.some((wiring) => wiring.file === file) || discardedBecause(target, file) !== undefined) continue
      const events = routedEvents(file, target.name)
      if (events.length === 0) continue
      found.push({ agent: target.name, label: target.label, scope, file, events, commands: readCommands(file, target.name) })
    }
  }
  return found
}

/** hookrun on PATH (what committed project files run), and whether it is this version. */
const binaryCheck: DoctorCheck = (context) => {
  const found = onPath(PORTABLE_SELF, context.env)
  const portable = wirings(context).filter((wiring) => wiring.commands.some((command) => command.startsWith(`${PORTABLE_SELF} `)))
  const runBy =
    portable.length > 0
      ? `, but ${portable.map((wiring) => wiring.file).join(' and ')} run${portable.length === 1 ? 's' : ''} it from there`
      : ''
  if (found === undefined) {
    return [
      {
        status: portable.length > 0 ? 'fail' : 'warn',
        what: `hookrun is not on PATH${runBy}`,
        fix: 'put it there: npm install -g hookrun, or the release installer (docs/install.md)',
      },
    ]
  }
  const { version, problem } = versionOfFile(found, context.env)
  if (problem !== undefined)
    return [
      {
        status: portable.length > 0 ? 'fail' : 'warn',
        what: `hookrun on PATH (${found}) ${problem}${runBy}`,
        fix: `put hookrun ${context.version} first on PATH (npm install -g hookrun@${context.version}, or the release installer), or remove ${found}`,
      },
    ]
  if (version !== context.version) {
    return [
      {
        status: 'warn',
        what: `hookrun on PATH (${found}) is version ${version}, this one is ${context.version}: agents that run \`hookrun\` get ${version}`,
        fix: `npm install -g hookrun@${context.version} (or the release installer with --version ${context.version}), or put this hookrun first on PATH`,
      },
    ]
  }
  return [{ status: 'ok', what: `hookrun on PATH: ${found} (${version}, this version)` }]
}

/** Does hookrun run in some agent other than through router entries: a plugin (OpenCode, Kilo Code), wrappers (Cline)? */
const runsOtherwise = (context: DoctorContext) =>
  pluginInstalls(context.places).length > 0 || folderInstalls(context.places) || discardedRouterFiles(context) > 0

/** Each agent's config: wired, every event it has, and a command that exists and is this version. */
const agentsCheck: DoctorCheck = (context) => {
  const all = wirings(context)
  if (all.length === 0 && !runsOtherwise(context)) {
    return [
      {
        status: 'fail',
        what: 'no agent runs hookrun: no router entries, plugins or hook wrappers in any agent config',
        fix: 'hookrun install --agent claude   (or cursor, gemini, codex, copilot, opencode, …)',
      },
    ]
  }
  const lines: DoctorLine[] = []
  const findings = new Map<string, ProgramFinding>()
  for (const wiring of all) {
    const project = wiring.scope === 'project' ? context.places.project : undefined
    const found = wiring.commands.map((command) => {
      const key = `${project ?? ''}\0${command}`
      if (!findings.has(key)) findings.set(key, findProgram(command, { ...context, project }))
      return { command, finding: findings.get(key)! }
    })
    lines.push(programLine(wiring, found, context.version))
    const known = agentTarget(wiring.agent)
    const only = known === undefined ? undefined : targetForFile(known, wiring.file).appliesOnly
    if (only !== undefined) lines.push({ status: 'warn', what: `${wiring.label}: ${wiring.file} applies ${only.when}`, fix: only.fix })
    // An agent that runs an entry only once reviewed (Codex's /hooks) skips the rest silently.
    const review = known === undefined ? undefined : entryReview(known, wiring.file, context.env, context.places.home)
    if (review !== undefined && review.unreviewed.length > 0 && known?.reviews !== undefined) {
      lines.push({
        status: 'fail',
        what: `${wiring.label}: ${review.unreviewed.length} of hookrun's ${count(review.entries, 'entry', 'entries')} in ${wiring.file} never reviewed in ${known.reviews.where}: ${wiring.label} runs an entry only once trusted there (${known.reviews.headless} skips the rest without a word)`,
        fix: known.reviews.fix,
      })
    }
  }
  return lines
}

/** The order findings are told in: the one that keeps a gate from running first. */
const WORST: readonly ProgramFinding['kind'][] = ['missing', 'refused', 'problem', 'unknown', 'version']

/** One line for a wiring's router programs: the worst finding among them (a portable `hookrun` is the PATH line's). */
function programLine(wiring: Wiring, found: ReadonlyArray<{ command: string; finding: ProgramFinding }>, version: string): DoctorLine {
  const rank = ({ finding }: { finding: ProgramFinding }) =>
    finding.kind === 'version' && finding.version === version ? WORST.length : WORST.indexOf(finding.kind)
  const worst = found.filter(({ finding }) => finding.kind !== 'portable').sort((a, b) => rank(a) - rank(b))[0]
  const fix = installCommand(wiring.agent, wiring.scope)
  const where = `${wiring.label}: ${wiring.file}`
  const finding = worst === undefined || rank(worst) === WORST.length ? undefined : worst.finding
  switch (finding?.kind) {
    case undefined:
    case 'portable':
      return { status: 'ok', what: `${where}: ${count(wiring.events.length, 'event')} routed to hookrun` }
    case 'missing':
      return { status: 'fail', what: `${where} runs ${worst!.command}, which is not there`, fix }
    case 'refused':
    case 'unknown':
      return { status: finding.kind === 'refused' ? 'fail' : 'warn', what: `${where} runs ${finding.program}, which ${finding.why}`, fix }
    case 'problem':
      return { status: 'fail', what: `${where} runs ${finding.program}, which ${finding.problem}`, fix }
    case 'version':
      return {
        status: 'warn',
        what: `${where} runs ${finding.program}, version ${finding.version}; this one is ${version}`,
        fix: `${fix}   (routes it to this hookrun)`,
      }
  }
}

/** The project's hooks: trusted (they run) or not (they do not, and what changed); config problems. */
/** The gate events doctor asks fire's block rule about: a shell call and a prompt. */
const GATE_PROBES = [
  { event: 'tool:pre_execute', payload: { tool_name: 'Bash', tool_input: { command: 'true' } } },
  { event: 'user:prompt_submit', payload: { prompt: 'hello' } },
]

const projectCheck: DoctorCheck = (context) => {
  let config: ResolvedConfig
  try {
    config = loadConfig({ cwd: context.cwd, env: context.env })
  } catch (error) {
    return [{ status: 'fail', what: `config cannot be read: ${(error as Error).message}`, fix: 'hookrun validate' }]
  }
  const lines: DoctorLine[] = []
  const trust = config.trust
  // What fire itself would answer on the gate events: the same rule, so doctor never says less.
  const blocked = GATE_PROBES.map((probe) => ({
    probe,
    block: gateBlock(config.trusts, config.problems, qualifyEvent(probe.event, probe.payload), config.policy),
  })).filter(({ block }) => block !== undefined)
  if (config.trusts.length === 0) lines.push({ status: 'ok', what: `no project hooks at or above ${context.cwd}` })
  // Each project at or above this folder (an enclosing one too) is trusted on its own.
  for (const each of config.trusts) {
    if (each.trusted)
      lines.push({
        status: 'ok',
        what: `project ${each.root}: trusted${each.via === 'folder' ? ` (trustedFolders: ${each.folder})` : ''}; its hooks run`,
      })
    else if (each.reason === 'changed') {
      // A changed project's hooks do not run, and fire blocks every gate event until it is trusted again.
      lines.push({
        status: 'fail',
        what: `project ${each.root}: changed since trusted (${(each.changed ?? []).join(', ')}): its hooks do not run and every gate event is blocked`,
        fix: `hookrun trust --diff, then hookrun trust ${each.root}`,
      })
    } else {
      const hooks = config.untrustedHooks.filter((hook) => hook.source.file.startsWith(join(each.root, '.hookrun') + sep)).length
      lines.push({
        status: 'fail',
        what: `project ${each.root}: never trusted: ${hooks > 0 ? `${count(hooks, 'hook')} not running` : 'its hooks do not run'} (its gates do not apply)`,
        fix: `read ${join(each.root, '.hookrun')}, then hookrun trust ${each.root}`,
      })
    }
  }
  const changedBlock = config.trusts.some((each) => !each.trusted && each.reason === 'changed')
  if (!changedBlock && blocked.length > 0) {
    const reason = blocked[0]!.block!.reason ?? 'hookrun cannot vouch for the gates'
    lines.push({
      status: 'fail',
      what: `every gate event is blocked (fire denies ${blocked.map(({ probe }) => probe.event).join(', ')}): ${reason}`,
      fix: 'hookrun validate',
    })
  }
  const errors = config.problems.filter((problem) => problem.severity === 'error')
  for (const problem of errors.slice(0, 3)) lines.push({ status: 'warn', what: formatProblem(problem), fix: 'hookrun validate' })
  if (errors.length > 3) lines.push({ status: 'warn', what: `${errors.length - 3} more config problems`, fix: 'hookrun validate' })
  // `hookrun init` helps only where there is nothing to fix first.
  if (config.hooks.length === 0 && trust?.trusted !== false && errors.length === 0 && blocked.length === 0)
    lines.push({ status: 'warn', what: 'no hooks configured: every event is allowed', fix: 'hookrun init' })
  const log = config.settings.log
  if (log !== undefined)
    lines.push(
      writable(log.path)
        ? { status: 'ok', what: `audit log writable: ${log.path}` }
        : {
            status: 'warn',
            what: `audit log ${log.path} (set in ${log.file}) cannot be written`,
            fix: `mkdir -p ${dirname(log.path)}, or change "log" in ${log.file}`,
          },
    )
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
  findOverlaps(context.places).flatMap((overlap) => {
    // Only an agent wired to hookrun whose gates hang on its third-party hooks setting is told:
    // where it has its own entry for every such event, the router answers once.
    const reader = agentTarget(overlap.reader)!
    const wired = (['project', 'user'] as const).some(
      (scope) => routedEvents(reader.file(scope, context.places), overlap.reader).length > 0,
    )
    const own = new Set(overlap.twice.flatMap((entry) => entry.events))
    if (!wired || overlap.events.every((event) => own.has(event))) return []
    return [
      {
        status: 'warn' as const,
        what: describeOverlap(overlap),
        fix: `hookrun install --agent ${overlap.reader}${overlap.scope === 'user' ? ' --user' : ' --project'}`,
      },
    ]
  })

/** Gemini CLI and Qwen Code read a project install only when started in its folder: without a user install, elsewhere runs no hook. */
const startFolderCheck: DoctorCheck = (context) => {
  const lines: DoctorLine[] = []
  for (const target of AGENTS.filter((each) => each.projectFileOnlyWhereStarted)) {
    const userFile = target.file('user', context.places)
    if (routedEvents(userFile, target.name).length > 0) continue
    for (let folder = context.cwd; ; folder = dirname(folder)) {
      const file = target.file('project', { ...context.places, project: folder })
      if (file !== userFile && routedEvents(file, target.name).length > 0) {
        const here = folder === context.cwd
        lines.push({
          status: here ? 'warn' : 'fail',
          what: here
            ? `${target.label}: ${file} runs hookrun only when ${target.label} is started in ${folder}; started in a subfolder it runs no hook at all`
            : `${target.label}: ${file} runs hookrun only when ${target.label} is started in ${folder}; started here (${context.cwd}) it runs no hook at all`,
          fix: `hookrun install --agent ${target.name}   (your user config: every folder, a no-op where no hooks are configured)`,
        })
        break
      }
      if (dirname(folder) === folder) break
    }
  }
  return lines
}

/** Router entries whose agent timeout is not above hookrun's chain budget: a killed gate mostly lets the action through. */
const routerTimeoutCheck: DoctorCheck = (context) =>
  wirings(context).flatMap((wiring): DoctorLine[] => {
    const known = agentTarget(wiring.agent)
    if (known === undefined) return []
    const short = readRouterTimeouts(wiring.file, targetForFile(known, wiring.file)).filter(
      ({ seconds }) => seconds === undefined || seconds <= CHAIN_BUDGET_SECONDS,
    )
    if (short.length === 0) return []
    const events = [...new Set(short.map(({ event }) => event))]
    const shown = short[0]!.seconds === undefined ? 'no timeout (the agent default applies)' : `a timeout of ${short[0]!.seconds} s`
    return [
      {
        status: 'warn',
        what: `${wiring.label}: ${wiring.file}: hookrun's entry for ${events.slice(0, 3).join(', ')}${events.length > 3 ? ` and ${events.length - 3} more` : ''} has ${shown}, not above hookrun's ${CHAIN_BUDGET_SECONDS} s budget for one fire: the agent may kill hookrun mid-gate and go ahead`,
        fix: `${installCommand(wiring.agent, wiring.scope)}   (writes ${ROUTER_TIMEOUT_SECONDS} s)`,
      },
    ]
  })

/** hookrun's entries in a file the agent no longer reads (Droid's settings.json once a hooks.json is beside it). */
const ignoredFilesCheck: DoctorCheck = (context) => ignoredRouterFiles(context.places)

/** Every agent that runs another's hookrun entries (Cursor, VS Code, … run Claude Code's), and when (src/agents/callers.ts). */
const callersCheck: DoctorCheck = (context) =>
  [...new Set(CALLERS.map((caller) => caller.owner))].flatMap((owner) =>
    callerLines(
      owner,
      wirings(context).flatMap((wiring) => (wiring.agent === owner ? [wiring.file] : [])),
    ),
  )

/** MCP gates in the config, and every agent running hookrun here that would not read them (src/install/mcp-doctor.ts). */
const mcpGateCheck: DoctorCheck = (context) => {
  let hooks: readonly Hook[]
  try {
    const config = loadConfig({ cwd: context.cwd, env: context.env })
    // An untrusted project's gates too: projectCheck says they do not run yet; this says where they would not hold once trusted.
    hooks = [...config.hooks, ...config.untrustedHooks]
  } catch {
    return [] // projectCheck says why
  }
  const agents = [
    ...wirings(context).map((wiring) => ({ agent: wiring.agent, label: wiring.label, format: wiring.agent })),
    // hookrun's plugin asks its agent's plugin format (OpenCode's in Kilo Code too, OpenCode's engine).
    ...pluginInstalls(context.places).map(({ agent }) => ({ agent: agent.name, label: agent.label, format: agent.format })),
  ]
  return mcpGateLines(mcpGates(hooks), agents)
}

/** The checks `hookrun doctor` runs, in order; other modules append theirs. */
export const DOCTOR_CHECKS: DoctorCheck[] = [
  binaryCheck,
  agentsCheck,
  routerTimeoutCheck,
  projectCheck,
  startFolderCheck,
  overlapCheck,
  folderAgentsCheck,
  ignoredFilesCheck,
  callersCheck,
  discardedFilesCheck,
  mcpGateCheck,
]

interface DoctorOptions {
  readonly cwd: string
  readonly env: DoctorContext['env']
  readonly version: string
  readonly checks?: readonly DoctorCheck[]
  /** The command that runs this hookrun (default: selfCommand()). */
  readonly self?: readonly string[]
}

/** Run every check; exit 1 when a line says a gate is not in force. */
export function runDoctor(options: DoctorOptions): { lines: DoctorLine[]; exitCode: number } {
  const cwd = resolve(options.cwd)
  const context: DoctorContext = {
    cwd,
    env: options.env,
    version: options.version,
    self: options.self ?? selfCommand(),
    places: { home: homeOf(options.env), project: cwd, env: options.env },
  }
  const lines = (options.checks ?? DOCTOR_CHECKS).flatMap((check) => check(context))
  return { lines, exitCode: lines.some((line) => line.status === 'fail') ? 1 : 0 }
}
