// Stage config: find the layers, read each (cache or parser), apply trust, merge by name with provenance.
import type { FoundConfigFiles } from './files.ts'
import type { ConfigDocument, DocumentReader, ParsedEntry } from './document.ts'
import { type Discovery, discoverHookFolders } from '../discover/folders.ts'
import { decideTrust, type ProjectTrust } from '../trust/trust.ts'
import { folderMaterial } from '../trust/material-hash.ts'
import type { TrustFootprint } from '../trust/footprint.ts'
import type { CachedPolicy, PolicySetting } from './policy.ts'
import { httpLimitsWithout, isManagedLayer, takeSettings, withHttpLimits } from './settings.ts'
import {
  type ConfigFileRef,
  type ConfigProblem,
  type Hook,
  type HttpTarget,
  formatProblem,
  isAgentShape,
  needsTrust,
  projectRootOf,
  type Settings,
} from '../core/types.ts'
import { HookrunError } from '../core/errors.ts'
import { count } from '../core/words.ts'
import { join } from 'node:path'

export interface ResolvedConfig {
  readonly hooks: readonly Hook[]
  readonly problems: readonly ConfigProblem[]
  readonly files: readonly ConfigFileRef[]
  /** Where hooks run by default: the folder holding `.hookrun/`, else the working directory. */
  readonly projectRoot: string
  /** Names a name-only `enabled: false` entry switched off (they also switch off folder and plugin hooks). */
  readonly switchedOff?: ReadonlyMap<string, { readonly file: string; readonly index: number; readonly path: string }>
  /** Trusted folders and the audit log, from the user config (or --config files). */
  readonly settings: Settings
  /** Whether the project's own hooks may run; undefined when there are none (see src/trust/trust.ts). */
  readonly trust?: ProjectTrust
  /**
   * The trust of every project whose hooks take part, outermost first: the enclosing projects'
   * (src/config/files.ts) and last `trust`. Each project's hooks run only when it is trusted; one
   * changed since it was trusted blocks gates.
   */
  readonly trusts: readonly ProjectTrust[]
  /** Hooks of an untrusted project: shown by `list`, never run. */
  readonly untrustedHooks: readonly Hook[]
  /** With `allowManagedHooksOnly`: the other layers' hooks, which do not run (`explain` lists them). */
  readonly notManaged?: readonly Hook[]
  /**
   * The managed config's remote policy: its URL and the managed file naming it, whether its cached
   * copy is due a refresh, whether there is no usable copy, and whether one is required.
   */
  readonly policy?: {
    readonly url: string
    readonly file: string
    readonly stale: boolean
    readonly missing: boolean
    readonly required: boolean
  }
  /** The hook folders and plugins found; absent when `--config`/`HOOKRUN_CONFIG` replaced discovery. */
  readonly discovery?: Discovery
  /** Per project trusted by its own record, unchanged by signature: what that trust rests on (src/trust/footprint.ts), as trust saw it. */
  readonly footprints?: ReadonlyMap<string, TrustFootprint>
}

/** Reads the remote policy's cached copy (./policy.ts), loaded only when a managed config names one. */
type PolicyReader = (setting: PolicySetting) => CachedPolicy

type Env = Readonly<Record<string, string | undefined>>

/**
 * Read each layer found (src/config/files.ts) with `read`, and merge. Never throws for a bad file: it
 * becomes a problem. Project layers take part only when the project is trusted (src/trust/trust.ts).
 * This module stays free of zod, so that `fire` can read configs from the cache without loading
 * it; `loadConfig` (src/config/parse.ts) is this with the parser.
 */
export function resolveConfig(found: FoundConfigFiles, env: Env, read: DocumentReader, readPolicy?: PolicyReader): ResolvedConfig {
  const { projectRoot } = found
  const files = [...found.files]
  const documents = files.map(read)
  const problems: ConfigProblem[] = []
  // The managed config's remote policy: its last good copy is a layer right after the managed file.
  const managed = documents.find((document) => document.ref.layer === 'managed')
  const policySetting = managed?.settings.policy
  let policy: ResolvedConfig['policy']
  if (managed !== undefined && policySetting !== undefined) {
    const cached = readPolicy?.(policySetting)
    if (cached?.warning !== undefined)
      problems.push({ severity: 'warning', file: managed.ref.file, path: 'policy', message: cached.warning })
    if (cached?.file !== undefined) {
      const ref: ConfigFileRef = { layer: 'policy', file: cached.file }
      const at = documents.indexOf(managed) + 1
      files.splice(at, 0, ref)
      documents.splice(at, 0, read(ref))
    }
    policy = {
      url: policySetting.url,
      file: managed.ref.file,
      stale: cached?.stale ?? false,
      missing: cached?.file === undefined,
      required: policySetting.required === true,
    }
  }
  let settings = takeSettings(documents, problems, env)
  // Hook folders and plugins: found here (reading folders only, running nothing) so that trust
  // covers them too; they become hooks later (src/folders/hooks.ts). --config replaces them.
  // allowManagedHooksOnly: no other layer's hooks run, hook folders and plugins included.
  const managedOnly = settings.managedOnly !== undefined
  const discovery = managedOnly || files.some((ref) => ref.layer === 'config') ? undefined : discoverHookFolders({ projectRoot, env })
  const folderFiles = discovery === undefined ? [] : folderMaterial(discovery, projectRoot, env)
  const projectDocuments = documents.filter((document) => needsTrust(document.ref.layer))
  const documentsOf = (root: string) => projectDocuments.filter((document) => (projectRootOf(document.ref) ?? projectRoot) === root)
  // Each enclosing project is trusted (or not) on its own, by the same material as when it is the
  // project itself; what of it cannot run from here blocks gates rather than vanish.
  const trustByRoot = new Map<string, ProjectTrust>()
  // What each trust by record rests on, seen as trust decided (a fire's plan rests on it).
  const footprints = new Map<string, TrustFootprint>()
  const decided = (root: string, folderFiles: readonly string[]) => {
    const { trust, footprint } = decideTrust(root, documentsOf(root), settings, env, folderFiles)
    if (footprint !== undefined) footprints.set(root, footprint)
    return trust
  }
  for (const root of found.projects.slice(0, -1)) {
    const enclosingDiscovery = discovery === undefined ? undefined : discoverHookFolders({ projectRoot: root, env })
    const enclosingTrust = decided(root, enclosingDiscovery === undefined ? [] : folderMaterial(enclosingDiscovery, root, env))
    if (enclosingTrust === undefined) continue
    trustByRoot.set(root, enclosingTrust)
    const notRun =
      enclosingDiscovery?.sources.filter((source) => source.layer === 'project-folder' || source.layer === 'project-plugin') ?? []
    if (enclosingTrust.trusted && notRun.length > 0) problems.push(enclosingFolderProblem(root, projectRoot))
  }
  const trust = decided(projectRoot, folderFiles)
  if (trust !== undefined) trustByRoot.set(projectRoot, trust)
  const runs = (document: ConfigDocument) =>
    !needsTrust(document.ref.layer) || trustByRoot.get(projectRootOf(document.ref) ?? projectRoot)?.trusted === true
  // A project narrows the limits on http hooks only once it is trusted.
  const httpHooks = httpLimitsWithout(
    settings.httpHooks,
    new Set(documents.filter((document) => !runs(document)).map((document) => document.ref.file)),
  )
  if (httpHooks !== settings.httpHooks) settings = { ...settings, httpHooks }
  const runnable = documents.filter(runs)
  for (const document of runnable) problems.push(...document.problems)
  const admitted = managedOnly ? runnable.filter((document) => isManagedLayer(document.ref.layer)) : runnable
  const entries = admitted.flatMap((document) => document.entries)
  const switchedOff = new Map<string, { file: string; index: number; path: string }>()
  for (const { ref, index, entry } of entries) {
    if (entry.name !== undefined && entry.command === undefined && entry.url === undefined && !entry.enabled)
      switchedOff.set(entry.name, { file: ref.file, index, path: entry.path })
  }
  const hooks = withHttpLimits(withEnclosingRoots(mergeHooks(entries, problems), projectRoot), settings.httpHooks)
  const untrustedHooks = mergeHooks(
    documents.filter((document) => !runs(document)).flatMap((document) => document.entries),
    [],
  )
  const notManaged = managedOnly
    ? mergeHooks(
        runnable.filter((document) => !isManagedLayer(document.ref.layer)).flatMap((document) => document.entries),
        [],
      )
    : []
  return {
    hooks,
    problems,
    files,
    projectRoot,
    switchedOff,
    settings,
    trust,
    trusts: [...trustByRoot.values()],
    untrustedHooks,
    notManaged,
    discovery,
    footprints,
    ...(policy !== undefined && { policy }),
  }
}

/** An enclosing project's hooks run in that project (`Hook.projectRoot`). */
function withEnclosingRoots(hooks: Hook[], projectRoot: string): Hook[] {
  return hooks.map((hook) => {
    const root = projectRootOf(hook.source)
    return root === undefined || root === projectRoot ? hook : { ...hook, projectRoot: root }
  })
}

/**
 * An enclosing project's hook folder and plugins are asked and run only from that project itself:
 * from a nested project they cannot run, so a gate event blocks (docs/guarantees.md) and says what to do.
 */
function enclosingFolderProblem(root: string, nested: string): ConfigProblem {
  return {
    severity: 'error',
    file: join(root, '.hookrun'),
    path: '',
    message: `the enclosing project's hook folder or plugins do not run from the nested project ${nested}; gates block here: move those hooks into ${join(root, '.hookrun', 'hooks.json')}`,
    brokenHook: {},
  }
}

/**
 * Merge in layer order. A hook whose name was seen before replaces the earlier one in its place;
 * a name-only `enabled: false` entry switches the earlier one off.
 */
export function mergeHooks(entries: readonly ParsedEntry[], problems: ConfigProblem[]): Hook[] {
  const merged: Hook[] = []
  // By name, or an agent-shaped handler's identity (its long name); `shortNames` by its short name.
  const positions = new Map<string, number>()
  const shortNames = new Map<string, number>()
  // Per file, the names seen so far (entries come file by file: the last file's map is kept at hand).
  const namesByFile = new Map<string, Map<string, string>>()
  let seenInFile = new Map<string, string>()
  let seenFile: string | undefined
  for (const { ref, index, entry, eventKeys } of entries) {
    if (entry.name !== undefined && !isAgentShape(entry.shape)) {
      if (ref.file !== seenFile) {
        seenFile = ref.file
        seenInFile = namesByFile.get(seenFile) ?? new Map()
        namesByFile.set(seenFile, seenInFile)
      }
      const key = entry.name
      const first = seenInFile.get(key)
      if (first !== undefined) {
        problems.push({
          severity: 'warning',
          file: ref.file,
          path: `${entry.path}.name`,
          message: `duplicate name '${entry.name}' (also ${first}); this entry replaces that one`,
        })
      } else seenInFile.set(key, entry.path)
    }
    const switchOff = (entry.command === undefined && entry.url === undefined) || entry.event === undefined
    // An agent's handler replaces only its own copy; a name the user wrote may be either name.
    const earlier =
      entry.identity !== undefined
        ? positions.get(entry.identity)
        : entry.name === undefined
          ? undefined
          : (positions.get(entry.name) ?? (shortNames.size === 0 ? undefined : shortNames.get(entry.name)))
    if (entry.locked && !isManagedLayer(ref.layer)) {
      problems.push({
        severity: 'warning',
        file: ref.file,
        path: `${entry.path}.locked`,
        message: 'only the managed config can lock a hook; ignored',
      })
    }
    const lockedHook = earlier === undefined ? undefined : merged[earlier]
    if (lockedHook?.locked && lockedHook.source.file !== ref.file && !isManagedLayer(ref.layer)) {
      // A locked managed hook keeps its place and its content, whatever a later layer says.
      const attempt = switchOff ? 'switch off' : 'replace'
      problems.push({
        severity: 'warning',
        file: ref.file,
        path: entry.path,
        message: `cannot ${attempt} '${entry.name}': it is locked by the managed config ${lockedHook.source.file} (${lockedHook.source.path}); this entry is ignored`,
      })
      continue
    }
    const enclosingHook = earlier === undefined ? undefined : merged[earlier]
    const enclosingRoot = enclosingHook === undefined ? undefined : projectRootOf(enclosingHook.source)
    const ownRoot = projectRootOf(ref)
    if (enclosingRoot !== undefined && ownRoot !== undefined && enclosingRoot !== ownRoot) {
      // A nested project adds hooks; it never replaces or switches off an enclosing project's.
      const attempt = switchOff ? 'switch off' : 'replace'
      problems.push({
        severity: 'warning',
        file: ref.file,
        path: entry.path,
        message: `cannot ${attempt} '${entry.name}': it belongs to the enclosing project ${enclosingRoot} (${enclosingHook!.source.path}), which a nested project only adds to; ${attempt === 'replace' ? 'give this hook another name' : `switch it off in ${join(enclosingRoot, '.hookrun', 'hooks.local.json')}`}`,
      })
      continue
    }
    if (switchOff) {
      // A name-only `enabled: false` entry (the schema allows nothing else without a command or url).
      if (earlier !== undefined)
        merged[earlier] = { ...merged[earlier]!, enabled: false, disabledBy: { file: ref.file, index, path: entry.path } }
      continue
    }
    const hook = hookOf(ref, index, entry, eventKeys)
    if (earlier !== undefined) merged[earlier] = hook
    else {
      if (entry.identity !== undefined) shortNames.set(entry.name!, merged.length)
      if (entry.name !== undefined) positions.set(entry.identity ?? entry.name, merged.length)
      merged.push(hook)
    }
  }
  return merged
}

type Writable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * The hook an entry configures. Optional fields are set only when present: built once per entry
 * on every fire (1,000 entries cost a millisecond), so plain assignments, not spreads.
 */
function hookOf(ref: ConfigFileRef, index: number, entry: ParsedEntry['entry'], eventKeys: readonly string[] | undefined): Hook {
  const hook: Writable<Hook> = {
    name: entry.name ?? `${ref.layer}#${index}`,
    named: entry.name !== undefined,
    event: typeof entry.event === 'string' ? [entry.event] : entry.event!,
    command: entry.command ?? `POST ${entry.url}`,
    timeout: entry.timeout,
    blocking: entry.blocking,
    onError: entry.onError,
    cwd: entry.cwd,
    env: entry.env,
    enabled: entry.enabled,
    description: entry.description,
    shape: entry.shape,
    match: entry.match,
    matcher: entry.matcher,
    when: entry.when,
    envPrefixes: entry.envPrefixes,
    source: { layer: ref.layer, file: ref.file, index, path: entry.path },
  }
  if (eventKeys !== undefined) hook.eventKeys = eventKeys
  if (entry.url !== undefined) hook.http = httpTarget(entry)
  if (entry.sequential === true) hook.sequential = true
  if (entry.identity !== undefined) hook.identity = entry.identity
  if (entry.locked === true && isManagedLayer(ref.layer)) hook.locked = true
  return hook
}

function httpTarget(entry: ParsedEntry['entry']): HttpTarget {
  return {
    url: entry.url!,
    ...(entry.headers !== undefined && { headers: entry.headers }),
    ...(entry.allowedEnvVars !== undefined && { allowedEnvVars: entry.allowedEnvVars }),
    ...(entry.followRedirects !== undefined && { followRedirects: entry.followRedirects }),
    ...(entry.maxResponseBytes !== undefined && { maxResponseBytes: entry.maxResponseBytes }),
  }
}

/** The config's problems as the decision's warnings, one line each; under `--strict` the first is fatal. */
export function configWarnings(config: Pick<ResolvedConfig, 'problems'>, strict: boolean): string[] {
  const lines = config.problems.map(formatProblem)
  if (strict && lines.length > 0) {
    const more = lines.length > 1 ? ` (and ${count(lines.length - 1, 'more problem')}; run 'hookrun validate')` : ''
    throw new HookrunError(`${lines[0]}${more}`)
  }
  return lines
}
