// What a fire's plan rests on: every input of the config stage, declared once. The config stage
// (src/fire-config.ts) gives a value for each, the plan (./plan.ts) stores them all and checks
// them all on every fire: an input cannot be stored and not compared, nor given and not stored.
import { hooksDir, pluginsDir } from '../discover/folders.ts'
import { footprintHolds, isFootprint, type TrustFootprint } from '../trust/footprint.ts'
import type { FoundConfigFiles } from './files.ts'
import { configSignature } from './narrowed.ts'
import type { Observation } from './observe.ts'

type Env = Readonly<Record<string, string | undefined>>

/** What a fire knows before its config stage: its one look at the world (./observe.ts). */
type PlanContext = Pick<Observation, 'found' | 'env' | 'signature'>

/**
 * The config stage's inputs, as a plan records them: a new one is a field here and an entry in `PLAN_INPUTS`
 * (test/unit/plan-inputs.test.ts fails while the config stage reads a file or variable none covers).
 */
export interface PlanInputs {
  /** The variables the config stage reads (`PLAN_VARIABLES`), as `planEnvironment` writes them. */
  readonly environment: string
  /** The project root when a project was found (the file set alone may not tell it). */
  readonly root: string | null
  /** Every project at or above the working directory, outermost first (src/config/files.ts). */
  readonly projects: readonly string[]
  /** `configSignature` of the config files, as the config cache took them before reading (./narrowed.ts). */
  readonly configFiles: string
  /** Hook and plugin folders: their signatures (null: absent), taken before the config was read. */
  readonly folders: ReadonlyArray<readonly [string, string | null]>
  /** Per project trusted by `hookrun trust`: its root and what that trust rests on (src/trust/footprint.ts). */
  readonly trustRecords: ReadonlyArray<readonly [string, TrustFootprint]>
}

interface PlanInput<T> {
  /** Whether the value recorded when the plan was made still holds for this fire. */
  holds(recorded: T, context: PlanContext): boolean
  /** The shape a recorded value read back from a plan file must have (anything else is no plan). */
  isValue(value: unknown): boolean
}

/** An input the fire can take again itself, compared as taken. */
function taken<T>(take: (context: PlanContext) => T, isValue: (value: unknown) => boolean): PlanInput<T> {
  return { holds: (recorded, context) => JSON.stringify(recorded) === JSON.stringify(take(context)), isValue }
}

const isString = (value: unknown) => typeof value === 'string'
const isStrings = (value: unknown) => Array.isArray(value) && value.every(isString)
const isPairs = (value: unknown) => Array.isArray(value) && value.every((pair) => Array.isArray(pair) && isString(pair[0]))

/** Every input of the config stage and how a fire checks it. */
const PLAN_INPUTS: { readonly [K in keyof PlanInputs]: PlanInput<PlanInputs[K]> } = {
  environment: taken(({ env }) => planEnvironment(env), isString),
  root: taken(
    ({ found }) => (found.inProject ? found.projectRoot : null),
    (value) => value === null || isString(value),
  ),
  projects: taken(({ found }) => found.projects, isStrings),
  configFiles: taken((look) => configSignature(look.found.files, (ref) => look.signature(ref.file), false), isString),
  folders: taken(folderSignatures, isPairs),
  trustRecords: {
    holds: (recorded, look) => recorded.every(([root, footprint]) => footprintHolds(root, footprint, look.signature)),
    isValue: (value) => isPairs(value) && (value as unknown[][]).every((pair) => isFootprint(pair[1])),
  },
}

/** Every declared input still holds for this fire. */
export function inputsHold(recorded: PlanInputs, context: PlanContext): boolean {
  return (Object.keys(PLAN_INPUTS) as Array<keyof PlanInputs>).every((name) =>
    (PLAN_INPUTS[name] as PlanInput<unknown>).holds(recorded[name], context),
  )
}

/** A value for every declared input, each of its shape. */
export function isPlanInputs(value: unknown): value is PlanInputs {
  if (typeof value !== 'object' || value === null) return false
  const inputs = value as Record<string, unknown>
  return (Object.keys(PLAN_INPUTS) as Array<keyof PlanInputs>).every((name) => name in inputs && PLAN_INPUTS[name].isValue(inputs[name]))
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

/** The folders whose hooks would join the config: the project's (in a project) and the user's; an enclosing project's, which trust and gates look at. */
function folderPaths(found: FoundConfigFiles, env: Env): string[] {
  const scopes = found.inProject ? (['project', 'user'] as const) : (['user'] as const)
  const enclosing = found.projects.slice(0, -1).flatMap((root) => [hooksDir('project', root, env), pluginsDir('project', root, env)])
  return [...enclosing, ...scopes.flatMap((scope) => [hooksDir(scope, found.projectRoot, env), pluginsDir(scope, found.projectRoot, env)])]
}

/** The signatures of the hook and plugin folders as the look took them: before the config is read, and compared after. */
export function folderSignatures(look: PlanContext): Array<[string, string | null]> {
  return folderPaths(look.found, look.env).map((dir) => {
    const signature = look.signature(dir)
    return [dir, signature === 'missing' ? null : signature]
  })
}
