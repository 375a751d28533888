/**
 * The npm package as users install it: `npm pack` (once), installed into a fresh project; its
 * `hookrun` command under Node, `import { fire, createRunner } from 'hookrun'` under Node, Bun and
 * Deno, and its type declarations checked by tsc the way a TypeScript consumer's editor reads them.
 */
import { existsSync, readdirSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { makeProject, removeProject, ROOT, writeFiles, trustFolderIn, runPackageCommand } from '../helpers.ts'

const BIN = join(ROOT, 'node_modules', '.bin')

const run = runPackageCommand

/** Fires through a command hook and a function hook, each rewriting what the other sees. */
const SCRIPT = `
import { createRunner, allow } from 'hookrun'
const here = process.cwd()
const runner = createRunner({ env: { ...process.env, HOME: here, XDG_CONFIG_HOME: here + '/.xdg' } })
runner.on('tool:pre_execute:bash', (ctx) => {
  ctx.toolInput.command = 'sudo ' + ctx.toolInput.command
  return allow()
}, { name: 'add-sudo', before: 'no-sudo' })
runner.on('tool:pre_execute', (ctx) => { seen = ctx.toolInput }, { name: 'after' })
let seen
const decision = await runner.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: { command: 'ls' } })
console.log(JSON.stringify({ decision, seen }))
`

describe('npm package', () => {
  let scratch: string
  let project: string
  let packed: { filename: string; size: number; files: { path: string }[] }

  beforeAll(() => {
    scratch = makeProject()
    const pack = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: ROOT })
    expect(pack.status, pack.stderr).toBe(0)
    packed = JSON.parse(pack.stdout)[0]
    project = join(scratch, 'consumer')
    writeFiles(project, {
      'package.json': { name: 'consumer', private: true, type: 'module' },
      '.hookrun/hooks.json': {
        hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'grep -q sudo && { echo "no sudo" >&2; exit 2; }; exit 0' }],
      },
      'fire.mjs': SCRIPT,
    })
    trustFolderIn(project, join(project, '.xdg'))
    const tarball = join(scratch, JSON.parse(pack.stdout)[0].filename)
    const install = run('npm', ['install', '--prefer-offline', '--no-package-lock', tarball], { cwd: project })
    expect(install.status, install.stderr).toBe(0)
  }, 180_000)
  afterAll(() => removeProject(scratch))

  test('holds the Node bundles, the library source and the schema, not the 100 MB binary', () => {
    const paths = packed.files.map((file) => file.path)
    expect(paths).toEqual(
      expect.arrayContaining([
        'bin/hookrun',
        'dist/hookrun.mjs',
        'dist/index.mjs',
        'schema.json',
        'src/index.ts',
        'package.json',
        'README.md',
        'LICENSE',
      ]),
    )
    expect(paths).not.toContain('dist/hookrun')
    expect(paths.filter((path) => path.startsWith('test/') || path.startsWith('dist/release/'))).toEqual([])
    // No test, fixture or agent-lab scenario anywhere, src/ included (src/agents/lab/*.json are the
    // lab's findings the dialects read at run time, not tests).
    expect(paths.filter((path) => /(^|\/)(tests?|__tests__|fixtures)\/|\.(test|spec|lab)\.[cm]?[jt]s$/.test(path))).toEqual([])
    expect(packed.size).toBeLessThan(2 * 1024 * 1024)
  })

  test('installs only what its bundles load: zod (the library keeps the consumer copy) and OpenTelemetry', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', 'hookrun', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect(Object.keys(installed.dependencies).filter((name) => !name.startsWith('@opentelemetry/'))).toEqual(['zod'])
    for (const bundled of ['cac', 'picomatch', 'jsonc-parser', 'diff'])
      expect(existsSync(join(project, 'node_modules', bundled)), bundled).toBe(false)
    // The library's schemas are the consumer's zod: one instance, the one dist/types names. (The
    // library is index.mjs and unstable.mjs over shared chunks, library-*.mjs.)
    const dist = join(project, 'node_modules', 'hookrun', 'dist')
    const library = readdirSync(dist).filter((file) => file === 'index.mjs' || file === 'unstable.mjs' || /^library-.*\.mjs$/.test(file))
    expect(
      library.map((file) => readFileSync(join(dist, file), 'utf8')).filter((text) => /from ["']zod["']/.test(text)).length,
    ).toBeGreaterThan(0)
  })

  test('its hookrun command runs under Node in a fresh project', () => {
    const bin = join(project, 'node_modules', '.bin', 'hookrun')
    const version = run(bin, ['--version'], { cwd: project })
    expect(version.status, version.stderr).toBe(0)
    // No platform package in this install (the repository's package.json lists none): the launcher runs the Node bundle.
    expect(version.stdout).toContain(`hookrun ${pkg.version} (node `)
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'sudo ls' } })
    const fire = run(bin, ['fire', 'tool:pre_execute', '--payload', '-'], {
      cwd: project,
      input,
      env: { HOME: project, XDG_CONFIG_HOME: join(project, '.xdg') },
    })
    expect(fire.status, fire.stderr).toBe(2)
    expect(JSON.parse(fire.stdout)).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'no sudo',
      hooks: [{ name: 'no-sudo', source: 'project' }],
    })
  })

  test('import { fire } from "hookrun" fires in-process under Node', () => {
    writeFiles(project, {
      'lib-hooks.json': { hooks: [{ name: 'greet', event: 'session:start', command: 'echo hello from the packed library' }] },
    })
    const script = `
      import { fire } from 'hookrun'
      const decision = await fire({ event: 'session:start', payload: {}, configFiles: ['lib-hooks.json'] })
      console.log(JSON.stringify(decision))`
    const result = run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })
    expect(result.status, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      event: 'session:start',
      decision: 'allow',
      additionalContext: ['hello from the packed library'],
      hooks: [{ name: 'greet' }],
    })
  })

  test("require('hookrun') loads the library where Node requires ES modules (no top-level await); a glob pattern compiles at once", () => {
    const script = `
      const { compilePattern, qualifyEvent } = require('hookrun')
      console.log(compilePattern('tool:*:write').matches(qualifyEvent('tool:pre_execute', { tool_name: 'Write' }).segments))`
    const result = run(process.execPath, ['--experimental-require-module', '--no-warnings', '-e', script], { cwd: project })
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.trim()).toBe('true')
  })

  test("'hookrun' is the documented API; the internal stages are in 'hookrun/unstable', sharing its modules", () => {
    const script = `
      const main = await import('hookrun')
      const unstable = await import('hookrun/unstable')
      console.log(JSON.stringify({
        mainHasStages: ['runChain', 'selectHooks', 'loadHooks', 'decide'].filter((name) => name in main),
        unstableHasStages: ['runChain', 'selectHooks', 'loadHooks', 'decide'].filter((name) => typeof unstable[name] === 'function'),
        oneModuleSet: unstable.findProjectRoot !== undefined && main.HookrunError === (await import('hookrun')).HookrunError,
      }))`
    const result = run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })
    expect(result.status, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      mainHasStages: [],
      unstableHasStages: ['runChain', 'selectHooks', 'loadHooks', 'decide'],
      oneModuleSet: true,
    })
  })

  test('exports point at files the package holds: the bundle and its type declarations', () => {
    const paths = new Set(packed.files.map((file) => file.path))
    for (const file of [
      'dist/index.mjs',
      'dist/unstable.mjs',
      'dist/types/index.d.ts',
      'dist/types/unstable.d.ts',
      'dist/types/library/runner.d.ts',
      'dist/types/library/function-hook.d.ts',
    ]) {
      expect(paths.has(file), file).toBe(true)
    }
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/hookrun/package.json'), 'utf8'))
    expect(manifest.exports['.']).toEqual({ types: './dist/types/index.d.ts', default: './dist/index.mjs' })
    expect(manifest.exports['./unstable']).toEqual({ types: './dist/types/unstable.d.ts', default: './dist/unstable.mjs' })
    for (const target of [...Object.values(manifest.exports['.']), ...Object.values(manifest.exports['./unstable'])] as string[])
      expect(existsSync(join(project, 'node_modules/hookrun', target)), target).toBe(true)
  })

  const runtimes = [
    { name: 'node', command: [process.execPath] },
    { name: 'bun', command: [join(BIN, 'bun')] },
    { name: 'deno', command: [join(BIN, 'deno'), 'run', '-A', '--quiet'] },
  ]
  test.each(runtimes)('import { createRunner } from "hookrun" fires under $name', ({ command }) => {
    const [program, ...args] = command
    const result = run(program!, [...args, 'fire.mjs'], { cwd: project })
    expect(result.status, result.stderr).toBe(0)
    const { decision, seen } = JSON.parse(result.stdout)
    // The function hook's rewrite reached the command hook, which blocked; the chain stopped there.
    expect(decision).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'no sudo',
      decidedBy: 'no-sudo',
      hooks: [
        { name: 'add-sudo', source: 'function', outcome: 'allow' },
        { name: 'no-sudo', source: 'project', outcome: 'deny', exitCode: 2 },
      ],
    })
    expect(decision.hooks[0].file).toMatch(/fire\.mjs:\d+:\d+$/)
    expect(seen).toBeUndefined()
  })

  test("its declarations name only the package's dependencies and Node's builtins, none of the repository's devDependencies", () => {
    const dependencies = Object.keys(pkg.dependencies)
    const named = new Map<string, string>()
    for (const path of packed.files.map((file) => file.path).filter((path) => path.endsWith('.d.ts'))) {
      // Comments aside: a usage example in a doc comment (`import { hookrunHooks } from 'hookrun'`) names nothing.
      const text = readFileSync(join(project, 'node_modules/hookrun', path), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
      for (const match of text.matchAll(/(?:from\s+|import\()\s*["']([^"'.][^"']*)["']/g)) named.set(match[1]!, path)
    }
    expect(named.size).toBeGreaterThan(0)
    const foreign = [...named].filter(([name]) => !name.startsWith('node:') && !dependencies.some((dependency) => name === dependency))
    expect(foreign).toEqual([])
  })

  test('its declarations type-check in a strict TypeScript project', () => {
    // Node's own types only: none of the repository's other @types (bun, picomatch) are there to lean on.
    mkdirSync(join(project, 'types-node-only'), { recursive: true })
    if (!existsSync(join(project, 'types-node-only/node')))
      symlinkSync(join(ROOT, 'node_modules/@types/node'), join(project, 'types-node-only/node'))
    writeFiles(project, {
      'tsconfig.json': {
        compilerOptions: {
          strict: true,
          target: 'es2022',
          lib: ['es2023'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: ['node'],
          typeRoots: [join(project, 'types-node-only')],
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['consumer.ts'],
      },
      'consumer.ts': `
import { createRunner, deny, none, type Decision, type HookContext } from 'hookrun'
const runner = createRunner()
runner.on('tool:pre_execute:bash', (ctx: HookContext) => (String(ctx.toolInput?.command).includes('rm -rf') ? deny('no') : none()), { timeout: 2, onError: 'block', order: 'first' })
const decision: Decision = await runner.fire('tool:pre_execute', { tool_name: 'Bash', tool_input: { command: 'ls' } })
export const blocked: boolean = decision.blocked
// @ts-expect-error a misspelt option is a type error
runner.on('*', () => {}, { timout: 3 })
// @ts-expect-error a function hook answers with allow / deny / ask, not a string
runner.on('*', () => 'deny')
`,
    })
    const result = run(join(BIN, 'tsc'), ['-p', '.', '--listFiles'], { cwd: project })
    expect(result.status, result.stdout + result.stderr).toBe(0)
    // The declarations were what it read, not the package's source.
    expect(result.stdout).toContain('node_modules/hookrun/dist/types/library/runner.d.ts')
    expect(result.stdout).not.toContain('node_modules/hookrun/src/')
    // tsc over the declarations: seconds when quiet, far longer when the machine is shared (a limit, not a speed claim).
  }, 180_000)
})
