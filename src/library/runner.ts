// createRunner: hookrun inside a TypeScript agent, config loaded once, function hooks registered.
import { z } from 'zod'
import type { ResolvedConfig } from '../config/load.ts'
import type { Hook, Payload } from '../core/types.ts'
import { HookSchema } from '../config/schema.ts'
import { HookrunError } from '../core/errors.ts'
import { qualifyEvent } from '../event/event.ts'
import { checkDepth } from '../fire.ts'
import type { ChainStep, ProgressRecord } from '../chain.ts'
import { loadObserved, type ObservedHooks, observationHolds } from '../fire-config.ts'
import { type Observation, observe } from '../config/observe.ts'
import { decideEvent } from '../pipeline.ts'
import { type FunctionHook, type FunctionHookSpec, functionStep } from './function-hook.ts'
import { compilePattern, patternProblem } from '../event/pattern.ts'
import type { Decision } from '../core/protocol.ts'

// The config is read at the first `fire()` (or `reload()`), and again when anything it came from changed.

export interface RunnerOptions {
  /** Where to discover the project from; default: the current directory when the runner is made. */
  readonly cwd?: string
  /** Config files that replace discovery (the CLI's `--config`). */
  readonly configFiles?: readonly string[]
  /** Any config problem makes loading fail (`fire()` and `reload()` reject) instead of warning. */
  readonly strict?: boolean
  /** The environment command hooks inherit; default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/**
 * Options of `runner.on()`: a function hook runs after every config hook (`order: 'first'`: before them), or right
 * `before` / `after` a named config hook, at its `order` place when that one does not run.
 */
export const FunctionHookOptionsSchema = z
  .strictObject({
    name: HookSchema.shape.name,
    timeout: HookSchema.shape.timeout,
    onError: HookSchema.shape.onError,
    order: z.enum(['first', 'last']).default('last'),
    before: z.string().min(1).optional(),
    after: z.string().min(1).optional(),
  })
  .refine((options) => options.before === undefined || options.after === undefined, { message: 'give before or after, not both' })
export type FunctionHookOptions = z.input<typeof FunctionHookOptionsSchema>

export interface RunnerFireOptions {
  /** The subject (tool name); default: the payload's `tool_name`/`tool`/`toolName`. */
  readonly tool?: string
  /** Aborting kills running command hooks and stops waiting for a function hook. */
  readonly signal?: AbortSignal
  /** Called as hooks start, print and finish (the CLI's `--events` records). */
  readonly progress?: (record: ProgressRecord) => void
  /** The map function hooks see as `context.metadata` in this fire; default: `runner.metadata`. */
  readonly metadata?: Map<string, unknown>
}

export interface Runner {
  /** Register a function hook for an event pattern (`tool:pre_execute:bash|write`, `*`, …). */
  on(pattern: string | readonly string[], fn: FunctionHook, options?: FunctionHookOptions): Runner
  /** Remove a function hook by name; false when there is none. */
  off(name: string): boolean
  /** Run the hooks for one event; the Decision is the object `hookrun fire` prints. */
  fire(event: string, payload?: Payload, options?: RunnerFireOptions): Promise<Decision>
  /** Read the config layers again now (a fire does when anything its config came from changed). */
  reload(): Promise<ResolvedConfig>
  /** State shared by this runner's function hooks across fires (`context.metadata`). */
  readonly metadata: Map<string, unknown>
}

interface RegisteredHook extends FunctionHookSpec {
  readonly order: 'first' | 'last'
  readonly before?: string
  readonly after?: string
}

export function createRunner(options: RunnerOptions = {}): Runner {
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const registered: RegisteredHook[] = []
  const metadata = new Map<string, unknown>()
  let loading: Promise<ObservedHooks> | undefined
  let unnamed = 0

  // With `configFiles` nothing is discovered: the runner reads them again on `reload()` only.
  const named = (options.configFiles?.length ?? 0) > 0
  const look = () => observe({ cwd, configFiles: options.configFiles, env })
  const load = (seen?: Observation) =>
    (loading = Promise.resolve().then(() => loadObserved(seen ?? look(), { strict: options.strict ?? false })))
  /** The config as it stands now: the one read before while everything it came from holds in this fire's look. */
  const current = async (): Promise<ObservedHooks> => {
    // A load that failed (a strict runner's config problem) is tried again, not kept.
    const observed = await loading?.catch(() => undefined)
    if (observed === undefined) return load()
    if (named) return observed
    const seen = look()
    return observationHolds(observed, seen) ? observed : load(seen)
  }

  const runner: Runner = {
    metadata,
    on(pattern, fn, hookOptions = {}) {
      const where = `runner.on(${JSON.stringify(pattern)})`
      if (typeof fn !== 'function') throw new HookrunError(`${where}: the hook must be a function`)
      const patterns = typeof pattern === 'string' ? [pattern] : [...pattern]
      const problem =
        patterns.length === 0
          ? 'is empty'
          : patterns.map((text) => (typeof text === 'string' ? patternProblem(text) : 'is not a string')).find(Boolean)
      if (problem !== undefined) throw new HookrunError(`${where}: the pattern ${problem}`)
      const parsed = FunctionHookOptionsSchema.safeParse(hookOptions)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!
        throw new HookrunError(`${where}: option ${issue.path.join('.') || '(options)'}: ${issue.message.replace(/^Invalid input: /, '')}`)
      }
      const { name = `function#${++unnamed}`, timeout, onError, order, before, after } = parsed.data
      if (registered.some((hook) => hook.name === name)) {
        throw new HookrunError(
          `${where}: a function hook named '${name}' is already registered; give this one another name, or off('${name}') first`,
        )
      }
      registered.push({ name, pattern: compilePattern(patterns), fn, timeout, onError, order, before, after, file: callerLocation() })
      return runner
    },
    off(name) {
      const index = registered.findIndex((hook) => hook.name === name)
      if (index >= 0) registered.splice(index, 1)
      return index >= 0
    },
    async reload() {
      return (await load()).loaded.config
    },
    async fire(eventName, payload = {}, fireOptions = {}) {
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
        throw new HookrunError(
          `runner.fire(${JSON.stringify(eventName)}): the payload must be an object (the event JSON), not ${Array.isArray(payload) ? 'an array' : String(payload)}`,
        )
      }
      const event = qualifyEvent(eventName, payload, fireOptions.tool)
      const depth = checkDepth(env)
      const { loaded } = await current()
      const functions = registered.filter((hook) => hook.pattern.matchesEvent(event))
      const { decision } = await decideEvent(loaded.config, event, payload, {
        env,
        depth,
        signal: fireOptions.signal,
        progress: fireOptions.progress,
        arrange: (configured) => orderSteps(configured, functions, fireOptions.metadata ?? metadata),
        warnings: [...loaded.warnings, ...placementWarnings(functions, loaded.config.hooks)],
      })
      return decision
    },
  }
  return runner
}

/** A function hook placed next to a config hook that no layer defines runs at its `order` place instead: said once per fire. */
function placementWarnings(functions: readonly RegisteredHook[], allConfigured: readonly Hook[]): string[] {
  return functions.flatMap((hook) => {
    const anchor = hook.before ?? hook.after
    if (anchor === undefined || allConfigured.some((configuredHook) => configuredHook.name === anchor)) return []
    return [
      `function hook '${hook.name}' is placed ${hook.before !== undefined ? 'before' : 'after'} '${anchor}', which no config layer defines; it ran ${hook.order} instead`,
    ]
  })
}

/** One chain: `order: 'first'` function hooks, the config hooks with `before`/`after` ones beside theirs, then the rest. */
function orderSteps(configured: readonly Hook[], functions: readonly RegisteredHook[], metadata: Map<string, unknown>): ChainStep[] {
  const present = new Set(configured.map((hook) => hook.name))
  const placed = (hook: RegisteredHook) => {
    const anchor = hook.before ?? hook.after
    return anchor !== undefined && present.has(anchor)
  }
  const step = (hook: RegisteredHook) => functionStep(hook, metadata)
  const steps: ChainStep[] = functions.filter((hook) => hook.order === 'first' && !placed(hook)).map(step)
  const anchored = new Set<string>()
  for (const hook of configured) {
    // A name can appear twice (unnamed Claude-shape hooks never share one; named ones are merged): place once.
    const first = !anchored.has(hook.name)
    anchored.add(hook.name)
    if (first) steps.push(...functions.filter((fn) => fn.before === hook.name).map(step))
    steps.push(hook)
    if (first) steps.push(...functions.filter((fn) => fn.after === hook.name).map(step))
  }
  steps.push(...functions.filter((hook) => hook.order === 'last' && !placed(hook)).map(step))
  return steps
}

/** `file:line:column` of the code that called `runner.on()`, from the stack (Node, Bun and Deno print it alike). */
function callerLocation(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1)
  const own = frameLocation(frames[0])?.replace(/:\d+:\d+$/, '')
  for (const frame of frames) {
    const location = frameLocation(frame)
    if (location !== undefined && location.replace(/:\d+:\d+$/, '') !== own) return location
  }
  return 'runner.on'
}

function frameLocation(frame: string | undefined): string | undefined {
  const match = /\(?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?\s*$/.exec(frame ?? '')
  return match?.[1]?.replace(/^file:\/\//, '')
}
