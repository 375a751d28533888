/**
 * The npm packages as published: hookrun (with optionalDependencies on every platform package)
 * and the package for this machine, each packed with `npm pack` and installed from the tarballs
 * into a fresh project (the registry does not have them; npm skips the other platforms' packages).
 * The `hookrun` command must then run the native binary, not Node; without the platform package
 * (`--omit=optional`) it runs the Node bundle.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { hostPlatform, NPM_PLATFORMS, writePlatformPackage, writeRootPackage } from '../../scripts/npm-packages.ts'
import { makeProject, removeProject, ROOT, writeFiles, runPackageCommand } from '../helpers.ts'

const run = runPackageCommand

let scratch: string
const tarballs: Record<string, string> = {}
const host = hostPlatform()!

/** A fresh project with the given tarballs installed. */
function consumer(name: string, packages: string[], flags: string[] = []): string {
  const dir = join(scratch, name)
  writeFiles(dir, {
    'package.json': { name, private: true },
    '.hookrun/hooks.json': {
      hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'grep -q sudo && { echo "no sudo" >&2; exit 2; }; exit 0' }],
    },
  })
  const install = run('npm', ['install', '--no-package-lock', ...flags, ...packages], { cwd: dir })
  expect(install.status, install.stderr).toBe(0)
  return dir
}

/**
 * What the platform package carries: the real binary in the full run (CI sets
 * HOOKRUN_TEST_RUNTIMES=all); in a local run, a two-line executable that execs the built binary.
 * Gzipping 110 MB was most of this file's time, and what is tested here (the files the package
 * holds, its mode bits, the optional dependency npm picks, the launcher finding it) is the same.
 */
function platformBinary(): string {
  const binary = join(ROOT, 'dist', 'hookrun')
  if (process.env.HOOKRUN_TEST_RUNTIMES === 'all') return binary
  const standIn = join(scratch, 'hookrun-stand-in')
  writeFileSync(standIn, `#!/bin/sh\nexec '${binary}' "$@"\n`, { mode: 0o755 })
  return standIn
}

beforeAll(() => {
  scratch = makeProject()
  const out = join(scratch, 'npm')
  for (const folder of [writeRootPackage(out), writePlatformPackage(host, platformBinary(), out)]) {
    const pack = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: folder })
    expect(pack.status, pack.stderr).toBe(0)
    const packed = JSON.parse(pack.stdout)[0]
    tarballs[packed.name] = join(scratch, packed.filename)
  }
}, 240_000)
afterAll(() => removeProject(scratch), 120_000)

test('hookrun lists every platform package as optional; each says which os, cpu and libc it fits', () => {
  const manifest = JSON.parse(readFileSync(join(scratch, 'npm', 'hookrun', 'package.json'), 'utf8'))
  expect(manifest.optionalDependencies).toEqual(Object.fromEntries(NPM_PLATFORMS.map((entry) => [entry.name, pkg.version])))
  expect(manifest.bin).toEqual({ hookrun: './bin/hookrun' })
  const platform = JSON.parse(readFileSync(join(scratch, 'npm', host.target, 'package.json'), 'utf8'))
  expect(platform).toMatchObject({
    name: host.name,
    version: pkg.version,
    os: [process.platform],
    cpu: [process.arch],
    files: ['bin/hookrun'],
  })
  if (host.libc !== undefined) expect(platform.libc).toEqual([host.libc])
})

test('installed from the packed tarballs, the hookrun command runs the native binary', () => {
  const dir = consumer('with-binary', [tarballs.hookrun!, tarballs[host.name]!])
  const bin = join(dir, 'node_modules', '.bin', 'hookrun')
  const version = run(bin, ['--version'], { cwd: dir })
  expect(version.status, version.stderr).toBe(0)
  // --version names the runtime: the compiled binary reports Bun, the Node bundle Node.
  expect(version.stdout).toContain(`hookrun ${pkg.version} (bun `)
  const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'sudo ls' } })
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg') }
  expect(run(bin, ['trust'], { cwd: dir, env }).status).toBe(0)
  const fire = run(bin, ['fire', 'tool:pre_execute', '--payload', '-'], { cwd: dir, input, env })
  expect(fire.status, fire.stderr).toBe(2)
  expect(JSON.parse(fire.stdout)).toMatchObject({ decision: 'deny', reason: 'no sudo' })
}, 240_000)

test("npm's links to the launcher, a project's and a global install's, run the binary without any program on PATH", () => {
  const project = consumer('no-path', [tarballs.hookrun!, tarballs[host.name]!])
  const prefix = join(scratch, 'global')
  const install = run('npm', ['install', '--global', '--prefix', prefix, tarballs.hookrun!, tarballs[host.name]!], { cwd: scratch })
  expect(install.status, install.stderr).toBe(0)
  // An empty PATH: the launcher recognises npm's layouts with shell builtins (no readlink process).
  const empty = join(scratch, 'empty-path')
  mkdirSync(empty, { recursive: true })
  for (const bin of [join(project, 'node_modules', '.bin', 'hookrun'), join(prefix, 'bin', 'hookrun')]) {
    const version = run(bin, ['--version'], { cwd: scratch, env: { PATH: empty } })
    expect(version.status, `${bin}: ${version.stderr}`).toBe(0)
    expect(version.stdout).toContain(`hookrun ${pkg.version} (bun `)
  }
  // A link of the user's own to npm's link is followed with readlink, as before.
  const own = join(scratch, 'own-bin')
  mkdirSync(own, { recursive: true })
  symlinkSync(join(prefix, 'bin', 'hookrun'), join(own, 'hookrun'))
  const version = run(join(own, 'hookrun'), ['--version'], { cwd: scratch })
  expect(version.status, version.stderr).toBe(0)
  expect(version.stdout).toContain(`hookrun ${pkg.version} (bun `)
}, 240_000)

test('without the platform package (--omit=optional) the hookrun command runs the Node bundle', () => {
  const dir = consumer('node-only', [tarballs.hookrun!], ['--omit=optional'])
  const version = run(join(dir, 'node_modules', '.bin', 'hookrun'), ['--version'], { cwd: dir })
  expect(version.status, version.stderr).toBe(0)
  expect(version.stdout).toContain(`hookrun ${pkg.version} (node `)
}, 240_000)
