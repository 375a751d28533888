// Fetching the remote policy (`hookrun policy pull`, also started in the background by a fire that
// sees a stale copy): HTTPS GET with the HTTP caching headers, the Ed25519 signature checked
// against the pinned key before anything is kept. A bad answer never replaces the last good copy.
import type { IncomingMessage } from 'node:http'
import { writeJsonAtomic } from '../core/cache-file.ts'
import { makeFolders } from '../core/places.ts'
import { dirname } from 'node:path'
import { type PolicyMeta, type PolicySetting, policyFiles, readMeta, type SignedPolicy, signatureValid } from './policy.ts'
import { nodeCrypto } from '../core/builtins.ts'
import { writeFileAtomic } from '../core/atomic-write.ts'

type Env = Readonly<Record<string, string | undefined>>

const DEFAULT_REFRESH_SECONDS = 300
const TIMEOUT_MS = 10_000
const MAX_POLICY_BYTES = 4 * 1024 * 1024

interface PullResult {
  /** `updated` (a new copy), `unchanged` (304, or the same document), or `failed`. */
  readonly outcome: 'updated' | 'unchanged' | 'failed'
  readonly message: string
}

/** Fetch the policy once, keep it if its signature holds, and record the attempt. */
export async function pullPolicy(setting: PolicySetting, env: Env, userAgent: string, now = () => Date.now()): Promise<PullResult> {
  const files = policyFiles(setting.url, env)
  const meta: PolicyMeta = readMeta(files.meta) ?? { url: setting.url }
  const record = (next: PolicyMeta) => {
    makeFolders(dirname(files.meta), 0o700)
    writeJsonAtomic(files.meta, next)
  }
  const fail = (error: string): PullResult => {
    record({ ...meta, url: setting.url, lastAttempt: { at: now(), error } })
    return {
      outcome: 'failed',
      message: `${setting.url}: ${error}${meta.signature === undefined ? '' : '; the last good copy stays in use'}`,
    }
  }
  let answer: { status: number; headers: IncomingMessage['headers']; body: string }
  try {
    answer = await get(setting.url, {
      'user-agent': userAgent,
      ...(meta.etag !== undefined && meta.signature !== undefined && { 'if-none-match': meta.etag }),
    })
  } catch (error) {
    return fail(`cannot fetch: ${(error as Error).message}`)
  }
  const freshFor = maxAge(answer.headers['cache-control']) ?? setting.refreshSeconds ?? DEFAULT_REFRESH_SECONDS
  if (answer.status === 304 && meta.signature !== undefined) {
    record({ ...meta, fetchedAt: now(), expiresAt: now() + freshFor * 1000, lastAttempt: { at: now() } })
    return { outcome: 'unchanged', message: `${setting.url}: not modified (ETag ${meta.etag}); fresh for ${freshFor}s` }
  }
  if (answer.status !== 200) return fail(`answered HTTP ${answer.status}`)
  let signed: SignedPolicy
  try {
    signed = JSON.parse(answer.body) as SignedPolicy
  } catch {
    return fail('the answer is not JSON: expected {"document": "…", "signature": "…"}')
  }
  if (typeof signed?.document !== 'string' || typeof signed.signature !== 'string')
    return fail('expected {"document": "…", "signature": "…"} with two strings')
  if (!signatureValid(signed.document, signed.signature, setting.publicKey))
    return fail('the signature does not match the pinned publicKey: refused')
  try {
    JSON.parse(signed.document)
  } catch {
    return fail('the signed document is not JSON: refused')
  }
  makeFolders(dirname(files.document), 0o700)
  writeFileAtomic(files.document, signed.document, 0o600)
  const etag = typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined
  record({
    url: setting.url,
    signature: signed.signature,
    ...(etag !== undefined && { etag }),
    fetchedAt: now(),
    expiresAt: now() + freshFor * 1000,
    lastAttempt: { at: now() },
  })
  return { outcome: 'updated', message: `${setting.url}: updated${etag === undefined ? '' : ` (ETag ${etag})`}; fresh for ${freshFor}s` }
}

/** `max-age=N` from Cache-Control; `no-cache`/`no-store` mean fresh for no time. */
function maxAge(header: string | undefined): number | undefined {
  if (header === undefined) return undefined
  if (/\bno-(cache|store)\b/i.test(header)) return 0
  const match = /\bmax-age\s*=\s*(\d+)/i.exec(header)
  return match === null ? undefined : Number(match[1])
}

async function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const target = new URL(url)
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error(`${target.protocol} is not http: or https:`)
  const { request } = target.protocol === 'https:' ? await import('node:https') : await import('node:http')
  return new Promise((resolveGet, reject) => {
    const req = request(target, { method: 'GET', headers }, (res: IncomingMessage) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_POLICY_BYTES) {
          res.destroy()
          reject(new Error(`the answer is larger than ${MAX_POLICY_BYTES} bytes`))
        } else chunks.push(chunk)
      })
      res.once('end', () => resolveGet({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      res.once('error', reject)
    })
    const timer = setTimeout(() => {
      req.destroy()
      reject(new Error(`no answer within ${TIMEOUT_MS / 1000}s`))
    }, TIMEOUT_MS)
    req.once('close', () => clearTimeout(timer))
    req.once('error', reject)
    req.end()
  })
}

/** `hookrun policy sign`: the envelope to serve, from a hooks.json text and an Ed25519 private key (PEM). */
export function signPolicy(document: string, privateKeyPem: string): SignedPolicy {
  JSON.parse(document)
  return {
    document,
    signature: nodeCrypto().sign(null, Buffer.from(document, 'utf8'), nodeCrypto().createPrivateKey(privateKeyPem)).toString('base64'),
  }
}
