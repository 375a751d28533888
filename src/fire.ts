// fire(): the pipeline top to bottom (ARCHITECTURE.md): event → config → select → run → interpret → decide.
import { observe } from './config/observe.ts'
import { plannedHooks } from './config/plan.ts'
import type { FiredEvent, Payload } from './core/types.ts'
import { HookrunError } from './core/errors.ts'
import { qualifyEvent } from './event/event.ts'
import type { Decision } from './core/protocol.ts'
import { decideEvent } from './pipeline.ts'
import type { LoadedHooks } from './fire-config.ts'
import type { ProgressRecord } from './chain.ts'
import type { NarrowedStamp } from './config/narrowed.ts'
import { afterDecision, type FireConfig } from './effects.ts'

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
  /** Called as hooks start, print and finish (the CLI's `--events`). */
  readonly progress?: (record: ProgressRecord) => void
  /** The agent that fired (claude, cursor, …) for the audit log and telemetry; default: HOOKRUN_AGENT. */
  readonly agent?: string
  /** The command that runs this hookrun (the CLI sets it): background work starts with it detached. */
  readonly selfCommand?: readonly string[]
  /** Where hookrun's own notices go: the agent's channels that reach someone on this event (default `systemMessage`). */
  readonly noticeChannels?: readonly ('systemMessage' | 'additionalContext')[]
  /** The agent shows hookrun's stderr on every fire: an untrusted project is then told by the once-per-session notice alone. */
  readonly stderrShown?: boolean
  /** How long this fire's hooks may run in all, in ms (default CHAIN_BUDGET_SECONDS). */
  readonly budgetMs?: number
  /** What to tell the person when the agent's narrowed user install does not route hooks that can run in `cwd` yet. */
  readonly unroutedNotice?: (cwd: string) => Promise<string | undefined>
  /** What to tell the person when the agent's narrowed project install is left to them and the config changed since. */
  readonly reviewedNotice?: (stamp: NarrowedStamp, signature: string, cwd: string) => Promise<string | undefined>
}

/** The whole pipeline; payload reading and rendering belong to the caller. */
export async function fire(options: FireOptions): Promise<Decision> {
  const started = performance.timeOrigin + performance.now()
  const env = options.env ?? process.env
  const payload = options.payload ?? {}
  const cwd = options.cwd ?? process.cwd()
  const depth = checkDepth(env)
  const event = qualifyEvent(options.event, payload, options.tool)
  const { config, warnings, signature, matched } = await loadConfig(event, {
    cwd,
    configFiles: options.configFiles,
    env,
    strict: options.strict ?? false,
    signal: options.signal,
  })
  const decided = await decideEvent(config, event, payload, {
    env,
    depth,
    signal: options.signal,
    progress: options.progress,
    matched,
    warnings,
    startedAt: started,
    // Where the agent shows hookrun's stderr on every fire, the once-a-session notice alone tells an untrusted project.
    untrustedWarnings: !options.stderrShown,
    ...(options.budgetMs !== undefined && { budgetMs: options.budgetMs }),
  })
  // Everything a fire does besides deciding (notices, the audit log, telemetry, syncs started in the background), in one place.
  return afterDecision(decided, { config, signature, event, payload, cwd, env, started }, options)
}

/** Stage config: the plan's answer while what it came from is unchanged, else src/fire-config.ts (loaded only then). */
async function loadConfig(
  event: FiredEvent,
  options: {
    cwd: string
    configFiles?: readonly string[]
    env: Readonly<Record<string, string | undefined>>
    strict: boolean
    signal?: AbortSignal
  },
): Promise<Pick<LoadedHooks, 'warnings' | 'signature'> & { config: FireConfig; matched: boolean }> {
  const look = observe(options)
  const planned = plannedHooks(look, event)
  if (planned !== undefined) {
    const config: FireConfig = {
      hooks: planned.hooks,
      problems: [],
      projectRoot: planned.projectRoot,
      settings: { trustedFolders: [], ...planned.settings },
      trust: planned.trust,
      trusts: planned.trusts,
      untrustedHooks: [],
      footprints: planned.footprints,
    }
    // The plan's hooks are the event's already: only their filters are left to ask.
    return { config, warnings: [], signature: planned.signature, matched: true }
  }
  return { ...(await (await import('./fire-config.ts')).loadAndPlan(event, look, options)), matched: false }
}

/** Deeper `hookrun fire` nesting than this (a hook that fires hookrun again) is refused. */
export const MAX_DEPTH = 8

export function checkDepth(env: Readonly<Record<string, string | undefined>>): number {
  const depth = Number.parseInt(env.HOOKRUN_DEPTH ?? '0', 10) || 0
  if (depth >= MAX_DEPTH) {
    throw new HookrunError(
      `hook recursion: hookrun was fired from inside hooks ${depth} levels deep (limit ${MAX_DEPTH}); a hook is calling 'hookrun fire' for the event it handles`,
    )
  }
  return depth
}
