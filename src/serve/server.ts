// The loopback server of `hookrun serve`: who may ask (the secret, loopback only), how many events
// run at once, when it goes (idle, SIGTERM). What an event is answered with is the caller's
// (`commands/serve.ts` runs the same fire as `hookrun fire`).
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { nodeHttp } from '../core/builtins.ts'
import { SECRET_HEADER, sameSecret, secretProof } from './state.ts'

/** The agents' routes: `POST /claude` is a Claude Code event (the body is the hook's stdin). */
export type EventRoute = 'claude'

/** What the caller answers one event with: the status, and the body (JSON on success). */
export interface EventAnswer {
  readonly status: number
  readonly body: string
}

export interface ServeOptions {
  readonly port: number
  readonly secret: string
  /** Events run at once; more wait their turn (up to `maxQueued`). */
  readonly maxConcurrent: number
  readonly maxQueued?: number
  /** No request for this long (and none running): the server exits. 0: never. */
  readonly idleMs: number
  /** The version the identity answer names. */
  readonly version: string
  /** Answer one event; `signal` aborts when the server must stop at once (a second SIGTERM). */
  handle(route: EventRoute, request: IncomingMessage, signal: AbortSignal): Promise<EventAnswer>
  /** A line for the server's log (stderr). */
  log(line: string): void
}

export interface RunningServer {
  readonly port: number
  /** Resolves when the server has stopped (idle, `stop`, or a signal), with why. */
  readonly stopped: Promise<'idle' | 'signal' | 'stopped'>
  /**
   * Stop taking requests; running events finish (their hooks end or are killed by their own
   * timeouts). `now`: running events are aborted too (their hooks killed; a gate then blocks).
   */
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

/**
 * Listen on 127.0.0.1:port. Rejects with the listen error (EADDRINUSE: the port is taken) so the
 * caller can tell "one is running" from "another program holds the port".
 */
export function startServer(options: ServeOptions): Promise<RunningServer> {
  const { port, secret, maxConcurrent, idleMs } = options
  const maxQueued = options.maxQueued ?? 256
  const abortAll = new AbortController()
  let running = 0
  const waiting: Array<() => void> = []
  let stopping = false
  let idleTimer: NodeJS.Timeout | undefined
  let finish!: (why: 'idle' | 'signal' | 'stopped') => void
  const stopped = new Promise<'idle' | 'signal' | 'stopped'>((resolveStopped) => {
    finish = resolveStopped
  })
  let stopReason: 'idle' | 'signal' | 'stopped' = 'stopped'

  const armIdle = () => {
    if (idleTimer !== undefined) clearTimeout(idleTimer)
    idleTimer = undefined
    if (idleMs > 0 && running === 0 && waiting.length === 0 && !stopping)
      idleTimer = setTimeout(() => {
        options.log(`hookrun serve: no request for ${idleMs / 60_000} min; exiting`)
        stop('idle')
      }, idleMs)
  }

  const send = (response: ServerResponse, status: number, body: string, type = 'application/json') => {
    response.writeHead(status, {
      'content-type': type,
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      // Stopping: the agent's keep-alive connection must not hold the exit up.
      ...(stopping && { connection: 'close' }),
    })
    response.end(body)
  }

  const turn = async (): Promise<boolean> => {
    if (running < maxConcurrent) {
      running++
      return true
    }
    if (waiting.length >= maxQueued) return false
    await new Promise<void>((resolveTurn) => waiting.push(resolveTurn))
    // Woken by a stop: the event is not started.
    if (stopping) return false
    running++
    return true
  }
  const release = () => {
    running--
    waiting.shift()?.()
    armIdle()
  }

  const onRequest = async (request: IncomingMessage, response: ServerResponse) => {
    if (idleTimer !== undefined) clearTimeout(idleTimer)
    idleTimer = undefined
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    try {
      if (!loopbackPeer(request.socket.remoteAddress) || !loopbackHost(request.headers.host, port))
        return send(response, 403, '{"error":"hookrun serve answers loopback requests only"}\n')
      // Who is listening, proved without the secret crossing the wire (the asker sends a nonce).
      if (request.method === 'GET' && url.pathname === '/hookrun/identify') {
        const nonce = url.searchParams.get('nonce') ?? ''
        if (!/^[0-9a-f]{16,128}$/.test(nonce)) return send(response, 400, '{"error":"nonce: 16 to 128 hex digits"}\n')
        return send(response, 200, `${JSON.stringify({ hookrun: options.version, pid: process.pid, proof: secretProof(secret, nonce) })}\n`)
      }
      const header = request.headers[SECRET_HEADER]
      if (!sameSecret(typeof header === 'string' ? header : undefined, secret))
        return send(response, 401, '{"error":"hookrun serve: no or wrong secret; nothing was run"}\n')
      if (request.method !== 'POST' || url.pathname !== '/claude') return send(response, 404, '{"error":"POST /claude only"}\n')
      if (stopping) return send(response, 503, '{"error":"hookrun serve is stopping"}\n')
      if (!(await turn())) return send(response, 503, '{"error":"hookrun serve: too many events waiting"}\n')
      try {
        const answer = await options.handle('claude', request, abortAll.signal)
        send(response, answer.status, answer.body, answer.status === 200 ? 'application/json' : 'text/plain; charset=utf-8')
      } finally {
        release()
      }
    } catch (error) {
      options.log(`hookrun serve: ${(error as Error).message}`)
      if (!response.headersSent) send(response, 500, `hookrun serve: ${(error as Error).message}\n`, 'text/plain; charset=utf-8')
      else response.destroy()
    } finally {
      armIdle()
    }
  }

  const server: Server = nodeHttp().createServer({ keepAlive: true }, (request, response) => void onRequest(request, response))
  // A gate's hooks may run for the whole chain budget; Claude Code's own timeout ends the wait.
  server.requestTimeout = 0
  server.keepAliveTimeout = 65_000

  function stop(why: 'idle' | 'signal' | 'stopped', now = false): void {
    if (now) abortAll.abort(new Error('hookrun serve was told to stop now'))
    if (stopping) return
    stopping = true
    stopReason = why
    if (idleTimer !== undefined) clearTimeout(idleTimer)
    for (const resolveTurn of waiting.splice(0)) resolveTurn()
    // Stop listening; idle keep-alive connections close, running requests finish first.
    server.close(() => finish(stopReason))
    server.closeIdleConnections?.()
  }

  return new Promise((resolveStart, rejectStart) => {
    server.once('error', rejectStart)
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', rejectStart)
      server.on('error', (error) => options.log(`hookrun serve: ${error.message}`))
      armIdle()
      const address = server.address()
      resolveStart({
        port: typeof address === 'object' && address !== null ? address.port : port,
        stopped,
        stop: (now = false) => stop('stopped', now),
        load: () => ({ running, queued: waiting.length }),
      })
    })
  }).then((started) => {
    const handle = started as RunningServer
    // SIGTERM and SIGINT: running events finish; a second one kills their hooks (a gate then blocks).
    let signals = 0
    const onSignal = (signal: NodeJS.Signals) => {
      signals++
      options.log(`hookrun serve: ${signal}${signals > 1 ? ': stopping now, running hooks killed' : ': finishing running events'}`)
      stop('signal', signals > 1)
    }
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, onSignal)
    void stopped.then(() => {
      for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.off(signal, onSignal)
    })
    return handle
  })
}
