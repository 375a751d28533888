// Stage config, remembered: what a fire's config stage gave for an event, kept while its inputs are unchanged.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { fnv1a, writeCacheEntry } from '../core/cache-file.ts'
import { userCacheDir } from '../core/places.ts'
import type { FiredEvent, Hook, Settings } from '../core/types.ts'
import { hooksMatching } from '../event/pattern.ts'
import { hooksDir, pluginsDir } from '../discover/folders.ts'
import type { ProjectTrust } from '../trust/trust.ts'
import { footprintHolds, isFootprint, type TrustFootprint } from '../trust/footprint.ts'
import { fileSignature, settled } from './cache.ts'
import type { FoundConfigFiles } from './files.ts'
import type { ResolvedConfig } from './load.ts'
import { configSignature } from './narrowed.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * Most fires of a session ask the same question of the same unchanged config: which hooks does
 * `tool:pre_execute:bash` have? Reading every layer, deciding trust and merging cost a compiled
 * hookrun more than the rest of a fire whose hooks do nothing. A plan remembers, per set of
 * config files, each event's answer: the hooks whose pattern matches it (their filters still run
 * on every fire), with the trust decision they were read under. It holds only while everything
 * the answer came from is as it was:
 *
 *  - the same config files (the layers found from the working directory), each with the stat
 *    signature it was read at, every one settled (as the config cache takes them, ./cache.ts);
 *  - the same environment, as far as the config stage reads it (`PLAN_VARIABLES`);
 *  - the hook folders and plugin folders the same (absent or empty, with the same signature);
 *  - the same projects at or above the working directory (an enclosing project adds layers of its
 *    own, src/config/files.ts; which folder a fire starts from is the agent's project,
 *    src/config/project.ts, so its variables act through this list and the files);
 *  - for each project trusted by `hookrun trust`: its trust record, the same material files (the
 *    hook folders walked, the paths the commands name looked at), each with the signature it was
 *    trusted at, exactly what trust checks on every fire before it would hash
 *    (src/trust/footprint.ts); `hookrun untrust`, an edit or a new file shows at once. A git
 *    worktree held to its repository's record rests on that record, the files git keeps that tie
 *    the two, and its own files' signatures from when their hashes matched the record.
 *
 * A plan is only made where the config stage does nothing else a fire would miss: no managed
 * config or remote policy, no `--config`/HOOKRUN_CONFIG, no config problem, no untrusted project
 * hooks, no hook folder or plugin to ask. The audit log and telemetry settings come from the
 * user's config file, which the plan rests on: the plan keeps them, so a fire that logs still
 * answers from it. Anything else
 * is read the long way on every fire, as before. A damaged or foreign plan is a miss, never an
 * answer.
 */
interface Plan {
  readonly format: string
  /** `planEnvironment` when it was made. */
  readonly env: string
  /** The project root when a project was found (the file set alone may not tell it). */
  readonly root: string | null
  /** Every project at or above the working directory, outermost first (`FoundConfigFiles.projects`). */
  readonly projects: readonly string[]
  /** `configSignature` of the files the documents were read from (src/config/narrowed.ts). */
  readonly signature: string
  /** Hook and plugin folders: their signatures (null: absent) when the config was read. */
  readonly folders: ReadonlyArray<readonly [string, string | null]>
  /** Each project's trust, outermost first; the last is the project's own when it has hooks. */
  readonly trusts: readonly ProjectTrust[]
  /** Per entry of `trusts`: what trust by record rests on (src/trust/footprint.ts); null for a trusted folder. */
  readonly trusted: ReadonlyArray<TrustFootprint | null>
  /** The settings a fire acts on after deciding (the audit log, telemetry), as the config files give them. */
  readonly settings: PlannedSettings
  /** Per qualified event: the hooks whose pattern matches it, in config order. */
  readonly events: Readonly<Record<string, readonly Hook[]>>
}

/** The settings a planned fire needs: what it does after deciding. */
export type PlannedSettings = Pick<Settings, 'log' | 'telemetry'>

const FORMAT = `${pkg.version}/plan/6`

/** More events than this in one plan start it afresh (a plan stays one small read). */
const MAX_EVENTS = 200

/** What a plan gives a fire: the config stage's answer for this event. */
export interface PlannedHooks {
  readonly hooks: readonly Hook[]
  readonly projectRoot: string
  readonly trust: ProjectTrust | undefined
  /** Every project's trust, outermost first (`ResolvedConfig.trusts`). */
  readonly trusts: readonly ProjectTrust[]
  /** `configSignature` of the config files, as `loadHooks` gives it. */
  readonly signature: string
  readonly settings: PlannedSettings
}

/**
 * The variables the config stage reads: where the user's folders are, HOOKRUN_CONFIG, the managed
 * folder. A plan made under other values of these is not used; any other variable (an agent's own,
 * the ones hookrun sets for a hook that fires hookrun again) leaves it as it is.
 * test/unit/plan.test.ts holds every variable the config stage reads to this list.
 */
export const PLAN_VARIABLES: ReadonlySet<string> = new Set([
  'HOME',
  'USERPROFILE',
  'ProgramData',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'HOOKRUN_CONFIG',
  'HOOKRUN_MANAGED_DIR',
])

export function planEnvironment(env: Env): string {
  return [...PLAN_VARIABLES]
    .filter((name) => env[name] !== undefined)
    .map((name) => `${name}=${env[name]}`)
    .join('\n')
}

/** One plan file per set of config files (and project root), beside the config cache. */
export function planFile(found: FoundConfigFiles, env: Env): string {
  return join(
    userCacheDir(env),
    'plans',
    `${fnv1a([...found.files.map((ref) => ref.file), found.inProject ? found.projectRoot : '', ...found.projects].join('\n'))}.json`,
  )
}

/** The folders whose hooks would join the config: the project's (in a project) and the user's; an enclosing project's, which trust and gates look at. */
function folderPaths(found: FoundConfigFiles, env: Env): string[] {
  const scopes = found.inProject ? (['project', 'user'] as const) : (['user'] as const)
  const enclosing = found.projects.slice(0, -1).flatMap((root) => [hooksDir('project', root, env), pluginsDir('project', root, env)])
  return [...enclosing, ...scopes.flatMap((scope) => [hooksDir(scope, found.projectRoot, env), pluginsDir(scope, found.projectRoot, env)])]
}

/** The signatures of the hook and plugin folders now: taken before the config is read, and compared after. */
export function folderSignatures(found: FoundConfigFiles, env: Env): Array<[string, string | null]> {
  return folderPaths(found, env).map((dir) => [dir, fileSignature(dir) ?? null])
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
  const pairs = (value: unknown) => Array.isArray(value) && value.every((pair) => Array.isArray(pair) && typeof pair[0] === 'string')
  return (
    typeof plan.env === 'string' &&
    (plan.root === null || typeof plan.root === 'string') &&
    Array.isArray(plan.projects) &&
    plan.projects.every((root) => typeof root === 'string') &&
    typeof plan.signature === 'string' &&
    pairs(plan.folders) &&
    Array.isArray(plan.trusts) &&
    plan.trusts.every((trust) => typeof trust === 'object' && trust !== null && typeof trust.root === 'string' && trust.trusted === true) &&
    Array.isArray(plan.trusted) &&
    plan.trusted.length === plan.trusts.length &&
    plan.trusted.every((footprint) => footprint === null || isFootprint(footprint)) &&
    typeof plan.settings === 'object' &&
    plan.settings !== null &&
    typeof plan.events === 'object' &&
    plan.events !== null &&
    Object.values(plan.events).every(Array.isArray)
  )
}

/** The plan's answer for `event`, when the plan exists, knows the event and everything it came from is unchanged. */
export function plannedHooks(found: FoundConfigFiles, env: Env, event: FiredEvent): PlannedHooks | undefined {
  if (found.files.some((ref) => ref.layer === 'config' || ref.layer === 'managed')) return undefined
  const plan = readPlan(planFile(found, env))
  const hooks = plan?.events[event.qualified]
  if (plan === undefined || hooks === undefined) return undefined
  if (
    plan.root !== (found.inProject ? found.projectRoot : null) ||
    plan.env !== planEnvironment(env) ||
    plan.projects.join('\n') !== found.projects.join('\n')
  )
    return undefined
  const signature = configSignature(found.files, (ref) => fileSignature(ref.file), false)
  if (signature !== plan.signature) return undefined
  if (!sameFolders(plan.folders, folderSignatures(found, env))) return undefined
  if (!plan.trusted.every((footprint, index) => footprint === null || footprintHolds(plan.trusts[index]!.root, footprint))) return undefined
  const own = plan.trusts.at(-1)
  return {
    hooks,
    projectRoot: found.projectRoot,
    trust: own?.root === found.projectRoot ? own : undefined,
    trusts: plan.trusts,
    signature,
    settings: plan.settings,
  }
}

function sameFolders(planned: Plan['folders'], now: ReadonlyArray<readonly [string, string | null]>): boolean {
  return planned.length === now.length && planned.every(([dir, signature], index) => now[index]![0] === dir && now[index]![1] === signature)
}

/** What the config stage gave, as `loadHooks` reads it, and what the plan needs besides. */
export interface ReadConfig {
  readonly config: Pick<
    ResolvedConfig,
    'hooks' | 'problems' | 'files' | 'projectRoot' | 'settings' | 'trust' | 'trusts' | 'untrustedHooks' | 'policy' | 'discovery'
  >
  readonly warnings: readonly string[]
  readonly signature: string
}

/**
 * Remember this event's hooks, when the config just read may be planned (see `Plan`).
 * `foldersBefore` are the folder signatures taken before the config was read; `trusted` what
 * each project's trust rested on (src/trust/footprint.ts), per entry of `config.trusts`, taken after.
 */
export function planHooks(
  found: FoundConfigFiles,
  env: Env,
  event: FiredEvent,
  read: ReadConfig,
  foldersBefore: ReadonlyArray<readonly [string, string | null]>,
  trusted: ReadonlyArray<TrustFootprint | undefined>,
): boolean {
  const { config } = read
  const plannable =
    // The files read are the ones found before (none appeared or went meanwhile), of these layers only.
    config.files.length === found.files.length &&
    config.files.every((ref, index) => ref.file === found.files[index]!.file && ref.layer === found.files[index]!.layer) &&
    config.files.every((ref) => ref.layer === 'user' || ref.layer === 'project' || ref.layer === 'local') &&
    read.warnings.length === 0 &&
    config.problems.length === 0 &&
    config.policy === undefined &&
    config.untrustedHooks.length === 0 &&
    config.discovery !== undefined &&
    config.discovery.sources.length === 0 &&
    config.discovery.skipped.length === 0 &&
    config.trusts.every((trust, index) => trust.trusted && (trust.via === 'folder' || trusted[index] !== undefined)) &&
    config.files.every((ref) => settled(ref.file))
  if (!plannable) return false
  // Plugin folders must be absent: a change inside an installed plugin leaves their signature as it was.
  const folders = folderSignatures(found, env)
  if (!sameFolders(foldersBefore, folders) || folders.some(([dir, signature]) => signature !== null && pluginFolder(dir, found, env)))
    return false
  const file = planFile(found, env)
  const root = found.inProject ? found.projectRoot : null
  const envText = planEnvironment(env)
  const trusts = config.trusts
  const trustedFiles = trusts.map((trust, index) => (trust.via === 'record' ? (trusted[index] ?? null) : null))
  const settings: PlannedSettings = {
    ...(config.settings.log !== undefined && { log: config.settings.log }),
    ...(config.settings.telemetry !== undefined && { telemetry: config.settings.telemetry }),
  }
  const earlier = readPlan(file)
  // The same inputs: add this event; anything else starts the plan afresh.
  const same =
    earlier !== undefined &&
    earlier.root === root &&
    earlier.projects.join('\n') === found.projects.join('\n') &&
    earlier.env === envText &&
    earlier.signature === read.signature &&
    sameFolders(earlier.folders, folders) &&
    JSON.stringify(earlier.trusts) === JSON.stringify(trusts) &&
    JSON.stringify(earlier.trusted) === JSON.stringify(trustedFiles) &&
    JSON.stringify(earlier.settings) === JSON.stringify(settings) &&
    Object.keys(earlier.events).length < MAX_EVENTS
  const hooks = hooksMatching(config.hooks, event)
  const plan: Plan = {
    format: FORMAT,
    env: envText,
    root,
    projects: found.projects,
    signature: read.signature,
    folders,
    trusts,
    trusted: trustedFiles,
    settings,
    events: { ...(same ? earlier.events : {}), [event.qualified]: hooks },
  }
  return writeCacheEntry(file, plan)
}

function pluginFolder(dir: string, found: FoundConfigFiles, env: Env): boolean {
  return dir === pluginsDir('project', found.projectRoot, env) || dir === pluginsDir('user', found.projectRoot, env)
}
