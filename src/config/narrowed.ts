// Narrowed agent configs and the hooks.json they were compiled from: fires keep them up to date.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { fnv1a, readJsonFile, writeJsonAtomic } from '../core/cache-file.ts'
import { stateDir } from '../core/places.ts'
import type { ConfigFileRef } from '../core/types.ts'
import { fileSignature, settled } from './cache.ts'
import type { ResolvedConfig } from './load.ts'

type Env = Readonly<Record<string, string | undefined>>

/**
 * `hookrun install --project` (narrowed unless --all-events) compiles the project's hooks into
 * agents' own matchers (src/install/matchers.ts), so an agent does not start hookrun for what no
 * hook wants; the price is that such a config goes stale when hooks.json changes. `hookrun trust`
 * (which every edit of a project's hooks needs), `init` and `plugin add`/`remove` compile it again
 * at once (install.ts syncNarrowedConfigs); fires cover the rest (the user's hooks.json, a folder
 * in trustedFolders, the remote policy). The install leaves this stamp in the
 * state folder, one small file per project: which agents' configs are narrowed, and the stat
 * signature of the config files they were compiled from. A fire already takes those signatures
 * for its document cache (src/config/cache.ts), so checking costs one small read (a failed open
 * for a project without a narrowed install); when they differ, the fire starts
 * `hookrun install --sync --quiet` detached, at most once per SYNC_EVERY_MS, and never waits for it.
 */
export interface NarrowedStamp {
  /** The project root as fire finds it: the key. */
  readonly root: string
  /** The folder `install --project` ran in, where the agents' project configs are. */
  readonly dir: string
  /** The agents whose project config is narrowed and kept up to date by fires. */
  readonly agents: readonly string[]
  /**
   * `configSignature` of what the configs were compiled from; '' when that cannot be told (a file
   * changed in the last seconds, so an edit in the same timestamp tick could go unseen): the next
   * fire syncs again.
   */
  readonly signature: string
  /** When a fire last started a sync (epoch ms). */
  readonly startedAt?: number
  /** What the last background sync changed, for the next fire to tell the user (once). */
  readonly notice?: string
  /**
   * Per agent, a print of each entry hookrun wrote in its config (src/install/agent-file.ts
   * entryPrints): a sync leaves an entry that matches none, which the user edited by hand.
   */
  readonly written?: Readonly<Record<string, readonly string[]>>
  /**
   * Agents whose project config install narrowed but fires do not keep up to date, since the agent
   * stops running a changed entry until the person reviews it (Codex), with the signature of what
   * it was compiled from: a fire of one of them after the config changed says what it leaves out.
   */
  readonly reviewed?: { readonly agents: readonly string[]; readonly signature: string }
}

/** A sync that failed (a broken agent config, say) is retried by a later fire, not by every fire. */
export const SYNC_EVERY_MS = 30_000

/** One line per config file (layer, path, stat signature), and whether hook folders or plugins were found. */
export function configSignature(
  files: readonly ConfigFileRef[],
  signatureOf: (ref: ConfigFileRef) => string | undefined,
  folders: boolean,
): string {
  return [
    ...files.map((ref) => `${ref.layer} ${ref.file} ${signatureOf(ref) ?? 'missing'}`),
    ...(folders ? ['hook folders or plugins'] : []),
  ].join('\n')
}

/**
 * The signature to stamp for configs compiled from `config` (read just before): '' when a file
 * changed in the last seconds, as an edit in the same timestamp tick would not change it.
 */
export function compiledSignature(config: ResolvedConfig): string {
  if (!config.files.every((ref) => settled(ref.file))) return ''
  return configSignature(config.files, (ref) => fileSignature(ref.file), (config.discovery?.sources.length ?? 0) > 0)
}

export function stampFile(root: string, env: Env): string {
  return join(stateDir(env), 'narrowed', `${fnv1a(root)}.json`)
}

export function readStamp(root: string, env: Env): NarrowedStamp | undefined {
  // The common case: no file, no narrowed install in this project.
  const stamp = readJsonFile(stampFile(root, env)) as Partial<NarrowedStamp> | null | undefined
  const valid = stamp?.root === root && typeof stamp.dir === 'string' && typeof stamp.signature === 'string' && Array.isArray(stamp.agents)
  return valid ? (stamp as NarrowedStamp) : undefined
}

/** Write the stamp, or remove it when no agent is narrowed any more; false when the state folder cannot be written. */
export function writeStamp(stamp: NarrowedStamp, env: Env): boolean {
  if (stamp.agents.length > 0 || (stamp.reviewed?.agents.length ?? 0) > 0) return writeJsonAtomic(stampFile(stamp.root, env), stamp)
  rmSync(stampFile(stamp.root, env), { force: true })
  return true
}

/**
 * What this fire does for a narrowed install: start a sync when hooks.json changed since the
 * configs were compiled (claimed in the stamp, so one fire in SYNC_EVERY_MS starts it), and show
 * the notice the last sync left. `allowed` is false in a project whose hooks are not trusted (or
 * changed since): then nothing is started, and the sync waits for `hookrun trust`.
 */
export function narrowedAction(
  stamp: NarrowedStamp,
  signature: string,
  allowed: boolean,
  env: Env,
  now = Date.now(),
): { sync: boolean; notice?: string } {
  return syncAction(stamp, stamp.signature !== signature, allowed, (next) => writeStamp(next, env), now)
}

/** narrowedAction's and userRoutingAction's rule, the config having `changed` since the stamp's compile. */
function syncAction<Stamp extends { readonly agents: readonly string[]; readonly startedAt?: number; readonly notice?: string }>(
  stamp: Stamp,
  changed: boolean,
  allowed: boolean,
  write: (stamp: Omit<Stamp, 'notice'>) => boolean,
  now: number,
): { sync: boolean; notice?: string } {
  const due =
    allowed &&
    stamp.agents.length > 0 &&
    changed &&
    (stamp.startedAt === undefined || now - stamp.startedAt >= SYNC_EVERY_MS || now < stamp.startedAt)
  if (!due && stamp.notice === undefined) return { sync: false }
  const { notice, ...kept } = stamp
  // A state folder that cannot be written claims nothing: better no sync than one per fire.
  const written = write(due ? { ...kept, startedAt: now } : kept)
  return { sync: due && written, ...(notice !== undefined && written && { notice }) }
}

/**
 * A narrowed user install (`hookrun install --agent NAME`, src/install/user-routing.ts) routes what
 * the user's own layers and every trusted project's hooks can fire on. Its stamp, one file in the
 * state folder, holds what that was compiled from: per project root, the config signature a fire
 * there computes (key '' for a folder in no project: the user's and managed layers alone). A fire
 * whose project is trusted and whose signature differs from its entry starts
 * `hookrun install --user --sync --quiet` detached, as for a project stamp.
 */
export interface UserStamp {
  /** The agents whose user config is narrowed and kept up to date by fires. */
  readonly agents: readonly string[]
  /** Per project root ('' outside any project), the signature of the configs compiled from. */
  readonly signatures: Readonly<Record<string, string>>
  readonly startedAt?: number
  readonly notice?: string
}

function userStampFile(env: Env): string {
  return join(stateDir(env), 'narrowed', 'user.json')
}

export function readUserStamp(env: Env): UserStamp | undefined {
  // No file: no narrowed user install.
  const stamp = readJsonFile(userStampFile(env)) as Partial<UserStamp> | null | undefined
  const valid = Array.isArray(stamp?.agents) && typeof stamp?.signatures === 'object' && stamp.signatures !== null
  return valid ? (stamp as UserStamp) : undefined
}

/** Write the user stamp, or remove it when no agent's user config is narrowed any more. */
export function writeUserStamp(stamp: UserStamp, env: Env): boolean {
  if (stamp.agents.length > 0) return writeJsonAtomic(userStampFile(env), stamp)
  rmSync(userStampFile(env), { force: true })
  return true
}

/**
 * What a fire does for a narrowed user install: start a sync when the config it sees (`key`: its
 * project root, '' in no project) differs from what the user configs were compiled from, at most
 * once in SYNC_EVERY_MS, and show the notice the last sync left. `allowed` is false where the
 * project's hooks are not trusted: they do not run, so the routing need not follow them.
 */
export function userRoutingAction(
  stamp: UserStamp,
  key: string,
  signature: string,
  allowed: boolean,
  env: Env,
  now = Date.now(),
): { sync: boolean; notice?: string } {
  return syncAction(stamp, stamp.signatures[key] !== signature, allowed, (next) => writeUserStamp(next, env), now)
}
