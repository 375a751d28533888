/**
 * Real HTTP and HTTPS servers on 127.0.0.1 for the tests of http hooks, telemetry and remote
 * policy. Each test closes its servers; a server also never keeps the test process alive.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage['headers']
  readonly body: string
}

export interface Loopback {
  /** `http://127.0.0.1:PORT` (or https://). */
  readonly origin: string
  readonly requests: ReceivedRequest[]
  close(): Promise<void>
}

export type Handler = (request: ReceivedRequest, response: ServerResponse) => void

/** A server that records every request (body read in full) and answers with `handler`. */
export async function startServer(handler: Handler, tls?: { key: string; cert: string }): Promise<Loopback> {
  const requests: ReceivedRequest[] = []
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      requests.push(request)
      handler(request, res)
    })
  }
  const server: Server = tls === undefined ? createHttpServer(listener) : createHttpsServer(tls, listener)
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', () => resolveListen()))
  server.unref()
  const { port } = server.address() as { port: number }
  return {
    origin: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections()
        server.close(() => resolveClose())
      }),
  }
}

/** Answer with JSON. */
export function json(res: ServerResponse, value: unknown, status = 200, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(value))
}

/** A self-signed certificate for 127.0.0.1, made with openssl; `file` is the PEM to trust. */
export function selfSignedCertificate(): { key: string; cert: string; file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hookrun-tls-'))
  const result = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { encoding: 'utf8' },
  )
  if (result.status !== 0) throw new Error(`openssl could not make a certificate: ${result.stderr}`)
  return {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    file: join(dir, 'cert.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
