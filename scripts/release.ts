/**
 * What a release ships: the platforms prebuilt binaries exist for, how their files are named, the
 * gzipped tar archive each binary ships in, and the SHA256SUMS of those archives. `build.ts
 * --release` writes them; `install.sh` picks one by the same names; the tests use the same helpers
 * to serve a release of their own. Plain Node APIs only, so this runs under Bun (the build) and
 * Node (vitest) alike.
 */
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, readFileSync } from 'node:fs'
import { stat, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'

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

/** The one file in a target's archive: `hookrun`, or `hookrun.exe` on Windows. */
export function executableName(target: ReleaseTarget): string {
  return target.startsWith('windows-') ? 'hookrun.exe' : 'hookrun'
}

/** The compiled binary of a target as the build leaves it (dist/binaries/): `hookrun-linux-x64`, `hookrun-windows-x64.exe`. */
export function binaryName(target: ReleaseTarget): string {
  return `hookrun-${target}${target.startsWith('windows-') ? '.exe' : ''}`
}

/** The release asset of a target: `hookrun-<target>.tar.gz`, holding executableName(target). */
export function assetName(target: ReleaseTarget): string {
  return `hookrun-${target}.tar.gz`
}

/** `linux-x64,darwin-arm64` as release targets; an unknown name is an error that lists the known ones. */
export function parseTargets(list: string): ReleaseTarget[] {
  return list.split(',').map((name) => {
    const target = RELEASE_TARGETS.find((known) => known === name.trim())
    if (target === undefined) throw new Error(`unknown release target '${name}': the targets are ${RELEASE_TARGETS.join(', ')}`)
    return target
  })
}

/** The release target install.sh picks on this machine (its OS, CPU, C library and AVX2), worked out independently of install.sh. */
export function hostTarget(): ReleaseTarget {
  const os = process.platform
  const arch = process.arch
  if ((os !== 'linux' && os !== 'darwin') || (arch !== 'x64' && arch !== 'arm64')) {
    throw new Error(`install.sh has no binary for ${os}-${arch}; run this on Linux or macOS`)
  }
  let target = `${os}-${arch}`
  if (os === 'linux') {
    const header = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header
    if (header.glibcVersionRuntime === undefined) target += '-musl'
    if (arch === 'x64' && !/\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8'))) target += '-baseline'
  }
  return parseTargets(target)[0]!
}

const BLOCK = 512

/** A ustar header for one regular file (owner 0:0), the format every tar reads (GNU, BSD, busybox). */
function tarHeader(name: string, size: number, mode: number, mtime: number): Buffer {
  const header = Buffer.alloc(BLOCK)
  const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'ascii')
  const octal = (offset: number, length: number, value: number) => field(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`)
  field(0, 100, name)
  octal(100, 8, mode)
  octal(108, 8, 0)
  octal(116, 8, 0)
  octal(124, 12, size)
  octal(136, 12, mtime)
  field(148, 8, ' '.repeat(8)) // the checksum counts its own field as spaces
  field(156, 1, '0')
  field(257, 8, 'ustar\u000000')
  let sum = 0
  for (const byte of header) sum += byte
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `)
  return header
}

/**
 * Write `out`, a gzipped tar holding `binary` as executableName(target) (mode 755). `level` is
 * gzip's: 9 for a release (measured in docs/install.md), lower where a test only needs the format.
 * The time stamp is SOURCE_DATE_EPOCH's where set, so a rebuild can be byte-identical.
 */
export async function writeArchive(binary: string, target: ReleaseTarget, out: string, level = 9): Promise<void> {
  const { size } = await stat(binary)
  const mtime = Number(process.env.SOURCE_DATE_EPOCH ?? Math.floor(Date.now() / 1000))
  const padding = (BLOCK - (size % BLOCK)) % BLOCK
  await pipeline(
    async function* () {
      yield tarHeader(executableName(target), size, 0o755, mtime)
      yield* createReadStream(binary)
      // The file's last block filled up, then the two empty blocks that end an archive.
      yield Buffer.alloc(padding + 2 * BLOCK)
    },
    createGzip({ level }),
    createWriteStream(out),
  )
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
