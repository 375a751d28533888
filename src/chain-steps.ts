// One step of the chain run (`StepRunner`): its input, its run (in-process or src/run/hook.ts), its answer.
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
  /** Run with the payload as earlier steps left it; a rewrite travels in the result's `answer`. */
  run(event: FiredEvent, payload: Payload, signal: AbortSignal | undefined): Promise<HookResult>
}

/** What the chain runs its steps with: what a hook needs (src/run/hook.ts), and the chain's budget. */
export interface ChainContext extends HookContext {
  /** How long the chain may run in all (default CHAIN_BUDGET_SECONDS); past it a gate blocks. */
  readonly budgetMs?: number
}

function projectDirVariables(hook: Hook, context: ChainContext): Readonly<Record<string, string>> | undefined {
  // A project's own hooks get the project root whatever the agent set: trust pinned the files these paths name.
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
 * The payload's own bytes with what `withEventName` adds inside the closing brace, as pieces (a 10 MB payload is
 * not copied); undefined (serialise instead) when it did not come from bytes or has a null event field.
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

/** Runs the chain's steps as the chain asks: each step's input (once per payload version), its run and answer, its handoffs. */
export class StepRunner {
  /** Detached hooks and non-blocking http hooks: what they must have before hookrun exits. */
  readonly handoffs: Promise<unknown>[] = []
  /** A hook was let go on purpose (blocking: false, or an async answer): its descendants may outlive the chain. */
  letGo = false
  private readonly startTimes = new WeakMap<HookResult, number>()
  /** The payload as command hooks read it on stdin, per version of it. */
  private readonly stdin = new WeakMap<Payload, ChildInput>()
  private readonly event: FiredEvent
  private readonly original: Payload
  /** The payload as the first step sees it (`withEventName`): the chain's payload until a step rewrites it. */
  readonly first: Payload
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
      verifyMaterial: materialCheck(context.trusts ?? [], context.env, context.footprints),
    }
    this.warnings = warnings
    this.first = withEventName(original, event)
  }

  /** When the step that gave `result` started (epoch ms). */
  startOf(result: HookResult): number | undefined {
    return this.startTimes.get(result)
  }

  /** Run one step on the payload as it saw it; a step that decides is reported to `--events`. */
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

  /** A hook of the config; a `blocking: false` one gives no decision, and what it says becomes the chain's warnings. */
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
