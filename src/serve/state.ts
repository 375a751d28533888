// `hookrun serve`'s own files under hookrun's state folder: the per-user secret, the pid file, and
// which project each Claude Code session works in. All private to the user (folder 0700, files 0600).
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../core/atomic-write.ts'
import { nodeCrypto } from '../core/builtins.ts'
import { HookrunError } from '../core/errors.ts'
import { makeOwnFolder, stateDir } from '../core/places.ts'

type Env = Readonly<Record<string, string | undefined>>

/** The port `install --serve` writes into Claude Code's settings and `serve` listens on, unless `--port`. */
export const DEFAULT_SERVE_PORT = 47470

/** The header Claude Code's http handlers carry the secret in. */
export const SECRET_HEADER = 'x-hookrun-secret'

/** The variables that decide which config a fire reads: a client whose own differ from the server's gets 409 and runs the event itself. */
export const CONFIG_VARIABLES = ['HOOKRUN_CONFIG', 'HOOKRUN_MANAGED_DIR', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'HOME'] as const

/** The header the command clients send CONFIG_VARIABLES' values in. */
export const CONFIG_HEADER = 'x-hookrun-env'

/** CONFIG_VARIABLES' values as the clients send them: `|` between, an unset one empty. */
export function configFingerprint(env: Env): string {
  return CONFIG_VARIABLES.map((name) => env[name] ?? '').join('|')
}

/** An agent whose http handlers send the events cannot say which config its session names: its session start says so. */
export function otherConfigNotice(env: Env, pid: number, agent: { readonly label: string; readonly name: string }): string | undefined {
  const record = readServeRecord(env)
  if (record?.pid !== pid || record.config === undefined) return undefined
  const differ = differingVariables(record.config, configFingerprint(env))
  if (differ.length === 0) return undefined
  return `hookrun: this session's ${differ.join(', ')} ${differ.length > 1 ? 'differ' : 'differs'} from what hookrun serve (pid ${pid}) was started with, and ${agent.label}'s events are answered with the server's config; stop it (hookrun serve --stop) so that the next session starts it with its own, ${backToCommandHooks(agent.name)}`
}

/** The CONFIG_VARIABLES whose values differ between two configFingerprints. */
export function differingVariables(one: string, other: string): string[] {
  const values = other.split('|')
  const mine = one.split('|')
  // A value holding `|` shifts the rest: then every variable is named.
  if (mine.length !== CONFIG_VARIABLES.length || values.length !== CONFIG_VARIABLES.length)
    return one === other ? [] : [...CONFIG_VARIABLES]
  return CONFIG_VARIABLES.filter((_name, index) => mine[index] !== values[index])
}

const backToCommandHooks = (agentName: string) => `or go back to command hooks with hookrun install --agent ${agentName} without --serve`

/** What a person does when the server does not answer: start it, or go back to command hooks. */
export function serveRecovery(port: number, agentName: string): string {
  return `start it with hookrun serve${port === DEFAULT_SERVE_PORT ? '' : ` --port ${port}`}, ${backToCommandHooks(agentName)}`
}

/** `~/.local/state/hookrun/serve`, made private. */
export function serveDir(env: Env): string {
  const dir = join(stateDir(env), 'serve')
  makeOwnFolder(dir, env)
  return dir
}

/** The per-user secret, made once in a 0600 file; a file others could read is refused (its reader could feed the server events). */
export function serveSecret(env: Env): string {
  const file = join(serveDir(env), 'secret')
  try {
    const fd = openSync(file, 'wx', 0o600)
    try {
      writeSync(fd, `${nodeCrypto().randomBytes(32).toString('hex')}\n`)
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const fd = openSync(file, 'r')
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile() || lstatSync(file).isSymbolicLink())
      throw new HookrunError(`${file} is not a plain file; remove it and run hookrun serve again`)
    if ((stat.mode & 0o077) !== 0)
      throw new HookrunError(`${file} can be read by others (mode ${(stat.mode & 0o777).toString(8)}); run chmod 600 ${file}`)
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
      throw new HookrunError(`${file} belongs to another user; remove it and run hookrun serve again`)
    const secret = readFileSync(fd, 'utf8').trim()
    if (!/^[0-9a-f]{64}$/.test(secret))
      throw new HookrunError(`${file} does not hold a hookrun secret; remove it and run hookrun serve again`)
    return secret
  } finally {
    closeSync(fd)
  }
}

/** The file the command clients of `install --serve` read the secret header from. */
export function secretHeaderPath(env: Env): string {
  return join(serveDir(env), 'secret-header')
}

/** Whether that file holds the secret's header now. */
export function secretHeaderCurrent(env: Env, secret: string): boolean {
  try {
    return readFileSync(secretHeaderPath(env), 'utf8') === `${SECRET_HEADER}: ${secret}\n`
  } catch {
    return false
  }
}

/** The header file the clients read the secret from (`ps` shows a command line to every user), rewritten when stale. */
export function secretHeaderFile(env: Env): string {
  const secret = serveSecret(env)
  if (!secretHeaderCurrent(env, secret)) writeFileAtomic(secretHeaderPath(env), `${SECRET_HEADER}: ${secret}\n`, 0o600)
  return secretHeaderPath(env)
}

/** What the pid file says: which process serves, on which port. */
interface ServeRecord {
  readonly pid: number
  readonly port: number
  /** `configFingerprint` of the environment its events run in. */
  readonly config?: string
}

function pidFile(env: Env): string {
  return join(serveDir(env), 'serve.pid')
}

export function readServeRecord(env: Env): ServeRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(pidFile(env), 'utf8')) as Partial<ServeRecord>
    if (typeof record.pid !== 'number' || typeof record.port !== 'number') return undefined
    return { pid: record.pid, port: record.port, ...(typeof record.config === 'string' && { config: record.config }) }
  } catch {
    return undefined
  }
}

/** Whether the process is alive (signal 0 asks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function writeServeRecord(env: Env, record: ServeRecord): void {
  writeFileAtomic(pidFile(env), `${JSON.stringify(record)}\n`, 0o600)
}

/** Remove the pid file only while it is still this process's (a newer server may have replaced it). */
export function removeServeRecord(env: Env, pid: number): void {
  if (readServeRecord(env)?.pid === pid) rmSync(pidFile(env), { force: true })
}

function sessionFile(env: Env, sessionId: string): string {
  const name = nodeCrypto().createHash('sha256').update(sessionId).digest('hex').slice(0, 32)
  return join(serveDir(env), 'sessions', `${name}.json`)
}

/** Record the project a session works in (a SessionStart command hook sees it, an http request does not). */
export function registerSession(env: Env, sessionId: string, project: string): void {
  const file = sessionFile(env, sessionId)
  makeOwnFolder(join(serveDir(env), 'sessions'), env)
  writeFileAtomic(file, `${JSON.stringify({ project })}\n`, 0o600)
}

/** The project recorded for a session, or undefined. */
export function sessionProject(env: Env, sessionId: string): string | undefined {
  try {
    const { project } = JSON.parse(readFileSync(sessionFile(env, sessionId), 'utf8')) as { project?: unknown }
    return typeof project === 'string' ? project : undefined
  } catch {
    return undefined
  }
}

/** Session records older than `days` go (a session that old is over; its record is one small file). */
export function pruneSessions(env: Env, days = 30): void {
  const dir = join(serveDir(env), 'sessions')
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  const cutoff = Date.now() - days * 86_400_000
  for (const name of names) {
    try {
      if (statSync(join(dir, name)).mtimeMs < cutoff) rmSync(join(dir, name), { force: true })
    } catch {
      // Gone meanwhile.
    }
  }
}

/** The proof a server gives that it knows the secret, for a nonce, without sending the secret. */
export function secretProof(secret: string, nonce: string): string {
  return nodeCrypto().createHmac('sha256', secret).update(`hookrun-serve:${nonce}`).digest('hex')
}

/** The secret as sent, compared in constant time. */
export function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false
  const a = Buffer.from(given)
  const b = Buffer.from(secret)
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b)
}
