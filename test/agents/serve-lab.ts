// What the `install --serve` lab files share.
import { createServer } from 'node:net'

/** A loopback port nobody holds now (each lab run has its own HOME, so its own server on its own port). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise<void>((done) => server.close(() => done()))
  return port
}
