// After a fire's decision, in this order: hookrun's own notices, the audit line, telemetry, and last the background
// work started (policy refresh, narrowed installs' syncs, the telemetry shipper). None of it changes the decision.
import { type NarrowedStamp, narrowedAction, readStamp, readUserStamp, userRoutingAction } from './config/narrowed.ts'
import type { FiredEvent, Payload, Settings } from './core/types.ts'
import type { Decision } from './core/protocol.ts'
import { untrustedNotice } from './answer/blocks.ts'
import { firstNoticeOf } from './trust/notices.ts'
import { sessionIdOf } from './payload/fields.ts'
import type { FireFacts } from './telemetry/record.ts'
import type { LoadedHooks } from './fire-config.ts'
import type { ChainOutcome } from './chain.ts'
import type { Hook, HookResult } from './core/types.ts'
import { startDetachedSelf } from './core/detached.ts'

type Env = Readonly<Record<string, string | undefined>>

/** What of the config stage a fire uses. */
export type FireConfig = Pick<
  LoadedHooks['config'],
  'hooks' | 'problems' | 'projectRoot' | 'settings' | 'trust' | 'trusts' | 'untrustedHooks' | 'policy' | 'footprints'
>

/** Where hookrun's own notices go (`FireOptions.noticeChannels`). */
type Channels = readonly ('systemMessage' | 'additionalContext')[]

/** The fire as decided: its config, event and payload, where and when it ran. */
interface Fired {
  readonly config: FireConfig
  /** `configSignature` of the config files read (src/config/narrowed.ts). */
  readonly signature: string
  readonly event: FiredEvent
  readonly payload: Payload
  readonly cwd: string
  readonly env: Env
  /** When the fire started (epoch ms). */
  readonly started: number
}

/** What of `FireOptions` (src/fire.ts) the effects read. */
interface EffectOptions {
  readonly configFiles?: readonly string[]
  readonly signal?: AbortSignal
  readonly agent?: string
  readonly selfCommand?: readonly string[]
  readonly noticeChannels?: Channels
  readonly unroutedNotice?: (cwd: string) => Promise<string | undefined>
  readonly reviewedNotice?: (stamp: NarrowedStamp, signature: string, cwd: string) => Promise<string | undefined>
}

/** The decision as the agent gets it, once everything a fire does after deciding is done. */
export async function afterDecision(
  decided: { readonly decision: Decision; readonly chain: ChainOutcome; readonly selected: readonly Hook[]; readonly block?: HookResult },
  fired: Fired,
  options: EffectOptions,
): Promise<Decision> {
  const { config, event, payload, cwd, env, started } = fired
  // hookrun commands to start detached once everything else is done: they outlive the fire.
  const background: string[][] = []
  if (config.policy?.stale && options.selfCommand !== undefined) {
    // A stale remote policy is refreshed in the background; this fire used the copy it has.
    const { claimRefresh } = await import('./config/policy.ts')
    if (claimRefresh(config.policy.url, env)) background.push([...options.selfCommand, 'policy', 'pull', '--quiet'])
  }
  const hooks = decided.block !== undefined ? [] : decided.selected
  const agent = options.agent ?? env.HOOKRUN_AGENT
  // Where notices reach someone is asked only when there is one (a CLI fire works it out by rendering probe answers).
  const channels = () => options.noticeChannels ?? ['systemMessage']
  let decision = withTrustNotice(decided.decision, config.trusts, payload, env, channels)
  decision = await withNarrowedSyncs(decision, { ...fired, channels }, options, background)
  if (config.settings.log !== undefined) {
    // The audit log is opt-in: its code is loaded only when a log is configured.
    const { appendAuditLine, auditLine } = await import('./audit/audit.ts')
    const interrupted = options.signal?.aborted ? String(options.signal.reason) : undefined
    const line = auditLine({ decision, payload, cwd, projectRoot: config.projectRoot, interrupted, ...(agent && { agent }) })
    const failure = appendAuditLine(config.settings.log.path, line, config.settings.log.chain === true)
    if (failure !== undefined) decision = { ...decision, warnings: [...decision.warnings, failure] }
  }
  if (config.settings.telemetry !== undefined || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    // Telemetry is opt-in too; the OpenTelemetry packages never load here (src/telemetry/).
    const end = performance.timeOrigin + performance.now()
    const facts = { event, decision, payload, hooks, startedAt: decided.chain.startedAt, start: started, end, env, ...(agent && { agent }) }
    const failure = await recordTelemetry(config.settings, facts, options.selfCommand, background)
    if (failure !== undefined) decision = { ...decision, warnings: [...decision.warnings, failure] }
  }
  for (const command of background) startDetachedSelf(command, env)
  return decision
}

/** Narrowed agent configs that hooks.json outgrew are synced by a detached `install --sync`; what this session runs without is told. */
async function withNarrowedSyncs(
  decided: Decision,
  fired: Fired & { channels: () => Channels },
  options: EffectOptions,
  background: string[][],
): Promise<Decision> {
  const { config, signature, env, channels } = fired
  let decision = decided
  if (options.selfCommand === undefined || options.configFiles?.length) return decision
  // Only where the project's hooks are trusted: a repository's edit must not change agent configs unseen.
  const trusted = config.trusts.every((trust) => trust.trusted)
  const stamp = readStamp(config.projectRoot, env)
  if (stamp !== undefined) {
    const action = narrowedAction(stamp, signature, trusted, env)
    if (action.sync)
      background.push([...options.selfCommand, 'install', '--sync', '--quiet', '--cwd', stamp.dir, '--agent', stamp.agents.join(',')])
    if (action.notice !== undefined) decision = withNotice(decision, `hookrun: ${action.notice}`, channels())
    // An agent config install leaves to the person (`reviewsChangedHooks`): what it leaves out once the config changed.
    const reviewed = stamp.reviewed !== undefined && stamp.reviewed.signature !== signature && signature !== ''
    const left = reviewed ? await options.reviewedNotice?.(stamp, signature, fired.cwd) : undefined
    if (left !== undefined) decision = withNotice(decision, left, channels())
  }
  // A narrowed user install routes every trusted project's hooks: a fire whose config it was not compiled from syncs it.
  const userStamp = readUserStamp(env)
  if (userStamp !== undefined) {
    const key = config.trusts.length === 0 ? '' : config.projectRoot
    const action = userRoutingAction(userStamp, key, signature, trusted, env)
    // The agent read its file before this fire: a hook it does not route yet is not asked about in this session.
    const stale = userStamp.signatures[key] !== signature && (fired.event.name === 'session:start' || action.sync)
    const unrouted = stale ? await options.unroutedNotice?.(fired.cwd) : undefined
    if (action.sync) background.push([...options.selfCommand, 'install', '--sync', '--user', '--quiet', '--cwd', config.projectRoot])
    if (unrouted !== undefined) decision = withNotice(decision, unrouted, channels())
    if (action.notice !== undefined) decision = withNotice(decision, `hookrun: ${action.notice}`, channels())
  }
  return decision
}

/** Hand one fire's spans over: to the spool and a detached shipper from the CLI, else to a background export in this process. */
async function recordTelemetry(
  settings: Settings,
  facts: FireFacts,
  self: readonly string[] | undefined,
  background: string[][],
): Promise<string | undefined> {
  const { fireRecord, spoolRecord, telemetryTarget } = await import('./telemetry/record.ts')
  const target = telemetryTarget(settings, facts.env)
  if (target === undefined) return undefined
  const record = fireRecord(target, facts)
  try {
    if (self === undefined) {
      void import('./telemetry/export.ts').then((exporter) => exporter.exportRecords([record])).catch(() => undefined)
      return undefined
    }
    if (spoolRecord(record, facts.env)) background.push([...self, 'telemetry', 'flush', '--linger'])
    return undefined
  } catch (error) {
    return `telemetry: ${(error as Error).message}; this fire's spans are not exported`
  }
}

/** Hooks of an untrusted project are told once per session and project, on channels that reach someone (else it waits). */
function withTrustNotice(decision: Decision, trusts: FireConfig['trusts'], payload: Payload, env: Env, channels: () => Channels): Decision {
  if (trusts.every((trust) => trust.trusted)) return decision
  // On an event whose answer reaches no one the notice waits (its once-a-session mark is not spent).
  const reach = channels()
  if (reach.length === 0) return decision
  const notices = trusts
    .filter((trust) => !trust.trusted && firstNoticeOf(trust.root, sessionIdOf(payload), env))
    .map((trust) => `hookrun: ${untrustedNotice(trust)}`)
  return notices.length === 0 ? decision : withNotice(decision, notices.join('\n'), reach, true)
}

/** A notice of hookrun's own on each channel: a message for the person, or context for the model. */
function withNotice(decision: Decision, notice: string, channels: Channels, first = false): Decision {
  let out = decision
  if (channels.includes('systemMessage'))
    out = { ...out, systemMessage: (first ? [notice, out.systemMessage] : [out.systemMessage, notice]).filter(Boolean).join('\n') }
  if (channels.includes('additionalContext'))
    out = { ...out, additionalContext: first ? [notice, ...out.additionalContext] : [...out.additionalContext, notice] }
  return out
}
