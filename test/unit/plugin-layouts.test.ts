import { spawnSync } from 'node:child_process'
import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { parseConfigDocument, readConfigFile } from '../../src/config/parse.ts'
import { execWord, quoteVariables } from '../../src/core/shell.ts'
import type { ConfigProblem } from '../../src/core/types.ts'
import { discoverHookFolders, type FoundPluginConfig, type FoundSource, pluginSources } from '../../src/discover/folders.ts'
import { pluginConfigHooks } from '../../src/folders/plugin-config.ts'
import { folderMaterial } from '../../src/trust/material-hash.ts'
import { makeProject, removeProject, writeFiles } from '../helpers.ts'

/**
 * Plugins read as their agent reads them (a manifest and the hooks files it names; kodelet's
 * executables only in a folder with neither), and the variables that hold a folder expanded by
 * the shell from the environment, never pasted into the command.
 */
const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const SCRIPT = '#!/bin/sh\nexit 0\n'
const claudeHooks = (command: string) => ({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command }] }] } })

function plugin(files: Record<string, string | object>): { dir: string; sources: FoundSource[]; problems: ConfigProblem[] } {
  const root = makeProject(Object.fromEntries(Object.entries(files).map(([path, content]) => [`kit/${path}`, content])))
  dirs.push(root)
  const dir = join(root, 'kit')
  spawnSync('sh', ['-c', 'chmod +x kit/hooks/*.sh 2>/dev/null; true'], { cwd: root })
  const problems: ConfigProblem[] = []
  const sources = pluginSources({ name: 'acme/kit', dir, scope: 'project' }, 'project-plugin', [], problems)
  return { dir, sources, problems }
}

const read = (source: FoundSource, problems: ConfigProblem[] = []) =>
  pluginConfigHooks(source as FoundPluginConfig, problems, { readConfigFile, parseConfigDocument }).hooks
/** What a shell makes of `command` with `env`: the words `printf` receives, one a line. */
const words = (command: string, env: Record<string, string>) =>
  spawnSync('sh', ['-c', `set -- ${command}; printf '%s\\n' "$@"`], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' })
    .stdout.split('\n')
    .slice(0, -1)

describe('quoteVariables', () => {
  const names = new Set(['ROOT'])
  test.each([
    ['${ROOT}/check.sh x', '"${ROOT}"/check.sh x'],
    ['$ROOT/check.sh', '"$ROOT"/check.sh'],
    ['"${ROOT}/check.sh" x', '"${ROOT}/check.sh" x'],
    ["bash -c 'cd ${ROOT} && ./x'", "bash -c 'cd ${ROOT} && ./x'"],
    ['node $(dirname ${ROOT})/x.js', 'node $(dirname "${ROOT}")/x.js'],
    ['echo "$(cat ${ROOT}/v)"', 'echo "$(cat "${ROOT}"/v)"'],
    ['cd ${ROOT} && (ls ${ROOT}) ; echo `ls ${ROOT}`', 'cd "${ROOT}" && (ls "${ROOT}") ; echo `ls "${ROOT}"`'],
    ['echo \\$ROOT ${ROOTS} $OTHER', 'echo \\$ROOT ${ROOTS} $OTHER'],
  ])('%s', (command, quoted) => {
    expect(quoteVariables(command, names)).toBe(quoted)
  })

  test('a hostile value stays one word and runs nothing', () => {
    const root = makeProject()
    dirs.push(root)
    const value = `${root}/pl $(touch PWN) ; touch PWN2 ; \`touch PWN3\` 'q" *`
    expect(words(quoteVariables('${ROOT}/a $ROOT', names), { ROOT: value })).toEqual([`${value}/a`, value])
    expect(spawnSync('ls', [root], { encoding: 'utf8' }).stdout).toBe('')
  })
})

describe('execWord', () => {
  const names = new Set(['CLAUDE_PLUGIN_ROOT'])
  test('a placeholder stays for the shell, everything else is quoted', () => {
    expect(execWord('${CLAUDE_PLUGIN_ROOT}/a b.sh', names)).toBe(`"\${CLAUDE_PLUGIN_ROOT}"'/a b.sh'`)
    expect(execWord('${OTHER}/x', names)).toBe("'${OTHER}/x'")
    expect(execWord('plain', names)).toBe('plain')
    expect(
      words(['${CLAUDE_PLUGIN_ROOT}/x', "it's ${CLAUDE_PLUGIN_ROOT}"].map((word) => execWord(word, names)).join(' '), {
        CLAUDE_PLUGIN_ROOT: '/p $(x) q',
      }),
    ).toEqual(['/p $(x) q/x', "it's /p $(x) q"])
  })
})

describe('pluginSources', () => {
  test('a Claude Code plugin is read by its hooks.json; the scripts there are not hooks of their own', () => {
    const { dir, sources, problems } = plugin({
      '.claude-plugin/plugin.json': { name: 'kit' },
      'hooks/hooks.json': claudeHooks('"${CLAUDE_PLUGIN_ROOT}/hooks/stop.sh"'),
      'hooks/stop.sh': SCRIPT,
      'hooks/session-start.sh': SCRIPT,
    })
    expect(problems).toEqual([])
    expect(sources).toMatchObject([
      { kind: 'config', file: join(dir, 'hooks/hooks.json'), layout: { agent: 'claude', rootVariables: ['CLAUDE_PLUGIN_ROOT'] } },
    ])
    const described: ConfigProblem[] = []
    expect(
      read({ ...sources[0]!, text: JSON.stringify({ description: 'Stops', ...claudeHooks('x') }) } as FoundPluginConfig, described),
    ).toHaveLength(1)
    expect(described).toEqual([]) // Claude Code's plugin hooks.json may carry a description
    const [hook] = read(sources[0]!)
    expect(hook).toMatchObject({
      name: 'acme/kit/PreToolUse/stop',
      command: '"${CLAUDE_PLUGIN_ROOT}/hooks/stop.sh"',
      env: { CLAUDE_PLUGIN_ROOT: dir, HOOKRUN_PLUGIN_DIR: dir },
    })
    expect(hook!.env).not.toHaveProperty('CURSOR_PLUGIN_ROOT') // a multi-agent script tells the agent by this
  })

  test('Claude Code reads hooks/hooks.json and the files the manifest names; the others read the named file instead', () => {
    const claude = plugin({
      '.claude-plugin/plugin.json': { name: 'kit', hooks: ['./extra/more.json', './hooks/hooks.json'] },
      'hooks/hooks.json': claudeHooks('a'),
      'extra/more.json': claudeHooks('b'),
    })
    expect(claude.sources.map((source) => (source as FoundPluginConfig).file)).toEqual([
      join(claude.dir, 'hooks/hooks.json'),
      join(claude.dir, 'extra/more.json'),
    ])
    const cursor = plugin({
      '.cursor-plugin/plugin.json': { name: 'kit', hooks: './hooks/hooks-cursor.json' },
      'hooks/hooks.json': claudeHooks('for claude'),
      'hooks/hooks-cursor.json': { version: 1, hooks: { beforeShellExecution: [{ command: './hooks/check.sh' }] } },
    })
    expect(cursor.sources).toMatchObject([
      { file: join(cursor.dir, 'hooks/hooks-cursor.json'), layout: { agent: 'cursor', rootVariables: ['CURSOR_PLUGIN_ROOT'] } },
    ])
    // Cursor runs a plugin's hooks in the plugin folder, where its relative paths point.
    expect(read(cursor.sources[0]!)).toMatchObject([
      { event: ['tool:pre_execute:bash'], shape: 'cursor', cwd: cursor.dir, env: { CURSOR_PLUGIN_ROOT: cursor.dir } },
    ])
  })

  test('each layout sets its own variables; a folder shipping several manifests is read by the first', () => {
    const layouts: Array<[string, string[]]> = [
      ['.factory-plugin/plugin.json', ['DROID_PLUGIN_ROOT', 'CLAUDE_PLUGIN_ROOT']],
      ['.codex-plugin/plugin.json', ['PLUGIN_ROOT', 'CLAUDE_PLUGIN_ROOT']],
      ['plugin.json', ['PLUGIN_ROOT', 'CLAUDE_PLUGIN_ROOT']],
    ]
    for (const [manifest, variables] of layouts) {
      const { dir, sources } = plugin({ [manifest]: { name: 'kit' }, 'hooks/hooks.json': claudeHooks('x') })
      expect(sources).toMatchObject([{ layout: { rootVariables: variables, manifest: join(dir, manifest) } }])
    }
    const both = plugin({
      '.cursor-plugin/plugin.json': { name: 'kit', hooks: './hooks/hooks-cursor.json' },
      '.claude-plugin/plugin.json': { name: 'kit' },
      'hooks/hooks.json': claudeHooks('x'),
      'hooks/hooks-cursor.json': { version: 1, hooks: { sessionStart: [{ command: 'x' }] } },
    })
    expect(both.sources).toMatchObject([{ file: join(both.dir, 'hooks/hooks.json'), layout: { agent: 'claude' } }])
  })

  test('inline hooks in a manifest are read from it', () => {
    const { dir, sources } = plugin({
      '.claude-plugin/plugin.json': { name: 'kit', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo bye' }] }] } },
    })
    expect(sources).toMatchObject([{ file: join(dir, '.claude-plugin/plugin.json'), layout: { agent: 'claude' } }])
    expect(read(sources[0]!)).toMatchObject([{ event: ['agent:stop'], command: 'echo bye' }])
  })

  test('a manifest that cannot be read, or names a file outside the plugin, takes its hooks away and blocks gates', () => {
    const outside = plugin({ '.claude-plugin/plugin.json': { name: 'kit', hooks: '../elsewhere.json' } })
    expect(outside.sources).toEqual([])
    expect(outside.problems).toMatchObject([
      {
        severity: 'error',
        path: 'hooks',
        message: expect.stringContaining("'../elsewhere.json' is outside the plugin folder"),
        brokenHook: {},
      },
    ])
    const linked = plugin({
      '.claude-plugin/plugin.json': { name: 'kit', hooks: './hooks/linked.json' },
      'hooks/hooks.json': claudeHooks('x'),
    })
    writeFileSync(join(linked.dir, '..', 'elsewhere.json'), JSON.stringify(claudeHooks('x')))
    symlinkSync(join(linked.dir, '..', 'elsewhere.json'), join(linked.dir, 'hooks/linked.json'))
    const relinked: ConfigProblem[] = []
    expect(pluginSources({ name: 'acme/kit', dir: linked.dir, scope: 'project' }, 'project-plugin', [], relinked)).toEqual([])
    expect(relinked).toMatchObject([{ message: expect.stringContaining('outside the plugin folder'), brokenHook: {} }])
    const broken = plugin({ '.claude-plugin/plugin.json': '{ "name": ', 'hooks/hooks.json': claudeHooks('x'), 'hooks/run.sh': SCRIPT })
    expect(broken.sources).toEqual([]) // neither its hooks.json nor kodelet's layout: its scripts are not asked `hook`
    expect(broken.problems).toMatchObject([
      { file: join(broken.dir, '.claude-plugin/plugin.json'), message: expect.stringContaining('cannot be read as JSON'), brokenHook: {} },
    ])
  })

  test("only a folder with no manifest and no hooks/hooks.json is kodelet's: its executables are asked", () => {
    const bare = plugin({ 'hooks/hooks.json': claudeHooks('"${PLUGIN_ROOT}/x.sh"'), 'hooks/x.sh': SCRIPT })
    expect(bare.sources).toMatchObject([
      { kind: 'config', layout: { agent: 'open', rootVariables: ['PLUGIN_ROOT', 'CLAUDE_PLUGIN_ROOT'] } },
    ])
    const kodelet = plugin({ 'hooks.json': { hooks: [{ name: 'own', event: 'turn:end', command: 'true' }] }, 'hooks/guard.sh': SCRIPT })
    expect(kodelet.sources).toMatchObject([
      { kind: 'config', file: join(kodelet.dir, 'hooks.json') },
      { kind: 'executable', name: 'acme/kit/guard.sh' },
    ])
    expect((kodelet.sources[0] as FoundPluginConfig).layout).toBeUndefined()
  })
})

describe('trust', () => {
  test("the files a plugin's commands reach through its root variable, or from the folder its hooks start in, are pinned", () => {
    const root = makeProject({
      '.hookrun/plugins/kit/.claude-plugin/plugin.json': { name: 'kit', hooks: './config/gates.json' },
      '.hookrun/plugins/kit/config/gates.json': claudeHooks('"${CLAUDE_PLUGIN_ROOT}/../../../tools/gate.sh"'),
      'tools/gate.sh': SCRIPT,
    })
    dirs.push(root)
    writeFiles(root, {
      '.hookrun/plugins/cur/.cursor-plugin/plugin.json': { name: 'cur', hooks: './gates.json' },
      '.hookrun/plugins/cur/gates.json': { version: 1, hooks: { beforeShellExecution: [{ command: '../../../tools/cursor-gate.sh' }] } },
      'tools/cursor-gate.sh': SCRIPT,
    })
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, '.xdg-config') }
    const files = folderMaterial(discoverHookFolders({ projectRoot: root, env }), root, env)
    expect(files).toEqual(
      expect.arrayContaining([
        join(root, '.hookrun/plugins/kit/config/gates.json'),
        join(root, '.hookrun/plugins/kit/.claude-plugin/plugin.json'),
        join(root, 'tools/gate.sh'),
        join(root, 'tools/cursor-gate.sh'),
      ]),
    )
  })
})
