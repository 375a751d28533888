// explainFire: fire's pipeline with every decision point recorded, running the same hooks.
import { findConfigFiles } from '../config/files.ts'
import {
  type ConfigFileRef,
  type ConfigProblem,
  type FiredEvent,
  type Hook,
  type HookResult,
  type HookRule,
  type Layer,
  projectRootOf,
  ruleOfShape,
  type Settings,
} from '../core/types.ts'
import { readConfigFile } from '../config/parse.ts'
import { qualifyEvent } from '../event/event.ts'
import type { FireOptions } from '../fire.ts'
import { checkDepth } from '../fire.ts'
import type { ChainOutcome } from '../chain.ts'
import { decideEvent } from '../pipeline.ts'
import { howDecided, rulesApplied } from './how-decided.ts'
import { promptOf, toolInput as payloadToolInput } from '../payload/fields.ts'
import { loadHooks } from '../fire-config.ts'
import { failedFilter } from '../select/filters.ts'
import { compilePattern } from '../event/pattern.ts'
import type { Decision, HookAnswer, HookReport } from '../core/protocol.ts'
import { selectHooks } from '../select/select.ts'

/** Why a configured hook does not run for an event (`untrusted` comes from an `ExclusionCheck`). */
export type Exclusion = 'pattern' | 'disabled' | 'shadowed' | 'untrusted' | 'managed-only' | 'filtered' | 'after-block'

/** A check that can keep a configured hook from running (undefined: it runs); what it excludes is left out of the run too. */
export type ExclusionCheck = (hook: Hook, event: FiredEvent) => { exclusion: Exclusion; detail: string } | undefined

const EXCLUSION_CHECKS: ExclusionCheck[] = []

export function addExclusionCheck(check: ExclusionCheck): void {
  EXCLUSION_CHECKS.push(check)
}

/** One configured hook, and what became of it. */
export interface HookExplanation {
  readonly name: string
  readonly layer: Layer
  readonly file: string
  readonly index: number
  /** JSON path of the entry in its file. */
  readonly path: string
  readonly event: readonly string[]
  readonly command: string
  /** Which handlers run (docs/protocol.md): `chain` for hookrun's own shapes, `all` for an agent's. */
  readonly rule?: HookRule
  /** ran: it ran and answered; background: started and not waited for; would-run: a dry run's "yes". */
  readonly status: 'ran' | 'background' | 'skipped' | 'would-run'
  readonly exclusion?: Exclusion
  readonly detail?: string
  readonly result?: {
    readonly report: HookReport
    readonly decision?: string
    readonly answer?: HookAnswer
    readonly context: readonly string[]
    readonly warnings: readonly string[]
  }
  /** The input each of its runs judged (README "Rewrites are judged again"). */
  readonly judged?: readonly JudgedView[]
}

/** One run's view: the round it ran in, and the input it judged. */
interface JudgedView {
  readonly round: number
  readonly toolInput?: unknown
  readonly prompt?: string
}

export interface Explanation {
  /** Qualified event: `tool:pre_execute:bash`. */
  readonly event: string
  /** The tool in the agent's spelling, when there is one. */
  readonly tool?: string
  readonly files: readonly ConfigFileRef[]
  readonly hooks: readonly HookExplanation[]
  /** Absent on a dry run. */
  readonly decision?: Decision
  /** How the decision was reached, one sentence each. */
  readonly how: readonly string[]
  readonly problems: readonly string[]
}

export interface ExplainOptions extends FireOptions {
  /** Select only; run nothing. */
  readonly dryRun?: boolean
}

/** The fire pipeline with every step kept, plus the hooks that did not run and why. */
export async function explainFire(options: ExplainOptions): Promise<Explanation> {
  const env = options.env ?? process.env
  const payload = options.payload ?? {}
  const event = qualifyEvent(options.event, payload, options.tool)
  const load = { cwd: options.cwd ?? process.cwd(), configFiles: options.configFiles, env }
  // The same load as `fire`: hooks.json layers plus hook folders and plugins.
  const { config, warnings: problems } = await loadHooks({ ...load, strict: false, signal: options.signal })

  const excluded = new Map<Hook, { exclusion: Exclusion; detail: string }>()
  for (const hook of config.hooks) {
    const why = exclusionOf(hook, event, payload)
    if (why !== undefined) excluded.set(hook, why)
  }
  // What runs is decided by the real select stage; the reasons above only explain it.
  const selected = selectHooks(config.hooks, event, payload).filter((hook) => !excluded.has(hook))
  const shadowed = [
    ...config.untrustedHooks.map((hook) =>
      explained(hook, {
        exclusion: 'untrusted',
        detail: `the project is not trusted; review it, then run: ${(config.trusts.find((trust) => trust.root === projectRootOf(hook.source)) ?? config.trust)?.command ?? 'hookrun trust'}`,
      }),
    ),
    ...(config.notManaged ?? []).map((hook) =>
      explained(hook, {
        exclusion: 'managed-only',
        detail: `allowManagedHooksOnly in ${config.settings.managedOnly?.file}: only managed hooks run`,
      }),
    ),
    ...shadowedEntries(load, config.hooks),
    ...config.shadowed.map(
      (entry): HookExplanation => ({
        name: entry.name,
        layer: entry.source.layer,
        file: entry.source.file,
        index: entry.source.index,
        path: entry.source.path,
        event: [],
        command: entry.source.executable ? `'${entry.source.file}' run` : '',
        status: 'skipped',
        exclusion: 'shadowed',
        detail: `shadowed by the ${entry.by.layer} hook of the same name in ${entry.by.file}`,
      }),
    ),
  ]

  if (options.dryRun) {
    const hooks = config.hooks.map((hook) => explained(hook, excluded.get(hook) ?? { status: 'would-run' }))
    const names = selected.map((hook) => `'${hook.name}'`)
    const how = [
      selected.length === 0 ? `dry run: no hook would run for ${event.qualified}` : `dry run: ${names.join(', ')} would run, in this order`,
      ...rulesApplied(selected),
      ...managedOnlyLine(config.settings),
    ]
    return { event: event.qualified, tool: event.tool, files: config.files, hooks: [...hooks, ...shadowed], how, problems }
  }

  // The same decision as `fire`: src/pipeline.ts, with the exclusions above left out of the run.
  const { decision, chain, block } = await decideEvent(config, event, payload, {
    env,
    depth: checkDepth(env),
    signal: options.signal,
    progress: options.progress,
    exclude: (hook) => excluded.has(hook),
    warnings: problems,
  })
  const resultOf = new Map<Hook, HookResult>(chain.results.map((result, index) => [chain.ran[index] as Hook, result]))
  const stoppedAt = chain.results.find((result) => result.blocks)

  const views = judgedViews(chain)
  const hooks = config.hooks.map((hook) => {
    const result = resultOf.get(hook)
    if (result !== undefined)
      return explained(hook, {
        status: result.report.outcome === 'background' ? 'background' : 'ran',
        result,
        judged: views.get(hook.name),
      })
    const why = excluded.get(hook)
    if (why !== undefined) return explained(hook, why)
    if (!selected.includes(hook)) return explained(hook, { exclusion: 'filtered', detail: 'not selected' })
    const detail =
      stoppedAt === undefined
        ? 'the run was interrupted before it'
        : `the chain stopped at '${stoppedAt.report.name}' (${stoppedAt.report.outcome})`
    return explained(hook, { exclusion: 'after-block', detail })
  })
  return {
    event: event.qualified,
    tool: event.tool,
    files: config.files,
    hooks: [...hooks, ...shadowed],
    decision,
    how: [
      ...(block !== undefined ? [`hookrun blocked before any hook ran: ${block.reason}`] : howDecided(event, selected, chain, decision)),
      ...managedOnlyLine(config.settings),
    ],
    problems,
  }
}

function managedOnlyLine(settings: Settings): string[] {
  const file = settings.managedOnly?.file
  return file === undefined
    ? []
    : [`allowManagedHooksOnly in ${file}: the hooks of every other layer (user, project, local, folders, plugins) are ignored`]
}

function exclusionOf(
  hook: Hook,
  event: FiredEvent,
  payload: Record<string, unknown>,
): { exclusion: Exclusion; detail: string } | undefined {
  if (!compilePattern(hook.event).matchesEvent(event)) {
    return { exclusion: 'pattern', detail: `${hook.event.map((pattern) => `'${pattern}'`).join(', ')} does not match ${event.qualified}` }
  }
  if (!hook.enabled) {
    const by = hook.disabledBy
    return { exclusion: 'disabled', detail: by === undefined ? 'enabled: false' : `switched off by ${by.file} (${by.path})` }
  }
  for (const check of EXCLUSION_CHECKS) {
    const why = check(hook, event)
    if (why !== undefined) return why
  }
  const filter = failedFilter(hook, event, payload)
  return filter === undefined ? undefined : { exclusion: 'filtered', detail: filter.detail }
}

function explained(
  hook: Hook,
  state: {
    status?: HookExplanation['status']
    exclusion?: Exclusion
    detail?: string
    result?: HookResult
    judged?: readonly JudgedView[]
  },
): HookExplanation {
  const { result } = state
  return {
    name: hook.name,
    layer: hook.source.layer,
    file: hook.source.file,
    index: hook.source.index,
    path: hook.source.path,
    event: hook.event,
    command: hook.command,
    rule: ruleOfShape(hook.shape),
    status: state.status ?? 'skipped',
    ...(state.exclusion !== undefined && { exclusion: state.exclusion, detail: state.detail }),
    ...(result !== undefined && {
      result: {
        report: result.report,
        ...(result.decision !== undefined && { decision: result.decision }),
        ...(result.answer !== undefined && { answer: result.answer }),
        context: result.context,
        warnings: result.warnings,
      },
    }),
    ...(state.judged !== undefined && { judged: state.judged }),
  }
}

/** Each hook's runs and the input each judged, by hook name (`ChainOutcome.judged`). */
function judgedViews(chain: ChainOutcome): Map<string, JudgedView[]> {
  const views = new Map<string, JudgedView[]>()
  for (const { step, round, payload } of chain.judged) {
    const toolInput = payloadToolInput(payload)
    const prompt = promptOf(payload)
    const view = { round, ...(toolInput !== undefined && { toolInput }), ...(typeof prompt === 'string' && { prompt }) }
    views.set(step, [...(views.get(step) ?? []), view])
  }
  return views
}

/** Entries a later layer replaced by name, read again from the same files (they are not in the loaded hooks). */
function shadowedEntries(load: Parameters<typeof findConfigFiles>[0], hooks: readonly Hook[]): HookExplanation[] {
  const kept = new Set(hooks.map((hook) => `${hook.source.file}\0${hook.source.index}`))
  const byName = new Map(hooks.map((hook) => [hook.name, hook]))
  const out: HookExplanation[] = []
  for (const ref of findConfigFiles(load).files) {
    for (const { index, entry } of readConfigFile(ref, [] as ConfigProblem[])) {
      if (entry.command === undefined || entry.event === undefined || entry.name === undefined) continue
      if (kept.has(`${ref.file}\0${index}`)) continue
      const winner = byName.get(entry.name)
      if (winner === undefined) continue
      out.push({
        name: entry.name,
        layer: ref.layer,
        file: ref.file,
        index,
        path: entry.path,
        event: typeof entry.event === 'string' ? [entry.event] : entry.event,
        command: entry.command,
        rule: ruleOfShape(entry.shape),
        status: 'skipped',
        exclusion: 'shadowed',
        detail: `replaced by the ${winner.source.layer} hook of the same name in ${winner.source.file} (${winner.source.path})`,
      })
    }
  }
  return out
}
