/**
 * The npm packages that carry hookrun's native binaries, the way esbuild, biome and lefthook ship
 * theirs: one package per platform (`@hookrun/linux-x64`, …) with `os`, `cpu` and `libc` fields,
 * listed in the published hookrun's `optionalDependencies`, so npm installs exactly the one that
 * fits. hookrun's `bin/hookrun` execs it (or runs the Node bundle where none fits).
 *
 *   bun scripts/npm-packages.ts OUT_DIR [BINARY]   hookrun itself and the package for this
 *                                                  machine (BINARY, default dist/hookrun)
 * `build.ts --release` writes hookrun and every platform's package into dist/npm/ from the release
 * binaries; `npm publish dist/npm/<folder>` publishes each, the platform packages first. The
 * repository's own package.json has no optionalDependencies: they do not exist on the registry
 * until published, and `npm ci` would fail on them. Plain Node APIs, so vitest can call it too.
 */
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import picomatch from 'picomatch'
import pkg from '../package.json' with { type: 'json' }
import type { ReleaseTarget } from './release.ts'

export interface NpmPlatform {
  /** The package name, `@hookrun/<key>`. */
  readonly name: string
  /** The release binary it carries. */
  readonly target: ReleaseTarget
  readonly os: string
  readonly cpu: string
  readonly libc?: 'glibc' | 'musl'
}

const platform = (target: ReleaseTarget, os: string, cpu: string, libc?: 'glibc' | 'musl'): NpmPlatform => ({
  name: `@hookrun/${target}`,
  target,
  os,
  cpu,
  ...(libc === undefined ? {} : { libc }),
})

/** Every platform package; the package.json test checks optionalDependencies list exactly these. */
export const NPM_PLATFORMS: readonly NpmPlatform[] = [
  platform('linux-x64', 'linux', 'x64', 'glibc'),
  platform('linux-x64-musl', 'linux', 'x64', 'musl'),
  platform('linux-arm64', 'linux', 'arm64', 'glibc'),
  platform('linux-arm64-musl', 'linux', 'arm64', 'musl'),
  platform('darwin-x64', 'darwin', 'x64'),
  platform('darwin-arm64', 'darwin', 'arm64'),
  platform('windows-x64', 'win32', 'x64'),
]

/** The platform package for this machine, or undefined where none is built. */
export function hostPlatform(libc: 'glibc' | 'musl' = 'glibc'): NpmPlatform | undefined {
  return NPM_PLATFORMS.find(
    (entry) => entry.os === process.platform && entry.cpu === process.arch && (entry.libc === undefined || entry.libc === libc),
  )
}

/** Write one platform package (package.json and bin/hookrun[.exe]) into `outDir/<target>`; returns its folder. */
export function writePlatformPackage(entry: NpmPlatform, binary: string, outDir: string): string {
  const dir = join(outDir, entry.target)
  const executable = entry.os === 'win32' ? 'hookrun.exe' : 'hookrun'
  mkdirSync(join(dir, 'bin'), { recursive: true })
  copyFileSync(binary, join(dir, 'bin', executable))
  chmodSync(join(dir, 'bin', executable), 0o755)
  const manifest = {
    name: entry.name,
    version: pkg.version,
    description: `hookrun's native binary for ${entry.target}`,
    license: pkg.license,
    repository: (pkg as { repository?: unknown }).repository,
    os: [entry.os],
    cpu: [entry.cpu],
    ...(entry.libc === undefined ? {} : { libc: [entry.libc] }),
    files: [`bin/${executable}`],
    preferUnplugged: true,
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(
    join(dir, 'README.md'),
    `# ${entry.name}\n\nThe native binary of [hookrun](https://www.npmjs.com/package/hookrun) for ${entry.target}. Install \`hookrun\`, not this.\n`,
  )
  return dir
}

const ROOT = resolve(import.meta.dirname, '..')

/**
 * hookrun's own package as published: the repository's package.json plus `optionalDependencies`
 * on every platform package of the same version, and the files it lists (build first). Returns
 * its folder, `outDir/hookrun`.
 */
export function writeRootPackage(outDir: string): string {
  const dir = join(outDir, 'hookrun')
  mkdirSync(dir, { recursive: true })
  for (const path of [...pkg.files, 'README.md'].flatMap(expandFileEntry)) cpSync(join(ROOT, path), join(dir, path), { recursive: true })
  const optionalDependencies = Object.fromEntries(NPM_PLATFORMS.map((entry) => [entry.name, pkg.version]))
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ ...pkg, optionalDependencies }, null, 2)}\n`)
  return dir
}

/** A `files` entry as the paths it names: `dist/library-*.mjs` (the library's shared chunks) is a pattern in one folder. */
function expandFileEntry(entry: string): string[] {
  if (!entry.includes('*')) return [entry]
  const folder = dirname(entry)
  const matches = picomatch(basename(entry))
  return readdirSync(join(ROOT, folder))
    .filter((name) => matches(name))
    .map((name) => join(folder, name))
}

if (import.meta.main) {
  const [outDir, binary = 'dist/hookrun'] = process.argv.slice(2)
  const host = hostPlatform()
  if (outDir === undefined || host === undefined)
    throw new Error('usage: bun scripts/npm-packages.ts OUT_DIR [BINARY] (on a platform hookrun builds for)')
  console.log(writeRootPackage(outDir))
  console.log(writePlatformPackage(host, binary, outDir))
}
