// The loopback server of `hookrun serve`: who may ask (the secret, loopback only), how many events run at once,
// when it goes (idle, SIGTERM). What an event is answered with is the caller's (`commands/serve.ts`).
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { nodeHttp } from '../core/builtins.ts'
import { CONFIG_HEADER, differingVariables, SECRET_HEADER, sameSecret, secretProof } from './state.ts'
import { SERVED_AGENTS, type ServedAgent, servedAt } from './served.ts'

/** The agents' routes: `POST /claude` is a Claude Code event (the body is the hook's stdin), `/copilot/<event>` a Copilot one: src/serve/served.ts. */
type EventRoute = { agent: ServedAgent; event?: string }

/** What the caller answers one event with: the status, and the body (JSON on success). */
export interface EventAnswer {
  readonly status: number
  readonly body: string
}

interface ServeOptions {
  readonly port: number
  readonly secret: string
  /** Events run at once; more wait their turn (up to `maxQueued`). */
  readonly maxConcurrent: number
  readonly maxQueued?: number
  /** No request for this long (and none running): the server exits. 0: never. */
  readonly idleMs: number
  /** The version the identity answer names. */
  readonly version: string
  /** `configFingerprint` of the environment the events run in: a client whose own differs gets 409. */
  readonly configFingerprint: string
  /** Answer one event; `signal` aborts when the server must stop at once (a second SIGTERM). */
  handle(route: EventRoute, request: IncomingMessage, signal: AbortSignal): Promise<EventAnswer>
  /** A line for the server's log (stderr). */
  log(line: string): void
}

export interface RunningServer {
  readonly port: number
  /** Resolves when the server has stopped (idle, `stop`, or a signal), with why. */
  readonly stopped: Promise<'idle' | 'signal' | 'stopped'>
  /** Stop taking requests; running events finish. `now`: they are aborted too (their hooks killed; a gate then blocks). */
  stop(now?: boolean): void
  /** Events running now and waiting. */
  load(): { running: number; queued: number }
}

/** Hosts a loopback request may name: anything else (a DNS-rebound name) is refused. */
function loopbackHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === '127.0.0.1' || host === 'localhost'
}

function loopbackPeer(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::ffff:127.0.0.1'
}

/** Events running and waiting: at most `max` at once, `maxQueued` more wait their turn in order. */
class Turns {
  running = 0
  private readonly waiting: Array<() => void> = []
  private closed = false
  private readonly max: number
  private readonly maxQueued: number
  constructor(max: number, maxQueued: number) {
    this.max = max
    this.maxQueued = maxQueued
  }

  get queued(): number {
    return this.waiting.length
  }

  /** A turn, once one is free; false when too many wait, or the server stopped meanwhile. */
  async take(): Promise<boolean> {
    if (this.closed) return false
    if (this.running < this.max) {
      this.running++
      return true
    }
    if (this.waiting.length >= this.maxQueued) return false
    await new Promise<void>((resolveTurn) => this.waiting.push(resolveTurn))
    if (this.closed) return false
    this.running++
    return true
  }

  give(): void {
    this.running--
    this.waiting.shift()?.()
  }

  /** Stopping: nothing waiting starts. */
  close(): void {
    this.closed = true
    for (const resolveTurn of this.waiting.splice(0)) resolveTurn()
  }
}

/** What a request gets before any event runs: 403 unless loopback, the identity answer (an HMAC of the nonce), 401 without the secret. */
function gatekeeper(request: IncomingMessage, url: URL, options: ServeOptions): EventAnswer | undefined {
  if (!loopbackPeer(request.socket.remoteAddress) || !loopbackHost(request.headers.host, options.port))
    return { status: 403, body: '{"error":"hookrun serve answers loopback requests only"}\n' }
  if (request.method === 'GET' && url.pathname === '/hookrun/identify') {
    const nonce = url.searchParams.get('nonce') ?? ''
    if (!/^[0-9a-f]{16,128}$/.test(nonce)) return { status: 400, body: '{"error":"nonce: 16 to 128 hex digits"}\n' }
    return {
      status: 200,
      body: `${JSON.stringify({ hookrun: options.version, pid: process.pid, proof: secretProof(options.secret, nonce) })}\n`,
    }
  }
  const header = request.headers[SECRET_HEADER]
  if (!sameSecret(typeof header === 'string' ? header : undefined, options.secret))
    return { status: 401, body: '{"error":"hookrun serve: no or wrong secret; nothing was run"}\n' }
  const config = request.headers[CONFIG_HEADER]
  const differ = typeof config === 'string' ? differingVariables(config, options.configFingerprint) : []
  if (differ.length > 0)
    return {
      status: 409,
      body: `${JSON.stringify({ error: `hookrun serve: this session's ${differ.join(', ')} ${differ.length > 1 ? 'differ' : 'differs'} from the server's; its client answers the event itself` })}\n`,
    }
  if (request.method !== 'POST' || servedAt(url.pathname) === undefined)
    return {
      status: 404,
      body: `${JSON.stringify({ error: `POST ${SERVED_AGENTS.map((agent) => `/${agent.http.route}${agent.http.eventInUrl ? '/<event>' : ''}`).join(' or ')} only` })}\n`,
    }
  return undefined
}

/** One answer, never cached; `closing` (the server is stopping): the agent's keep-alive connection must not hold the exit up. */
function send(response: ServerResponse, { status, body }: EventAnswer, closing: boolean): void {
  response.writeHead(status, {
    'content-type': status === 200 || body.startsWith('{') ? 'application/json' : 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(closing && { connection: 'close' }),
  })
  response.end(body)
}

type StopReason = 'idle' | 'signal' | 'stopped'

/** Listen on 127.0.0.1:port; rejects with the listen error (EADDRINUSE: the port is taken). */
export function startServer(options: ServeOptions): Promise<RunningServer> {
  const turns = new Turns(options.maxConcurrent, options.maxQueued ?? 256)
  const abortAll = new AbortController()
  let stopping = false
  let idleTimer: NodeJS.Timeout | undefined
  let finish!: (why: StopReason) => void
  const stopped = new Promise<StopReason>((resolveStopped) => {
    finish = resolveStopped
  })

  const armIdle = (idle: boolean) => {
    if (idleTimer !== undefined) clearTimeout(idleTimer)
    idleTimer = undefined
    if (idle && options.idleMs > 0 && turns.running === 0 && turns.queued === 0 && !stopping)
      idleTimer = setTimeout(() => {
        options.log(`hookrun serve: no request for ${options.idleMs / 60_000} min; exiting`)
        stop('idle')
      }, options.idleMs)
  }

  const onRequest = async (request: IncomingMessage, response: ServerResponse) => {
    armIdle(false)
    try {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1')
      const refused = gatekeeper(request, url, options)
      if (refused !== undefined) return send(response, refused, stopping)
      if (stopping || !(await turns.take()))
        return send(response, { status: 503, body: '{"error":"hookrun serve is stopping, or too many events wait"}\n' }, stopping)
      try {
        send(response, await options.handle(servedAt(url.pathname)!, request, abortAll.signal), stopping)
      } finally {
        turns.give()
      }
    } catch (error) {
      options.log(`hookrun serve: ${(error as Error).message}`)
      if (!response.headersSent) send(response, { status: 500, body: `hookrun serve: ${(error as Error).message}\n` }, stopping)
      else response.destroy()
    } finally {
      armIdle(true)
    }
  }

  const server: Server = nodeHttp().createServer({ keepAlive: true }, (request, response) => void onRequest(request, response))
  // A gate's hooks may run for the whole chain budget; Claude Code's own timeout ends the wait.
  server.requestTimeout = 0
  server.keepAliveTimeout = 65_000

  function stop(why: StopReason, now = false): void {
    if (now) abortAll.abort(new Error('hookrun serve was told to stop now'))
    if (stopping) return
    stopping = true
    armIdle(false)
    turns.close()
    // Stop listening; idle keep-alive connections close, running requests finish first.
    server.close(() => finish(why))
    server.closeIdleConnections?.()
  }

  return new Promise<RunningServer>((resolveStart, rejectStart) => {
    server.once('error', rejectStart)
    server.listen({ port: options.port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', rejectStart)
      server.on('error', (error) => options.log(`hookrun serve: ${error.message}`))
      armIdle(true)
      stopOnSignals(stop, stopped, options.log)
      const address = server.address()
      resolveStart({
        port: typeof address === 'object' && address !== null ? address.port : options.port,
        stopped,
        stop: (now = false) => stop('stopped', now),
        load: () => ({ running: turns.running, queued: turns.queued }),
      })
    })
  })
}

/** SIGTERM, SIGINT, SIGHUP: running events finish; a second one kills their hooks (a gate then blocks). */
function stopOnSignals(stop: (why: StopReason, now: boolean) => void, stopped: Promise<StopReason>, log: (line: string) => void): void {
  let signals = 0
  const onSignal = (signal: NodeJS.Signals) => {
    signals++
    log(`hookrun serve: ${signal}${signals > 1 ? ': stopping now, running hooks killed' : ': finishing running events'}`)
    stop('signal', signals > 1)
  }
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, onSignal)
  void stopped.then(() => {
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.off(signal, onSignal)
  })
}
