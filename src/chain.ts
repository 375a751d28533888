// The selected hooks as a chain: stages by their rules, rewrites judged again, hookrun's own block last.
import { type FiredEvent, type Hook, type HookResult, type HookRule, type Payload, ruleOfShape } from './core/types.ts'
import { killEscapees, newFireId, pidClock } from './run/escapees.ts'
import { sameJudgedInput, toolInput, withRewrite } from './payload/fields.ts'
import { answerUpdatedInput } from './answer/interpret.ts'
import type { Rewrites } from './answer/decide.ts'
import { HOOKRUN, hookrunBlock } from './answer/blocks.ts'
import { isGate } from './event/events.ts'
import { CHAIN_BUDGET_SECONDS } from './config/defaults.ts'
import { type ChainContext, type ChainStep, StepRunner } from './chain-steps.ts'

export type { ChainContext, ChainStep, InProcessStep } from './chain-steps.ts'
export type { ProgressRecord } from './run/hook.ts'

/** How many times the chain's judges may judge an input a later hook rewrote (the first run is round 1). */
export const MAX_JUDGING_ROUNDS = 3

/** Which input one run of a step judged: the payload as it saw it, or with its own rewrite applied. */
interface JudgedInput {
  readonly step: string
  readonly round: number
  /** Read its tool input and prompt only when shown: a long prompt stays undecoded otherwise. */
  readonly payload: Payload
}

/** What running the steps gave: the results in config order, and the steps a block kept from running. */
export interface ChainOutcome {
  readonly results: HookResult[]
  /** The step of each result (same order); a block of hookrun's own that ends the results has none. */
  readonly ran: ChainStep[]
  /** Chain steps that did not run because an earlier step blocked. */
  readonly skipped: ChainStep[]
  readonly rewrites: Rewrites
  readonly warnings: string[]
  /** When each result's step started (epoch ms, same order as `results`): for telemetry spans. */
  readonly startedAt: number[]
  /** Which input each run judged, every round in the order they ran (`explain` shows it). */
  readonly judged: JudgedInput[]
}

/** The rule a step runs under: function hooks are hookrun's own, so they chain. */
export function ruleOf(step: ChainStep): HookRule {
  return 'run' in step ? 'chain' : ruleOfShape(step.shape)
}

/** Consecutive `all` steps form one stage, run concurrently (in order when a group says `sequential`); a chain step is its own stage. */
function stagesOf(steps: readonly ChainStep[]): { rule: HookRule; steps: ChainStep[]; sequential: boolean }[] {
  const stages: { rule: HookRule; steps: ChainStep[]; sequential: boolean }[] = []
  for (const step of steps) {
    const rule = ruleOf(step)
    const sequential = !('run' in step) && step.sequential === true
    const last = stages.at(-1)
    if (rule === 'all' && last?.rule === 'all') {
      last.steps.push(step)
      last.sequential ||= sequential
    } else stages.push({ rule, steps: [step], sequential: rule === 'chain' || sequential })
  }
  return stages
}

/**
 * Run the selected steps (docs/protocol.md): hookrun's own hooks chain (in order, stop at a block); an agent's
 * handlers keep its rule (all run concurrently on the payload as it was; rewrites apply after, in config order).
 */
export async function runChain(
  steps: readonly ChainStep[],
  event: FiredEvent,
  original: Payload,
  outerContext: ChainContext,
): Promise<ChainOutcome> {
  // The hooks run under the chain's budget as well as the caller's signal.
  const budget = chainBudget(outerContext)
  const chain = new ChainRun(event, original, { ...outerContext, signal: budget.signal }, steps)
  let unsettled: string | undefined
  // The budget's timer ends with the hooks, however they end (a payload that cannot be read throws).
  try {
    unsettled = await chain.runRounds(steps)
  } finally {
    budget.end()
  }
  // hookrun's own block, after the hooks' results: the judges never agreed, or a gate's hooks ran out of time.
  let block = unsettled
  if (budget.expired() && !outerContext.signal?.aborted) {
    const reason = `hooks ran past hookrun's budget of ${Math.round(budget.ms / 1000)} s for one event; the ones still running were killed`
    if (isGate(event.name)) block = `${reason}, so the event is blocked`
    else chain.warnings.push(reason)
  }
  return chain.finish(block)
}

/** One run of the chain: the results so far, the payload as the steps left it, and what is still running. */
class ChainRun {
  readonly results: HookResult[] = []
  readonly ran: ChainStep[] = []
  readonly skipped: ChainStep[] = []
  readonly warnings: string[] = []
  readonly rewrites: { updatedInput?: Record<string, unknown>; updatedPrompt?: string } = {}
  /** When each result's step started (same order). */
  readonly startedAt: number[] = []
  /** Per result (same order): the payload version its step approved (what it saw, or its own rewrite). */
  readonly approved: Payload[] = []
  readonly judged: JudgedInput[] = []
  private readonly fireId: string | undefined
  /** Read before any command starts: the sweep then looks only at processes created since. */
  private readonly pidsBefore: ReturnType<typeof pidClock>
  payload: Payload
  blocked = false
  /** Runs each step (src/chain-steps.ts): its input, its checks right before it starts, what it leaves running. */
  private readonly steps: StepRunner

  private readonly event: FiredEvent
  private readonly context: ChainContext

  constructor(event: FiredEvent, original: Payload, context: ChainContext, steps: readonly ChainStep[]) {
    this.event = event
    this.context = context
    // Blocking command hooks carry a marker their descendants inherit (src/run/escapees.ts).
    this.fireId = context.fireId === undefined ? newFireId() : context.fireId
    this.steps = new StepRunner(event, original, context, this.fireId, this.warnings)
    this.payload = this.steps.first
    this.pidsBefore = this.fireId !== undefined && steps.some((step) => !('run' in step)) ? pidClock() : undefined
  }

  /**
   * Round 1: each stage by its rule. Then on a gate event each hook that judged an input a later hook rewrote runs
   * again on the input as it now is (README "Rewrites are judged again"), until every judge approved the final input;
   * still rewriting after MAX_JUDGING_ROUNDS rounds, the block's reason is returned.
   */
  async runRounds(steps: readonly ChainStep[]): Promise<string | undefined> {
    for (const stage of stagesOf(steps)) {
      if (this.context.signal?.aborted) break
      if (stage.rule === 'chain' && this.blocked) {
        this.skipped.push(...stage.steps)
        continue
      }
      for (const together of stage.sequential ? stage.steps.map((step) => [step]) : [stage.steps]) {
        if (this.context.signal?.aborted) break
        await this.runTogether(together)
      }
    }
    if (!isGate(this.event.name)) return undefined
    for (let round = 2; !this.blocked && !this.context.signal?.aborted; round++) {
      const stale = this.results.flatMap((result, index) =>
        judgesInput(result) && !sameJudgedInput(this.approved[index]!, this.payload) ? [index] : [],
      )
      if (stale.length === 0) return undefined
      if (round > MAX_JUDGING_ROUNDS) {
        const names = stale.map((index) => `'${this.ran[index]!.name}'`).join(', ')
        return `hooks kept rewriting the input: after ${MAX_JUDGING_ROUNDS} rounds ${names} had still judged an input other than the one that would run, so no gate has approved it; make the rewriting hooks agree (see 'hookrun explain')`
      }
      for (const index of stale) {
        if (this.blocked || this.context.signal?.aborted) break
        await this.runTogether([this.ran[index]!], round, [index])
      }
    }
    return undefined
  }

  /** Run steps together on the payload as it is now; each result kept in config order (at `at` in a later round), its rewrite applied. */
  private async runTogether(steps: readonly ChainStep[], round = 1, at?: readonly number[]): Promise<void> {
    const seen = this.payload
    const results = await Promise.all(steps.map((step) => this.steps.runStep(step, seen)))
    for (const [index, step] of steps.entries()) {
      const result = results[index]!
      const slot = at?.[index] ?? this.results.length
      this.ran[slot] = step
      this.results[slot] = round === 1 ? result : { ...result, report: { ...result.report, round } }
      this.startedAt[slot] = this.steps.startOf(result) ?? performance.timeOrigin + performance.now()
      this.approved[slot] = seen
      if (result.blocks) {
        this.blocked = true
        if (judgesInput(result)) this.judged.push({ step: step.name, round, payload: seen })
        continue
      }
      const answer = result.answer
      const updatedInput = answerUpdatedInput(answer, toolInput(this.payload))
      if (updatedInput !== undefined || answer?.updatedPrompt !== undefined) {
        if (updatedInput !== undefined) this.rewrites.updatedInput = updatedInput
        if (answer?.updatedPrompt !== undefined) this.rewrites.updatedPrompt = answer.updatedPrompt
        this.payload = withRewrite(this.payload, updatedInput, answer?.updatedPrompt)
        // A rewrite is what its own hook approved; concurrent handlers' rewrites apply in config order.
        this.approved[slot] = withRewrite(seen, updatedInput, answer?.updatedPrompt)
      }
      if (judgesInput(result)) this.judged.push({ step: step.name, round, payload: this.approved[slot]! })
    }
  }

  /** The outcome: hookrun's own block last (with no step: `ran` is one shorter), handoffs awaited, escapees ended. */
  async finish(block: string | undefined): Promise<ChainOutcome> {
    if (block !== undefined) {
      const commandStep = this.ran.find((step): step is Hook => !('run' in step))
      this.results.push(hookrunBlock(block, commandStep?.source.file ?? this.context.projectRoot))
      this.startedAt.push(performance.timeOrigin + performance.now())
      this.approved.push(this.payload)
      this.blocked = true
    }
    await Promise.all(this.steps.handoffs)
    // What the hooks left running ends with the chain, unless a hook was let go on purpose.
    if (this.fireId !== undefined && !this.steps.letGo && this.ran.some((step) => !('run' in step)))
      await killEscapees(this.fireId, this.pidsBefore)
    const { results, ran, skipped, rewrites, warnings, startedAt, judged } = this
    return { results, ran, skipped, rewrites, warnings, startedAt, judged }
  }
}

/** The chain's own deadline beside the caller's signal: one signal that aborts on either. */
function chainBudget(context: ChainContext): { signal: AbortSignal; ms: number; expired(): boolean; end(): void } {
  const ms = context.budgetMs ?? CHAIN_BUDGET_SECONDS * 1000
  const controller = new AbortController()
  let expired = false
  const forward = () => controller.abort(context.signal?.reason)
  if (context.signal?.aborted) forward()
  else context.signal?.addEventListener('abort', forward, { once: true })
  const timer = setTimeout(() => {
    expired = true
    controller.abort('budget')
  }, ms)
  // Never what keeps a program that called `fire()` alive.
  ;(timer as { unref?: () => void }).unref?.()
  return {
    signal: controller.signal,
    ms,
    expired: () => expired,
    end: () => {
      clearTimeout(timer)
      context.signal?.removeEventListener('abort', forward)
    },
  }
}

/** A run that judged the input: anything that ran and answered, not a hook let go to the background. */
function judgesInput(result: HookResult): boolean {
  return result.report.outcome !== 'background' && result.report.name !== HOOKRUN
}
