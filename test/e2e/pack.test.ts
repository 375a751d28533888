/**
 * The npm package as users get it: `npm pack`, installed into a fresh project, run under Node
 * (the `hookrun` command and `import { fire } from 'hookrun'`).
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { makeProject, removeProject, ROOT, writeFiles } from '../helpers.ts'

const NODE_DIR = dirname(process.execPath)

function run(command: string, args: string[], options: SpawnSyncOptions & { cwd: string }) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: 120_000,
    ...options,
    // This Node first on PATH: the package must work under the Node that runs the tests.
    env: { ...process.env, PATH: `${NODE_DIR}:${process.env.PATH}`, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...options.env },
  })
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) }
}

describe('npm package', () => {
  let scratch: string
  let project: string
  let packed: { filename: string; size: number; files: { path: string }[] }

  beforeAll(() => {
    scratch = makeProject()
    // --ignore-scripts: the test packs the dist/ that `npm test` just built, never rebuilds it under other tests.
    const pack = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: ROOT })
    expect(pack.status, pack.stderr).toBe(0)
    packed = JSON.parse(pack.stdout)[0]
    project = join(scratch, 'fresh-project')
    writeFiles(project, { 'package.json': { name: 'fresh-project', private: true, type: 'module' } })
    const install = run('npm', ['install', '--prefer-offline', '--no-package-lock', join(scratch, packed.filename)], { cwd: project })
    expect(install.status, install.stderr).toBe(0)
  }, 180_000)
  afterAll(() => removeProject(scratch))

  test('holds the Node bundles, the library source and the schema, not the 100 MB binary', () => {
    const paths = packed.files.map((file) => file.path)
    expect(paths).toEqual(expect.arrayContaining(['dist/hookrun.mjs', 'dist/index.mjs', 'schema.json', 'src/index.ts', 'package.json', 'README.md']))
    expect(paths).not.toContain('dist/hookrun')
    expect(paths.filter((path) => path.startsWith('test/') || path.startsWith('dist/release/'))).toEqual([])
    expect(packed.size).toBeLessThan(2 * 1024 * 1024)
  })

  test('its hookrun command runs under Node in a fresh project', () => {
    const bin = join(project, 'node_modules', '.bin', 'hookrun')
    const version = run(bin, ['--version'], { cwd: project })
    expect(version.status, version.stderr).toBe(0)
    expect(version.stdout).toContain(`hookrun/${pkg.version}`)

    writeFiles(project, {
      '.hookrun/hooks.json': { hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'grep -q sudo && { echo "no sudo" >&2; exit 2; } || exit 0' }] },
    })
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'sudo ls' } })
    const fire = run(bin, ['fire', 'tool:pre_execute', '--payload', '-'], { cwd: project, input, env: { HOME: project, XDG_CONFIG_HOME: join(project, '.xdg') } })
    expect(fire.status, fire.stderr).toBe(2)
    expect(JSON.parse(fire.stdout)).toMatchObject({ decision: 'deny', blocked: true, reason: 'no sudo', hooks: [{ name: 'no-sudo', source: 'project' }] })
  })

  test('its library imports as `hookrun` under Node and fires in-process', () => {
    writeFiles(project, { 'lib-hooks.json': { hooks: [{ name: 'greet', event: 'session:start', command: 'echo hello from the packed library' }] } })
    const script = `
      import { fire } from 'hookrun'
      const decision = await fire({ event: 'session:start', payload: {}, configFiles: ['lib-hooks.json'] })
      console.log(JSON.stringify(decision))`
    const result = run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })
    expect(result.status, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ event: 'session:start', decision: 'allow', additionalContext: ['hello from the packed library'], hooks: [{ name: 'greet' }] })
  })
})
