import { dirname, resolve } from 'node:path'
import { formatProblem, type Hook, loadConfig, type ResolvedConfig } from './config/load.ts'
import { decide, type Rewrites } from './decide.ts'
import { hookEnvironment, MAX_DEPTH, TOOL_INPUT_KEYS } from './env.ts'
import { HookrunError } from './errors.ts'
import { type FiredEvent, qualifyEvent } from './event.ts'
import { type HookResult, interpretRun } from './interpret.ts'
import type { Payload } from './payload.ts'
import type { Decision } from './protocol.ts'
import { runCommand, startDetached } from './run.ts'
import { selectHooks } from './select.ts'
import { untrustedWarning } from './trust.ts'

export interface FireOptions {
  /** Event name, e.g. `tool:pre_execute` (a subject may follow: `tool:pre_execute:bash`). */
  readonly event: string
  readonly payload?: Payload
  /** The subject (tool name); default: the payload's `tool_name`/`tool`/`toolName`. */
  readonly tool?: string
  /** Where to discover the project from; default: the current directory. */
  readonly cwd?: string
  /** Config files that replace discovery (`--config`). */
  readonly configFiles?: readonly string[]
  /** Any config problem is fatal instead of a warning. */
  readonly strict?: boolean
  /** The environment hooks inherit; default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Aborting kills running hooks; the decision then says why. */
  readonly signal?: AbortSignal
}

/**
 * The whole pipeline (DESIGN §2): event → config → select → run → interpret → decide.
 * Payload reading and rendering belong to the caller (the CLI, or an agent in-process).
 */
export async function fire(options: FireOptions): Promise<Decision> {
  const env = options.env ?? process.env
  const payload = options.payload ?? {}
  const cwd = options.cwd ?? process.cwd()
  const event = qualifyEvent(options.event, payload, options.tool)
  const depth = checkDepth(env)
  const config = loadConfig({ cwd, configFiles: options.configFiles, env })
  const warnings = configWarnings(config, options.strict ?? false)
  const untrusted = untrustedWarning(config.trust, config.untrustedHooks, event)
  if (untrusted !== undefined) warnings.unshift(untrusted)
  const hooks = selectHooks(config.hooks, event)
  const chain = await runChain(hooks, event, payload, { env, depth, projectRoot: config.projectRoot, signal: options.signal })
  const decision = decide(event, chain.results, chain.rewrites, [...warnings, ...chain.warnings])
  if (config.settings.log === undefined) return decision
  // The audit log is opt-in: its code is loaded only when a log is configured.
  const { appendAuditLine, auditLine } = await import('./audit.ts')
  const interrupted = options.signal?.aborted ? String(options.signal.reason) : undefined
  const failure = appendAuditLine(config.settings.log.path, auditLine({ decision, payload, cwd, projectRoot: config.projectRoot, interrupted }))
  return failure === undefined ? decision : { ...decision, warnings: [...decision.warnings, failure] }
}

function checkDepth(env: Readonly<Record<string, string | undefined>>): number {
  const depth = Number.parseInt(env.HOOKRUN_DEPTH ?? '0', 10) || 0
  if (depth >= MAX_DEPTH) {
    throw new HookrunError(
      `hook recursion: hookrun was fired from inside hooks ${depth} levels deep (limit ${MAX_DEPTH}); a hook is calling 'hookrun fire' for the event it handles`,
    )
  }
  return depth
}

function configWarnings(config: ResolvedConfig, strict: boolean): string[] {
  const lines = config.problems.map(formatProblem)
  if (strict && lines.length > 0) {
    const more = lines.length > 1 ? ` (and ${lines.length - 1} more problem(s); run 'hookrun validate')` : ''
    throw new HookrunError(`${lines[0]}${more}`)
  }
  return lines
}

interface ChainContext {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly depth: number
  readonly projectRoot: string
  readonly signal?: AbortSignal
}

/**
 * Run the selected hooks in order. Each sees the payload as earlier hooks left it; the chain
 * stops at the first block.
 */
export async function runChain(
  hooks: readonly Hook[],
  event: FiredEvent,
  original: Payload,
  context: ChainContext,
): Promise<{ results: HookResult[]; rewrites: Rewrites; warnings: string[] }> {
  const results: HookResult[] = []
  const warnings: string[] = []
  const handoffs: Promise<unknown>[] = []
  let payload = withEventName(original, event)
  let input = JSON.stringify(payload)
  const rewrites: { updatedInput?: Record<string, unknown>; updatedPrompt?: string } = {}
  for (const hook of hooks) {
    if (context.signal?.aborted) break
    const env = hookEnvironment(
      context.env,
      event,
      payload,
      { hookName: hook.name, projectDir: context.projectRoot, configDir: dirname(hook.source.file), depth: context.depth },
      hook.env,
    )
    const cwd = hook.cwd === undefined ? context.projectRoot : resolve(context.projectRoot, hook.cwd)
    if (!hook.blocking) {
      handoffs.push(
        startDetached(hook.command, { cwd, env, input }).then((error) => {
          if (error !== undefined) warnings.push(`hook '${hook.name}' (blocking: false) ${error}`)
        }),
      )
      results.push(backgroundResult(hook))
      continue
    }
    const run = await runCommand(hook.command, { cwd, env, input, timeoutMs: hook.timeout * 1000, signal: context.signal })
    const result = interpretRun(hook, event, run, { PATH: env.PATH })
    results.push(result)
    if (result.blocks) break
    const answer = result.answer
    const updatedInput = answer?.updatedInput ?? answer?.hookSpecificOutput?.updatedInput
    if (updatedInput !== undefined || answer?.updatedPrompt !== undefined) {
      if (updatedInput !== undefined) rewrites.updatedInput = updatedInput
      if (answer?.updatedPrompt !== undefined) rewrites.updatedPrompt = answer.updatedPrompt
      payload = applyRewrites(payload, updatedInput, answer?.updatedPrompt)
      input = JSON.stringify(payload)
    }
  }
  // Detached hooks must have their input before hookrun exits.
  await Promise.all(handoffs)
  return { results, rewrites, warnings }
}

/** Hooks get the event name in the payload too, unless the agent already put its own there. */
function withEventName(payload: Payload, event: FiredEvent): Payload {
  if ('event' in payload && 'hook_event_name' in payload) return payload
  return { ...payload, event: payload.event ?? event.qualified, hook_event_name: payload.hook_event_name ?? event.name }
}

const PROMPT_KEYS = ['prompt', 'user_prompt', 'userPrompt', 'message'] as const

function applyRewrites(payload: Payload, updatedInput: Record<string, unknown> | undefined, updatedPrompt: string | undefined): Payload {
  const next = { ...payload }
  if (updatedInput !== undefined) next[TOOL_INPUT_KEYS.find((key) => key in payload) ?? 'tool_input'] = updatedInput
  if (updatedPrompt !== undefined) next[PROMPT_KEYS.find((key) => key in payload) ?? 'prompt'] = updatedPrompt
  return next
}

function backgroundResult(hook: Hook): HookResult {
  return {
    report: { name: hook.name, source: hook.source.layer, file: hook.source.file, outcome: 'background', exitCode: null, durationMs: 0, timedOut: false },
    blocks: false,
    context: [],
    warnings: [],
  }
}
