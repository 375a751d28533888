// fire(): the pipeline top to bottom (ARCHITECTURE.md): event → config → select → run → interpret → decide.
import { observe } from './config/observe.ts'
import { narrowedAction, readStamp, readUserStamp, userRoutingAction } from './config/narrowed.ts'
import { plannedHooks } from './config/plan.ts'
import type { FiredEvent, Payload, Settings } from './core/types.ts'
import { HookrunError } from './core/errors.ts'
import { qualifyEvent } from './event/event.ts'
import type { Decision } from './core/protocol.ts'
import { untrustedNotice } from './answer/blocks.ts'
import { decideEvent } from './pipeline.ts'
import { firstNoticeOf } from './trust/notices.ts'
import { sessionIdOf } from './payload/fields.ts'
import type { FireFacts } from './telemetry/record.ts'
import type { LoadedHooks } from './fire-config.ts'
import type { ProgressRecord } from './chain.ts'
import { nodeChildProcess } from './core/builtins.ts'

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
   * src/dialects). Default `systemMessage`; empty: none does, so the once-per-session notice
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
  const event = qualifyEvent(options.event, payload, options.tool)
  const depth = checkDepth(env)
  const { config, warnings, signature, matched } = await loadConfig(event, {
    cwd,
    configFiles: options.configFiles,
    env,
    strict: options.strict ?? false,
    signal: options.signal,
  })
  if (config.policy?.stale && options.selfCommand !== undefined) {
    // A stale remote policy is refreshed in the background; this fire uses the copy it has.
    const { claimRefresh } = await import('./config/policy.ts')
    if (claimRefresh(config.policy.url, env)) startDetachedSelf([...options.selfCommand, 'policy', 'pull', '--quiet'], env)
  }
  const {
    decision: decided,
    chain,
    selected,
    block,
  } = await decideEvent(config, event, payload, {
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
  const hooks = block !== undefined ? [] : selected
  const agent = options.agent ?? env.HOOKRUN_AGENT
  const channels = options.noticeChannels ?? ['systemMessage']
  let decision = withTrustNotice(decided, config.trusts, payload, env, channels)
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
    const facts = {
      event,
      decision,
      payload,
      hooks,
      startedAt: chain.startedAt,
      start: started,
      end: performance.timeOrigin + performance.now(),
      env,
      ...(agent && { agent }),
    }
    const failure = await recordTelemetry(config.settings, facts, options.selfCommand)
    if (failure !== undefined) decision = { ...decision, warnings: [...decision.warnings, failure] }
  }
  return withNarrowedSyncs(decision, { config, signature, event, cwd, env, channels }, options)
}

/**
 * Narrowed agent configs kept up to date: one that hooks.json outgrew is brought up to date by a
 * detached `install --sync` (without a narrowed install this is one failed open), and what the
 * last sync did, or what this session runs without, is told.
 */
async function withNarrowedSyncs(
  decided: Decision,
  fired: {
    config: FireConfig
    signature: string
    event: FiredEvent
    cwd: string
    env: Readonly<Record<string, string | undefined>>
    channels: FireOptions['noticeChannels'] & {}
  },
  options: FireOptions,
): Promise<Decision> {
  const { config, signature, env, channels } = fired
  let decision = decided
  if (options.selfCommand === undefined || options.configFiles?.length) return decision
  const stamp = readStamp(config.projectRoot, env)
  if (stamp !== undefined) {
    // Only where the project's hooks are trusted: a repository's edit must not change agent configs unseen.
    const action = narrowedAction(
      stamp,
      signature,
      config.trusts.every((trust) => trust.trusted),
      env,
    )
    if (action.sync)
      startDetachedSelf(
        [...options.selfCommand, 'install', '--sync', '--quiet', '--cwd', stamp.dir, '--agent', stamp.agents.join(',')],
        env,
      )
    if (action.notice !== undefined) decision = withNotice(decision, `hookrun: ${action.notice}`, channels)
  }
  // The same for a narrowed user install (install --agent X): it routes every trusted project's
  // hooks, so a fire in a trusted project (or in none) whose config it was not compiled from syncs it.
  const userStamp = readUserStamp(env)
  if (userStamp !== undefined) {
    const key = config.trusts.length === 0 ? '' : config.projectRoot
    const action = userRoutingAction(
      userStamp,
      key,
      signature,
      config.trusts.every((trust) => trust.trusted),
      env,
    )
    // The agent read its file when this session started (or before this fire): a hook the file does
    // not route yet is not asked about in this session, whatever the sync does now. Read before it starts.
    const stale = userStamp.signatures[key] !== signature && (fired.event.name === 'session:start' || action.sync)
    const unrouted = stale ? await options.unroutedNotice?.(fired.cwd) : undefined
    if (action.sync) startDetachedSelf([...options.selfCommand, 'install', '--sync', '--user', '--quiet', '--cwd', config.projectRoot], env)
    if (unrouted !== undefined) decision = withNotice(decision, unrouted, channels)
    if (action.notice !== undefined) decision = withNotice(decision, `hookrun: ${action.notice}`, channels)
  }
  return decision
}

/**
 * Hand one fire's spans over for export: to the spool and a detached shipper when hookrun runs as
 * a command (the agent waits for our exit, never for the collector), or to a background export in
 * this process when a program calls `fire()` itself (it lives on after the decision).
 */
async function recordTelemetry(settings: Settings, facts: FireFacts, self: readonly string[] | undefined): Promise<string | undefined> {
  const { fireRecord, spoolRecord, telemetryTarget } = await import('./telemetry/record.ts')
  const target = telemetryTarget(settings, facts.env)
  if (target === undefined) return undefined
  const record = fireRecord(target, facts)
  try {
    if (self === undefined) {
      void import('./telemetry/export.ts').then((exporter) => exporter.exportRecords([record])).catch(() => undefined)
      return undefined
    }
    if (spoolRecord(record, facts.env)) startDetachedSelf([...self, 'telemetry', 'flush', '--linger'], facts.env)
    return undefined
  } catch (error) {
    return `telemetry: ${(error as Error).message}; this fire's spans are not exported`
  }
}

function startDetachedSelf([command, ...args]: readonly string[], env: Readonly<Record<string, string | undefined>>): void {
  const { spawn } = nodeChildProcess()
  const child = spawn(command!, args, { detached: true, stdio: 'ignore', env: env as NodeJS.ProcessEnv })
  child.on('error', () => undefined)
  child.unref()
}

/**
 * Hooks that do not run because their project is untrusted (or changed since trusted) are told
 * in the agent once per session and project, on the channels that reach someone there
 * (`noticeChannels`): stderr alone is not shown by agents on success. An event with no such
 * channel does not spend the session's notice.
 */
function withTrustNotice(
  decision: Decision,
  trusts: FireConfig['trusts'],
  payload: Payload,
  env: Readonly<Record<string, string | undefined>>,
  channels: FireOptions['noticeChannels'] & {},
): Decision {
  if (channels.length === 0) return decision
  const notices = trusts
    .filter((trust) => !trust.trusted && firstNoticeOf(trust.root, sessionIdOf(payload), env))
    .map((trust) => `hookrun: ${untrustedNotice(trust)}`)
  return notices.length === 0 ? decision : withNotice(decision, notices.join('\n'), channels, true)
}

/** A notice of hookrun's own on each channel: a message for the person, or context for the model. */
function withNotice(decision: Decision, notice: string, channels: FireOptions['noticeChannels'] & {}, first = false): Decision {
  let out = decision
  if (channels.includes('systemMessage'))
    out = { ...out, systemMessage: (first ? [notice, out.systemMessage] : [out.systemMessage, notice]).filter(Boolean).join('\n') }
  if (channels.includes('additionalContext'))
    out = { ...out, additionalContext: first ? [notice, ...out.additionalContext] : [...out.additionalContext, notice] }
  return out
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

/** What of the config stage a fire uses. */
type FireConfig = Pick<
  LoadedHooks['config'],
  'hooks' | 'problems' | 'projectRoot' | 'settings' | 'trust' | 'trusts' | 'untrustedHooks' | 'policy'
>

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
