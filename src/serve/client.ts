// Asking who answers on the serve port, and starting `hookrun serve` in the background when none does.
import { closeSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { nodeChildProcess, nodeCrypto, nodeHttp } from '../core/builtins.ts'
import { processAlive, readServeRecord, secretProof, serveDir } from './state.ts'
import { SERVED_AGENTS } from './served.ts'

type Env = Readonly<Record<string, string | undefined>>

/** Who answers on a port: hookrun serve with this user's secret, another program, or nobody. */
type Answerer = { kind: 'ours'; pid: number; version: string } | { kind: 'foreign'; why: string } | { kind: 'none' }

/**
 * Ask the port who it is: the server proves it knows the secret by an HMAC of a fresh nonce, so
 * the secret never goes to a program that took the port first.
 */
export function identify(port: number, secret: string, timeoutMs = 1000): Promise<Answerer> {
  const nonce = nodeCrypto().randomBytes(16).toString('hex')
  return new Promise((resolveAnswer) => {
    const request = nodeHttp().get(
      { host: '127.0.0.1', port, path: `/hookrun/identify?nonce=${nonce}`, timeout: timeoutMs, agent: false },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          if (body.length < 4096) body += chunk
        })
        response.on('end', () => {
          try {
            const answer = JSON.parse(body) as { proof?: unknown; pid?: unknown; hookrun?: unknown }
            if (answer.proof === secretProof(secret, nonce))
              return resolveAnswer({ kind: 'ours', pid: Number(answer.pid), version: String(answer.hookrun) })
            resolveAnswer({
              kind: 'foreign',
              why: answer.proof === undefined ? 'it is not hookrun serve' : "it is a hookrun serve without this user's secret",
            })
          } catch {
            resolveAnswer({ kind: 'foreign', why: `it is not hookrun serve (HTTP ${response.statusCode})` })
          }
        })
      },
    )
    request.on('timeout', () => {
      request.destroy()
      resolveAnswer({ kind: 'foreign', why: `it did not answer within ${timeoutMs} ms` })
    })
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolveAnswer(error.code === 'ECONNREFUSED' ? { kind: 'none' } : { kind: 'foreign', why: error.message }),
    )
  })
}

/** What ensuring found or did. */
type Ensured = { kind: 'running'; pid: number } | { kind: 'started'; pid: number } | { kind: 'foreign'; why: string }

/**
 * A server answering on `port` for this user: the pid file's live server when `verify` is off (a
 * prompt's cheap check), else asked on the port; none: `self serve --port N` started detached,
 * its output to serve.log, and not waited for (Claude Code reaches its first tool call later).
 */
export async function ensureServer(env: Env, port: number, secret: string, self: readonly string[], verify: boolean): Promise<Ensured> {
  const record = readServeRecord(env)
  if (!verify && record?.port === port && processAlive(record.pid)) return { kind: 'running', pid: record.pid }
  const answerer = await identify(port, secret, 500)
  if (answerer.kind === 'ours') return { kind: 'running', pid: answerer.pid }
  if (answerer.kind === 'foreign') return answerer
  return { kind: 'started', pid: startDetached(env, port, self) }
}

function startDetached(env: Env, port: number, self: readonly string[]): number {
  const log = openSync(join(serveDir(env), 'serve.log'), 'a', 0o600)
  try {
    const [command, ...args] = self
    // A session's own variables (Claude Code's file for SessionStart hooks) are no other session's: the server answers them all.
    const serverEnv = Object.fromEntries(
      Object.entries(env).filter(([name]) => !SERVED_AGENTS.some((agent) => agent.http.sessionVariables.includes(name))),
    )
    const child = nodeChildProcess().spawn(command!, [...args, 'serve', '--port', String(port)], {
      detached: true,
      stdio: ['ignore', log, log],
      env: serverEnv as NodeJS.ProcessEnv,
      cwd: '/',
    })
    child.on('error', () => undefined)
    child.unref()
    return child.pid ?? 0
  } finally {
    closeSync(log)
  }
}
