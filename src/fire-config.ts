// Stage config: every layer read (cache or parser), trust applied, hook folders asked; a fire loads it only when its plan cannot answer.
import { openDocumentCache } from './config/cache.ts'
import { configWarnings, type ResolvedConfig, resolveConfig } from './config/load.ts'
import type { LoadOptions } from './config/files.ts'
import { type Observation, observe } from './config/observe.ts'
import { configSignature } from './config/narrowed.ts'
import { answerStands, planHooks } from './config/plan.ts'
import { folderSignatures, type PlanInputs, planEnvironment } from './config/plan-inputs.ts'
import type { TrustFootprint } from './trust/footprint.ts'
import { type ConfigFileRef, type FiredEvent, needsTrust, projectRootOf } from './core/types.ts'
import type { ConfigDocument } from './config/document.ts'
import { loadGlobs } from './event/globs.ts'
import { type ConfigWithFolders, withFolderHooks } from './folders/hooks.ts'
import { trustFootprint } from './trust/records.ts'
import { withCommandPaths } from './trust/material-hash.ts'

/** The configured hooks and what was wrong with the config, read once per `fire` (or per runner). */
export interface LoadedHooks {
  readonly config: ConfigWithFolders
  /** One line per config problem, for the decision's `warnings`. */
  readonly warnings: readonly string[]
  /** The stat signature of the config read (src/config/narrowed.ts), from the stats the cache took. */
  readonly signature: string
}

/** Read every config layer (a runner, `explain`, `hookrun test`). */
export async function loadHooks(options: LoadOptions & ReadOptions): Promise<LoadedHooks> {
  const { projectDocuments: _, foldersBefore: __, ...loaded } = await readHooks(observe(options), options)
  return loaded
}

/** How the config stage treats what it reads: a problem fatal or a warning, and the fire's signal for the hooks it asks. */
interface ReadOptions {
  readonly strict: boolean
  readonly signal?: AbortSignal
}

/** `loadHooks` in a look already taken, with the project's config documents as read (for a plan's trust footprint). */
async function readHooks(
  look: Observation,
  options: ReadOptions,
): Promise<LoadedHooks & { readonly projectDocuments: readonly ConfigDocument[]; readonly foldersBefore?: PlanInputs['folders'] }> {
  await loadGlobs()
  const { env, found } = look
  // The hook and plugin folders as they were before anything was read: a plan rests on them (none with --config).
  const foldersBefore = look.named ? undefined : folderSignatures(look)
  // Parsed documents come from the cache while their files are unchanged; the parser loads only for a new or changed one.
  const { files, projectRoot } = found
  const cache = openDocumentCache(env, files, look.signature)
  let parser = files.every((ref) => cache.get(ref) !== undefined) ? undefined : await import('./config/parse.ts')
  const projectDocuments: ConfigDocument[] = []
  const readDocument = (ref: ConfigFileRef) => {
    const cached = cache.get(ref)
    if (cached !== undefined) return cached
    const before = cache.signature(ref)
    const document = parser!.readConfigDocument(ref)
    // A project's files keep the paths their commands name: trust looks at them on every fire.
    return cache.put(ref, needsTrust(ref.layer) ? withCommandPaths(document, projectRootOf(ref) ?? projectRoot) : document, before)
  }
  const read = (ref: ConfigFileRef) => {
    const document = readDocument(ref)
    if (needsTrust(ref.layer)) projectDocuments.push(document)
    return document
  }
  // A managed config that names a remote policy: its cached copy is checked (node:crypto) and read too.
  const managed = files.find((ref) => ref.layer === 'managed')
  const policySetting = managed === undefined ? undefined : read(managed).settings.policy
  const policy = policySetting === undefined ? undefined : await import('./config/policy.ts')
  if (policy !== undefined && cache.get({ layer: 'policy', file: policy.policyFiles(policySetting!.url, env).document }) === undefined)
    parser ??= await import('./config/parse.ts')
  const resolved = resolveConfig(found, env, read, policy && ((setting) => policy.cachedPolicy(setting, env)))
  // An untrusted project's own files are never cached (trust decides, after reading them).
  cache.save(
    (ref) => !needsTrust(ref.layer) || resolved.trusts.some((trust) => trust.trusted && trust.root === (projectRootOf(ref) ?? projectRoot)),
  )
  const config = await withFolderHooks(resolved, { env, cacheDir: look.places.cache, signal: options.signal })
  const signature = configSignature(resolved.files, cache.compared, (resolved.discovery?.sources.length ?? 0) > 0)
  return { config, warnings: configWarnings(config, options.strict), signature, projectDocuments, foldersBefore }
}

/** `loadHooks` for one fire, and the plan of its answer for this event (the next fire reads that while nothing changed). */
export async function loadAndPlan(event: FiredEvent, look: Observation, options: ReadOptions): Promise<LoadedHooks> {
  const { loaded, inputs } = await loadObserved(look, options)
  if (inputs !== undefined) planHooks(look, event, loaded, inputs)
  return loaded
}

/** The config stage's answer, and every input it read (src/config/plan-inputs.ts) when the files were found, not named. */
export interface ObservedHooks {
  readonly loaded: LoadedHooks
  readonly inputs?: PlanInputs
}

/** `loadHooks`, with every input the config stage read: what a plan rests on, and a runner checks before each fire. */
export async function loadObserved(look: Observation, options: ReadOptions): Promise<ObservedHooks> {
  const { env, found } = look
  const { projectDocuments, foldersBefore, ...loaded } = await readHooks(look, options)
  if (foldersBefore === undefined) return { loaded }
  const inputs: PlanInputs = {
    environment: planEnvironment(env),
    root: found.inProject ? found.projectRoot : null,
    projects: found.projects,
    configFiles: loaded.signature,
    folders: foldersBefore,
    trustRecords: trustRecordsOf(loaded.config, projectDocuments, env),
  }
  return { loaded, inputs }
}

/** Whether a config stage's answer still stands in a runner's next look (`answerStands`); else it reads the config again. */
export function observationHolds(observed: ObservedHooks, look: Observation): boolean {
  return observed.inputs !== undefined && answerStands(observed.loaded.config, observed.inputs, look)
}

/** Per project trusted by record: what that trust rests on (`ResolvedConfig.footprints`), none when it would hash. */
function trustRecordsOf(
  config: ResolvedConfig,
  projectDocuments: readonly ConfigDocument[],
  env: Readonly<Record<string, string | undefined>>,
): Array<[string, TrustFootprint]> {
  const records: Array<[string, TrustFootprint]> = []
  for (const trust of config.trusts) {
    if (trust.via !== 'record') continue
    const seen = config.footprints?.get(trust.root)
    const documents = projectDocuments.filter((document) => (projectRootOf(document.ref) ?? config.projectRoot) === trust.root)
    const footprint = seen ?? trustFootprint(trust.root, documents, env)
    if (footprint !== undefined) records.push([trust.root, footprint])
  }
  return records
}
