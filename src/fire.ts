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
  /**
   * The command that runs this hookrun (the CLI sets it): background work starts with it detached,
   * `hookrun telemetry flush` to ship spans and `hookrun policy pull` to refresh a stale remote
   * policy. Without it `fire()` exports spans in the calling program's background and leaves the
   * policy refresh to `hookrun policy pull`.
   */
  readonly selfCommand?: readonly string[]
  /**
   * Where hookrun's own notices for the person go (an untrusted project, a narrowed install out of
   * date): the agent's channels that reach someone on this event (`noticeChannels` of
   * src/agents). Default `systemMessage`; empty: none does, so the once-per-session notice
   * waits for a later event.
   */
  readonly noticeChannels?: readonly ('systemMessage' | 'additionalContext')[]
  /**
   * The agent shows hookrun's stderr to the person on every fire (OpenCode's plugin prints it):
   * an untrusted project is then told by the once-per-session notice alone, not in every fire's
   * warnings as well.
   */
  readonly stderrShown?: boolean
  /**
   * How long this fire's hooks may run in all, in ms, when the agent kills a hook sooner than
   * hookrun's own budget and then goes ahead (Cline: `Dialect.killsAfterSeconds`). Default
   * CHAIN_BUDGET_SECONDS.
   */
  readonly budgetMs?: number
  /**
   * What to tell the person when the agent's narrowed user install (src/install/user-routing.ts)
   * does not route hooks that can run in `cwd` yet: asked while the user stamp is out of date, on
   * a session start or when this fire starts the sync, since the agent read its settings before.
   * The CLI gives src/install/unrouted.ts's `unroutedNotice` for the agent that fired.
   */
  readonly unroutedNotice?: (cwd: string) => Promise<string | undefined>
  /**
   * What to tell the person when the agent's narrowed project install is one fires leave alone
   * (its install target `reviewsChangedHooks`) and the config changed since: the CLI gives
   * src/install/unrouted.ts's `reviewedNotice` for the agent that fired.
   */
  readonly reviewedNotice?: (stamp: NarrowedStamp, signature: string, cwd: string) => Promise<string | undefined>
}

export type { ChainOutcome, ChainStep, InProcessStep, ProgressRecord } from './chain.ts'

/**
 * The whole pipeline (ARCHITECTURE.md): event → config → select → run → interpret → decide.
 * Payload reading and rendering belong to the caller (the CLI, or an agent in-process).
 */
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

/**
 * Stage config: the plan's answer for this event while everything it came from is unchanged
 * (src/config/plan.ts), else every layer read, trust applied and the plan made (src/fire-config.ts,
 * loaded only then).
 */
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
