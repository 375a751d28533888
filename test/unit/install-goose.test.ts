import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { doctorCommand } from '../../src/commands/doctor.ts'
import { installAgents } from '../../src/commands/install.ts'
import { staleAgentConfigs } from '../../src/install/narrowed-sync.ts'
import { addPlugin } from '../../src/folders/plugins.ts'
import { pluginConfigHooks } from '../../src/folders/plugin-config.ts'
import { type FoundPluginConfig, pluginSources } from '../../src/discover/folders.ts'
import { parseConfigDocument, readConfigFile } from '../../src/config/parse.ts'
import type { ConfigProblem } from '../../src/core/types.ts'
import { homeAndProject, removeProject } from '../helpers.ts'

/** `hookrun install --agent goose`: a plugin of hookrun's own in Goose's plugin folders. */
const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const place = () => homeAndProject(dirs)
const SELF = '/opt/hookrun/bin/hookrun'
const run = (where: ReturnType<typeof place>, remove = false, scope: 'user' | 'project' = 'user', env = where.env) =>
  installAgents({ agents: ['goose'], scope, cwd: where.project, env, self: SELF }, remove)
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'))

describe('install --agent goose', () => {
  test('writes plugin.json and hooks/hooks.json in .agents/plugins/hookrun: .* matchers, a timeout above the budget, PreToolUse blocks on failure', () => {
    const where = place()
    const plugin = join(where.project, '.agents', 'plugins', 'hookrun')
    expect(run(where, false, 'project').exitCode).toBe(0)
    expect(read(join(plugin, 'plugin.json'))).toMatchObject({ name: 'hookrun' })
    const hooks = read(join(plugin, 'hooks', 'hooks.json')).hooks
    expect(Object.keys(hooks)).toEqual([
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'UserPromptSubmit',
      'SessionStart',
      'SessionEnd',
      'Stop',
    ])
    // A bare "*" is an invalid regex to Goose, which then skips the whole rule without a word.
    for (const groups of Object.values(hooks) as Array<Array<{ matcher: string }>>)
      expect(groups.map((group) => group.matcher)).toEqual(['.*'])
    expect(hooks.PreToolUse[0].hooks).toEqual([
      { type: 'command', command: 'hookrun fire --format goose', timeout: 600, on_failure: 'block' },
    ])
    expect(hooks.Stop[0].hooks).toEqual([{ type: 'command', command: 'hookrun fire --format goose', timeout: 600 }])
    // Again: nothing to change.
    expect(run(where, false, 'project').results[0]!.status).toBe('unchanged')
    // Uninstall takes exactly what install made: the plugin folder and the folders above it it created.
    expect(run(where, true, 'project').results[0]!.status).toBe('deleted')
    expect(existsSync(join(where.project, '.agents'))).toBe(false)
  })

  test('an entry of hookrun without on_failure gets it back', () => {
    const where = place()
    run(where, false, 'project')
    const file = join(where.project, '.agents', 'plugins', 'hookrun', 'hooks', 'hooks.json')
    const config = read(file)
    delete config.hooks.PreToolUse[0].hooks[0].on_failure
    writeFileSync(file, JSON.stringify(config, null, 2))
    expect(run(where, false, 'project').results[0]!.status).toBe('updated')
    expect(read(file).hooks.PreToolUse[0].hooks[0].on_failure).toBe('block')
  })

  test("a hook of the user's in hookrun's plugin stays, and so does the plugin", () => {
    const where = place()
    run(where, false, 'project')
    const plugin = join(where.project, '.agents', 'plugins', 'hookrun')
    const file = join(plugin, 'hooks', 'hooks.json')
    const config = read(file)
    config.hooks.Stop.push({ matcher: '.*', hooks: [{ type: 'command', command: 'notify-send done' }] })
    writeFileSync(file, JSON.stringify(config, null, 2))
    expect(run(where, true, 'project').results[0]!.status).toBe('removed')
    expect(read(file).hooks).toEqual({ Stop: [{ matcher: '.*', hooks: [{ type: 'command', command: 'notify-send done' }] }] })
    expect(existsSync(join(plugin, 'plugin.json'))).toBe(true)
  })

  test('user level: ~/.agents/plugins/hookrun, or $GOOSE_PATH_ROOT/.agents/plugins/hookrun when that is an absolute path', () => {
    const where = place()
    run(where)
    expect(readdirSync(join(where.home, '.agents', 'plugins', 'hookrun')).sort()).toEqual(['hooks', 'plugin.json'])
    run(where, true)
    expect(existsSync(join(where.home, '.agents'))).toBe(false)
    const root = join(where.home, 'goose-root')
    const env = { ...where.env, GOOSE_PATH_ROOT: root }
    run(where, false, 'user', env)
    expect(existsSync(join(root, '.agents', 'plugins', 'hookrun', 'hooks', 'hooks.json'))).toBe(true)
    run(where, false, 'user', { ...where.env, GOOSE_PATH_ROOT: 'relative' })
    expect(existsSync(join(where.home, '.agents', 'plugins', 'hookrun', 'hooks', 'hooks.json'))).toBe(true)
  })
})

describe('hookrun never reads its own Goose plugin as hooks (it would fire itself on every event)', () => {
  test("a router command in a plugin is skipped with a warning; the plugin's other hooks stay", () => {
    const where = place()
    run(where, false, 'project')
    const copy = join(where.project, 'copied')
    cpSync(join(where.project, '.agents', 'plugins', 'hookrun'), copy, { recursive: true })
    const file = join(copy, 'hooks', 'hooks.json')
    const config = read(file)
    config.hooks.PreToolUse.push({ matcher: 'shell', hooks: [{ type: 'command', command: './check.sh' }] })
    writeFileSync(file, JSON.stringify(config))
    const [source] = pluginSources({ name: 'copied', dir: copy, scope: 'project' }, 'project-plugin')
    const problems: ConfigProblem[] = []
    const { hooks } = pluginConfigHooks(source as FoundPluginConfig, problems, { readConfigFile, parseConfigDocument })
    expect(hooks.map((hook) => hook.command)).toEqual(['./check.sh'])
    expect(problems.filter((problem) => problem.message.includes("hookrun's own router"))).toHaveLength(7)
  })

  test('plugin add refuses it: it has no hooks of its own', async () => {
    const where = place()
    run(where, false, 'project')
    mkdirSync(join(where.project, '.hookrun'))
    await expect(
      addPlugin('.agents/plugins/hookrun', { scope: 'project', projectRoot: where.project, cwd: where.project, env: where.env }),
    ).rejects.toThrow(/has no hooks.*runs hookrun's own router \(hookrun fire --format goose\)/)
    expect(existsSync(join(where.project, '.hookrun', 'plugins', 'hookrun'))).toBe(false)
  })
})

describe('doctor: a hookrun plugin Goose would not run', () => {
  const lines = (where: ReturnType<typeof place>) =>
    doctorCommand({ cwd: where.project, env: where.env, version: '0.0.0', json: true }).output
  test("a narrowed project install is not out of date right after it is written: Goose's `.*` is every tool", () => {
    const where = place()
    mkdirSync(join(where.project, '.hookrun'), { recursive: true })
    writeFileSync(
      join(where.project, '.hookrun', 'hooks.json'),
      JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'true' }] }),
    )
    installAgents({ agents: ['goose'], scope: 'project', cwd: where.project, env: where.env, self: SELF, narrow: true }, false)
    expect(staleAgentConfigs(where.project, where.env)).toEqual([])
  })
  test('disabledPlugins in the project settings, unless its local settings enable it', () => {
    const where = place()
    run(where, false, 'project')
    expect(lines(where)).not.toContain('disabledPlugins')
    const settings = join(where.project, '.config', 'goose')
    mkdirSync(settings, { recursive: true })
    writeFileSync(join(settings, 'settings.json'), '{"disabledPlugins":["hookrun"]}')
    expect(lines(where)).toContain(`Goose: ${join(settings, 'settings.json')} lists hookrun in disabledPlugins`)
    writeFileSync(join(settings, 'settings.local.json'), '{"enabledPlugins":["hookrun"]}')
    expect(lines(where)).not.toContain('disabledPlugins')
  })

  test("switched off in Goose's config.yaml", () => {
    const where = place()
    run(where)
    const folder = join(where.home, '.agents', 'plugins', 'hookrun')
    const config = join(where.home, '.config', 'goose', 'config.yaml')
    mkdirSync(dirname(config), { recursive: true })
    writeFileSync(config, `GOOSE_MODE: auto\nplugins:\n  ${folder}:\n    enabled: true\n`)
    expect(lines(where)).not.toContain('switched off')
    writeFileSync(config, `GOOSE_MODE: auto\nplugins:\n  /elsewhere:\n    enabled: true\n  ${folder}:\n    enabled: false\n`)
    expect(lines(where)).toContain(`Goose: ${config} has the plugin ${folder} switched off`)
  })
})
