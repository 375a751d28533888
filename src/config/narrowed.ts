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
 * A narrowed `install --project` compiles the hooks into agents' own matchers (src/install/matchers.ts),
 * which go stale when hooks.json changes. `trust`, `init` and `plugin add`/`remove` compile them again;
 * fires cover the rest (the user's hooks.json, trustedFolders, the policy). This stamp (one small file
 * per project) holds which agents are narrowed and the signature of what they were compiled from: a
 * fire already takes those signatures, and when they differ starts `hookrun install --sync --quiet`
 * detached, at most once per SYNC_EVERY_MS.
 */
export interface NarrowedStamp {
  /** The project root as fire finds it: the key. */
  readonly root: string
  /** The folder `install --project` ran in, where the agents' project configs are. */
  readonly dir: string
  /** The agents whose project config is narrowed and kept up to date by fires. */
  readonly agents: readonly string[]
  /** `configSignature` of what the configs were compiled from; '' when a file changed in the last seconds (the next fire syncs). */
  readonly signature: string
  /** When a fire last started a sync (epoch ms). */
  readonly startedAt?: number
  /** What the last background sync changed, for the next fire to tell the user (once). */
  readonly notice?: string
  /** Per agent, prints of the entries hookrun wrote (src/install/agent-file.ts entryPrints): a sync leaves hand-edited ones. */
  readonly written?: Readonly<Record<string, readonly string[]>>
  /**
   * Narrowed agents fires do not sync, as the agent stops running a changed entry until it is
   * reviewed (Codex), and what they were compiled from: a fire after a change says what they leave out.
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

/** The signature to stamp for configs compiled from `config`: '' when a file changed in the last seconds. */
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
  return writeOrRemove(stampFile(stamp.root, env), stamp, stamp.agents.length > 0 || (stamp.reviewed?.agents.length ?? 0) > 0)
}

function writeOrRemove(file: string, stamp: object, keep: boolean): boolean {
  if (keep) return writeJsonAtomic(file, stamp)
  rmSync(file, { force: true })
  return true
}

/**
 * Whether this fire starts a sync (hooks.json changed since the compile; claimed in the stamp, so one
 * fire in SYNC_EVERY_MS does), and the notice the last sync left. Not `allowed` (an untrusted project): no sync.
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
 * A narrowed user install (src/install/user-routing.ts) routes what the user's layers and every trusted
 * project's hooks fire on. Its stamp holds, per project root ('' for no project), the config signature a
 * fire there computes; a trusted fire that differs starts `hookrun install --user --sync --quiet`, as above.
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
  return writeOrRemove(userStampFile(env), stamp, stamp.agents.length > 0)
}

/** `narrowedAction` for the user install, the config seen under `key` (the project root, '' in none). */
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
