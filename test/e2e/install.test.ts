/**
 * install.sh against a release served on 127.0.0.1: the archive for this machine (dist/hookrun in
 * a .tar.gz under the name install.sh must choose, written by the release build's code but gzipped
 * fast) and a SHA256SUMS of it written by the same code as the release build's.
 * test/release/install.release.ts runs it on the release build itself.
 */
import { spawn } from 'node:child_process'
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { assetName, checksumLines, hostTarget, sha256File, writeArchive, writeChecksums } from '../../scripts/release.ts'
import { foldersIn, makeProject, removeProject, ROOT } from '../helpers.ts'

const INSTALL_SH = join(ROOT, 'install.sh')
const BINARY = join(ROOT, 'dist', 'hookrun')

interface Release {
  readonly url: string
  /** Paths requested, in order. */
  readonly requests: string[]
  close(): Promise<void>
}

/** Serve `files` (name → path on disk, or bytes) under /v<version>/ on 127.0.0.1 only. */
async function serveRelease(files: Record<string, string | Buffer>): Promise<Release> {
  const requests: string[] = []
  const prefix = `/v${pkg.version}/`
  const server = createServer((request, response) => {
    const path = request.url ?? ''
    requests.push(path)
    const file = path.startsWith(prefix) ? files[path.slice(prefix.length)] : undefined
    if (file === undefined) {
      response.writeHead(404).end('not found')
      return
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' })
    if (typeof file === 'string') createReadStream(file).pipe(response)
    else response.end(file)
  })
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    requests,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections()
        server.close(() => resolveClose())
      }),
  }
}

interface Install {
  readonly exitCode: number | null
  readonly stdout: string
  readonly stderr: string
}

function runInstall(args: string[], env: Record<string, string>, pathPrefix?: string): Promise<Install> {
  const base: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('HOOKRUN_') && !/_proxy$/i.test(key)) base[key] = value
  }
  const fullEnv = {
    ...base,
    PATH: pathPrefix ? `${pathPrefix}:${process.env.PATH}` : process.env.PATH!,
    SHELL: '/bin/bash',
    NO_PROXY: '127.0.0.1',
    ...env,
  }
  return new Promise((resolveRun, reject) => {
    const child = spawn('sh', [INSTALL_SH, ...args], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (exitCode) => {
      clearTimeout(timer)
      resolveRun({ exitCode, stdout, stderr })
    })
  })
}

describe('install.sh', () => {
  const target = hostTarget()
  const asset = assetName(target)
  const folders: string[] = []
  let releaseDir: string
  let checksums: Buffer

  beforeAll(async () => {
    releaseDir = makeProject()
    folders.push(releaseDir)
    // gzip -1: the format is what is tested here; -9 takes seconds more per run.
    await writeArchive(BINARY, target, join(releaseDir, asset), 1)
    checksums = readFileSync(await writeChecksums(releaseDir, [join(releaseDir, asset)]))
  })
  afterAll(() => folders.forEach(removeProject))

  /** A HOME and a TMPDIR of the test's own, so what install.sh leaves behind can be seen. */
  function sandbox(): { home: string; tmp: string; env: Record<string, string> } {
    const { home, tmp } = foldersIn(folders, 'home', 'tmp')
    return { home, tmp, env: { HOME: home, TMPDIR: tmp } }
  }

  test('installs the checksum-verified binary for this machine into ~/.local/bin and runs it', async () => {
    const release = await serveRelease({ SHA256SUMS: checksums, [asset]: join(releaseDir, asset) })
    const { home, tmp, env } = sandbox()
    try {
      const result = await runInstall(['--version', pkg.version], { ...env, HOOKRUN_DOWNLOAD_URL: release.url })
      expect(result.exitCode, result.stderr).toBe(0)
      const installed = join(home, '.local', 'bin', 'hookrun')
      expect(await sha256File(installed)).toBe(await sha256File(BINARY))
      // It ends by running the installed hookrun --version.
      expect(result.stdout.trim().split('\n').at(-1)).toMatch(new RegExp(`^hookrun ${pkg.version.replaceAll('.', '\\.')} \\(`))
      // A PATH hint, and no shell start-up file touched.
      expect(result.stdout).toContain(`export PATH="${join(home, '.local', 'bin')}:$PATH"`)
      expect(readdirSync(home)).toEqual(['.local'])
      expect(readdirSync(join(home, '.local', 'bin'))).toEqual(['hookrun'])
      expect(readdirSync(tmp)).toEqual([])
      expect(release.requests).toEqual([`/v${pkg.version}/SHA256SUMS`, `/v${pkg.version}/${asset}`])
    } finally {
      await release.close()
    }
  })

  test('refuses an archive whose checksum does not match, and unpacks, installs and runs nothing', async () => {
    const { home, tmp, env } = sandbox()
    const marker = join(home, 'tampered-binary-ran')
    const script = join(releaseDir, 'tampered')
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\necho hookrun ${pkg.version} \\(bun\\)\n`, { mode: 0o755 })
    const tampered = join(releaseDir, `tampered-${asset}`)
    await writeArchive(script, target, tampered, 1)
    const release = await serveRelease({ SHA256SUMS: checksums, [asset]: tampered })
    const installDir = join(home, 'bin')
    try {
      const result = await runInstall([], { ...env, HOOKRUN_DOWNLOAD_URL: release.url, HOOKRUN_INSTALL_DIR: installDir })
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toMatch(/^hookrun install: checksum mismatch for hookrun-\S+\.tar\.gz .*nothing was installed\n$/)
      expect(existsSync(installDir)).toBe(false)
      expect(existsSync(marker)).toBe(false)
      expect(readdirSync(home)).toEqual([])
      expect(readdirSync(tmp)).toEqual([])
    } finally {
      await release.close()
    }
  })

  test('an archive that matches its checksum but holds no hookrun is one clear line, and nothing is installed', async () => {
    const { home, tmp, env } = sandbox()
    const empty = join(releaseDir, 'empty.tar.gz')
    writeFileSync(empty, gzipSync(Buffer.alloc(1024)))
    const sums = Buffer.from((await checksumLines([empty])).replace('empty.tar.gz', asset))
    const release = await serveRelease({ SHA256SUMS: sums, [asset]: empty })
    const installDir = join(home, 'bin')
    try {
      const result = await runInstall([], { ...env, HOOKRUN_DOWNLOAD_URL: release.url, HOOKRUN_INSTALL_DIR: installDir })
      expect(result.exitCode).toBe(1)
      expect(result.stderr.trim().split('\n').at(-1)).toBe(`hookrun install: could not unpack hookrun from ${asset}; nothing was installed`)
      expect(existsSync(installDir)).toBe(false)
      expect(readdirSync(tmp)).toEqual([])
    } finally {
      await release.close()
    }
  })

  test('refuses a mirror that serves another version than --version asks for', async () => {
    const release = await serveRelease({ SHA256SUMS: checksums, [asset]: join(releaseDir, asset) })
    const { home, env } = sandbox()
    const installDir = join(home, 'bin')
    try {
      const result = await runInstall(['--version', '99.0.0'], {
        ...env,
        HOOKRUN_DOWNLOAD_URL: release.url,
        HOOKRUN_INSTALL_DIR: installDir,
      })
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toContain(`not hookrun 99.0.0; nothing was installed`)
      expect(readdirSync(installDir)).toEqual([])
    } finally {
      await release.close()
    }
  })

  test.each([
    ['an unknown OS', 'SunOS', 'i86pc', /^hookrun install: no prebuilt hookrun for SunOS \(i86pc\): .*npm install -g hookrun/],
    ['an unknown CPU', 'Linux', 'riscv64', /^hookrun install: no prebuilt hookrun for linux on riscv64: .*npm install -g hookrun/],
  ])('stops with one clear line on %s, before downloading anything', async (_, os, machine, message) => {
    const release = await serveRelease({ SHA256SUMS: checksums })
    const { home, env } = sandbox()
    const fakeBin = join(home, 'fake-bin')
    mkdirSync(fakeBin)
    const uname = join(fakeBin, 'uname')
    writeFileSync(uname, `#!/bin/sh\ncase "$1" in -s) echo ${os} ;; -m) echo ${machine} ;; *) echo ${os} ;; esac\n`, { mode: 0o755 })
    try {
      const result = await runInstall([], { ...env, HOOKRUN_DOWNLOAD_URL: release.url }, fakeBin)
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toMatch(message)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(release.requests).toEqual([])
      expect(readdirSync(home)).toEqual(['fake-bin'])
    } finally {
      await release.close()
    }
  })
})
