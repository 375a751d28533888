// Function hooks: TypeScript functions that run in the chain beside command hooks.
import { z } from 'zod'
import { PROMPT_KEYS, sessionIdOf, toolInput } from '../payload/fields.ts'
import type { FiredEvent, HookResult, Payload } from '../core/types.ts'
import { isGate } from '../event/events.ts'
import type { InProcessStep } from '../chain.ts'
import { answered, answerUpdatedInput, failed } from '../answer/interpret.ts'
import type { EventPattern } from '../event/pattern.ts'
import { HookAnswerSchema } from '../core/protocol.ts'

/** What a function hook is given. `toolInput` and `prompt` may be changed in place. */
export interface HookContext {
  /** Canonical event name: `tool:pre_execute`. */
  readonly event: string
  /** The event with its subject: `tool:pre_execute:bash`. */
  readonly qualifiedEvent: string
  /** This hook's name, as the decision's `hooks[]` reports it. */
  readonly hookName: string
  /** The payload as earlier hooks left it. Read it; change `toolInput` or `prompt` instead. */
  readonly payload: Readonly<Payload>
  /** The tool name as the agent spelled it (`Bash`), on tool events. */
  readonly toolName: string | undefined
  /** A copy of the tool input: change it in place or assign a new object; later hooks see it, the decision carries `updatedInput`. */
  toolInput: Record<string, unknown> | undefined
  /** The user's prompt. Assign a new string: later hooks see it; the decision carries `updatedPrompt`. */
  prompt: string | undefined
  readonly sessionId: string | undefined
  /** The runner's `metadata` (or the map given to this `fire`): state shared by function hooks. */
  readonly metadata: Map<string, unknown>
  /** Aborted when this hook timed out or the fire was aborted (hookrun cannot stop a function, only stop waiting). */
  readonly signal: AbortSignal
}

/** The answer of a function hook: a command hook's JSON answer as a value; unknown keys are refused (a typo fails, never allows). */
export const FunctionHookAnswerSchema = z.strictObject(HookAnswerSchema.shape)
export type FunctionHookAnswer = z.input<typeof FunctionHookAnswerSchema>

/** Nothing (`undefined`, `null`) means: no opinion, go on. */
// biome-ignore lint/suspicious/noConfusingVoidType: a function hook that returns nothing is typed void, and it means no opinion
export type FunctionHookReturn = FunctionHookAnswer | undefined | null | void

export type FunctionHook = (context: HookContext) => FunctionHookReturn | Promise<FunctionHookReturn>

/** Allow the operation (skip the agent's own permission prompt). */
export function allow(reason?: string): FunctionHookAnswer {
  return reason === undefined ? { decision: 'allow' } : { decision: 'allow', reason }
}

/** Block the operation; the chain stops here. */
export function deny(reason: string): FunctionHookAnswer {
  return { decision: 'deny', reason }
}

/** Ask the user (the agent's normal permission flow). */
export function ask(reason?: string): FunctionHookAnswer {
  return reason === undefined ? { decision: 'ask' } : { decision: 'ask', reason }
}

/** No decision: the event proceeds as it would without this hook. */
export function none(): undefined {
  return undefined
}

/** A function hook as a runner holds it. */
export interface FunctionHookSpec {
  readonly name: string
  readonly pattern: EventPattern
  readonly fn: FunctionHook
  /** Seconds, as in hooks.json. */
  readonly timeout: number
  readonly onError?: 'block' | 'allow'
  /** Where it was registered (`file:line:column`), for the decision's `hooks[].file`. */
  readonly file: string
}

/** One step of the chain that calls the function. */
export function functionStep(spec: FunctionHookSpec, metadata: Map<string, unknown>): InProcessStep {
  return { name: spec.name, run: (event, payload, signal) => runFunctionHook(spec, event, payload, signal, metadata) }
}

type Settled =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'aborted' }

async function runFunctionHook(
  spec: FunctionHookSpec,
  event: FiredEvent,
  payload: Payload,
  signal: AbortSignal | undefined,
  metadata: Map<string, unknown>,
): Promise<HookResult> {
  const started = performance.now()
  const input = toolInput(payload)
  // A JSON copy: the hook may change it freely, the caller's objects and earlier steps keep theirs.
  const inputText = isPlainObject(input) ? JSON.stringify(input) : undefined
  const prompt = promptOf(payload)
  const controller = new AbortController()
  const session = sessionIdOf(payload)
  const context: HookContext = {
    event: event.name,
    qualifiedEvent: event.qualified,
    hookName: spec.name,
    payload,
    toolName: event.tool,
    toolInput: inputText === undefined ? undefined : (JSON.parse(inputText) as Record<string, unknown>),
    prompt,
    sessionId: session === undefined ? undefined : String(session),
    metadata,
    signal: controller.signal,
  }
  const settled = await settle(spec, context, controller, signal)
  const durationMs = Math.round(performance.now() - started)
  const timedOut = settled.kind === 'timeout'
  const base = { name: spec.name, source: 'function', file: spec.file, exitCode: null, signal: null, durationMs, timedOut } as const

  const failure = (why: string): HookResult => failed(spec, base, spec.onError ?? (isGate(event.name) ? 'block' : 'allow'), [], why)

  if (settled.kind === 'timeout') {
    return failure(`timed out after ${spec.timeout}s; hookrun stopped waiting (a function cannot be killed, it may still be running)`)
  }
  if (settled.kind === 'aborted') return failure('was interrupted: the fire was aborted')
  if (settled.kind === 'error') return failure(`threw: ${describeError(settled.error)}`)

  const parsed = FunctionHookAnswerSchema.safeParse(settled.value ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return failure(
      `returned an answer that does not fit: ${issue.path.join('.') || '(answer)'}: ${issue.message.replace(/^Invalid input: /, '')}`,
    )
  }
  const rewritten = inPlaceRewrites(context, inputText, prompt)
  if (typeof rewritten === 'string') return failure(rewritten)
  // An explicit `updatedInput` / `updatedPrompt` in the answer wins over a change in place.
  const answer = { ...parsed.data }
  const updatedInput = answerUpdatedInput(answer) ?? rewritten.updatedInput
  if (updatedInput !== undefined) answer.updatedInput = updatedInput
  const updatedPrompt = answer.updatedPrompt ?? rewritten.updatedPrompt
  if (updatedPrompt !== undefined) answer.updatedPrompt = updatedPrompt
  return answered(base, answer, [], [])
}

/** Call the function and wait for it, its timeout or the fire's abort; what it does after a timeout is ignored. */
function settle(
  spec: FunctionHookSpec,
  context: HookContext,
  controller: AbortController,
  outer: AbortSignal | undefined,
): Promise<Settled> {
  return new Promise((resolveSettled) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const done = (settled: Settled) => {
      clearTimeout(timer)
      outer?.removeEventListener('abort', onAbort)
      resolveSettled(settled)
    }
    const onAbort = () => {
      controller.abort(outer?.reason)
      done({ kind: 'aborted' })
    }
    timer = setTimeout(() => {
      controller.abort(new Error(`hook '${spec.name}' timed out after ${spec.timeout}s`))
      done({ kind: 'timeout' })
    }, spec.timeout * 1000)
    if (outer?.aborted) return onAbort()
    outer?.addEventListener('abort', onAbort, { once: true })
    // Called on a microtask, so a function that throws before its first await is a rejection too.
    Promise.resolve()
      .then(() => spec.fn(context))
      .then(
        (value) => done({ kind: 'value', value }),
        (error: unknown) => done({ kind: 'error', error }),
      )
  })
}

/** What the hook changed in place, or why the change cannot be used. */
function inPlaceRewrites(
  context: HookContext,
  inputText: string | undefined,
  prompt: string | undefined,
): { updatedInput?: Record<string, unknown>; updatedPrompt?: string } | string {
  const rewrites: { updatedInput?: Record<string, unknown>; updatedPrompt?: string } = {}
  const input: unknown = context.toolInput
  if (input !== undefined) {
    if (!isPlainObject(input)) return `set toolInput to ${describeValue(input)}; expected an object`
    let text: string
    try {
      text = JSON.stringify(input)
    } catch (error) {
      return `changed toolInput to a value that is not JSON: ${describeError(error)}`
    }
    // Sent on as JSON, so the copy the next hook sees is the JSON one (as a command hook would).
    if (text !== inputText) rewrites.updatedInput = JSON.parse(text) as Record<string, unknown>
  }
  const newPrompt: unknown = context.prompt
  if (newPrompt !== undefined && typeof newPrompt !== 'string') return `set prompt to ${describeValue(newPrompt)}; expected a string`
  if (newPrompt !== undefined && newPrompt !== prompt) rewrites.updatedPrompt = newPrompt
  return rewrites
}

function promptOf(payload: Payload): string | undefined {
  for (const key of PROMPT_KEYS) {
    const value = payload[key]
    if (typeof value === 'string') return value
  }
  return undefined
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describeValue(value: unknown): string {
  return Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error)
}
