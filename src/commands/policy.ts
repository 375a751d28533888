// `hookrun policy status|pull|sign`: the managed config's remote policy, shown, refreshed, made.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { findConfigFiles } from '../config/files.ts'
import { readConfigDocument } from '../config/parse.ts'
import { cachedPolicy, keyFingerprint, type PolicySetting, policyFiles, readMeta } from '../config/policy.ts'
import { pullPolicy, signPolicy } from '../config/policy-pull.ts'
import { ExitCode, HookrunError } from '../core/errors.ts'

type Env = Readonly<Record<string, string | undefined>>

interface PolicyOptions {
  readonly cwd: string
  readonly env: Env
  /** pull: print nothing (the background refresh a fire starts). */
  readonly quiet?: boolean
  /** sign: the Ed25519 private key (PEM file) and the hooks.json to sign. */
  readonly key?: string
  readonly file?: string
}

/** The managed config's `policy` setting, and its file. */
function policySetting(options: PolicyOptions): { setting: PolicySetting; file: string } {
  const managed = findConfigFiles({ cwd: options.cwd, env: options.env }).files.find((ref) => ref.layer === 'managed')
  if (managed === undefined)
    throw new HookrunError('no managed config (/etc/hookrun/hooks.json, or HOOKRUN_MANAGED_DIR) names a remote policy')
  const setting = readConfigDocument(managed).settings.policy
  if (setting === undefined)
    throw new HookrunError(`${managed.file} has no valid "policy": {"url", "publicKey"} (hookrun validate ${managed.file} says why)`)
  return { setting, file: managed.file }
}

export async function policyCommand(action: string, options: PolicyOptions): Promise<{ output: string; exitCode: number }> {
  if (action === 'sign') return sign(options)
  if (action !== 'status' && action !== 'pull') throw new HookrunError(`hookrun policy ${action}: unknown action; use status, pull or sign`)
  const { setting, file } = policySetting(options)
  if (action === 'pull') {
    const result = await pullPolicy(setting, options.env, `hookrun/${pkg.version}`)
    const failed = result.outcome === 'failed'
    return { output: options.quiet ? '' : `${result.message}\n`, exitCode: failed ? ExitCode.Failure : ExitCode.Proceed }
  }
  const files = policyFiles(setting.url, options.env)
  const meta = readMeta(files.meta)
  const cached = cachedPolicy(setting, options.env)
  const lines = [`policy      ${setting.url}`, `named in    ${file}`, `key         ed25519 ${keyFingerprint(setting.publicKey)}`]
  if (cached.file === undefined) lines.push('copy        none usable')
  else {
    const expires = meta?.expiresAt === undefined ? 'unknown' : new Date(meta.expiresAt).toISOString()
    lines.push(`copy        ${files.document}`)
    lines.push(`fetched     ${new Date(meta?.fetchedAt ?? 0).toISOString()}${meta?.etag === undefined ? '' : `, ETag ${meta.etag}`}`)
    lines.push(`fresh until ${expires}${cached.stale ? ' (stale: the next fire refreshes it in the background)' : ''}`)
    const document = JSON.parse(readFileSync(cached.file, 'utf8')) as { hooks?: unknown }
    const hooks = Array.isArray(document.hooks) ? document.hooks.length : Object.values((document.hooks ?? {}) as object).length
    lines.push(`hooks       ${hooks} entr${hooks === 1 ? 'y' : 'ies'}`)
  }
  if (meta?.lastAttempt?.error !== undefined)
    lines.push(`last error  ${new Date(meta.lastAttempt.at).toISOString()}: ${meta.lastAttempt.error}`)
  if (cached.warning !== undefined && cached.file === undefined) lines.push(`problem     ${cached.warning}`)
  return { output: `${lines.join('\n')}\n`, exitCode: cached.file === undefined ? ExitCode.Failure : ExitCode.Proceed }
}

function sign(options: PolicyOptions): { output: string; exitCode: number } {
  if (options.key === undefined || options.file === undefined)
    throw new HookrunError('hookrun policy sign needs --key PRIVATE.pem and the hooks.json to sign')
  const read = (path: string, what: string) => {
    try {
      return readFileSync(resolve(options.cwd, path), 'utf8')
    } catch (error) {
      throw new HookrunError(`cannot read ${what} ${path}: ${(error as Error).message}`)
    }
  }
  const document = read(options.file, 'the policy')
  try {
    return { output: `${JSON.stringify(signPolicy(document, read(options.key, 'the private key')))}\n`, exitCode: ExitCode.Proceed }
  } catch (error) {
    throw new HookrunError(`cannot sign ${options.file}: ${(error as Error).message}`)
  }
}
