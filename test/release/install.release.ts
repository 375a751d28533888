/**
 * hookrun as users get it, from the release `npm run test:release` has just built for this machine
 * (`bun build.ts --release --targets host`: dist/release, dist/npm), installed the three ways
 * docs/install.md gives, each without the network (npm from a registry on 127.0.0.1 that holds only
 * hookrun's dependencies, install.sh from a mirror on 127.0.0.1, any other host behind a proxy that
 * refuses), and then the README's quick start run with the `hookrun` each leaves on PATH:
 *
 *   npm install -g hookrun      the packed root package and this machine's platform package
 *   install.sh                  the release's own copy, against dist/release served as a mirror
 *   npm, no platform package    the root package alone: bin/hookrun runs dist/hookrun.mjs with node
 *
 * What each downloads and installs is printed at the end (docs/install.md quotes it).
 */
import { spawn, spawnSync } from 'node:child_process'
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { hostPlatform, NPM_PLATFORMS } from '../../scripts/npm-packages.ts'
import { assetName, binaryName, checksumLines, hostTarget, sha256File } from '../../scripts/release.ts'
import { consoleSteps, fencedBlocks, fits, runSteps } from '../e2e/pages.ts'
import { makeProject, removeProject, ROOT, runPackageCommand } from '../helpers.ts'
import { type Loopback, startServer } from '../loopback.ts'
import { type Registry, startRegistry } from './registry.ts'

const RELEASE = join(ROOT, 'dist', 'release')
const target = hostTarget()
const npmHost = hostPlatform(target.includes('-musl') ? 'musl' : 'glibc')!

let scratch: string
let registry: Registry
const tarballs: Record<string, string> = {}
const sizes: string[] = []

/** The environment of every install: no proxy for 127.0.0.1, and one that refuses for anything else. */
function offline(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(npm_config_|HOOKRUN_)|_proxy$/i.test(key)) env[key] = value
  }
  const refuse = 'http://127.0.0.1:9'
  return {
    ...env,
    http_proxy: refuse,
    https_proxy: refuse,
    HTTP_PROXY: refuse,
    HTTPS_PROXY: refuse,
    no_proxy: '127.0.0.1',
    NO_PROXY: '127.0.0.1',
    ...extra,
  }
}

/** Run a command to its end without blocking this process, which answers as the registry and the mirror. */
function run(command: string, args: string[], env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const child = spawn(command, args, { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return new Promise((resolveRun, reject) => {
    child.on('error', reject)
    child.on('close', (status) => resolveRun({ status, output }))
  })
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

/** Bytes of the files under `path` (links as links), like `du --apparent-size -b`. */
function treeBytes(path: string): number {
  const stat = lstatSync(path)
  if (!stat.isDirectory()) return stat.size
  return readdirSync(path).reduce((total, name) => total + treeBytes(join(path, name)), 0)
}

/**
 * `npm install -g --prefix <prefix>` of these tarballs, npm's registry the loopback one and its
 * cache fresh; with the bytes it downloaded (the tarballs given and what the registry served) and
 * the names it asked the registry for.
 */
async function npmInstallGlobal(name: string, packages: string[]): Promise<{ prefix: string; downloaded: number; asked: string[] }> {
  const [servedBefore, askedBefore] = [registry.bytesServed(), registry.asked.length]
  const prefix = join(scratch, name)
  const userconfig = join(scratch, 'empty.npmrc')
  writeFileSync(userconfig, '')
  const flags = ['--registry', registry.url, '--cache', join(scratch, `${name}-cache`), '--userconfig', userconfig]
  const install = await run('npm', ['install', '-g', '--prefix', prefix, ...flags, '--no-audit', '--no-fund', ...packages], offline())
  expect(install.status, install.output).toBe(0)
  const given = packages.reduce((total, file) => total + lstatSync(file).size, 0)
  return { prefix, downloaded: given + registry.bytesServed() - servedBefore, asked: registry.asked.slice(askedBefore) }
}

/** The README's quick start, run as printed in a fresh project with `bin` first on PATH. */
function quickStart(bin: string, name: string): void {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const from = readme.slice(0, readme.indexOf('\n## Quick start\n')).split('\n').length
  const block = fencedBlocks(readme).find((each) => each.info === 'console' && each.line > from)!
  const steps = consoleSteps(block.text)
  expect(steps.map((step) => step.command.split(' ')[0])).toContain('hookrun')
  const dir = join(scratch, `${name}-project`)
  mkdirSync(dir)
  const printed = runSteps(steps, dir, bin, 120_000)
  steps.forEach((step, index) => {
    const actual = printed[index] ?? []
    expect(
      fits(step.expected, actual),
      `$ ${step.command}\nprinted:\n${actual.join('\n')}\nthe README shows:\n${step.expected.join('\n')}`,
    ).toBe(true)
  })
  // It was this install's hookrun that ran: doctor found it first on PATH.
  expect(printed.flat().join('\n')).toContain(`hookrun on PATH: ${join(bin, 'hookrun')}`)
}

function version(bin: string): string {
  const result = spawnSync(join(bin, 'hookrun'), ['--version'], { encoding: 'utf8', env: offline() })
  expect(result.status, result.stderr).toBe(0)
  return result.stdout
}

beforeAll(async () => {
  scratch = makeProject()
  registry = await startRegistry()
  for (const folder of ['hookrun', npmHost.target]) {
    const pack = runPackageCommand('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], {
      cwd: join(ROOT, 'dist', 'npm', folder),
    })
    expect(pack.status, `${pack.stderr}\n(npm run test:release builds dist/npm first)`).toBe(0)
    const packed = JSON.parse(pack.stdout)[0]
    tarballs[packed.name] = join(scratch, packed.filename)
  }
})

afterAll(async () => {
  await registry?.close()
  if (scratch !== undefined) removeProject(scratch)
  console.log(`hookrun ${pkg.version} on ${target}, downloaded / installed:\n${sizes.join('\n')}`)
})

test('the release holds an archive per target built, their SHA256SUMS and install.sh', async () => {
  const archives = readdirSync(RELEASE).filter((name) => name.endsWith('.tar.gz'))
  expect(archives).toContain(assetName(target))
  const lines = (text: string) => text.split('\n').filter(Boolean).sort()
  const sums = readFileSync(join(RELEASE, 'SHA256SUMS'), 'utf8')
  expect(lines(sums)).toEqual(lines(await checksumLines(archives.map((name) => join(RELEASE, name)))))
  expect(readFileSync(join(RELEASE, 'install.sh'), 'utf8')).toBe(readFileSync(join(ROOT, 'install.sh'), 'utf8'))
})

test('npm install -g of the packed hookrun and platform package, offline: the quick start runs the native binary', async () => {
  const { prefix, downloaded, asked } = await npmInstallGlobal('npm', [tarballs.hookrun!, tarballs[npmHost.name]!])
  const bin = join(prefix, 'bin')
  expect(version(bin)).toContain(`hookrun ${pkg.version} (bun `)
  quickStart(bin, 'npm')
  // The dependencies came from the loopback registry; the platform package from its tarball, not asked for.
  expect(asked).toContain('zod')
  expect(asked).not.toContain(npmHost.name)
  sizes.push(`  npm install -g hookrun      ${megabytes(downloaded)} / ${megabytes(treeBytes(prefix))}`)
})

test('install.sh from the release against a mirror on 127.0.0.1: the quick start runs the binary it installed', async () => {
  const served: string[] = []
  let bytes = 0
  const mirror: Loopback = await startServer((request, response) => {
    served.push(request.path)
    const name = request.path.replace(/^\/download\//, '')
    if (!readdirSync(RELEASE).includes(name)) return void response.writeHead(404).end()
    const file = readFileSync(join(RELEASE, name))
    bytes += file.length
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file)
  })
  const bin = join(scratch, 'install-sh', 'bin')
  try {
    const env = offline({ HOME: join(scratch, 'install-sh'), HOOKRUN_DOWNLOAD_URL: `${mirror.origin}/download`, HOOKRUN_INSTALL_DIR: bin })
    const result = await run('sh', [join(RELEASE, 'install.sh'), '--version', pkg.version], env)
    expect(result.status, result.output).toBe(0)
  } finally {
    await mirror.close()
  }
  expect(served).toEqual(['/download/SHA256SUMS', `/download/${assetName(target)}`])
  expect(await sha256File(join(bin, 'hookrun'))).toBe(await sha256File(join(ROOT, 'dist', 'binaries', binaryName(target))))
  expect(version(bin)).toContain(`hookrun ${pkg.version} (bun `)
  quickStart(bin, 'install-sh')
  sizes.push(`  install.sh                  ${megabytes(bytes)} / ${megabytes(treeBytes(join(bin, 'hookrun')))}`)
})

test('with no platform package that fits, npm installs hookrun alone and the quick start runs on Node', async () => {
  const { prefix, downloaded, asked } = await npmInstallGlobal('node', [tarballs.hookrun!])
  // npm asked for every platform package (none is on this registry, as on the real one for a platform without a build) and went on.
  for (const entry of NPM_PLATFORMS) expect(asked).toContain(entry.name)
  expect(readdirSync(join(prefix, 'lib', 'node_modules'))).toEqual(['hookrun'])
  const bin = join(prefix, 'bin')
  expect(version(bin)).toContain(`hookrun ${pkg.version} (node `)
  quickStart(bin, 'node')
  sizes.push(`  npm, Node bundle only       ${megabytes(downloaded)} / ${megabytes(treeBytes(prefix))}`)
})
