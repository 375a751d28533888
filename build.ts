/// <reference types="bun" />
/**
 * Build hookrun (run with Bun):
 *
 *   bun build.ts            (npm run build)
 *     dist/hookrun          the single-file binary for this machine (bun build --compile)
 *     dist/hookrun.mjs      the Node bundle that bin/hookrun (package.json's `bin`) runs where no
 *                           native binary was installed for the platform (Node 20+)
 *     dist/index.mjs        the library bundle for `import { fire } from "hookrun"`; zod stays the
 *                           consumer's (a dependency), so the schemas it exports are of one zod
 *     dist/unstable.mjs     `hookrun/unstable`, the internal stages; the code both share is one
 *                           chunk (dist/library-<hash>.mjs), so they see one set of modules
 *     dist/types            its type declarations (tsc -p tsconfig.types.json)
 *
 * Both bundles carry cac, picomatch, jsonc-parser and diff (devDependencies: a consumer installs
 * no copy it never loads).
 *
 *   bun build.ts --release  (npm run build:release) all of the above, plus
 *     dist/binaries/hookrun-<target>[.exe]  one binary per RELEASE_TARGETS entry (cross-compiled;
 *                                           Bun fetches each target's runtime from the npm registry,
 *                                           all but this machine's own)
 *     dist/release/                         what a GitHub release holds: hookrun-<target>.tar.gz (each
 *                                           binary gzipped, -9), SHA256SUMS of those archives (which
 *                                           install.sh verifies) and install.sh
 *     dist/npm/hookrun, dist/npm/<target>   the npm packages: hookrun, and one per platform with its
 *                                           binary (scripts/npm-packages.ts)
 *   bun build.ts --release --targets host|linux-x64,…   only these targets (`host`: this machine's,
 *                                           as install.sh and npm pick; what `npm run test:release` builds)
 *
 * The version is compiled in: src/commands/program.ts (and the cache and plan formats) import it
 * from package.json and the bundler inlines it.
 */
import type { BunPlugin } from 'bun'
import { spawnSync } from 'node:child_process'
import { chmod, copyFile, mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pkg from './package.json' with { type: 'json' }
import { LIBRARY_FILE, libraryText } from './scripts/policies.ts'
import { hostPlatform, NPM_PLATFORMS, writePlatformPackage, writeRootPackage } from './scripts/npm-packages.ts'
import {
  assetName,
  binaryName,
  hostTarget,
  parseTargets,
  RELEASE_TARGETS,
  type ReleaseTarget,
  writeArchive,
  writeChecksums,
} from './scripts/release.ts'

// jsonc-parser's "main" is a UMD build whose require() calls a bundler cannot follow (the Node
// bundle then fails at run time); its ESM build bundles cleanly.
const jsoncParserEsm: BunPlugin = {
  name: 'jsonc-parser-esm',
  setup(build) {
    build.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: resolve('node_modules/jsonc-parser/lib/esm/main.js') }))
  },
}

/**
 * The OpenTelemetry packages load only in `hookrun telemetry flush` (src/telemetry/export.ts). The
 * Node bundles leave them in node_modules (they are dependencies), so Node never parses them on a
 * fire; the single-file binary has to carry them, evaluated only when that command imports them.
 */
const OPENTELEMETRY = ['@opentelemetry/*']

const RELEASE_DIR = 'dist/release'
const BINARIES_DIR = 'dist/binaries'
const NPM_DIR = 'dist/npm'
const ORDER_DIR = 'dist/bytecode-order'

interface CompileOptions {
  readonly target?: ReleaseTarget
  readonly entrypoint?: string
  /** Files written by a run with BUN_BYTECODE_ORDER_OUT (see recordBytecodeOrder). */
  readonly bytecodeOrder?: readonly string[]
}

/**
 * The same binary for this machine and for every release target (`npm run bench` compiles its
 * hello-world floor with this too, so the two differ only in their code).
 */
export async function compileBinary(outfile: string, options: CompileOptions = {}): Promise<void> {
  await Bun.build({
    entrypoints: [options.entrypoint ?? './src/bin.ts'],
    compile: {
      outfile,
      ...(options.target === undefined ? {} : { target: `bun-${options.target}` as Bun.Build.CompileTarget }),
      ...(options.bytecodeOrder === undefined ? {} : { bytecodeOrder: [...options.bytecodeOrder] }),
      // A .env or bunfig.toml in the agent's working directory must change nothing.
      autoloadDotenv: false,
      autoloadBunfig: false,
      // hookrun lives for one event: compiling hot code costs more than it saves. Raising the JIT's
      // tier-up thresholds keeps run-once startup code in the interpreter (measured: ~20% faster
      // per event; see README "Speed").
      jitPolicy: 10,
    },
    minify: true,
    bytecode: true,
    // ESM with code splitting: what a fire imports lazily (other commands, zod, OpenTelemetry) is
    // its own embedded chunk, loaded only when imported, not decoded on every start.
    format: 'esm',
    splitting: true,
    plugins: [jsoncParserEsm],
  })
}

/**
 * Profile-guided bytecode layout: run the binary on the commonest paths (one matching hook, no
 * match; each as an install fires it, `--format claude`, and with no format) with
 * BUN_BYTECODE_ORDER_OUT, so the next build places the code they use together. That takes ~1 MiB
 * off every event's memory. Each path is recorded as most fires take it: a project trusted by
 * `hookrun trust`, its plan made by a fire before. The profile holds function hashes, not machine
 * code, so one recorded here serves every release target.
 */
const ORDER_RUNS = [
  { name: 'match', args: ['fire', 'tool:pre_execute', '--payload', '-'], event: {} },
  { name: 'no-match', args: ['fire', 'session:start', '--payload', '-'], event: {} },
  { name: 'claude-match', args: ['fire', '--format', 'claude', '--payload', '-'], event: { hook_event_name: 'PreToolUse' } },
  { name: 'claude-no-match', args: ['fire', '--format', 'claude', '--payload', '-'], event: { hook_event_name: 'PostToolUse' } },
] as const
const ORDER_FILES = ORDER_RUNS.map((run) => join(ORDER_DIR, `${run.name}.txt`))

async function recordBytecodeOrder(binary: string): Promise<string[]> {
  const project = await mkdtemp(join(tmpdir(), 'hookrun-order-'))
  const env = { PATH: process.env.PATH, HOME: project, XDG_CONFIG_HOME: join(project, '.config') }
  const run = (args: readonly string[], input: string, orderFile?: string) => {
    const result = spawnSync(resolve(binary), args, {
      cwd: project,
      env: orderFile === undefined ? env : { ...env, BUN_BYTECODE_ORDER_OUT: resolve(orderFile) },
      input,
      encoding: 'utf8',
    })
    if (result.status !== 0)
      throw new Error(`recording the bytecode order: hookrun ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
    return result.stdout
  }
  try {
    const config = join(project, '.hookrun', 'hooks.json')
    await mkdir(join(project, '.hookrun'))
    await writeFile(config, JSON.stringify({ hooks: [{ name: 'check', event: 'tool:pre_execute', command: 'true' }] }))
    // A plan is made only of config files untouched for a while (src/core/stat.ts SETTLE_MS).
    const past = new Date(Date.now() - 3_600_000)
    await utimes(config, past, past)
    run(['trust', project], '')
    await mkdir(ORDER_DIR, { recursive: true })
    for (const [index, { name, args, event }] of ORDER_RUNS.entries()) {
      const input = JSON.stringify({ session_id: 'build', cwd: project, ...event, tool_name: 'Bash', tool_input: { command: 'ls' } })
      run(args, input) // makes the plan this path's fires read
      const stdout = run(args, input, ORDER_FILES[index])
      if (name === 'match' && !stdout.includes('"name":"check"'))
        throw new Error(`recording the bytecode order: the hook did not run: ${stdout}`)
      if ((await stat(ORDER_FILES[index]!)).size === 0) throw new Error(`recording the bytecode order: ${ORDER_FILES[index]} is empty`)
    }
    return ORDER_FILES
  } finally {
    await rm(project, { recursive: true, force: true })
  }
}

async function buildLocal(): Promise<void> {
  await rm('dist', { recursive: true, force: true })
  await mkdir('dist', { recursive: true })
  // The policy library the binary and bundles carry: compiled from policies/ (scripts/policies.ts).
  await writeFile(LIBRARY_FILE, libraryText())

  await compileBinary('./dist/hookrun')
  await compileBinary('./dist/hookrun', { bytecodeOrder: await recordBytecodeOrder('./dist/hookrun') })

  await Bun.build({
    entrypoints: ['./src/bin.ts'],
    outdir: './dist',
    naming: 'hookrun.mjs',
    target: 'node',
    format: 'esm',
    minify: true,
    plugins: [jsoncParserEsm],
    external: OPENTELEMETRY,
  })
  await chmod('dist/hookrun.mjs', 0o755)

  await Bun.build({
    // hookrun and hookrun/unstable; the code they share goes in one chunk, so both see one set of modules.
    entrypoints: ['./src/index.ts', './src/unstable.ts'],
    outdir: './dist',
    naming: { entry: '[name].mjs', chunk: 'library-[hash].mjs' },
    splitting: true,
    target: 'node',
    format: 'esm',
    plugins: [jsoncParserEsm],
    // The exported zod schemas must be the consumer's zod, the one dist/types names.
    external: [...OPENTELEMETRY, 'zod'],
  })

  // The library's type declarations, which the npm package ships (dist/types).
  const tsc = spawnSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.types.json'], { stdio: 'inherit' })
  if (tsc.status !== 0) throw new Error(`tsc -p tsconfig.types.json exited ${tsc.status}`)
}

async function buildRelease(targets: readonly ReleaseTarget[]): Promise<string[]> {
  for (const dir of [RELEASE_DIR, BINARIES_DIR, NPM_DIR]) {
    await rm(dir, { recursive: true, force: true })
    await mkdir(dir, { recursive: true })
  }
  const bytecodeOrder = ORDER_FILES
  const archives: string[] = []
  for (const target of targets) {
    const binary = join(BINARIES_DIR, binaryName(target))
    await timed(`compiled ${binary}`, () => compileBinary(`./${binary}`, { target, bytecodeOrder }))
    const archive = join(RELEASE_DIR, assetName(target))
    await timed(`gzipped ${archive}`, () => writeArchive(binary, target, archive))
    archives.push(archive)
  }
  await writeChecksums(RELEASE_DIR, archives)
  await copyFile('install.sh', join(RELEASE_DIR, 'install.sh'))
  checkHostBinary(targets)
  // npm: hookrun and one package per platform built, carrying these binaries (scripts/npm-packages.ts).
  writeRootPackage(NPM_DIR)
  for (const entry of NPM_PLATFORMS.filter((each) => targets.includes(each.target)))
    writePlatformPackage(entry, join(BINARIES_DIR, binaryName(entry.target)), NPM_DIR)
  return archives
}

async function timed(done: string, step: () => Promise<unknown>): Promise<void> {
  const started = performance.now()
  await step()
  console.log(`${done} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** The release binary for this machine, when built, must run and report the package version. */
function checkHostBinary(targets: readonly ReleaseTarget[]): void {
  const os = process.platform === 'win32' ? 'windows' : process.platform
  const host = targets.find((target) => target === `${os}-${process.arch}`)
  if (host === undefined) return
  const result = spawnSync(join(BINARIES_DIR, binaryName(host)), ['--version'], { encoding: 'utf8' })
  if (result.status !== 0 || !result.stdout.includes(pkg.version)) {
    throw new Error(`${binaryName(host)} --version printed '${result.stdout.trim()}' (exit ${result.status}); expected ${pkg.version}`)
  }
}

/**
 * The targets `--targets` names (all of RELEASE_TARGETS without it). `host` is this machine's:
 * the one install.sh picks and the one npm's platform package carries (the same but on x64 CPUs
 * without AVX2, where install.sh picks the baseline build).
 */
function releaseTargets(argv: readonly string[]): ReleaseTarget[] {
  const index = argv.findIndex((arg) => arg === '--targets' || arg.startsWith('--targets='))
  if (index === -1) return [...RELEASE_TARGETS]
  const list = argv[index]!.includes('=') ? argv[index]!.slice('--targets='.length) : (argv[index + 1] ?? '')
  if (list !== 'host') return parseTargets(list)
  const npm = hostPlatform(hostTarget().includes('-musl') ? 'musl' : 'glibc')?.target
  return [...new Set([hostTarget(), ...(npm === undefined ? [] : [npm])])]
}

if (import.meta.main) {
  const release = process.argv.includes('--release')
  // Checked before building anything: a misspelt target is one line, not a build's worth of wait.
  const targets = release ? releaseTargets(process.argv) : []
  if (!release && process.argv.some((arg) => arg.startsWith('--targets'))) throw new Error('--targets needs --release')
  await timed('built dist/hookrun, dist/hookrun.mjs, dist/index.mjs, dist/unstable.mjs, dist/types', buildLocal)
  if (release) {
    const archives = await buildRelease(targets)
    console.log(
      `built ${archives.length} release archives of hookrun ${pkg.version} with ${RELEASE_DIR}/SHA256SUMS, and the npm packages in ${NPM_DIR}`,
    )
  }
}
