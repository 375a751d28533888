/**
 * What a release ships: the platforms prebuilt binaries exist for, how their files are named, and
 * the SHA256SUMS beside them. `build.ts --release` writes them; `install.sh` picks one by the same
 * names; the tests use the same helpers to serve a release of their own. Plain Node APIs only, so
 * this runs under Bun (the build) and Node (vitest) alike.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'

/**
 * `<os>-<arch>[-musl][-baseline]`, exactly Bun's compile targets without the `bun-` prefix.
 * `baseline` runs on x64 CPUs without AVX2; `musl` on Alpine and other musl-based Linux.
 */
export const RELEASE_TARGETS = [
  'linux-x64',
  'linux-x64-baseline',
  'linux-x64-musl',
  'linux-x64-musl-baseline',
  'linux-arm64',
  'linux-arm64-musl',
  'darwin-x64',
  'darwin-arm64',
  'windows-x64',
] as const

export type ReleaseTarget = (typeof RELEASE_TARGETS)[number]

/** The file name of a target's binary in a release: `hookrun-linux-x64`, `hookrun-windows-x64.exe`. */
export function assetName(target: ReleaseTarget): string {
  return `hookrun-${target}${target.startsWith('windows-') ? '.exe' : ''}`
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** `<hex>  <name>` per line, the format `sha256sum -c` and `shasum -a 256 -c` read. */
export async function checksumLines(files: readonly string[]): Promise<string> {
  const lines = await Promise.all(files.map(async (file) => `${await sha256File(file)}  ${basename(file)}\n`))
  return lines.join('')
}

/** Write `SHA256SUMS` in `dir` for the given files (which must be in `dir`). */
export async function writeChecksums(dir: string, files: readonly string[]): Promise<string> {
  const out = join(dir, 'SHA256SUMS')
  await writeFile(out, await checksumLines(files))
  return out
}
