/**
 * An npm registry on 127.0.0.1 that holds exactly hookrun's dependencies (the packages
 * package-lock.json installs for production), served from npm's own cache, where `npm ci` left
 * their tarballs. Every other package is a 404, as the @hookrun/* platform packages are on the
 * real registry until published. npm pointed here with a fresh cache installs hookrun without
 * the network.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startServer } from '../loopback.ts'
import { ROOT } from '../helpers.ts'

interface LockEntry {
  readonly version: string
  readonly integrity: string
  readonly dev?: boolean
  readonly devOptional?: boolean
  readonly dependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, unknown>
  readonly engines?: Record<string, string>
}

export interface Registry {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string
  /** The package names npm asked for, in order (tarball requests aside). */
  readonly asked: string[]
  /** Bytes of tarballs served. */
  bytesServed(): number
  close(): Promise<void>
}

/** Where npm's content-addressed cache keeps the tarball with this integrity (sha512-…). */
function cachedTarball(cache: string, integrity: string): string {
  const [algorithm, digest] = integrity.split('-', 2) as [string, string]
  const hex = Buffer.from(digest, 'base64').toString('hex')
  return join(cache, '_cacache', 'content-v2', algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4))
}

export async function startRegistry(): Promise<Registry> {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim()
  const tarballs: string[] = []
  const packuments = new Map<string, { name: string; versions: Record<string, unknown>; 'dist-tags': { latest: string } }>()
  let served = 0
  const server = await startServer((request, response) => {
    const tarball = /^\/-\/(\d+)\.tgz$/.exec(request.path)
    if (tarball !== null) {
      const bytes = readFileSync(tarballs[Number(tarball[1])]!)
      served += bytes.length
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes)
      return
    }
    const name = decodeURIComponent(request.path.slice(1))
    registry.asked.push(name)
    const packument = packuments.get(name)
    if (packument === undefined) response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}')
    else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument))
  })
  const url = `${server.origin}/`
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev === true || entry.devOptional === true) continue
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
    const file = cachedTarball(cache, entry.integrity)
    if (!existsSync(file)) throw new Error(`${name}@${entry.version} is not in npm's cache (${cache}); run npm ci first`)
    tarballs.push(file)
    const { version, integrity, dependencies, optionalDependencies, peerDependencies, peerDependenciesMeta, engines } = entry
    const manifest = { name, version, dependencies, optionalDependencies, peerDependencies, peerDependenciesMeta, engines }
    const packument = packuments.get(name) ?? { name, versions: {}, 'dist-tags': { latest: version } }
    packument.versions[version] = { ...manifest, dist: { tarball: `${url}-/${tarballs.length - 1}.tgz`, integrity } }
    packuments.set(name, packument)
  }
  const registry: Registry = { url, asked: [], bytesServed: () => served, close: () => server.close() }
  return registry
}
