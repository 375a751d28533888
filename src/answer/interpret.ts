// Stage interpret: a hook's exit code and answer → one HookResult, by the rules of the shape it was written in.
import {
  type CommandRun,
  type FiredEvent,
  type Hook,
  type HookResult,
  type HttpRun,
  isAgentShape,
  type ParsedAnswer,
} from '../core/types.ts'
import { agentLabel, handlerExitsOf } from '../agents/vocabulary.ts'
import { canBlock, isGate } from '../event/events.ts'
import type { DecisionValue, HookAnswer } from '../core/protocol.ts'
import { strictness } from '../core/decisions.ts'

/** Events whose plain stdout becomes context for the model (as in Claude Code; Kiro's agentSpawn is agent:start). */
const CONTEXT_EVENTS = new Set(['session:start', 'agent:start', 'user:prompt_submit', 'user:prompt_expansion', 'llm:post_model_switch'])

/** Events where an agent-shaped handler that times out blocks (Claude Code's PreModelSwitch, §9.1). */
const TIMEOUT_BLOCKS = new Set(['llm:pre_model_switch'])

/**
 * How a hook's exit code is read depends on its shape (docs/protocol.md): hookrun's own: exit 2 blocks, any other
 * failure is `onError`'s (default: block on a gate). An agent's: only exit 2 blocks, where the agent lets it; another
 * exit is a non-blocking error unless stdout is a valid JSON answer; a failure gives no decision unless `onError: block`.
 */
export function interpretRun(hook: Hook, event: FiredEvent, run: CommandRun, env: { PATH?: string }, parsed: ParsedAnswer): HookResult {
  const base = {
    name: hook.name,
    source: hook.source.layer,
    file: hook.source.file,
    exitCode: run.exitCode,
    signal: run.signal,
    durationMs: run.durationMs,
    timedOut: run.timedOut,
  }
  const warnings: string[] = []
  if (run.truncated.stdout) warnings.push(`hook '${hook.name}' wrote more stdout than hookrun keeps; the rest was discarded`)

  const agent = isAgentShape(hook.shape)
  const exits = agent ? handlerExitsOf(hook.shape) : undefined
  const policy = failurePolicy(hook, event)
  const failure = (why: string): HookResult => failed(hook, base, policy, warnings, why)

  if (run.released) {
    // `{"async": true}`: released to run on; it gives no decision (docs/protocol.md).
    return { report: { ...base, outcome: 'background', async: true }, blocks: false, context: [], warnings }
  }
  if (run.spawnError !== undefined) return failure(run.spawnError)
  if (run.timedOut && agent && (TIMEOUT_BLOCKS.has(event.name) || exits?.timeoutBlocks?.includes(event.name))) {
    return failed(hook, base, 'block', warnings, `timed out after ${hook.timeout}s and was killed; on ${event.name} a timeout blocks`)
  }
  if (run.timedOut) return failure(`timed out after ${hook.timeout}s and was killed`)

  if (parsed.invalid !== undefined) {
    if (run.exitCode === 0) return failure(`printed a JSON answer that does not fit: ${parsed.invalid}`)
    warnings.push(`hook '${hook.name}' printed a JSON answer that does not fit: ${parsed.invalid}; ignored`)
  }
  if (parsed.notJson !== undefined) {
    // A gate whose answer is garbled fails closed, like one whose answer does not fit.
    if (run.exitCode === 0 && policy === 'block') return failure(`printed output starting with '{' that is not JSON (${parsed.notJson})`)
    warnings.push(`hook '${hook.name}' printed output starting with '{' that is not JSON (${parsed.notJson}); read as text`)
  }
  const answer = parsed.answer

  if (run.exitCode === 2 && agent && !canBlock(event.name)) {
    warnings.push(`hook '${hook.name}' exited 2, which cannot block ${event.name}${tailOf(run.stderr)}`)
    return { report: { ...base, outcome: 'error' }, blocks: false, answer, context: answerContext(answer), warnings }
  }
  if (run.exitCode === 2) {
    const reason = answerReason(answer) ?? firstLines(run.stderr) ?? `blocked by hook '${hook.name}' (exit 2)`
    return {
      report: { ...base, outcome: 'deny', reason },
      blocks: true,
      decision: 'deny',
      reason,
      answer,
      context: answerContext(answer),
      warnings,
    }
  }
  // An exit that halts the whole turn (Crush's 49: charmbracelet/crush docs/hooks), stderr its reason.
  if (exits?.haltExit !== undefined && run.exitCode === exits.haltExit) {
    const reason = firstLines(run.stderr) ?? `hook '${hook.name}' halted the turn (exit ${run.exitCode})`
    const answer = { continue: false, stopReason: reason }
    return { report: { ...base, outcome: 'deny', reason }, blocks: true, decision: 'deny', reason, answer, context: [], warnings }
  }
  // Some agents read a hook's JSON only on exit 0 (if at all): any other exit but 2 is a hook error, `onError` decides.
  const exitZeroOnly = exits?.answersOnExitZero ? (agentLabel(hook.shape) ?? hook.shape) : undefined
  if (run.exitCode !== 0 && exitZeroOnly !== undefined) {
    return failure(
      `${describeExit(run, env)}${answer === undefined ? '' : `; ${exitZeroOnly} reads a JSON answer only on exit 0, so the one it printed does not count`}`,
    )
  }
  // The other agents: a valid JSON answer decides whatever the exit code; without one it is an error.
  if (run.exitCode !== 0 && !(agent && answer !== undefined)) return failure(describeExit(run, env))

  const context = answer === undefined && CONTEXT_EVENTS.has(event.name) && run.stdout.trim() !== '' ? [run.stdout.trim()] : []
  return answered(base, answer, context, warnings)
}

/**
 * An http hook's answer: a 2xx with an empty body gives no opinion, with a JSON object is read like stdout; anything
 * else is a failure `onError` judges (a gate's unreachable service fails closed). A status code alone never blocks.
 */
export function interpretHttp(hook: Hook, event: FiredEvent, run: HttpRun, parsed: ParsedAnswer): HookResult {
  const base = {
    name: hook.name,
    source: hook.source.layer,
    file: hook.source.file,
    exitCode: null,
    signal: null,
    durationMs: run.durationMs,
    timedOut: run.timedOut,
    ...(run.status !== undefined && { httpStatus: run.status }),
  }
  const warnings: string[] = (run.warnings ?? []).map((warning) => `hook '${hook.name}' ${warning}`)
  const failure = (why: string): HookResult => failed(hook, base, failurePolicy(hook, event), warnings, why)
  if (run.refused) {
    // A URL allowedHttpHookUrls does not allow: a gate blocks whatever onError says; elsewhere the hook is skipped.
    if (isGate(event.name)) return failed(hook, base, 'block', warnings, run.failure!)
    const reason = `hook '${hook.name}' ${run.failure}`
    return {
      report: { ...base, outcome: 'error', reason },
      blocks: false,
      context: [],
      warnings: [...warnings, `${reason}; the hook is skipped`],
    }
  }
  if (run.timedOut) return failure(`did not answer within ${hook.timeout}s (${hook.http?.url ?? 'its url'})`)
  if (run.failure !== undefined) return failure(run.failure)
  const status = run.status ?? 0
  const body = run.body.trim()
  if (status < 200 || status > 299) return failure(`answered HTTP ${status}${body === '' ? '' : `: ${firstLines(body)}`}`)
  if (body === '') return answered(base, undefined, [], warnings)
  if (!body.startsWith('{')) return failure(`answered HTTP ${status} with a body that is not a JSON object: ${firstLines(body)}`)
  if (parsed.notJson !== undefined) return failure(`answered HTTP ${status} with a body that is not JSON (${parsed.notJson})`)
  if (parsed.invalid !== undefined) return failure(`answered a JSON object that does not fit: ${parsed.invalid}`)
  return answered(base, parsed.answer, [], warnings)
}

type ReportBase = Omit<HookResult['report'], 'outcome' | 'reason'>

/** What a failure means: `onError`, else block on a gate; an agent's shape never blocks on a failure without onError. */
function failurePolicy(hook: Hook, event: FiredEvent): 'block' | 'allow' {
  if (isAgentShape(hook.shape)) return hook.onError ?? 'allow'
  return hook.onError ?? (hook.blocking && isGate(event.name) ? 'block' : 'allow')
}

export function failed(hook: Pick<Hook, 'name'>, base: ReportBase, policy: 'block' | 'allow', warnings: string[], why: string): HookResult {
  const reason = `hook '${hook.name}' ${why}`
  if (policy === 'block') {
    return { report: { ...base, outcome: 'error', reason }, blocks: true, decision: 'deny', reason, context: [], warnings }
  }
  warnings.push(`${reason}; the event proceeds (onError: allow)`)
  return { report: { ...base, outcome: 'error', reason }, blocks: false, context: [], warnings }
}

/** A hook that answered: its decision, reason and context, from the JSON answer if there is one. */
export function answered(
  base: ReportBase,
  answer: HookAnswer | undefined,
  extraContext: readonly string[],
  warnings: string[],
): HookResult {
  const decision = answerDecision(answer)
  const reason = answerReason(answer)
  const outcome = decision ?? 'allow'
  return {
    report: { ...base, outcome, ...(reason !== undefined && { reason }) },
    blocks: decision === 'deny',
    decision,
    reason,
    answer,
    context: [...answerContext(answer), ...extraContext],
    warnings,
  }
}

/** The decision of an answer, from any form it may take; forms that disagree give the strictest (a deny anywhere counts). */
function answerDecision(answer: HookAnswer | undefined): DecisionValue | undefined {
  return decidingForm(answer)?.decision
}

/** The reason that goes with the decision: the deciding form's, else one beside the same decision or none, never an outvoted one's. */
function answerReason(answer: HookAnswer | undefined): string | undefined {
  const forms = answerForms(answer)
  const deciding = decidingForm(answer)
  if (deciding === undefined) return forms.find((form) => form.reason !== undefined)?.reason
  return (
    deciding.reason ??
    forms.find((form) => (form.decision === deciding.decision || form.decision === undefined) && form.reason !== undefined)?.reason
  )
}

interface AnswerForm {
  readonly decision: DecisionValue | undefined
  readonly reason: string | undefined
}

/** The forms an answer may decide in, each with the reason written beside it. */
function answerForms(answer: HookAnswer | undefined): AnswerForm[] {
  if (answer === undefined) return []
  const specific = answer.hookSpecificOutput
  // Claude's `defer` hands the call back to the agent's own rules: no decision from that form.
  const nested = specific?.permissionDecision === 'defer' ? undefined : specific?.permissionDecision
  return [
    { decision: answer.decision, reason: answer.reason },
    { decision: nested, reason: specific?.permissionDecisionReason },
    { decision: specific?.decision?.behavior, reason: specific?.decision?.message },
  ]
}

function decidingForm(answer: HookAnswer | undefined): (AnswerForm & { decision: DecisionValue }) | undefined {
  let strictest: (AnswerForm & { decision: DecisionValue }) | undefined
  for (const form of answerForms(answer)) {
    if (form.decision === undefined) continue
    if (strictest === undefined || strictness(form.decision) > strictness(strictest.decision))
      strictest = { decision: form.decision, reason: form.reason }
  }
  return strictest
}

/** The tool input a hook asks for, in any of the forms the protocol allows. */
export function answerUpdatedInput(answer: HookAnswer | undefined, current?: unknown): Record<string, unknown> | undefined {
  const whole = answer?.updatedInput ?? answer?.hookSpecificOutput?.updatedInput ?? answer?.hookSpecificOutput?.decision?.updatedInput
  if (whole !== undefined) return whole
  // Gemini CLI's BeforeTool `tool_input` is merged over the tool's arguments (§6.1).
  const merged = answer?.hookSpecificOutput?.tool_input
  if (merged === undefined) return undefined
  return { ...(typeof current === 'object' && current !== null && !Array.isArray(current) ? current : {}), ...merged }
}

function tailOf(stderr: string): string {
  const said = firstLines(stderr)
  return said === undefined ? '' : `: ${said}`
}

function answerContext(answer: HookAnswer | undefined): string[] {
  const context: string[] = []
  if (answer?.additionalContext) context.push(answer.additionalContext)
  if (answer?.hookSpecificOutput?.additionalContext) context.push(answer.hookSpecificOutput.additionalContext)
  return context
}

function describeExit(run: CommandRun, env: { PATH?: string }): string {
  const tail = tailOf(run.stderr)
  if (run.exitCode === null) return `was killed by ${run.signal ?? 'a signal'}${tail}`
  // The PATH itself is long and the same for every hook: the count says enough to compare with a shell's.
  const path = `not on the hook's PATH of ${(env.PATH ?? '').split(':').filter(Boolean).length} folders, which the agent gives hookrun; give its full path`
  if (run.exitCode === 127) return `failed: command not found (exit 127; ${path})${tail}`
  if (run.exitCode === 126) return `failed: command is not executable (exit 126; check its mode and shebang)${tail}`
  return `failed with exit ${run.exitCode}${tail}`
}

/** The first lines of what a hook said, kept short enough for a one-line message. */
function firstLines(text: string): string | undefined {
  const trimmed = text.trim()
  if (trimmed === '') return undefined
  return trimmed.length > 2000 ? `${trimmed.slice(0, 2000)}…` : trimmed
}
