// decideEvent: the one place an event is decided (gate → select → run → decide), so trust and hookrun's own blocks hold in every caller.
import type { FiredEvent, Hook, HookResult, Payload } from './core/types.ts'
import type { ConfigProblem } from './core/types.ts'
import type { ResolvedConfig } from './config/load.ts'
import type { ProjectTrust } from './trust/trust.ts'
import type { Decision } from './core/protocol.ts'
import type { ChainOutcome, ChainStep, ProgressRecord } from './chain.ts'
import { decide } from './answer/decide.ts'
import { gateBlock, untrustedWarnings } from './answer/blocks.ts'
import { select } from './select/select.ts'
import { loadGlobs } from './event/globs.ts'
import { isKnownEvent } from './event/events.ts'
import { nearestEvent } from './event/suggest.ts'

/** What of the config stage deciding an event reads. */
interface DecidingConfig {
  readonly hooks: readonly Hook[]
  readonly problems: readonly ConfigProblem[]
  readonly projectRoot: string
  readonly trusts: readonly ProjectTrust[]
  readonly untrustedHooks: readonly Hook[]
  readonly policy?: ResolvedConfig['policy']
  readonly footprints?: ResolvedConfig['footprints']
}

interface DecideOptions {
  readonly env: Readonly<Record<string, string | undefined>>
  /** HOOKRUN_DEPTH of this fire (`checkDepth`). */
  readonly depth: number
  readonly signal?: AbortSignal
  readonly progress?: (record: ProgressRecord) => void
  /** The chain's budget in ms, when the agent kills hooks sooner than hookrun's own (`Dialect.killsAfterSeconds`). */
  readonly budgetMs?: number
  /** The hooks are the event's already (a plan's answer): only their filters are left to ask. */
  readonly matched?: boolean
  /** Hooks the caller leaves out beyond the select stage (explain's exclusion checks). */
  readonly exclude?: (hook: Hook) => boolean
  /** The chain built from the selected hooks (a runner adds its function hooks); default: those hooks. */
  readonly arrange?: (selected: readonly Hook[]) => readonly ChainStep[]
  /** The config stage's and the caller's warnings, before the chain's. */
  readonly warnings?: readonly string[]
  /** Warn of each untrusted project's hooks that did not run (default); off where the once-a-session notice alone tells it. */
  readonly untrustedWarnings?: boolean
  /** When the fire started (epoch ms), for a block's span. */
  readonly startedAt?: number
}

interface DecidedEvent {
  readonly decision: Decision
  readonly chain: ChainOutcome
  /** The config hooks that were selected: they ran, unless hookrun's own block came first. */
  readonly selected: readonly Hook[]
  /** hookrun's own block before any hook ran, if there was one. */
  readonly block?: HookResult
}

/** Decide one event: a gate hookrun cannot vouch for blocks before anything runs (docs/guarantees.md); else the chain runs. */
export async function decideEvent(
  config: DecidingConfig,
  event: FiredEvent,
  payload: Payload,
  options: DecideOptions,
): Promise<DecidedEvent> {
  // picomatch loads only when a broken gate entry is judged, or (in select) a pattern or `if` rule is a glob.
  if (config.problems.length > 0) await loadGlobs()
  const block = gateBlock(config.trusts, config.problems, event, config.policy)
  const selected = (await select(config.hooks, event, payload, { matched: options.matched })).filter((hook) => !options.exclude?.(hook))
  const steps = options.arrange?.(selected) ?? selected
  const chain: ChainOutcome =
    block !== undefined
      ? { ...emptyChain(), results: [block], skipped: [...steps], startedAt: [options.startedAt ?? Date.now()] }
      : steps.length === 0
        ? emptyChain()
        : // Running hooks is loaded only when there are hooks to run: most events have none.
          await (await import('./chain.ts')).runChain(steps, event, payload, {
            env: options.env,
            depth: options.depth,
            projectRoot: config.projectRoot,
            signal: options.signal,
            progress: options.progress,
            trusts: config.trusts,
            footprints: config.footprints,
            ...(options.budgetMs !== undefined && { budgetMs: options.budgetMs }),
          })
  const warnings = [
    ...(options.untrustedWarnings === false ? [] : untrustedWarnings(config.trusts, config.untrustedHooks)),
    ...unknownEventWarning(event),
    ...(options.warnings ?? []),
    ...chain.warnings,
  ]
  return { decision: decide(event, chain.results, chain.rewrites, warnings), chain, selected, ...(block !== undefined && { block }) }
}

function emptyChain(): ChainOutcome {
  return { results: [], ran: [], skipped: [], rewrites: {}, warnings: [], startedAt: [], judged: [] }
}

/** Any agent may fire its own events; one a typo away from a known name is worth a word. */
function unknownEventWarning(event: FiredEvent): string[] {
  if (isKnownEvent(event.name)) return []
  const nearest = nearestEvent(event.name)
  return nearest === undefined ? [] : [`unknown event '${event.name}'; did you mean '${nearest}'?`]
}
