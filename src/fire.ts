// fire(): the pipeline top to bottom (DESIGN §2): event → config → select → run → interpret → decide.
import { dirname, resolve } from 'node:path'
import pkg from '../package.json' with { type: 'json' }
import { findConfigFiles } from './config/files.ts'
import { narrowedAction, readStamp } from './config/narrowed.ts'
import { plannedHooks } from './config/plan.ts'
import { type FiredEvent, type Hook, type HookResult, type HookRule, type HttpRun, type HttpTarget, needsTrust, type Payload, ruleOfShape, type Settings } from './core/types.ts'
import { decide, type Rewrites } from './answer/decide.ts'
import { hookEnvironment, MAX_DEPTH, variablesWithNul } from './run/env.ts'
import { FIRE_ID_VARIABLE, killEscapees, newFireId, pidClock } from './run/escapees.ts'
import { TOOL_INPUT_KEYS, toolInput } from './payload/fields.ts'
import { payloadBytes } from './payload/payload.ts'
import { HookrunError } from './core/errors.ts'
import { qualifyEvent } from './event/event.ts'
import { loadGlobs } from './event/globs.ts'
import { answerUpdatedInput, interpretHttp, interpretRun } from './answer/interpret.ts'
import { readAnswer } from './answer/read.ts'
import type { Decision } from './core/protocol.ts'
import { runCommand, startDetached } from './run/command.ts'
import type { ChildInput } from './run/child.ts'
import { selectHooks, selectionUsesGlobs } from './select/select.ts'
import { gateBlock, hookrunBlock, untrustedNotice, untrustedWarning } from './select/gates.ts'
import { isGate, isKnownEvent } from './event/events.ts'
import { nearestEvent } from './event/suggest.ts'
import { firstNoticeOf } from './trust/notices.ts'
import { sessionIdOf } from './payload/fields.ts'
import type { FireFacts } from './telemetry/record.ts'
import type { LoadedHooks } from './fire-config.ts'

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
}

/** NDJSON records of `--events` (the SDK spec's hook_started / hook_output / hook_finished). */
export type ProgressRecord =
  | { readonly type: 'hook_started'; readonly hook: string; readonly event: string; readonly time: string }
  | { readonly type: 'hook_output'; readonly hook: string; readonly stream: 'stdout' | 'stderr'; readonly line: string }
  | {
      readonly type: 'hook_finished'
      readonly hook: string
      readonly outcome: string
      readonly exitCode: number | null
      readonly durationMs: number
      readonly timedOut: boolean
    }

/**
 * The whole pipeline (DESIGN §2): event → config → select → run → interpret → decide.
 * Payload reading and rendering belong to the caller (the CLI, or an agent in-process).
 */
export async function fire(options: FireOptions): Promise<Decision> {
  const started = performance.timeOrigin + performance.now()
  const env = options.env ?? process.env
  const payload = options.payload ?? {}
  const cwd = options.cwd ?? process.cwd()
  const event = qualifyEvent(options.event, payload, options.tool)
  const depth = checkDepth(env)
  const { config, warnings, signature } = await loadConfig(event, { cwd, configFiles: options.configFiles, env, strict: options.strict ?? false, signal: options.signal })
  if (config.policy?.stale && options.selfCommand !== undefined) {
    // A stale remote policy is refreshed in the background; this fire uses the copy it has.
    const { claimRefresh } = await import('./config/policy.ts')
    if (claimRefresh(config.policy.url, env)) startDetachedSelf([...options.selfCommand, 'policy', 'pull', '--quiet'], env)
  }
  // picomatch loads only when a pattern or `if` rule is a glob, or a broken gate entry is judged.
  if (selectionUsesGlobs(config.hooks) || config.problems.length > 0) await loadGlobs()
  const untrusted = untrustedWarning(config.trust, config.untrustedHooks)
  // A gate hookrun cannot vouch for blocks before anything runs (DESIGN §8).
  const block = gateBlock(config.trust, config.problems, event, config.policy)
  const hooks = block !== undefined ? [] : selectHooks(config.hooks, event, payload)
  const chain =
    block !== undefined
      ? { results: [block], rewrites: {}, warnings: [], startedAt: [started] }
      : await runChain(hooks, event, payload, {
          env,
          depth,
          projectRoot: config.projectRoot,
          signal: options.signal,
          progress: options.progress,
        })
  const decided = decide(event, chain.results, chain.rewrites, [...(untrusted === undefined ? [] : [untrusted]), ...unknownEventWarning(event), ...warnings, ...chain.warnings])
  const agent = options.agent ?? env.HOOKRUN_AGENT
  let decision = withTrustNotice(decided, config.trust, payload, env)
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
    const facts = { event, decision, payload, hooks, startedAt: chain.startedAt, start: started, end: performance.timeOrigin + performance.now(), env, ...(agent && { agent }) }
    const failure = await recordTelemetry(config.settings, facts, options.selfCommand)
    if (failure !== undefined) decision = { ...decision, warnings: [...decision.warnings, failure] }
  }
  // A narrowed agent config (install --project --narrow) that hooks.json outgrew is brought up to
  // date by a detached `install --sync`; without a narrowed install this is one failed open.
  const stamp = options.selfCommand === undefined || options.configFiles?.length ? undefined : readStamp(config.projectRoot, env)
  if (stamp !== undefined) {
    // Only where the project's hooks are trusted: a repository's edit must not change agent configs unseen.
    const action = narrowedAction(stamp, signature, config.trust?.trusted !== false, env)
    if (action.sync) startDetachedSelf([...options.selfCommand!, 'install', '--sync', '--quiet', '--cwd', stamp.dir, '--agent', stamp.agents.join(',')], env)
    if (action.notice !== undefined) decision = { ...decision, systemMessage: [decision.systemMessage, `hookrun: ${action.notice}`].filter(Boolean).join('\n') }
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
  const { spawn } = process.getBuiltinModule('node:child_process') as typeof import('node:child_process') // not imported: a bundler hoists builtin imports, loading them on every event
  const child = spawn(command!, args, { detached: true, stdio: 'ignore', env: env as NodeJS.ProcessEnv })
  child.on('error', () => undefined)
  child.unref()
}

/** Any agent may fire its own events; one a typo away from a known name is worth a word. */
export function unknownEventWarning(event: FiredEvent): string[] {
  if (isKnownEvent(event.name)) return []
  const nearest = nearestEvent(event.name)
  return nearest === undefined ? [] : [`unknown event '${event.name}'; did you mean '${nearest}'?`]
}

/**
 * Hooks that do not run because their project is untrusted are shown to the user in the agent
 * (the decision's `systemMessage`, which every dialect renders on its user-visible channel),
 * once per session: stderr alone is not shown by agents on success.
 */
function withTrustNotice(decision: Decision, trust: FireConfig['trust'], payload: Payload, env: Readonly<Record<string, string | undefined>>): Decision {
  if (trust === undefined || trust.trusted || !firstNoticeOf(trust.root, sessionIdOf(payload), env)) return decision
  return { ...decision, systemMessage: [`hookrun: ${untrustedNotice(trust)}`, decision.systemMessage].filter(Boolean).join('\n') }
}

/**
 * Stage config: the plan's answer for this event while everything it came from is unchanged
 * (src/config/plan.ts), else every layer read, trust applied and the plan made (src/fire-config.ts,
 * loaded only then).
 */
async function loadConfig(event: FiredEvent, options: { cwd: string; configFiles?: readonly string[]; env: Readonly<Record<string, string | undefined>>; strict: boolean; signal?: AbortSignal }): Promise<Pick<LoadedHooks, 'warnings' | 'signature'> & { config: FireConfig }> {
  const found = options.configFiles?.length ? undefined : findConfigFiles(options)
  const planned = found === undefined ? undefined : plannedHooks(found, options.env, event)
  if (planned !== undefined) {
    const config: FireConfig = { hooks: planned.hooks, problems: [], projectRoot: planned.projectRoot, settings: { trustedFolders: [] }, trust: planned.trust, untrustedHooks: [] }
    return { config, warnings: [], signature: planned.signature }
  }
  return (await import('./fire-config.ts')).loadAndPlan(event, options)
}

/** What of the config stage a fire uses. */
type FireConfig = Pick<LoadedHooks['config'], 'hooks' | 'problems' | 'projectRoot' | 'settings' | 'trust' | 'untrustedHooks' | 'policy'>

export function checkDepth(env: Readonly<Record<string, string | undefined>>): number {
  const depth = Number.parseInt(env.HOOKRUN_DEPTH ?? '0', 10) || 0
  if (depth >= MAX_DEPTH) {
    throw new HookrunError(
      `hook recursion: hookrun was fired from inside hooks ${depth} levels deep (limit ${MAX_DEPTH}); a hook is calling 'hookrun fire' for the event it handles`,
    )
  }
  return depth
}

export interface ChainContext {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly depth: number
  readonly projectRoot: string
  readonly signal?: AbortSignal
  readonly progress?: (record: ProgressRecord) => void
  /** The marker blocking command hooks carry (src/run/escapees.ts); made by `runChain`. */
  readonly fireId?: string
}

/** One step of the chain: a command hook from the config, or a hook that runs in-process. */
export type ChainStep = Hook | InProcessStep

/** A hook that runs inside the caller's process: the library's function hooks (src/library/function-hook.ts). */
export interface InProcessStep {
  readonly name: string
  /**
   * Run with the payload as earlier steps left it. A rewrite travels in the result's `answer`
   * (`updatedInput`, `updatedPrompt`), exactly as a command hook's JSON answer carries it.
   */
  run(event: FiredEvent, payload: Payload, signal: AbortSignal | undefined): Promise<HookResult>
}

/** What running the steps gave: the results in config order, and the steps a block kept from running. */
export interface ChainOutcome {
  readonly results: HookResult[]
  /** The step of each result (same order). */
  readonly ran: ChainStep[]
  /** Chain steps that did not run because an earlier step blocked. */
  readonly skipped: ChainStep[]
  readonly rewrites: Rewrites
  readonly warnings: string[]
  /** When each result's step started (epoch ms, same order as `results`): for telemetry spans. */
  readonly startedAt: number[]
}

/** The rule a step runs under: function hooks are hookrun's own, so they chain. */
export function ruleOf(step: ChainStep): HookRule {
  return 'run' in step ? 'chain' : ruleOfShape(step.shape)
}

/**
 * Consecutive steps of the `all` rule form one stage, run concurrently (one after another when a
 * Gemini group says `sequential`: Gemini then runs every matching handler in order). A chain
 * step is a stage of its own.
 */
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
 * Run the selected steps (DESIGN §7). hookrun's own hooks form a chain: in order, each seeing the
 * payload as earlier steps left it, stopping at the first block. Handlers written in an agent's
 * shape keep that agent's rule: every one of them runs, whatever blocked, concurrently, each
 * seeing the payload as it was when they started; their rewrites apply afterwards in config
 * order. Command hooks and in-process hooks differ only in how one step runs.
 */
export async function runChain(steps: readonly ChainStep[], event: FiredEvent, original: Payload, context: ChainContext): Promise<ChainOutcome> {
  const results: HookResult[] = []
  const ran: ChainStep[] = []
  const skipped: ChainStep[] = []
  const warnings: string[] = []
  const handoffs: Promise<unknown>[] = []
  let payload = withEventName(original, event)
  // Blocking command hooks carry a marker their descendants inherit (src/run/escapees.ts).
  const fireId = context.fireId === undefined ? newFireId() : context.fireId
  const chainContext = fireId === undefined ? context : { ...context, fireId }
  // Read before any command starts: the sweep then looks only at processes created since.
  const pidsBefore = fireId !== undefined && steps.some((step) => !('run' in step)) ? pidClock() : undefined
  let letGo = false
  // The payload as command hooks read it on stdin: the bytes that came in while nothing rewrote
  // them, else serialised once per version of the payload.
  const stdin = new WeakMap<Payload, ChildInput>()
  const first = payload
  const inputOf = (seen: Payload) => {
    let input = stdin.get(seen)
    if (input === undefined) stdin.set(seen, (input = (seen === first ? passedThrough(original, event) : undefined) ?? JSON.stringify(seen)))
    return input
  }
  // An http hook's body is text (its runner sends strings).
  const bodyOf = (seen: Payload) => {
    const input = inputOf(seen)
    return typeof input === 'string' ? input : new TextDecoder().decode(input instanceof Uint8Array ? input : Buffer.concat(input))
  }
  const rewrites: { updatedInput?: Record<string, unknown>; updatedPrompt?: string } = {}
  let blocked = false

  const startTimes = new WeakMap<HookResult, number>()
  const runStep = async (step: ChainStep, seen: Payload): Promise<HookResult> => {
    const started = performance.timeOrigin + performance.now()
    const result = await runOneStep(step, seen)
    startTimes.set(result, started)
    return result
  }
  const runOneStep = async (step: ChainStep, seen: Payload): Promise<HookResult> => {
    if (!('run' in step) && !step.blocking && step.http !== undefined) {
      // Sent now, waited for (up to its timeout) only at the end: it gives no decision.
      const target = step.http
      handoffs.push(
        postHttpHook(step, target, bodyOf(seen), context).then((run) => {
          if (run.failure !== undefined || run.timedOut) warnings.push(`hook '${step.name}' (blocking: false) ${run.failure ?? 'did not answer in time'}`)
        }),
      )
      return backgroundResult(step)
    }
    if (!('run' in step) && !step.blocking) {
      const { env, cwd } = commandSetup(step, event, seen, context)
      handoffs.push(
        startDetached(step.command, { cwd, env, input: inputOf(seen) }).then((error) => {
          if (error !== undefined) warnings.push(`hook '${step.name}' (blocking: false) ${error}`)
        }),
      )
      letGo = true
      return backgroundResult(step)
    }
    const progress = context.progress
    progress?.({ type: 'hook_started', hook: step.name, event: event.qualified, time: new Date().toISOString() })
    const result =
      'run' in step
        ? await step.run(event, seen, context.signal)
        : step.http !== undefined
          ? await runHttpHook(step, step.http, event, bodyOf(seen), context)
          : await runCommandHook(step, event, seen, inputOf(seen), chainContext)
    if (result.report.async) letGo = true
    const { outcome, exitCode, durationMs, timedOut } = result.report
    progress?.({ type: 'hook_finished', hook: step.name, outcome, exitCode, durationMs, timedOut })
    return result
  }
  const startedAt: number[] = []
  const keep = (step: ChainStep, result: HookResult) => {
    ran.push(step)
    results.push(result)
    startedAt.push(startTimes.get(result) ?? performance.timeOrigin + performance.now())
    if (result.blocks) {
      blocked = true
      return
    }
    const answer = result.answer
    const updatedInput = answerUpdatedInput(answer, toolInput(payload))
    if (updatedInput !== undefined || answer?.updatedPrompt !== undefined) {
      if (updatedInput !== undefined) rewrites.updatedInput = updatedInput
      if (answer?.updatedPrompt !== undefined) rewrites.updatedPrompt = answer.updatedPrompt
      payload = applyRewrites(payload, updatedInput, answer?.updatedPrompt)
    }
  }

  for (const stage of stagesOf(steps)) {
    if (context.signal?.aborted) break
    if (stage.rule === 'chain' && blocked) {
      skipped.push(...stage.steps)
      continue
    }
    if (stage.sequential) {
      for (const step of stage.steps) {
        if (context.signal?.aborted) break
        keep(step, await runStep(step, payload))
      }
      continue
    }
    const seen = payload
    const stageResults = await Promise.all(stage.steps.map((step) => runStep(step, seen)))
    stage.steps.forEach((step, index) => keep(step, stageResults[index]!))
  }
  // Detached hooks must have their input before hookrun exits.
  await Promise.all(handoffs)
  // Whatever the hooks left running in a session of its own ends with the chain, unless a hook
  // was let go on purpose (blocking: false, {"async": true}): its descendants carry the marker too.
  if (fireId !== undefined && !letGo && ran.some((step) => !('run' in step))) await killEscapees(fireId, pidsBefore)
  return { results, ran, skipped, rewrites, warnings, startedAt }
}

function commandSetup(hook: Hook, event: FiredEvent, payload: Payload, context: ChainContext) {
  const env = hookEnvironment(
    context.env,
    event,
    payload,
    { hookName: hook.name, projectDir: context.projectRoot, configDir: dirname(hook.source.file), depth: context.depth },
    projectDirVariables(hook, context),
    hook.envPrefixes,
  )
  const cwd = hook.cwd === undefined ? context.projectRoot : resolve(context.projectRoot, hook.cwd)
  return { env, cwd }
}

/**
 * The project-folder variables a handler written for an agent reads, as that agent sets them
 * (agent-hook-protocols.md §1.6, §6.1, §6.3: Gemini CLI and Cursor also set Claude's name).
 */
const PROJECT_DIR_VARIABLES: Readonly<Partial<Record<Hook['shape'], readonly string[]>>> = {
  claude: ['CLAUDE_PROJECT_DIR'],
  gemini: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
  cursor: ['CURSOR_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
}

function projectDirVariables(hook: Hook, context: ChainContext): Readonly<Record<string, string>> | undefined {
  // A project's own hooks get the project root whatever the agent set: trust pinned the files
  // these paths name (src/trust/material.ts), so they must mean the same when the hook runs.
  if (needsTrust(hook.source.layer)) return { ...Object.fromEntries(ALL_PROJECT_DIR_VARIABLES.map((name) => [name, context.projectRoot])), ...hook.env }
  const names = PROJECT_DIR_VARIABLES[hook.shape]
  if (names === undefined) return hook.env
  return { ...Object.fromEntries(names.map((name) => [name, context.env[name] ?? context.projectRoot])), ...hook.env }
}

const ALL_PROJECT_DIR_VARIABLES = [...new Set(Object.values(PROJECT_DIR_VARIABLES).flat())]

async function runCommandHook(hook: Hook, event: FiredEvent, payload: Payload, input: ChildInput, context: ChainContext): Promise<HookResult> {
  const cut = variablesWithNul(event, payload)
  const nulWarning = cut.length === 0 ? undefined : `${cut.join(', ')} would hold a NUL character, which an environment variable cannot carry (the hook would see only the part before it)`
  // A gate must not judge a value cut short: it fails closed instead of running.
  if (nulWarning !== undefined && isGate(event.name)) {
    const blocked = hookrunBlock(`hook '${hook.name}' was not run: ${nulWarning}`, hook.source.file)
    return { ...blocked, report: { ...blocked.report, name: hook.name, source: hook.source.layer } }
  }
  const { env, cwd } = commandSetup(hook, event, payload, context)
  const progress = context.progress
  const run = await runCommand(hook.command, {
    cwd,
    env: context.fireId === undefined ? env : { ...env, [FIRE_ID_VARIABLE]: context.fireId },
    input,
    timeoutMs: hook.timeout * 1000,
    signal: context.signal,
    allowAsync: true,
    onLine: progress && ((stream, line) => progress({ type: 'hook_output', hook: hook.name, stream, line })),
  })
  const result = interpretRun(hook, event, run, { PATH: env.PATH }, await readAnswer(run.stdout))
  return nulWarning === undefined ? result : { ...result, warnings: [...result.warnings, `hook '${hook.name}': ${nulWarning}; it ran with the value cut there`] }
}

/**
 * The payload's own bytes with what `withEventName` adds appended inside the closing brace: the
 * same JSON a hook would get from serialising that object, without decoding and encoding it
 * again, and as pieces around the addition (a 10 MB payload is not copied to add a field).
 * Undefined (serialise instead) when the payload did not come from bytes or has a null event
 * field that `withEventName` would replace.
 */
function passedThrough(original: Payload, event: FiredEvent): ChildInput | undefined {
  const raw = payloadBytes(original)
  if (raw === undefined || ('event' in original && original.event == null) || ('hook_event_name' in original && original.hook_event_name == null)) return undefined
  const added = [
    ...('event' in original ? [] : [['event', event.qualified]]),
    ...('hook_event_name' in original ? [] : [['hook_event_name', event.name]]),
  ]
  const bytes = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw // a BOM the decoder skipped
  if (added.length === 0) return bytes
  let close = bytes.length - 1
  while (close > 0 && bytes[close] !== 0x7d) close-- // the object's closing brace (only whitespace follows it)
  const fields = added.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')
  const insert = new TextEncoder().encode(Object.keys(original).length > 0 ? `,${fields}` : fields)
  return [bytes.subarray(0, close), insert, bytes.subarray(close)]
}

/** POST the payload to an http hook; its code loads only when one runs. */
async function postHttpHook(hook: Hook, target: HttpTarget, body: string, context: ChainContext): Promise<HttpRun> {
  const { postHook } = await import('./run/http.ts')
  return postHook(target, body, { timeoutMs: hook.timeout * 1000, env: context.env, signal: context.signal, userAgent: `hookrun/${pkg.version}` })
}

async function runHttpHook(hook: Hook, target: HttpTarget, event: FiredEvent, body: string, context: ChainContext): Promise<HookResult> {
  const run = await postHttpHook(hook, target, body, context)
  const parsed = run.failure === undefined && run.status !== undefined && run.status >= 200 && run.status < 300 ? await readAnswer(run.body) : {}
  return interpretHttp(hook, event, run, parsed)
}

/** Hooks get the event name in the payload too, unless the agent already put its own there. */
function withEventName(payload: Payload, event: FiredEvent): Payload {
  if ('event' in payload && 'hook_event_name' in payload) return payload
  return { ...payload, event: payload.event ?? event.qualified, hook_event_name: payload.hook_event_name ?? event.name }
}

/** Keys that hold the user's prompt, in the order agents use them. */
export const PROMPT_KEYS = ['prompt', 'user_prompt', 'userPrompt', 'message'] as const

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
