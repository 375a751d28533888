// Remote policy: a signed hooks.json that the managed config names by URL, kept in the user's cache.
// This module reads and checks the cached copy (every fire that has a policy); ./policy-pull.ts
// fetches it (`hookrun policy pull`, in the background when the copy is stale).
import type { KeyObject } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { readJsonFile, writeJsonAtomic } from '../core/cache-file.ts'
import { join } from 'node:path'
import { userCacheDir } from '../core/places.ts'
import { nodeCrypto } from '../core/builtins.ts'

type Env = Readonly<Record<string, string | undefined>>

/** The managed config's `policy` setting. */
export interface PolicySetting {
  readonly url: string
  /** Ed25519 public key: PEM (SPKI), or the raw 32 bytes in base64. */
  readonly publicKey: string
  /** Seconds a copy stays fresh when the server sends no max-age. */
  readonly refreshSeconds?: number
  /** Block gates while there is no good copy. */
  readonly required?: boolean
}

/** What the policy URL serves: a hooks.json as text, and its signature. */
export interface SignedPolicy {
  readonly document: string
  /** Base64 Ed25519 signature of the document's UTF-8 bytes. */
  readonly signature: string
}

/** What the cache keeps besides the document: where it came from, how fresh it is, what went wrong last. */
export interface PolicyMeta {
  readonly url: string
  readonly signature?: string
  readonly etag?: string
  /** Epoch ms. */
  readonly fetchedAt?: number
  readonly expiresAt?: number
  readonly lastAttempt?: { readonly at: number; readonly error?: string }
}

/** The cached copy's files: `<key>.json` (meta) and `<key>.hooks.json` (the verified document). */
export function policyFiles(url: string, env: Env): { meta: string; document: string } {
  const key = nodeCrypto().createHash('sha256').update(url).digest('hex').slice(0, 16)
  const dir = join(userCacheDir(env), 'policy')
  return { meta: join(dir, `${key}.json`), document: join(dir, `${key}.hooks.json`) }
}

export function readMeta(file: string): PolicyMeta | undefined {
  return readJsonFile(file) as PolicyMeta | undefined
}

/** The pinned key; a key that is neither PEM nor 32 base64 bytes is a config error naming it. */
function publicKeyOf(text: string): KeyObject {
  const trimmed = text.trim()
  if (trimmed.startsWith('-----BEGIN')) return nodeCrypto().createPublicKey(trimmed)
  const raw = Buffer.from(trimmed, 'base64')
  if (raw.length !== 32) throw new Error('publicKey must be an Ed25519 public key: PEM, or its 32 raw bytes in base64')
  return nodeCrypto().createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' })
}

export function signatureValid(document: string, signature: string, publicKey: string): boolean {
  try {
    return nodeCrypto().verify(null, Buffer.from(document, 'utf8'), publicKeyOf(publicKey), Buffer.from(signature, 'base64'))
  } catch {
    return false
  }
}

/** Short, stable name for a key, for status output: sha256 of the key's DER, first 16 hex digits. */
export function keyFingerprint(publicKey: string): string {
  try {
    return nodeCrypto()
      .createHash('sha256')
      .update(publicKeyOf(publicKey).export({ format: 'der', type: 'spki' }))
      .digest('hex')
      .slice(0, 16)
  } catch (error) {
    return `invalid (${(error as Error).message})`
  }
}

/** The cached policy as `resolveConfig` uses it. */
export interface CachedPolicy {
  /** The verified document's file, to read as the `policy` layer; absent without a good copy. */
  readonly file?: string
  /** The copy is missing or past its expiry: a background refresh is due. */
  readonly stale: boolean
  /** One line for the fire's warnings, when something is wrong. */
  readonly warning?: string
}

/**
 * The last good copy, checked again against the pinned key (the cache is the user's to edit, the
 * key is not): a copy whose signature no longer matches is not used.
 */
export function cachedPolicy(setting: PolicySetting, env: Env, now = Date.now()): CachedPolicy {
  const files = policyFiles(setting.url, env)
  const meta = readMeta(files.meta)
  const stale = meta?.expiresAt === undefined || meta.expiresAt <= now
  const lastError = meta?.lastAttempt?.error
  if (meta?.signature === undefined) {
    return {
      stale,
      warning: `remote policy ${setting.url} has no good copy yet${lastError ? ` (${lastError})` : ''}; fetching it in the background (hookrun policy pull)`,
    }
  }
  let document: string
  try {
    document = readFileSync(files.document, 'utf8')
  } catch {
    return { stale: true, warning: `remote policy ${setting.url}: the cached copy is gone; fetching it again in the background` }
  }
  if (!signatureValid(document, meta.signature, setting.publicKey)) {
    return {
      stale: true,
      warning: `remote policy ${setting.url}: the cached copy does not match its signature (edited?); not used, fetching it again`,
    }
  }
  return {
    file: files.document,
    stale,
    ...(lastError !== undefined && {
      warning: `remote policy ${setting.url}: the last refresh failed (${lastError}); using the copy from ${new Date(meta.fetchedAt ?? 0).toISOString()}`,
    }),
  }
}

/** Fires start at most one refresh per this long, however many of them see a stale copy. */
const REFRESH_EVERY_MS = 30_000

/** Whether this fire starts the background refresh: true at most once per REFRESH_EVERY_MS. */
export function claimRefresh(url: string, env: Env, now = Date.now()): boolean {
  const files = policyFiles(url, env)
  const meta = readMeta(files.meta) ?? { url }
  if (meta.lastAttempt !== undefined && now - meta.lastAttempt.at < REFRESH_EVERY_MS) return false
  try {
    writeJsonAtomic(files.meta, { ...meta, lastAttempt: { ...meta.lastAttempt, at: now } })
    return true
  } catch {
    return false
  }
}
