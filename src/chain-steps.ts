// One hook of the chain run (`StepRunner`): a command as a process group, an http hook's POST, or
// a background start, each with the checks made right before it runs (trust of its files, a value cut short).
import { dirname, resolve } from 'node:path'
import pkg from '../package.json' with { type: 'json' }
import { type FiredEvent, type Hook, type HookResult, type HttpRun, type HttpTarget, needsTrust, type Payload } from './core/types.ts'
import { hookEnvironment, variablesWithNul } from './run/env.ts'
import { FIRE_ID_VARIABLE } from './run/escapees.ts'
import { payloadBytes } from './payload/payload.ts'
import { spreadKeepingLongStrings } from './payload/long-strings.ts'
import { interpretHttp, interpretRun } from './answer/interpret.ts'
import { readAnswer } from './answer/read.ts'
import { runCommand, startDetached } from './run/command.ts'
import type { ChildInput } from './run/child.ts'
import { hookrunBlock, untrustedNotice } from './answer/blocks.ts'
import { isGate } from './event/events.ts'
import type { ProjectTrust } from './trust/trust.ts'

/** One step of the chain: a command hook from the config, or a hook that runs in-process. */
export type ChainStep = Hook | InProcessStep

/** A hook that runs inside the caller's process: the library's function hooks (src/library/function-hook.ts). */
export interface InProcessStep {
  readonly name: string
  /**
   * Run with the payload as earlier steps left it. A rewrite travels in the result's `answer`
   * (`updatedInput`, `updatedPrompt`), exactly as a command hook's JSON answer carries it.
   */
  run(event: FiredEvent, payload: Payload, signal: AbortSignal | undefined): Promise<HookResult>
}

/** NDJSON records of `--events` (the SDK spec's hook_started / hook_output / hook_finished). */
export type ProgressRecord =
  | { readonly type: 'hook_started'; readonly hook: string; readonly event: string; readonly time: string }
  | { readonly type: 'hook_output'; readonly hook: string; readonly stream: 'stdout' | 'stderr'; readonly line: string }
  | {
      readonly type: 'hook_finished'
      readonly hook: string
      readonly outcome: string
      readonly exitCode: number | null
      readonly durationMs: number
      readonly timedOut: boolean
    }

export interface ChainContext {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly depth: number
  readonly projectRoot: string
  readonly signal?: AbortSignal
  readonly progress?: (record: ProgressRecord) => void
  /** The marker blocking command hooks carry (src/run/escapees.ts); made by `runChain`. */
  readonly fireId?: string
  /** How long the chain may run in all (default CHAIN_BUDGET_SECONDS); past it a gate blocks. */
  readonly budgetMs?: number
  /** Each project's trust as the fire found it (outermost first): project hooks' files are checked again as each runs. */
  readonly trusts?: readonly ProjectTrust[]
  /** What changed in a project hook's files since trust (src/trust/verify.ts); made by `runChain`. */
  readonly verifyMaterial?: (hook: Hook) => Promise<string[]>
}

/** A command hook's environment and folder: hookrun's variables, its project's, its own `env`. */
function commandSetup(hook: Hook, event: FiredEvent, payload: Payload, context: ChainContext) {
  // An enclosing project's hooks (src/config/files.ts) run in their own project, as trust pinned them.
  const projectRoot = hook.projectRoot ?? context.projectRoot
  const env = hookEnvironment(
    context.env,
    event,
    payload,
    { hookName: hook.name, projectDir: projectRoot, configDir: dirname(hook.source.file), depth: context.depth },
    projectDirVariables(hook, context, projectRoot),
    hook.envPrefixes,
  )
  const cwd = hook.cwd === undefined ? projectRoot : resolve(projectRoot, hook.cwd)
  return { env, cwd }
}

/**
 * The project-folder variables a handler written for an agent reads, as that agent sets them
 * (agent-hook-protocols.md §1.6, §6.1, §6.3: Gemini CLI and Cursor also set Claude's name).
 */
const PROJECT_DIR_VARIABLES: Readonly<Partial<Record<Hook['shape'], readonly string[]>>> = {
  claude: ['CLAUDE_PROJECT_DIR'],
  gemini: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  cursor: ['CURSOR_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
}

function projectDirVariables(hook: Hook, context: ChainContext, projectRoot: string): Readonly<Record<string, string>> | undefined {
  // A project's own hooks get the project root whatever the agent set: trust pinned the files
  // these paths name (src/trust/material.ts), so they must mean the same when the hook runs.
  if (needsTrust(hook.source.layer))
    return { ...Object.fromEntries(ALL_PROJECT_DIR_VARIABLES.map((name) => [name, projectRoot])), ...hook.env }
  const names = PROJECT_DIR_VARIABLES[hook.shape]
  if (names === undefined) return hook.env
  return { ...Object.fromEntries(names.map((name) => [name, context.env[name] ?? context.projectRoot])), ...hook.env }
}

const ALL_PROJECT_DIR_VARIABLES = [...new Set(Object.values(PROJECT_DIR_VARIABLES).flat())]

async function runCommandHook(
  hook: Hook,
  event: FiredEvent,
  payload: Payload,
  input: ChildInput,
  context: ChainContext,
): Promise<HookResult> {
  const cut = variablesWithNul(event, payload)
  const nulWarning =
    cut.length === 0
      ? undefined
      : `${cut.join(', ')} would hold a NUL character, which an environment variable cannot carry (the hook would see only the part before it)`
  // A gate must not judge a value cut short: it fails closed instead of running.
  if (nulWarning !== undefined && isGate(event.name)) {
    const blocked = hookrunBlock(`hook '${hook.name}' was not run: ${nulWarning}`, hook.source.file)
    return { ...blocked, report: { ...blocked.report, name: hook.name, source: hook.source.layer } }
  }
  const { env, cwd } = commandSetup(hook, event, payload, context)
  const incomplete = incompleteCommandBlock(hook, event, env)
  if (incomplete !== undefined) return incomplete
  // Last before the spawn: what an earlier hook (or anyone) changed meanwhile shows here.
  const changed = await changedMaterialResult(hook, event, context)
  if (changed !== undefined) return changed
  const progress = context.progress
  const run = await runCommand(hook.command, {
    cwd,
    env: context.fireId === undefined ? env : { ...env, [FIRE_ID_VARIABLE]: context.fireId },
    input,
    timeoutMs: hook.timeout * 1000,
    signal: context.signal,
    allowAsync: true,
    onLine: progress && ((stream, line) => progress({ type: 'hook_output', hook: hook.name, stream, line })),
  })
  const result = interpretRun(hook, event, run, { PATH: env.PATH }, await readAnswer(run.stdout))
  return nulWarning === undefined
    ? result
    : { ...result, warnings: [...result.warnings, `hook '${hook.name}': ${nulWarning}; it ran with the value cut there`] }
}

/**
 * Trust checked at the moment of use: a project hook whose own files changed since the project was
 * trusted does not run, exactly as when the project had changed before the fire: on a gate event
 * the event is blocked, elsewhere the hook is skipped with the same notice.
 */
async function changedMaterialResult(hook: Hook, event: FiredEvent, context: ChainContext): Promise<HookResult | undefined> {
  const changed = await context.verifyMaterial?.(hook)
  const trust = context.trusts?.find((one) => one.root === hook.projectRoot) ?? context.trusts?.at(-1)
  if (changed === undefined || changed.length === 0 || trust === undefined) return undefined
  const notice = untrustedNotice({ ...trust, trusted: false, reason: 'changed', changed })
  if (isGate(event.name)) {
    const blocked = hookrunBlock(notice, hook.source.file)
    return { ...blocked, report: { ...blocked.report, name: hook.name, source: hook.source.layer } }
  }
  const report = {
    name: hook.name,
    source: hook.source.layer,
    file: hook.source.file,
    outcome: 'error' as const,
    exitCode: null,
    durationMs: 0,
    timedOut: false,
    reason: notice,
  }
  return { report, blocks: false, context: [], warnings: [`hook '${hook.name}' was not run: ${notice}`] }
}

/**
 * A gate never judges a value it cannot see: a command longer than an environment variable holds
 * (Linux: 128 KiB with its name) is in HOOKRUN_BASH_COMMAND only in part, so on a gate event the
 * hook does not run and the event is blocked. Elsewhere the hook runs with the part and
 * HOOKRUN_BASH_COMMAND_TRUNCATED=1; the whole payload is on its stdin either way.
 */
function incompleteCommandBlock(hook: Hook, event: FiredEvent, env: Readonly<Record<string, string | undefined>>): HookResult | undefined {
  if (env.HOOKRUN_BASH_COMMAND_TRUNCATED !== '1' || !isGate(event.name)) return undefined
  const reason = `hook '${hook.name}' was not run: the command is longer than an environment variable can hold (128 KiB), so HOOKRUN_BASH_COMMAND would hold only its start and a gate reading it would judge part of the command`
  const blocked = hookrunBlock(reason, hook.source.file)
  return { ...blocked, report: { ...blocked.report, name: hook.name, source: hook.source.layer } }
}

/**
 * The payload's own bytes with what `withEventName` adds appended inside the closing brace: the
 * same JSON a hook would get from serialising that object, without decoding and encoding it
 * again, and as pieces around the addition (a 10 MB payload is not copied to add a field).
 * Undefined (serialise instead) when the payload did not come from bytes or has a null event
 * field that `withEventName` would replace.
 */
function passedThrough(original: Payload, event: FiredEvent): ChildInput | undefined {
  const raw = payloadBytes(original)
  if (
    raw === undefined ||
    ('event' in original && original.event == null) ||
    ('hook_event_name' in original && original.hook_event_name == null)
  )
    return undefined
  const added = [
    ...('event' in original ? [] : [['event', event.qualified]]),
    ...('hook_event_name' in original ? [] : [['hook_event_name', event.name]]),
  ]
  const bytes = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw // a BOM the decoder skipped
  if (added.length === 0) return bytes
  let close = bytes.length - 1
  while (close > 0 && bytes[close] !== 0x7d) close-- // the object's closing brace (only whitespace follows it)
  const fields = added.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')
  const insert = new TextEncoder().encode(Object.keys(original).length > 0 ? `,${fields}` : fields)
  return [bytes.subarray(0, close), insert, bytes.subarray(close)]
}

/** POST the payload to an http hook; its code loads only when one runs. */
async function postHttpHook(hook: Hook, target: HttpTarget, body: string, context: ChainContext): Promise<HttpRun> {
  const { postHook } = await import('./run/http.ts')
  return postHook(target, body, {
    timeoutMs: hook.timeout * 1000,
    env: context.env,
    signal: context.signal,
    userAgent: `hookrun/${pkg.version}`,
  })
}

async function runHttpHook(hook: Hook, target: HttpTarget, event: FiredEvent, body: string, context: ChainContext): Promise<HookResult> {
  const run = await postHttpHook(hook, target, body, context)
  const parsed =
    run.failure === undefined && run.status !== undefined && Math.floor(run.status / 100) === 2 ? await readAnswer(run.body) : {}
  return interpretHttp(hook, event, run, parsed)
}

/**
 * Hooks get the event name in the payload too, unless the agent already put its own there, and an
 * MCP call's server and tool in `mcp` whatever the agent called them (src/event/mcp.ts).
 */
export function withEventName(payload: Payload, event: FiredEvent): Payload {
  const mcp = event.mcp !== undefined && !('mcp' in payload)
  if ('event' in payload && 'hook_event_name' in payload && !mcp) return payload
  return spreadKeepingLongStrings(payload, {
    event: payload.event ?? event.qualified,
    hook_event_name: payload.hook_event_name ?? event.name,
    ...(mcp && { mcp: { server: event.mcp!.server, tool: event.mcp!.tool } }),
  })
}

/** What a hook started in the background reports: it decides nothing. */
function backgroundResult(hook: Hook): HookResult {
  return {
    report: {
      name: hook.name,
      source: hook.source.layer,
      file: hook.source.file,
      outcome: 'background',
      exitCode: null,
      durationMs: 0,
      timedOut: false,
    },
    blocks: false,
    context: [],
    warnings: [],
  }
}

/**
 * Runs the chain's steps (src/chain.ts runChain), one at a time as the chain asks: a step's
 * input (the bytes that came in while nothing rewrote them, else the payload serialised once per
 * version), its run (in-process, an http POST or a command, with the checks right before it
 * starts), or its start in the background, and what that leaves for the end of the chain.
 */
class StepRunner {
  /** Detached hooks and non-blocking http hooks: what they must have before hookrun exits. */
  readonly handoffs: Promise<unknown>[] = []
  /** A hook was let go on purpose (blocking: false, or an async answer): its descendants may outlive the chain. */
  letGo = false
  private readonly startTimes = new WeakMap<HookResult, number>()
  /** The payload as command hooks read it on stdin, per version of it. */
  private readonly stdin = new WeakMap<Payload, ChildInput>()
  private readonly event: FiredEvent
  /** The payload as it came. */
  private readonly original: Payload
  /** The payload as the first step sees it (`withEventName`). */
  private readonly first: Payload
  /** The chain's context. */
  private readonly context: ChainContext
  /** The context command hooks get: with the fire's marker and the trust check at use. */
  private readonly chainContext: ChainContext
  /** The chain's warnings, which background starts add to. */
  private readonly warnings: string[]

  constructor(event: FiredEvent, original: Payload, first: Payload, context: ChainContext, chainContext: ChainContext, warnings: string[]) {
    this.event = event
    this.original = original
    this.first = first
    this.context = context
    this.chainContext = chainContext
    this.warnings = warnings
  }

  /** When the step that gave `result` started (epoch ms). */
  startOf(result: HookResult): number | undefined {
    return this.startTimes.get(result)
  }

  /** Run one step on the payload as it saw it. */
  async runStep(step: ChainStep, seen: Payload): Promise<HookResult> {
    const started = performance.timeOrigin + performance.now()
    const result = await this.runOne(step, seen)
    this.startTimes.set(result, started)
    return result
  }

  private inputOf(seen: Payload): ChildInput {
    let input = this.stdin.get(seen)
    if (input === undefined) {
      input = (seen === this.first ? passedThrough(this.original, this.event) : undefined) ?? JSON.stringify(seen)
      this.stdin.set(seen, input)
    }
    return input
  }

  /** An http hook's body is text (its runner sends strings). */
  private bodyOf(seen: Payload): string {
    const input = this.inputOf(seen)
    return typeof input === 'string' ? input : new TextDecoder().decode(input instanceof Uint8Array ? input : Buffer.concat(input))
  }

  private async runOne(step: ChainStep, seen: Payload): Promise<HookResult> {
    const { event, context, chainContext } = this
    if (!('run' in step) && !step.blocking) return this.startInBackground(step, seen)
    const progress = context.progress
    progress?.({ type: 'hook_started', hook: step.name, event: event.qualified, time: new Date().toISOString() })
    const result =
      'run' in step
        ? await step.run(event, seen, context.signal)
        : step.http !== undefined
          ? await runHttpHook(step, step.http, event, this.bodyOf(seen), context)
          : await runCommandHook(step, event, seen, this.inputOf(seen), chainContext)
    if (result.report.async) this.letGo = true
    const { outcome, exitCode, durationMs, timedOut } = result.report
    progress?.({ type: 'hook_finished', hook: step.name, outcome, exitCode, durationMs, timedOut })
    return result
  }

  /** A `blocking: false` hook: started (an http hook sent) now, waited for only at the end; it gives no decision. */
  private async startInBackground(step: Hook, seen: Payload): Promise<HookResult> {
    const { context, chainContext } = this
    if (step.http !== undefined) {
      this.handoffs.push(
        postHttpHook(step, step.http, this.bodyOf(seen), context).then((run) => {
          for (const warning of run.warnings ?? []) this.warnings.push(`hook '${step.name}' ${warning}`)
          if (run.failure !== undefined || run.timedOut)
            this.warnings.push(`hook '${step.name}' (blocking: false) ${run.failure ?? 'did not answer in time'}`)
        }),
      )
      return backgroundResult(step)
    }
    const changed = await changedMaterialResult(step, this.event, chainContext)
    if (changed !== undefined) {
      this.warnings.push(
        ...changed.warnings,
        ...(changed.blocks ? [`hook '${step.name}' (blocking: false) was not run: ${changed.reason}`] : []),
      )
      return backgroundResult(step)
    }
    const { env, cwd } = commandSetup(step, this.event, seen, context)
    this.handoffs.push(
      startDetached(step.command, { cwd, env, input: this.inputOf(seen) }).then((error) => {
        if (error !== undefined) this.warnings.push(`hook '${step.name}' (blocking: false) ${error}`)
      }),
    )
    this.letGo = true
    return backgroundResult(step)
  }
}
export { StepRunner }
