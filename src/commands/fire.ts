// `hookrun fire`: the command agents run on every event, read without cac when its line is a common one.
import { resolve } from 'node:path'
import { openSync, writeSync } from 'node:fs'
import { formatError, HookrunError } from '../core/errors.ts'
import { findProjectRoot } from '../config/files.ts'
import { fire } from '../fire.ts'
import type { ProgressRecord } from '../run/hook.ts'
import { mayBeAgentPayload } from '../agents/hint.ts'
import { readPayload } from '../payload/payload.ts'
import { PayloadError } from '../payload/payload-error.ts'
import { applySetFields } from '../payload/set-fields.ts'
import { qualifyEvent } from '../event/event.ts'
import { isGate } from '../event/events.ts'
import type { Decision, FiredEvent, Payload } from '../core/types.ts'
import {
  agentFireOptions,
  callerProject,
  checkFormat,
  mayBeAnsweredByCaller,
  type PreparedDialect,
  prepareDialect,
  renderFor,
} from '../dialect.ts'
import { loadAgentsFor } from '../agents/loaded.ts'
import type { NarrowedStamp } from '../config/narrowed.ts'
import { renderNative } from '../answer/render.ts'
import { selfCommand } from '../install/self.ts'
import type { ColourMode } from '../core/paint.ts'
import { bool, type CommonFlags, configFiles, folder, type Io, paintFor, text } from './io.ts'
import { agentWorkingDirectory } from './fire-folder.ts'

/** Signals that stop a fire: hooks killed, then a gate blocks (an agent reads a bare exit 143 as "go ahead"), else exit 128 + N. */
const STOP_SIGNALS: readonly NodeJS.Signals[] =
  process.platform === 'win32' ? ['SIGINT', 'SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']
const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 }

/** The event as far as it is known, for `blockFailedGate`. */
interface KnownEvent {
  name?: string
  payload: Record<string, unknown>
  tool?: string
  prepared?: { readonly dialect: import('../agents/types.ts').Dialect; readonly agentEvent?: string }
  interrupted?: boolean
  /** The fire itself started (flags and payload were fine). */
  firing?: boolean
}

/** A fire `hookrun serve` runs: the server's stop for the signals, the folder the agent's command would have run in for the cwd. */
interface ServedFire {
  readonly signal: AbortSignal
  readonly processCwd: string
}

export interface FireFlags extends CommonFlags {
  payload?: string
  set?: string[]
  strict?: boolean
  format?: string
  events?: string
  record?: string
  explain?: boolean
  dryRun?: boolean
  pretty?: boolean
  /** Set by `hookrun explain` (a person reads it), not by `fire --explain`. */
  person?: boolean
}

/** What a fire's steps share: where it writes, how it ends, what it knows of its event so far. */
interface FireRun {
  readonly io: Io
  readonly colour: ColourMode
  readonly setExitCode: (code: number) => void
  readonly known: KnownEvent
  readonly controller: AbortController
  /** Set when `hookrun serve` runs the fire. */
  readonly served?: ServedFire
}

/** `hookrun fire`: run the event's hooks and print the decision; when hookrun itself fails on a gate, a block (docs/guarantees.md). */
export async function fireCommand(
  io: Io,
  event: string | undefined,
  flags: FireFlags,
  colour: ColourMode,
  setExitCode: (code: number) => void,
  served?: ServedFire,
): Promise<void> {
  const run: FireRun = { io, colour, setExitCode, known: { name: event, payload: {} }, controller: new AbortController(), served }
  // Listening from the start: a signal's default action would end hookrun with no answer (a served fire: its server's stop).
  const stop = (signal: NodeJS.Signals) => run.controller.abort(signal)
  const onServerStop = () => run.controller.abort('SIGTERM')
  if (served === undefined) for (const signal of STOP_SIGNALS) process.on(signal, stop)
  else if (served.signal.aborted) onServerStop()
  else served.signal.addEventListener('abort', onServerStop, { once: true })
  try {
    await fireAction(run, event, flags)
  } catch (error) {
    if (!(await blockFailedGate(run, error))) throw error
  } finally {
    if (served === undefined) for (const signal of STOP_SIGNALS) process.off(signal, stop)
    else served.signal.removeEventListener('abort', onServerStop)
  }
}

/** `hookrun fire`, filling in `run.known` as the event, payload and dialect become known. */
async function fireAction(run: FireRun, event: string | undefined, flags: FireFlags): Promise<void> {
  const { io, known, controller } = run
  const { read, prepared } = await readEvent(run, event, flags)
  if (flags.pretty && prepared !== undefined)
    throw new HookrunError(`--pretty prints hookrun's own answer; ${prepared.dialect.name} reads its JSON, so drop --pretty (or --format)`)
  const eventName = prepared === undefined ? event : prepared.event
  if (eventName === undefined) {
    throw new HookrunError('no event: name one (hookrun fire tool:pre_execute), or send a payload with hook_event_name and --format')
  }
  const payload = prepared?.payload ?? read
  Object.assign(known, { name: eventName, payload, tool: text(flags.tool, 'tool') ?? prepared?.tool, prepared })
  if (!flags.explain && (await answeredByAnotherCaller(run, flags, prepared, payload))) return
  const options = await fireOptions(run, flags, eventName, payload, prepared)
  if (flags.explain) {
    const { explainCommand } = await import('./explain.ts')
    const paint = flags.person && !flags.json ? await paintFor(io, run.colour, 'stdout') : undefined
    const result = await explainCommand(options, { prepared, json: flags.json === true, dryRun: flags.dryRun === true, paint })
    await io.stdout(result.output)
    return run.setExitCode(result.exitCode)
  }
  known.firing = true
  const decision = await fire(options)
  if (controller.signal.aborted) {
    const signal = String(controller.signal.reason) as NodeJS.Signals
    known.interrupted = true
    // On a gate event `blockFailedGate` turns this into the agent's block.
    throw new HookrunError(`interrupted by ${signal}: running hooks were killed`, 128 + (SIGNAL_NUMBERS[signal] ?? 15))
  }
  await printDecision(run, flags, decision, { event, eventName, read, payload, prepared })
}

/** The payload read (stdin, a file, --set) and, when it comes from an agent, its dialect's reading of it. */
async function readEvent(
  run: FireRun,
  event: string | undefined,
  flags: FireFlags,
): Promise<{ read: Payload; prepared: PreparedDialect | undefined }> {
  const { io, known } = run
  const format = text(flags.format, 'format')
  if (format !== undefined) checkFormat(format)
  // The agent's module and those of agents that may have run its entry (marked in payload or env); no format: every agent's.
  const speaking = (payload: Payload) => loadAgentsFor(format, { payload, env: io.env })
  // Agents send the payload on stdin: `hookrun fire --format claude`, `hookrun fire preToolUse --format copilot`.
  const source = text(flags.payload, 'payload') ?? (event === undefined || format !== undefined ? '-' : undefined)
  /** What can be read of a payload that cannot be read whole: the agent's event (and tool) may still be told from it, so a gate blocks. */
  const knowPartly = async (partial: Payload, agentPayload: boolean) => {
    if (!agentPayload) {
      known.payload = partial
      return
    }
    try {
      await speaking(partial)
      const partly = prepareDialect(format, event, partial)
      if (partly?.event !== undefined)
        Object.assign(known, { name: partly.event, payload: partly.payload, tool: partly.tool, prepared: partly })
    } catch {
      // No event in what was readable: the error alone, exit 1.
    }
  }
  let read: Payload
  try {
    read = applySetFields(await readImpliedPayload(source, flags.payload === undefined, io.stdin), flags.set ?? [])
  } catch (error) {
    // The fields before a syntax error.
    if (error instanceof PayloadError && error.partial !== undefined) await knowPartly(error.partial, format !== undefined)
    throw error
  }
  try {
    const agentPayload = format !== undefined || mayBeAgentPayload(read)
    if (agentPayload) await speaking(read)
    return { read, prepared: agentPayload ? prepareDialect(format, event, read) : undefined }
  } catch (error) {
    // A long string that is not valid JSON fails in the dialect: the rest of the payload tells the event.
    if (error instanceof PayloadError) {
      const { withoutUndecodedStrings } = await import('../payload/long-strings.ts')
      await knowPartly(withoutUndecodedStrings(read) as Payload, true)
    }
    throw error
  }
}

/** An agent's entry run by another agent that runs hookrun's own answer too: this one answers `{}` so hooks run once. True when so. */
async function answeredByAnotherCaller(
  run: FireRun,
  flags: FireFlags,
  prepared: PreparedDialect | undefined,
  payload: Payload,
): Promise<boolean> {
  const { io } = run
  const ownerEvent = prepared?.agentEvent ?? prepared?.event
  if (prepared === undefined || ownerEvent === undefined) return false
  if (!mayBeAnsweredByCaller(prepared.dialect, ownerEvent, payload, io.env)) return false
  const { answeredByCaller } = await import('../install/callers.ts')
  const cwd =
    folder(flags.cwd) ??
    callerProject(prepared.dialect, payload, io.env) ??
    agentWorkingDirectory(payload, prepared.dialect.project, io.env, run.served?.processCwd)
  const elsewhere = answeredByCaller(ownerEvent, { project: findProjectRoot(cwd) ?? cwd, env: io.env }, payload, prepared.dialect.name)
  if (elsewhere === undefined) return false
  await io.stderr(
    `hookrun: ${elsewhere.caller.label} runs this ${prepared.dialect.label} entry and answers ${ownerEvent} through ${elsewhere.answer}; this entry gives no opinion, so hooks run once\n`,
  )
  await io.stdout('{}\n')
  run.setExitCode(0)
  return true
}

/** `fire()`'s options from the flags, the payload and the agent's dialect. */
async function fireOptions(run: FireRun, flags: FireFlags, eventName: string, payload: Payload, prepared: PreparedDialect | undefined) {
  const { io } = run
  // --events when asked; else, on a terminal only, which long-running hook is running (stderr).
  const progress =
    text(flags.events, 'events') !== undefined
      ? openEvents(String(flags.events))
      : io.stderrIsTerminal
        ? (await import('./progress.ts')).terminalProgress((line) => void io.stderr(line))
        : undefined
  // What the agent itself decides of a fire: where notices reach someone, its stderr, its budget (src/agents).
  const { noticeChannels, ...agentOptions } =
    (prepared && agentFireOptions(prepared.dialect, prepared.agentEvent ?? prepared.dialect.eventName(payload))) ?? {}
  return {
    event: eventName,
    payload,
    tool: text(flags.tool, 'tool') ?? prepared?.tool,
    agent: prepared?.dialect.name,
    ...agentOptions,
    // Worked out (by rendering probe answers) only when the fire has a notice to give.
    get noticeChannels() {
      return noticeChannels?.()
    },
    // A narrowed user install that does not route a hook yet: this session runs without it; say so.
    ...(prepared && {
      unroutedNotice: async (cwd: string) => (await import('../install/unrouted.ts')).unroutedNotice(prepared.dialect.name, cwd, io.env),
      // Looked into only by a fire of such an agent: install's readers load for nothing else.
      reviewedNotice: async (stamp: NarrowedStamp, signature: string, cwd: string) =>
        stamp.reviewed?.agents.includes(prepared.dialect.name)
          ? (await import('../install/unrouted.ts')).reviewedNotice(prepared.dialect.name, stamp, signature, cwd, io.env)
          : undefined,
    }),
    // Background work (telemetry export, a policy refresh) runs as a detached hookrun.
    selfCommand: selfCommand(),
    cwd: folder(flags.cwd) ?? agentWorkingDirectory(payload, prepared?.dialect.project, io.env, run.served?.processCwd),
    configFiles: configFiles(flags),
    strict: bool(flags.strict, 'strict'),
    env: io.env,
    signal: run.controller.signal,
    progress,
  }
}

/** The decision in the agent's form (or hookrun's), warnings on stderr, the case recorded when asked; the exit code set. */
async function printDecision(
  run: FireRun,
  flags: FireFlags,
  decision: Decision,
  fired: {
    event: string | undefined
    eventName: string
    read: Payload
    payload: Payload
    prepared: PreparedDialect | undefined
  },
): Promise<void> {
  const { io } = run
  const { prepared } = fired
  const rendered = render(decision, fired.payload, prepared)
  const recordIn = text(flags.record, 'record') ?? (io.env.HOOKRUN_RECORD || undefined)
  const recorded =
    recordIn === undefined
      ? undefined
      : (await import('./record.ts')).recordCase(resolve(recordIn), {
          event: prepared === undefined ? fired.eventName : fired.event,
          format: prepared?.dialect.name,
          agentEvent: prepared?.agentEvent,
          tool: text(flags.tool, 'tool'),
          payload: fired.read,
          decision,
          exitCode: rendered.exitCode,
        })
  const warnings = [...decision.warnings, ...rendered.warnings, ...(recorded === undefined ? [] : [recorded])]
  // stdout is the agent's protocol and is never coloured; a person may be reading stderr.
  const paint = warnings.length > 0 ? await paintFor(io, run.colour, 'stderr') : undefined
  for (const warning of warnings) await io.stderr(`hookrun: ${paint?.warn('warning:') ?? 'warning:'} ${warning}\n`)
  const pretty = flags.pretty ? (await import('../answer/pretty.ts')).renderPretty(decision, rendered.exitCode) : undefined
  await send(run, rendered, pretty)
}

/** The decision in the agent's form (its dialect's), or hookrun's own. */
function render(decision: Decision, payload: Payload, prepared: KnownEvent['prepared']) {
  return prepared ? renderFor(prepared.dialect, decision, payload, prepared.agentEvent) : { ...renderNative(decision), warnings: [] }
}

/** A rendered answer sent (stderr, the agent's terminal, stdout) and its exit code set. */
async function send(run: FireRun, rendered: ReturnType<typeof render>, stdout = rendered.stdout): Promise<void> {
  if (rendered.stderr) await run.io.stderr(rendered.stderr)
  if (rendered.terminal) run.io.terminal?.(rendered.terminal)
  await run.io.stdout(stdout)
  run.setExitCode(rendered.exitCode)
}

/** A gate never fails open (docs/guarantees.md): agents read exit 1 as "proceed", so hookrun failing on a gate answers a block. */
async function blockFailedGate(run: FireRun, error: unknown): Promise<boolean> {
  const { io, known } = run
  // Bad usage is the caller's error (exit 1); an unreadable payload, a failure once firing, an interrupt or an internal error blocks.
  if (
    known.name === undefined ||
    (!known.firing && !known.interrupted && error instanceof HookrunError && !(error instanceof PayloadError))
  )
    return false
  let event: FiredEvent
  try {
    event = qualifyEvent(known.name, known.payload, known.tool)
  } catch {
    return false // not an event name at all: a usage error
  }
  if (!isGate(event.name)) return false
  const why = formatError(error, io.env.HOOKRUN_DEBUG === '1').replace(/^hookrun: /, '')
  const reason = `blocked because hookrun could not decide: ${why}`
  const decision: Decision = {
    event: event.qualified,
    decision: 'deny',
    blocked: true,
    reason,
    decidedBy: 'hookrun',
    continue: true,
    additionalContext: [],
    hooks: [],
    warnings: [],
  }
  const rendered = render(decision, known.payload, known.prepared)
  await io.stderr(`hookrun: ${why}\n`)
  await send(run, rendered)
  return true
}

/** Read the payload; when stdin was read only because no event was named, say that if it is empty. */
async function readImpliedPayload(source: string | undefined, implied: boolean, stdin: AsyncIterable<Uint8Array>) {
  try {
    return await readPayload(source, stdin)
  } catch (error) {
    if (implied && error instanceof HookrunError && / is empty;/.test(error.message)) {
      throw new HookrunError("no event: name one (hookrun fire tool:pre_execute), or send the agent's event JSON on stdin (it was empty)")
    }
    throw error
  }
}

/** `--events FILE|-`: one JSON line per record, written as it happens (`-` is stderr: stdout is the decision's). */
function openEvents(target: string): (record: ProgressRecord) => void {
  let fd: number
  try {
    fd = target === '-' ? 2 : openSync(target, 'a')
  } catch (error) {
    throw new HookrunError(`cannot open --events file ${target}: ${(error as Error).message}`)
  }
  return (record) => writeSync(fd, `${JSON.stringify(record)}\n`)
}
