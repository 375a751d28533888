// One step of the chain run (`StepRunner`): its input (the bytes that came in, or the payload
// serialised once per version), then in-process, or handed to the run stage (src/run/hook.ts) and
// its run read into an answer (src/answer/hook-result.ts); what a background start leaves for the end.
import { HANDLER_VARIABLES, handlerVariablesOf } from './agents/vocabulary.ts'
import { type FiredEvent, type Hook, type HookResult, needsTrust, type Payload } from './core/types.ts'
import { payloadBytes } from './payload/payload.ts'
import { withEventName } from './payload/fields.ts'
import type { ChildInput } from './run/child.ts'
import { type HookContext, runHook } from './run/hook.ts'
import { hookResult } from './answer/hook-result.ts'
import { materialCheck } from './trust/verify.ts'

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

/** What the chain runs its steps with: what a hook needs (src/run/hook.ts), and the chain's budget. */
export interface ChainContext extends HookContext {
  /** How long the chain may run in all (default CHAIN_BUDGET_SECONDS); past it a gate blocks. */
  readonly budgetMs?: number
}

function projectDirVariables(hook: Hook, context: ChainContext): Readonly<Record<string, string>> | undefined {
  // A project's own hooks get the project root whatever the agent set: trust pinned the files
  // these paths name (src/trust/material.ts), so they must mean the same when the hook runs; an
  // enclosing project's hooks (src/config/files.ts) run in their own project.
  if (needsTrust(hook.source.layer)) {
    const projectRoot = hook.projectRoot ?? context.projectRoot
    return { ...Object.fromEntries(HANDLER_VARIABLES.map((name) => [name, projectRoot])), ...hook.env }
  }
  // A handler written for an agent reads that agent's project-folder variables (its module's nativeConfig).
  const names = handlerVariablesOf(hook.shape)
  if (names === undefined) return hook.env
  return { ...Object.fromEntries(names.map((name) => [name, context.env[name] ?? context.projectRoot])), ...hook.env }
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

/**
 * Runs the chain's steps (src/chain.ts runChain), one at a time as the chain asks: a step's
 * input (the bytes that came in while nothing rewrote them, else the payload serialised once per
 * version), its run (in-process, or by the run stage, whose run is then read into its answer),
 * and what a start in the background leaves for the end of the chain.
 */
export class StepRunner {
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
  /** The payload as the first step sees it (`withEventName`): the chain's payload until a step rewrites it. */
  readonly first: Payload
  /** The chain's context. */
  private readonly context: ChainContext
  /** The context hooks run with: the fire's marker and the trust check at use. */
  private readonly hookContext: HookContext
  /** The chain's warnings, which background starts add to. */
  private readonly warnings: string[]

  constructor(event: FiredEvent, original: Payload, context: ChainContext, fireId: string | undefined, warnings: string[]) {
    this.event = event
    this.original = original
    this.context = context
    this.hookContext = {
      ...context,
      ...(fireId !== undefined && { fireId }),
      verifyMaterial: materialCheck(context.trusts ?? [], context.env),
    }
    this.warnings = warnings
    this.first = withEventName(original, event)
  }

  /** When the step that gave `result` started (epoch ms). */
  startOf(result: HookResult): number | undefined {
    return this.startTimes.get(result)
  }

  /**
   * Run one step on the payload as it saw it: in-process, or a hook of the config. A hook that
   * decides (not one let go to the background) is reported to `--events` as it starts and ends.
   */
  async runStep(step: ChainStep, seen: Payload): Promise<HookResult> {
    const { event, context } = this
    const started = performance.timeOrigin + performance.now()
    const decides = 'run' in step || step.blocking
    if (decides) context.progress?.({ type: 'hook_started', hook: step.name, event: event.qualified, time: new Date().toISOString() })
    const result = 'run' in step ? await step.run(event, seen, context.signal) : await this.runHook(step, seen)
    if (decides) {
      if (result.report.async) this.letGo = true
      const { outcome, exitCode, durationMs, timedOut } = result.report
      context.progress?.({ type: 'hook_finished', hook: step.name, outcome, exitCode, durationMs, timedOut })
    }
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

  /**
   * A hook of the config: handed to the run stage with its input and its own variables, its run
   * read into its answer. A `blocking: false` hook is started (an http hook sent) now and waited
   * for only at the end; it gives no decision, and what it says is the chain's warning.
   */
  private async runHook(hook: Hook, seen: Payload): Promise<HookResult> {
    const variables = projectDirVariables(hook, this.context)
    const input = this.inputOf(seen)
    const ran = await runHook(hook, this.event, seen, input, variables, this.hookContext)
    const result = await hookResult(hook, this.event, ran)
    if (hook.blocking) return result
    if (ran.kind === 'started') {
      this.handoffs.push(ran.handoff.then((warnings) => this.warnings.push(...warnings)))
      this.letGo ||= ran.letGo
    }
    this.warnings.push(...result.warnings)
    return { ...result, warnings: [] }
  }
}
