// `hookrun fire`: the command agents run on every event, read without cac when its line is a common one.
import { isAbsolute, resolve } from 'node:path'
import { openSync, statSync, writeSync } from 'node:fs'
import { formatError, HookrunError } from '../core/errors.ts'
import { findProjectRoot } from '../config/files.ts'
import { agentProjectDir, projectSearchStart } from '../config/project.ts'
import { fire, type ProgressRecord } from '../fire.ts'
import { mayBeAgentPayload } from '../dialects/hint.ts'
import { PayloadError, readPayload } from '../payload/payload.ts'
import { applySetFields } from '../payload/set-fields.ts'
import { qualifyEvent } from '../event/event.ts'
import { isGate } from '../event/events.ts'
import type { Decision, Payload, ProjectSource } from '../core/types.ts'
import { renderNative } from '../answer/render.ts'
import { selfCommand } from '../install/self.ts'
import type { ColourMode } from '../core/paint.ts'
import { bool, type CommonFlags, configFiles, folder, type Io, paintFor, text } from './io.ts'

/**
 * Signals that stop a fire: its hooks are killed; on a gate event hookrun then answers the agent's
 * own block (an agent that kills its hook reads a bare exit 143 as "go ahead"), elsewhere it exits
 * 128 + the signal number.
 */
const STOP_SIGNALS: readonly NodeJS.Signals[] =
  process.platform === 'win32' ? ['SIGINT', 'SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']
const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 }

/** The event of a fire as far as it is known, for blocking a gate when hookrun fails (`blockFailedGate`). */
interface KnownEvent {
  name?: string
  payload: Record<string, unknown>
  tool?: string
  prepared?: { readonly dialect: import('../dialects/types.ts').Dialect; readonly agentEvent?: string }
  interrupted?: boolean
  /** The fire itself started (flags and payload were fine). */
  firing?: boolean
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

/**
 * `hookrun fire`: run the event's hooks and print the decision. When hookrun itself fails on a
 * gate event, the answer is a block (docs/guarantees.md).
 */
export async function fireCommand(
  io: Io,
  event: string | undefined,
  flags: FireFlags,
  colour: ColourMode,
  setExitCode: (code: number) => void,
): Promise<void> {
  // What is known of the event so far: when hookrun fails on a gate event it blocks (below).
  const known: KnownEvent = { name: event, payload: {} }
  // Listening from the start: a signal's default action would end hookrun with no answer at all.
  const controller = new AbortController()
  const stop = (signal: NodeJS.Signals) => controller.abort(signal)
  for (const signal of STOP_SIGNALS) process.on(signal, stop)
  try {
    await fireAction(event, flags, known, controller)
  } catch (error) {
    if (!(await blockFailedGate(error, known))) throw error
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stop)
  }

  /** `hookrun fire`, filling in `known` as the event, payload and dialect become known. */
  async function fireAction(event: string | undefined, flags: FireFlags, known: KnownEvent, controller: AbortController): Promise<void> {
    const format = text(flags.format, 'format')
    // Dialects load only when one is asked for or the payload may come from an agent.
    const dialects = format === undefined ? undefined : await import('../dialects/index.ts')
    dialects?.checkFormat(format!)
    // Agents send the payload on stdin: `hookrun fire --format claude`, `hookrun fire preToolUse --format copilot`.
    const source = text(flags.payload, 'payload') ?? (event === undefined || format !== undefined ? '-' : undefined)
    /** What can be read of a payload that cannot be read whole: the agent's event (and tool) may still be told from it, so a gate blocks. */
    const knowPartly = (partial: Payload, table: typeof dialects) => {
      if (table === undefined) return void (known.payload = partial)
      try {
        const partly = table.prepareDialect(format, event, partial)
        if (partly?.event !== undefined)
          Object.assign(known, { name: partly.event, payload: partly.payload, tool: partly.tool, prepared: partly })
      } catch {
        // No event in what was readable: the error alone, exit 1.
      }
    }
    let read
    try {
      read = applySetFields(await readImpliedPayload(source, flags.payload === undefined, io.stdin), flags.set ?? [])
    } catch (error) {
      // The fields before a syntax error.
      if (error instanceof PayloadError && error.partial !== undefined) knowPartly(error.partial, dialects)
      throw error
    }
    let prepared
    try {
      prepared =
        dialects !== undefined || mayBeAgentPayload(read)
          ? (dialects ?? (await import('../dialects/index.ts'))).prepareDialect(format, event, read)
          : undefined
    } catch (error) {
      // A large payload's long string that is not valid JSON fails when the dialect reads it:
      // the rest of the payload tells the event.
      if (error instanceof PayloadError) {
        const { withoutUndecodedStrings } = await import('../payload/long-strings.ts')
        knowPartly(withoutUndecodedStrings(read) as Payload, dialects ?? (await import('../dialects/index.ts')))
      }
      throw error
    }
    if (flags.pretty && prepared !== undefined)
      throw new HookrunError(
        `--pretty prints hookrun's own answer; ${prepared.dialect.name} reads its JSON, so drop --pretty (or --format)`,
      )
    const eventName = prepared === undefined ? event : prepared.event
    if (eventName === undefined) {
      throw new HookrunError('no event: name one (hookrun fire tool:pre_execute), or send a payload with hook_event_name and --format')
    }
    const payload = prepared?.payload ?? read
    Object.assign(known, { name: eventName, payload, tool: text(flags.tool, 'tool') ?? prepared?.tool, prepared })
    // Claude Code's entry run by another agent (Cursor, VS Code, an Agent SDK app) that runs
    // hookrun's own answer for this event too: that one answers, this one stands aside.
    const ownerEvent = prepared?.agentEvent ?? prepared?.event
    if (!flags.explain && prepared?.dialect.name === 'claude' && ownerEvent !== undefined && mayBeClaudeCaller(payload, io.env)) {
      const { answeredByCaller } = await import('../install/claude-callers.ts')
      const roots = payload.workspace_roots
      const cwd =
        folder(flags.cwd) ??
        io.env.CURSOR_PROJECT_DIR ??
        (Array.isArray(roots) && typeof roots[0] === 'string'
          ? roots[0]
          : (agentWorkingDirectory(payload, prepared.dialect.project, io.env) ?? process.cwd()))
      const elsewhere = answeredByCaller(ownerEvent, { project: findProjectRoot(cwd) ?? cwd, env: io.env }, payload)
      if (elsewhere !== undefined) {
        await io.stderr(
          `hookrun: ${elsewhere.caller.label} runs this Claude Code entry and answers ${ownerEvent} through ${elsewhere.answer}; this entry gives no opinion, so hooks run once\n`,
        )
        await io.stdout('{}\n')
        return setExitCode(0)
      }
    }
    // --events when asked; else, on a terminal only, which long-running hook is running (stderr).
    const progress =
      text(flags.events, 'events') !== undefined
        ? openEvents(String(flags.events))
        : io.stderrIsTerminal
          ? (await import('./progress.ts')).terminalProgress((line) => void io.stderr(line))
          : undefined
    const options = {
      event: eventName,
      payload,
      tool: text(flags.tool, 'tool') ?? prepared?.tool,
      agent: prepared?.dialect.name,
      // hookrun's notices go where this agent shows them on this event (src/dialects).
      ...(prepared && {
        noticeChannels: (dialects ?? (await import('../dialects/index.ts'))).noticeChannels(
          prepared.dialect,
          prepared.agentEvent ?? prepared.dialect.eventName(payload),
        ),
      }),
      // Background work (telemetry export, a policy refresh) runs as a detached hookrun.
      selfCommand: selfCommand(),
      cwd: folder(flags.cwd) ?? agentWorkingDirectory(payload, prepared?.dialect.project, io.env),
      configFiles: configFiles(flags),
      strict: bool(flags.strict, 'strict'),
      env: io.env,
      signal: controller.signal,
      progress,
    }
    if (flags.explain) {
      const { explainCommand } = await import('./explain.ts')
      const paint = flags.person && !flags.json ? await paintFor(io, colour, 'stdout') : undefined
      const result = await explainCommand(options, { prepared, json: flags.json === true, dryRun: flags.dryRun === true, paint })
      await io.stdout(result.output)
      return setExitCode(result.exitCode)
    }
    known.firing = true
    const decision = await fire(options)
    if (controller.signal.aborted) {
      const signal = String(controller.signal.reason) as NodeJS.Signals
      known.interrupted = true
      // On a gate event `blockFailedGate` turns this into the agent's block.
      throw new HookrunError(`interrupted by ${signal}: running hooks were killed`, 128 + (SIGNAL_NUMBERS[signal] ?? 15))
    }
    const rendered = prepared
      ? (dialects ?? (await import('../dialects/index.ts'))).renderFor(prepared.dialect, decision, payload, prepared.agentEvent)
      : { ...renderNative(decision), warnings: [] }
    const recordIn = text(flags.record, 'record') ?? (io.env.HOOKRUN_RECORD || undefined)
    const recorded =
      recordIn === undefined
        ? undefined
        : (await import('./record.ts')).recordCase(resolve(recordIn), {
            event: prepared === undefined ? eventName : event,
            format: prepared?.dialect.name,
            agentEvent: prepared?.agentEvent,
            tool: text(flags.tool, 'tool'),
            payload: read,
            decision,
            exitCode: rendered.exitCode,
          })
    const warnings = [...decision.warnings, ...rendered.warnings, ...(recorded === undefined ? [] : [recorded])]
    // stdout is the agent's protocol and is never coloured; a person may be reading stderr.
    const paint = warnings.length > 0 ? await paintFor(io, colour, 'stderr') : undefined
    for (const warning of warnings) await io.stderr(`hookrun: ${paint?.warn('warning:') ?? 'warning:'} ${warning}\n`)
    if (rendered.stderr) await io.stderr(rendered.stderr)
    if (flags.pretty) await io.stdout((await import('../answer/pretty.ts')).renderPretty(decision, rendered.exitCode))
    else await io.stdout(rendered.stdout)
    setExitCode(rendered.exitCode)
  }

  /**
   * A gate never fails open (docs/guarantees.md): agents read exit 1 as "proceed", so when hookrun itself
   * fails on a gate event it answers with a block, in the agent's own form, and says why.
   */
  async function blockFailedGate(error: unknown, known: KnownEvent): Promise<boolean> {
    // Bad usage is the caller's error, exit 1 as documented; a payload that cannot be read (an
    // agent sent it), what fails once the fire has started, an interrupt (the agent's own timeout
    // killing hookrun mid-gate), or any internal error: a gate blocks.
    if (
      known.name === undefined ||
      (!known.firing && !known.interrupted && error instanceof HookrunError && !(error instanceof PayloadError))
    )
      return false
    let event
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
    const rendered = known.prepared
      ? (await import('../dialects/index.ts')).renderFor(known.prepared.dialect, decision, known.payload, known.prepared.agentEvent)
      : { ...renderNative(decision), warnings: [] }
    await io.stderr(`hookrun: ${why}\n`)
    if (rendered.stderr) await io.stderr(rendered.stderr)
    await io.stdout(rendered.stdout)
    setExitCode(rendered.exitCode)
    return true
  }
}

/**
 * Could another agent than Claude Code be running this Claude Code entry (src/install/claude-callers.ts)?
 * A cheap look at the fields and variables they set, so Claude Code's own fires load nothing more.
 */
function mayBeClaudeCaller(payload: Payload, env: Readonly<Record<string, string | undefined>>): boolean {
  return (
    typeof payload.cursor_version === 'string' ||
    typeof payload.conversation_id === 'string' ||
    typeof payload.hookEventName === 'string' ||
    env.HOOKRUN_AGENT_SDK_HOOKS !== undefined
  )
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

/**
 * The folder a fire finds its projects from (README "Which project"): the project the agent names
 * (its variable, else the payload field it fills from its session: `Dialect.project`), which wins
 * over hookrun's own working directory — the tool's current folder, which follows the model's
 * `cd` (src/config/project.ts). When the agent names none and the working directory is in no
 * project, the payload's `cwd` or Cursor's first workspace root: agents run user-level hooks from
 * their own folder (Cursor: ~/.cursor).
 */
function agentWorkingDirectory(
  payload: Record<string, unknown>,
  source: ProjectSource | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const named = agentProjectDir(source, env, payload)
  if (named !== undefined) {
    const start = projectSearchStart(named, process.cwd())
    // Started above its repositories (in ~/src), the agent names a folder with no hooks: there
    // are no gates to leave behind, so the folder the tool is in finds its project, as before.
    return start !== process.cwd() && findProjectRoot(start) === undefined ? undefined : start
  }
  const roots = payload.workspace_roots
  const candidates = [payload.cwd, Array.isArray(roots) ? roots[0] : undefined]
  if (candidates.every((candidate) => typeof candidate !== 'string') || findProjectRoot(process.cwd()) !== undefined) return undefined
  for (const candidate of candidates) {
    if (typeof candidate !== 'string' || !isAbsolute(candidate)) continue
    try {
      if (statSync(candidate).isDirectory()) return candidate
    } catch {
      // Not a folder here (a remote agent's path): use the working directory instead.
    }
  }
  return undefined
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

/** The flags a common fire line has, each taking one value. */
const SIMPLE_FLAGS = new Set(['payload', 'format', 'cwd', 'tool'])

/**
 * `fire [event]` with any of `--payload`, `--format`, `--cwd`, `--tool` (each once, `--flag value`
 * or `--flag=value`): what agents' hook commands and scripts run, read without cac. Undefined for
 * anything else, which cac reads as before; so is anything cac would read differently (its flag
 * parser turns a number-like value into a number, and a value that starts with `-` is a flag).
 */
export function simpleFireArgs(argv: readonly string[]): { event: string | undefined; flags: FireFlags } | undefined {
  if (argv[0] !== 'fire') return undefined
  const flags: Record<string, string> = {}
  let event: string | undefined
  for (let index = 1; index < argv.length; index++) {
    const arg = argv[index]!
    if (!arg.startsWith('-')) {
      if (event !== undefined || !plainValue(arg)) return undefined
      event = arg
      continue
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s) as [string, string | undefined]
    if (!arg.startsWith('--') || !SIMPLE_FLAGS.has(name) || name in flags) return undefined
    const value = inline ?? argv[++index]
    if (value === undefined || !(value === '-' || (plainValue(value) && !value.startsWith('-')))) return undefined
    flags[name] = value
  }
  return { event, flags }
}

/** A value cac's flag parser (mri) keeps as the same text: not empty, not number-like. */
function plainValue(value: string): boolean {
  return value !== '' && +value * 0 !== 0
}
