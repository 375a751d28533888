// Stage config, remembered: what a fire's config stage gave for an event, kept while its inputs are unchanged.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { fnv1a, writeCacheEntry } from '../core/cache-file.ts'
import { userCacheDir } from '../core/places.ts'
import type { FiredEvent, Hook, Settings } from '../core/types.ts'
import { hooksMatching } from '../event/pattern.ts'
import { pluginsDir } from '../discover/folders.ts'
import type { ProjectTrust } from '../trust/trust.ts'
import type { TrustFootprint } from '../trust/footprint.ts'
import type { FoundConfigFiles } from './files.ts'
import type { ResolvedConfig } from './load.ts'
import type { Observation } from './observe.ts'
import { inputsHold, isPlanInputs, type PlanInputs } from './plan-inputs.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * Most fires of a session ask the same unchanged config the same question, and reading every layer,
 * deciding trust and merging cost more than the rest of a fire. A plan remembers, per set of config
 * files, each event's matching hooks (their filters still run on every fire) with the trust they
 * were read under, and holds only while every input of that answer is as it was (`PlanInputs`,
 * ./plan-inputs.ts: the config files' settled signatures, the environment the stage reads, the hook
 * and plugin folders, the projects, each trust record's footprint, src/trust/footprint.ts).
 *
 * A plan is only made where the config stage does nothing else a fire would miss: no managed
 * config or policy, no `--config`, no problem, no untrusted project hooks, no hook folder or plugin
 * to ask. It keeps the log and telemetry settings of the files it rests on. A damaged or foreign
 * plan is a miss, never an answer.
 */
interface Plan {
  readonly format: string
  /** Every input of the config stage as it was when the plan was made (./plan-inputs.ts). */
  readonly inputs: PlanInputs
  /** Each project's trust, outermost first; the last is the project's own when it has hooks. */
  readonly trusts: readonly ProjectTrust[]
  /** The settings a fire acts on after deciding (the audit log, telemetry), as the config files give them. */
  readonly settings: PlannedSettings
  /** Per qualified event: the hooks whose pattern matches it, in config order. */
  readonly events: Readonly<Record<string, readonly Hook[]>>
}

/** The settings a planned fire needs: what it does after deciding. */
type PlannedSettings = Pick<Settings, 'log' | 'telemetry'>

const FORMAT = `${pkg.version}/plan/7`

/** More events than this in one plan start it afresh (a plan stays one small read). */
const MAX_EVENTS = 200

/** What a plan gives a fire: the config stage's answer for this event. */
interface PlannedHooks {
  readonly hooks: readonly Hook[]
  readonly projectRoot: string
  readonly trust: ProjectTrust | undefined
  /** Every project's trust, outermost first (`ResolvedConfig.trusts`). */
  readonly trusts: readonly ProjectTrust[]
  /** `configSignature` of the config files, as `loadHooks` gives it. */
  readonly signature: string
  readonly settings: PlannedSettings
  /** What each project's trust by record rests on, as the plan just found it holding (`ResolvedConfig.footprints`). */
  readonly footprints: ReadonlyMap<string, TrustFootprint>
}

/** One plan file per set of config files (and project root), beside the config cache. */
export function planFile(found: FoundConfigFiles, env: Env): string {
  return join(
    userCacheDir(env),
    'plans',
    `${fnv1a([...found.files.map((ref) => ref.file), found.inProject ? found.projectRoot : '', ...found.projects].join('\n'))}.json`,
  )
}

function readPlan(file: string): Plan | undefined {
  try {
    const plan = JSON.parse(readFileSync(file, 'utf8')) as Plan
    return plan.format === FORMAT && isPlan(plan) ? plan : undefined
  } catch {
    return undefined // none yet, or damaged: the config is read the long way
  }
}

/** The shape `planHooks` writes: anything else (a damaged or hand-edited file) is no plan. */
function isPlan(plan: Plan): boolean {
  return (
    isPlanInputs(plan.inputs) &&
    Array.isArray(plan.trusts) &&
    plan.trusts.every((trust) => typeof trust === 'object' && trust !== null && typeof trust.root === 'string' && trust.trusted === true) &&
    // Trust by record holds only while what it rests on does: a plan without that is no plan.
    plan.trusts.every((trust) => trust.via !== 'record' || plan.inputs.trustRecords.some(([root]) => root === trust.root)) &&
    typeof plan.settings === 'object' &&
    plan.settings !== null &&
    typeof plan.events === 'object' &&
    plan.events !== null &&
    Object.values(plan.events).every(Array.isArray)
  )
}

/** The plan's answer for `event`, when the plan exists, knows the event and every input it rests on holds in this look. */
export function plannedHooks(look: Observation, event: FiredEvent): PlannedHooks | undefined {
  const { found, env } = look
  if (look.named || found.files.some((ref) => ref.layer === 'config' || ref.layer === 'managed')) return undefined
  const plan = readPlan(planFile(found, env))
  const hooks = plan?.events[planKey(event)]
  if (plan === undefined || hooks === undefined || !inputsHold(plan.inputs, look)) return undefined
  const own = plan.trusts.at(-1)
  return {
    hooks,
    projectRoot: found.projectRoot,
    trust: own?.root === found.projectRoot ? own : undefined,
    trusts: plan.trusts,
    signature: plan.inputs.configFiles,
    settings: plan.settings,
    footprints: new Map(plan.inputs.trustRecords),
  }
}

/** What the config stage gave, as `loadHooks` reads it, and what the plan needs besides. */
interface ReadConfig {
  readonly config: Pick<
    ResolvedConfig,
    'hooks' | 'problems' | 'files' | 'projectRoot' | 'settings' | 'trust' | 'trusts' | 'untrustedHooks' | 'policy' | 'discovery'
  >
  readonly warnings: readonly string[]
}

/**
 * Whether a config stage's answer may stand for a later fire from the same place (a plan's and a
 * long-lived runner's one rule): nothing in it is decided afresh per fire (untrusted projects, hook
 * folders and plugins, a managed layer or policy), its files are settled, and every input still holds.
 */
export function answerStands(config: ReadConfig['config'], inputs: PlanInputs, look: Observation): boolean {
  // Trust by record stands only while what it rests on does (its footprint, an input).
  const footprinted = new Set(inputs.trustRecords.map(([root]) => root))
  return (
    config.policy === undefined &&
    config.untrustedHooks.length === 0 &&
    (config.discovery?.sources.length ?? 0) === 0 &&
    config.files.every((ref) => ref.layer !== 'managed') &&
    config.trusts.every((trust) => trust.trusted && (trust.via === 'folder' || footprinted.has(trust.root))) &&
    config.files.every((ref) => look.settled(ref.file)) &&
    inputsHold(inputs, look)
  )
}

/**
 * Remember this event's hooks, when the config just read may be planned. `inputs` (src/fire-config.ts
 * `loadAndPlan`, in the look `before`) must still hold after the read, or something changed meanwhile.
 */
export function planHooks(before: Observation, event: FiredEvent, read: ReadConfig, inputs: PlanInputs): boolean {
  const { found, env } = before
  const { config } = read
  const plannable =
    // The files read are the ones found before (none appeared or went meanwhile), of these layers only.
    config.files.length === found.files.length &&
    config.files.every((ref, index) => ref.file === found.files[index]!.file && ref.layer === found.files[index]!.layer) &&
    config.files.every((ref) => ref.layer === 'user' || ref.layer === 'project' || ref.layer === 'local') &&
    read.warnings.length === 0 &&
    config.problems.length === 0 &&
    config.discovery !== undefined &&
    config.discovery.skipped.length === 0 &&
    // Plugin folders must be absent: a change inside an installed plugin leaves their signature as it was.
    inputs.folders.every(([dir, signature]) => signature === null || !pluginFolder(dir, found, env)) &&
    answerStands(config, inputs, before.again())
  if (!plannable) return false
  const file = planFile(found, env)
  const settings: PlannedSettings = {
    ...(config.settings.log !== undefined && { log: config.settings.log }),
    ...(config.settings.telemetry !== undefined && { telemetry: config.settings.telemetry }),
  }
  const earlier = readPlan(file)
  // The same inputs and the same answer: add this event; anything else starts the plan afresh.
  const same =
    earlier !== undefined &&
    JSON.stringify(earlier.inputs) === JSON.stringify(inputs) &&
    JSON.stringify(earlier.trusts) === JSON.stringify(config.trusts) &&
    JSON.stringify(earlier.settings) === JSON.stringify(settings) &&
    Object.keys(earlier.events).length < MAX_EVENTS
  const plan: Plan = {
    format: FORMAT,
    inputs,
    trusts: config.trusts,
    settings,
    events: { ...(same ? earlier.events : {}), [planKey(event)]: hooksMatching(config.hooks, event) },
  }
  return writeCacheEntry(file, plan)
}

/** An event's entry in the plan: its qualified name, and the other readings of an MCP tool's name, which match more. */
function planKey(event: FiredEvent): string {
  return event.alternates === undefined
    ? event.qualified
    : [event.qualified, ...event.alternates.map((segments) => segments.join(':'))].join(' ')
}

function pluginFolder(dir: string, found: FoundConfigFiles, env: Env): boolean {
  return dir === pluginsDir('project', found.projectRoot, env) || dir === pluginsDir('user', found.projectRoot, env)
}
