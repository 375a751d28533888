// `hookrun serve`: one warm hookrun per user answering agents' http hook handlers on loopback with the fire
// `hookrun fire --format AGENT` runs; and `serve --start`, the agent's command that keeps it running.
import { isAbsolute, resolve } from 'node:path'
import { statSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { HookrunError } from '../core/errors.ts'
import { homeOf } from '../core/places.ts'
import { agentTarget } from '../install/agents.ts'
import type { DoctorLine } from '../install/doctor-types.ts'
import { clientShellProblem, servedHandler } from '../install/serve-entries.ts'
import { selfCommand } from '../install/self.ts'
import { ensureServer, identify } from '../serve/client.ts'
import { type EventAnswer, type RunningServer, startServer } from '../serve/server.ts'
import {
  configFingerprint,
  DEFAULT_SERVE_PORT,
  otherConfigNotice,
  processAlive,
  secretHeaderCurrent,
  secretHeaderFile,
  secretHeaderPath,
  pruneSessions,
  readServeRecord,
  registerSession,
  removeServeRecord,
  serveRecovery,
  serveSecret,
  sessionProject,
  writeServeRecord,
} from '../serve/state.ts'
import { fireCommand } from './fire.ts'
import { SERVED_AGENTS, type ServedAgent, servedAgent } from '../serve/served.ts'
import { type Io, reportError, wholeFlag } from './io.ts'

type Env = Readonly<Record<string, string | undefined>>

/** No request for this long and the server exits; SessionStart and each prompt start it again. */
const DEFAULT_IDLE_MINUTES = 120
/** Events answered at once; more wait (Claude Code runs one event's handlers in parallel, events one after another). */
const DEFAULT_MAX_CONCURRENT = 8

interface ServeFlags {
  port?: number | string
  idleMinutes?: number | string
  maxConcurrent?: number | string
  start?: boolean
  /** `serve --start`: whose event (default: the first served agent, whose entries have no --format). */
  format?: string
  stop?: boolean
  status?: boolean
}

/** The agent `serve --start` without `--format` is for (`HttpHooks.startWithoutFormat`). */
const FORMATLESS = SERVED_AGENTS.find((agent) => agent.http.startWithoutFormat === true)!

export async function serveCommand(io: Io, flags: ServeFlags, version: string, event?: string): Promise<number> {
  const port = wholeFlag(flags.port, 'port', DEFAULT_SERVE_PORT, 1, 65_535)
  if (flags.start) {
    const agent = flags.format === undefined ? FORMATLESS : servedAgent(flags.format)
    if (agent === undefined)
      throw new HookrunError(
        `serve --start --format ${flags.format}: hookrun serve answers ${SERVED_AGENTS.map((each) => each.name).join(', ')} only`,
      )
    return startAndFire(io, port, agent, event)
  }
  if (flags.stop || flags.status) return stopOrStatus(io, port, flags.stop === true)
  const idleMinutes = minutes(flags.idleMinutes)
  const maxConcurrent = wholeFlag(flags.maxConcurrent, 'max-concurrent', DEFAULT_MAX_CONCURRENT, 1, 256)
  return runServer(io, { port, idleMinutes, maxConcurrent, version })
}

/** `--idle-minutes`: a number of minutes, fractions allowed (0.05 is three seconds), 0 for never. */
function minutes(value: unknown): number {
  if (value === undefined) return DEFAULT_IDLE_MINUTES
  const number = Number(value)
  if (!Number.isFinite(number) || number < 0 || number > 525_600)
    throw new HookrunError(`--idle-minutes ${String(value)}: expected minutes from 0 (never exit) to 525600`)
  return number
}

/** The server in the foreground: one per user (a second one says so and exits 0). */
async function runServer(io: Io, options: { port: number; idleMinutes: number; maxConcurrent: number; version: string }): Promise<number> {
  const env = io.env
  const secret = serveSecret(env)
  const record = readServeRecord(env)
  if (record !== undefined && processAlive(record.pid)) {
    const answerer = await identify(record.port, secret)
    if (answerer.kind === 'ours' && record.port === options.port) {
      await io.stdout(`hookrun serve is already running (pid ${answerer.pid}, port ${record.port})\n`)
      return 0
    }
    // One per user: the one on another port (an install moved to --port) finishes its events and goes.
    if (answerer.kind === 'ours') {
      process.kill(answerer.pid, 'SIGTERM')
      await io.stdout(
        `hookrun serve: the server on port ${record.port} (pid ${answerer.pid}) was told to stop; this one answers on ${options.port}\n`,
      )
    }
  }
  pruneSessions(env)
  // The command clients' header file follows the secret (made again: the clients are answered again).
  secretHeaderFile(env)
  const log = (line: string) => void io.stderr(`${new Date().toISOString()} ${line}\n`)
  let server: RunningServer
  try {
    server = await startServer({
      port: options.port,
      secret,
      maxConcurrent: options.maxConcurrent,
      idleMs: options.idleMinutes * 60_000,
      version: options.version,
      configFingerprint: configFingerprint(env),
      log,
      handle: ({ agent, event }, request, signal) => answerEvent(agent, event, request, signal, env),
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    const answerer = await identify(options.port, secret)
    if (answerer.kind === 'ours') {
      await io.stdout(`hookrun serve is already running (pid ${answerer.pid}, port ${options.port})\n`)
      return 0
    }
    throw new HookrunError(
      `port ${options.port} on 127.0.0.1 is held by another program (${answerer.kind === 'foreign' ? answerer.why : 'it refused'}); stop it, or use another port: hookrun serve --port N and hookrun install --agent <agent> --serve --port N`,
    )
  }
  writeServeRecord(env, { pid: process.pid, port: server.port, config: configFingerprint(env) })
  await io.stdout(
    `hookrun serve: answering ${SERVED_AGENTS.map((agent) => agent.label).join(', ')} on http://127.0.0.1:${server.port} (pid ${process.pid}; exits after ${options.idleMinutes === 0 ? 'SIGTERM only' : `${options.idleMinutes} min without a request`})\n`,
  )
  try {
    const why = await server.stopped
    log(`hookrun serve: stopped (${why})`)
  } finally {
    removeServeRecord(env, process.pid)
  }
  return 0
}

/**
 * One event, fired as `hookrun fire --format AGENT` would: in the session's project (recorded by `serve --start`), from the payload's
 * `cwd`; the answer is its stdout. A failed fire answers 500, which the agent's `onFailure: "block"` makes a block.
 */
async function answerEvent(
  agent: ServedAgent,
  event: string | undefined,
  request: IncomingMessage,
  signal: AbortSignal,
  env: Env,
): Promise<EventAnswer> {
  const body = await readBody(request)
  let payload: Record<string, unknown> = {}
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) payload = parsed as Record<string, unknown>
  } catch {
    // Not JSON: the fire reports it (and blocks a gate it can tell).
  }
  const project = projectOf(agent, payload, env)
  const processCwd = folderOr(payload.cwd, project ?? '/')
  // The server's own project variable (of the session that started it) is no other session's.
  const variable = agent.http.projectVariable
  const serverEnv = Object.fromEntries(Object.entries(env).filter(([name]) => name !== variable))
  const fireEnv = project === undefined || variable === undefined ? serverEnv : { ...serverEnv, [variable]: project }
  const { stdout, stderr, exitCode } = await fireCapturing({ env: fireEnv }, body, agent, event, { signal, processCwd })
  if (stderr !== '') process.stderr.write(stderr)
  return exitCode === 0 ? { status: 200, body: stdout || '{}\n' } : { status: 500, body: stderr || `hookrun fire exited ${exitCode}\n` }
}

/** `hookrun fire --format AGENT` on this body, its stdout (and, unless `io` has its own, stderr) kept; an error is its stderr line. */
async function fireCapturing(
  io: Pick<Io, 'env'> & Partial<Io>,
  body: Buffer,
  agent: ServedAgent,
  event: string | undefined,
  served?: Parameters<typeof fireCommand>[5],
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const kept = { stdout: '', stderr: '', exitCode: 0 }
  const fireIo: Io = {
    stderr: (text) => {
      kept.stderr += text
    },
    ...io,
    stdout: (text) => {
      kept.stdout += text
    },
    stdin: (async function* () {
      yield body
    })(),
  }
  const setExitCode = (code: number) => {
    kept.exitCode = code
  }
  try {
    await fireCommand(fireIo, event, { format: agent.name }, 'never', setExitCode, served)
  } catch (error) {
    // Served: the error is the answer's body; `serve --start` lets it reach its own stderr.
    if (served === undefined) throw error
    kept.exitCode = await reportError(fireIo, 'never', error)
  }
  return kept
}

/** The session's project: recorded at SessionStart; else its first request's `cwd`, pinned for the session. */
const pinned = new Map<string, string>()
function projectOf(agent: ServedAgent, payload: Record<string, unknown>, env: Env): string | undefined {
  const session = sessionOf(agent, payload)
  if (session === undefined) return undefined
  const recorded = pinned.get(session) ?? sessionProject(env, session)
  if (recorded !== undefined) {
    pinned.set(session, recorded)
    return recorded
  }
  const first = folderOr(payload.cwd, undefined)
  if (first !== undefined) pinned.set(session, first)
  return first
}

function folderOr<T extends string | undefined>(value: unknown, fallback: T): string | T {
  if (typeof value !== 'string' || !isAbsolute(value)) return fallback
  try {
    return statSync(value).isDirectory() ? value : fallback
  } catch {
    return fallback
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    // The payload stage's own limit (64 MiB) applies to what is passed on; this only bounds memory.
    if (size > 64 * 1024 * 1024 + 1) break
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * `hookrun serve --start`, the agent's command on session start and prompt: the session's project recorded, a server started in the
 * background if none answers, then the event's own fire. A port held by another program is told at session start.
 */
async function startAndFire(io: Io, port: number, agent: ServedAgent, event: string | undefined): Promise<number> {
  const chunks: Uint8Array[] = []
  for await (const chunk of io.stdin) chunks.push(chunk)
  const body = Buffer.concat(chunks)
  let payload: Record<string, unknown> = {}
  try {
    payload = JSON.parse(body.toString('utf8')) as Record<string, unknown>
  } catch {
    // The fire below reports it.
  }
  // The session's start is the first of the agent's command events (its payload, or the command line, names it).
  const sessionStart = (event ?? payload?.hook_event_name) === agent.http.commandEvents[0]
  let notice: string | undefined
  try {
    const secret = serveSecret(io.env)
    const session = sessionOf(agent, payload ?? {})
    const variable = agent.http.projectVariable
    const project = folderOr(variable === undefined ? undefined : io.env[variable], folderOr(payload?.cwd, undefined))
    if (session !== undefined && project !== undefined && (sessionStart || sessionProject(io.env, session) === undefined))
      registerSession(io.env, session, project)
    const ensured = await ensureServer(io.env, port, secret, selfCommand(), sessionStart)
    if (ensured.kind === 'foreign')
      notice = `hookrun: port ${port} is answered by another program (${ensured.why}), not by hookrun serve: ${agent.label}'s hooks are sent to it. Stop it, or reinstall on another port: hookrun install --agent ${agent.name} --serve --port N`
    else if (ensured.kind === 'running' && sessionStart && agent.http.client === undefined)
      notice = otherConfigNotice(io.env, ensured.pid, agent)
  } catch (error) {
    notice = `hookrun: cannot start hookrun serve: ${(error as Error).message}; gates will block until it runs: ${serveRecovery(port, agent.name)}`
  }
  const { stdout, exitCode } = await fireCapturing(io, body, agent, event)
  await io.stdout(notice === undefined ? stdout : withSystemMessage(stdout, notice))
  return exitCode
}

/** The session a payload belongs to, in the agent's field for it. */
function sessionOf(agent: ServedAgent, payload: Record<string, unknown>): string | undefined {
  const session = payload[agent.http.sessionField ?? 'session_id']
  return typeof session === 'string' ? session : undefined
}

/** Claude Code's answer with a line for the person added to its `systemMessage`. */
function withSystemMessage(stdout: string, notice: string): string {
  try {
    const answer = JSON.parse(stdout) as Record<string, unknown>
    const before = typeof answer.systemMessage === 'string' ? `${answer.systemMessage}\n` : ''
    return `${JSON.stringify({ ...answer, systemMessage: `${before}${notice}` })}\n`
  } catch {
    return stdout
  }
}

/** `--status`: is it running and answering; `--stop`: SIGTERM to it (running events finish). */
async function stopOrStatus(io: Io, port: number, stop: boolean): Promise<number> {
  const record = readServeRecord(io.env)
  const answerer = await identify(record?.port ?? port, serveSecret(io.env))
  if (answerer.kind !== 'ours') {
    const what =
      answerer.kind === 'foreign'
        ? `port ${record?.port ?? port} is answered by another program (${answerer.why})`
        : `hookrun serve is not running (nothing answers on port ${record?.port ?? port})`
    await io.stdout(`${what}\n`)
    return stop ? 0 : 1
  }
  if (!stop) {
    await io.stdout(`hookrun serve is running (pid ${answerer.pid}, port ${record?.port ?? port}, hookrun ${answerer.version})\n`)
    return 0
  }
  process.kill(answerer.pid, 'SIGTERM')
  await io.stdout(`hookrun serve (pid ${answerer.pid}) told to stop; running events finish first\n`)
  return 0
}

/** `hookrun doctor` on each file with `install --serve`'s handlers: does hookrun serve answer its port, with this user's secret. */
export async function serveDoctorLines(cwd: string, env: Env): Promise<DoctorLine[]> {
  const places = { home: homeOf(env), project: resolve(cwd), env }
  const secret = serveSecret(env)
  const lines: DoctorLine[] = []
  const ports = new Map<number, ServedAgent[]>()
  // Asked once, and only where a file has command clients.
  let clientShell: { readonly problem: string | undefined } | undefined
  const clientShellOnce = () => {
    clientShell ??= { problem: clientShellProblem(env) }
    return clientShell.problem
  }
  for (const agent of SERVED_AGENTS) {
    const target = agentTarget(agent.name)
    if (target === undefined) continue
    for (const scope of ['user', 'project'] as const) {
      const file = target.file(scope, places)
      const served = servedHandler(file)
      if (served === undefined) continue
      if (!ports.get(served.port)?.includes(agent)) ports.set(served.port, [...(ports.get(served.port) ?? []), agent])
      const fix = `hookrun install --agent ${agent.name} --serve${scope === 'project' ? ' --project' : ''} --port ${served.port}`
      // Copied from another machine or user, or the secret file was made again: every event gets 401, every gate blocks.
      if (served.secret !== undefined && served.secret !== secret)
        lines.push({
          status: 'fail',
          what: `${file} sends hookrun serve another secret than this user's: the server refuses every event (401) and ${agent.label}'s gates block`,
          fix,
        })
      if (agent.http.client !== undefined && !secretHeaderCurrent(env, secret))
        lines.push({
          status: 'fail',
          what: `${secretHeaderPath(env)} does not hold this user's hookrun serve secret: ${agent.label}'s command clients are refused (401) and its gates block`,
          fix,
        })
      // A client that cannot run leaves each gate to what the agent does with a hook that fails to start (none of hookrun's block).
      const shell = agent.http.client === undefined ? undefined : clientShellOnce()
      if (shell !== undefined)
        lines.push({
          status: 'fail',
          what: `${agent.label}'s command clients in ${file} run in bash over /dev/tcp, and ${shell}: they cannot run, so no gate of its gets hookrun's answer or block`,
          fix: `install bash, or hookrun install --agent ${agent.name}${scope === 'project' ? ' --project' : ''} without --serve`,
        })
    }
  }
  for (const [port, agents] of ports) {
    const labels = agents.map((agent) => agent.label).join(' and ')
    const answerer = await identify(port, secret)
    if (answerer.kind === 'ours')
      lines.push({
        status: 'ok',
        what: `hookrun serve answers ${labels}${agents.length === 1 && agents[0]!.http.client === undefined ? "'s http handlers" : ''} on port ${port} (pid ${answerer.pid})`,
      })
    else if (answerer.kind === 'none')
      lines.push({
        status: 'warn',
        // Command clients start it themselves (install --serve's clients answer such an event with a hookrun of their own).
        what: agents.every((agent) => agent.http.client !== undefined)
          ? `hookrun serve is not running on port ${port}: ${labels}'s next command client starts it, and answers its own event meanwhile`
          : `hookrun serve is not running on port ${port}: ${labels}'s gates block until it does (its next session or prompt starts it)`,
        fix: serveRecovery(port, agents[0]!.name),
      })
    else
      lines.push({
        status: 'fail',
        what: `port ${port} is answered by another program (${answerer.why}): it, not hookrun, answers ${labels}'s gates`,
        fix: `stop that program, or hookrun install --agent ${agents[0]!.name} --serve --port N`,
      })
  }
  return lines
}
