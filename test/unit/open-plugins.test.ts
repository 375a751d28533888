import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { addPlugin } from '../../src/folders/plugins.ts'
import { openPluginHooks } from '../../src/folders/open-plugins.ts'
import { pluginConfigHooks } from '../../src/folders/plugin-config.ts'
import { discoverHookFolders, type FoundPluginConfig, pluginSources } from '../../src/discover/folders.ts'
import { parseConfigDocument, readConfigFile } from '../../src/config/parse.ts'
import type { ConfigProblem } from '../../src/core/types.ts'
import { makeHook, makeProject, removeProject } from '../helpers.ts'

/** Open Plugins (open-plugins.com/agent-builders/components/hooks) as hookrun plugins. */
const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const PLUGIN = {
  '.plugin/plugin.json': { name: 'fmt' },
  'hooks/hooks.json': {
    hooks: {
      PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: '${PLUGIN_ROOT}/scripts/format.sh' }] }],
      AfterFileEdit: [{ hooks: [{ type: 'command', command: 'echo edited' }] }],
      BeforeTeleport: [{ hooks: [{ type: 'command', command: 'echo never' }] }],
    },
  },
  'scripts/format.sh': '#!/bin/sh\nexit 0\n',
}

const claudeHook = (path: string, over = {}) =>
  makeHook({ shape: 'claude', source: { layer: 'project-plugin', file: '/p/hooks/hooks.json', index: 0, path }, ...over })

describe('a plugin folder with hooks/hooks.json', () => {
  test('plugin add (folder) installs it, names its hooks and the events it ignores', async () => {
    const root = makeProject(Object.fromEntries(Object.entries(PLUGIN).map(([path, content]) => [`kits/fmt/${path}`, content])))
    dirs.push(root)
    const { plugin, problems } = await addPlugin('kits/fmt', { scope: 'project', projectRoot: root, cwd: root, env: { HOME: root } })
    expect(plugin.hooks).toHaveLength(2)
    expect(problems.map((problem) => problem.message)).toEqual([
      "event 'BeforeTeleport' is not one hookrun knows; its hooks are ignored, as the Open Plugins spec requires",
    ])
    // The config is read as config, not reported as a hook that is not executable.
    const discovery = discoverHookFolders({ projectRoot: root, env: { HOME: root, XDG_CONFIG_HOME: join(root, 'xdg') } })
    expect(discovery.sources.filter((source) => source.kind === 'config').map((source) => source.file)).toEqual([
      join(plugin.path, 'hooks', 'hooks.json'),
    ])
    expect(discovery.skipped).toEqual([])
  })

  test('plugin add takes the same plugin from a git repository', async () => {
    const root = makeProject(Object.fromEntries(Object.entries(PLUGIN).map(([path, content]) => [`repo/${path}`, content])))
    dirs.push(root)
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: join(root, 'repo'), encoding: 'utf8' })
    git('init', '-q')
    git('add', '-A')
    git('commit', '-q', '-m', 'v1')
    const { plugin } = await addPlugin(`file://${join(root, 'repo')}`, {
      scope: 'project',
      projectRoot: root,
      cwd: root,
      env: { HOME: root },
      name: 'acme/fmt',
    })
    expect(plugin.hooks).toHaveLength(2)
  })
})

describe('openPluginHooks', () => {
  test('${PLUGIN_ROOT} and ${CLAUDE_PLUGIN_ROOT} are the plugin folder: set in the environment, expanded by the shell', () => {
    const root = makeProject({
      'fmt/hooks/hooks.json': {
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '"${PLUGIN_ROOT}/a.sh" ${CLAUDE_PLUGIN_ROOT}/b' }] }] },
      },
    })
    dirs.push(root)
    const dir = join(root, 'fmt')
    const [source] = pluginSources({ name: 'fmt', dir, scope: 'project' }, 'project-plugin')
    const { hooks } = pluginConfigHooks(source as FoundPluginConfig, [], { readConfigFile, parseConfigDocument })
    expect(hooks[0]!.command).toBe('"${PLUGIN_ROOT}/a.sh" "${CLAUDE_PLUGIN_ROOT}"/b')
    expect(hooks[0]!.env).toMatchObject({ PLUGIN_ROOT: dir, CLAUDE_PLUGIN_ROOT: dir })
  })
  test("Goose's on_failure: block on PreToolUse makes a failing hook block, as in Goose; elsewhere Goose ignores it, and so does hookrun", () => {
    const root = makeProject({
      'gate/hooks/hooks.json': {
        hooks: {
          PreToolUse: [{ matcher: '.*', hooks: [{ type: 'command', command: './gate.sh', on_failure: 'block' }] }],
          PostToolUse: [{ hooks: [{ type: 'command', command: './log.sh', on_failure: 'block' }] }],
        },
      },
    })
    dirs.push(root)
    const [source] = pluginSources({ name: 'gate', dir: join(root, 'gate'), scope: 'project' }, 'project-plugin')
    const problems: ConfigProblem[] = []
    const { hooks } = pluginConfigHooks(source as FoundPluginConfig, problems, { readConfigFile, parseConfigDocument })
    expect(hooks.map((hook) => [hook.command, hook.onError])).toEqual([
      ['./gate.sh', 'block'],
      ['./log.sh', undefined],
    ])
    expect(problems).toEqual([])
  })
  test('extended events carry their tool; a matcher on one is reported and the hook skipped', () => {
    const problems: ConfigProblem[] = []
    const { hooks } = openPluginHooks(
      [claudeHook('hooks.BeforeReadFile[0].hooks[0]'), claudeHook('hooks.BeforeShellExecution[0].hooks[0]', { matcher: 'git' })],
      problems,
    )
    expect(hooks.map((hook) => hook.event)).toEqual([['tool:pre_execute:read']])
    expect(problems[0]!.message).toMatch(/a matcher on BeforeShellExecution is tested against the command/)
  })
})
