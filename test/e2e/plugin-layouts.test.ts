/**
 * Published plugins as their agents run them, through the CLI: a Claude Code plugin's scripts run
 * for the events its hooks.json names and no other, and every placeholder of a plugin layout
 * reaches the hook as an environment variable: a project folder named with shell syntax runs
 * none of it, and the plugin's gate still runs and denies.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, RUNTIMES, trustProjectFor, writeFiles, type Files } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

/**
 * Folder names with shell syntax: the issue's own, and every syntax a name can hold (substitution,
 * backticks, `;`, both quotes, spaces), which also leaves pasted text unbalanced.
 */
const HOSTILE = ['pl $(touch PWN) x', `pl $(touch PWN) ; touch PWN2 ; \`touch PWN3\` 'q" x`]

/** A project in a folder named `name`, trusted by record (`hookrun trust`) once its files are written. */
function hostileProject(name: string, files: Files): { base: string; dir: string } {
  const base = makeProject()
  dirs.push(base)
  const dir = join(base, name)
  mkdirSync(dir)
  writeFiles(dir, files)
  for (const script of Object.keys(files).filter((path) => path.endsWith('.sh'))) chmodSync(join(dir, script), 0o755)
  trustProjectFor(dir)
  return { base, dir }
}

/** Files named PWN… anywhere below `dir`: what an injected command would have made. */
function injected(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) => /(^|\/)PWN/.test(path))
}

const GATE = (tag: string) => `#!/bin/sh\ncat >/dev/null\necho "denied by ${tag}" >&2\nexit 2\n`
const preToolUse = (handler: object) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', ...handler }] }] } })
const KIT = '.hookrun/plugins/kit'

/** One plugin per placeholder, each gate named by its tag. */
const PLACEHOLDERS: ReadonlyArray<[tag: string, files: Files]> = [
  [
    'claude',
    {
      [`${KIT}/.claude-plugin/plugin.json`]: { name: 'kit' },
      [`${KIT}/hooks/hooks.json`]: preToolUse({ command: '${CLAUDE_PLUGIN_ROOT}/check.sh claude' }),
    },
  ],
  [
    'claude-quoted',
    {
      [`${KIT}/.claude-plugin/plugin.json`]: { name: 'kit' },
      [`${KIT}/hooks/hooks.json`]: preToolUse({ command: '"${CLAUDE_PLUGIN_ROOT}/check.sh" claude-quoted' }),
    },
  ],
  [
    'claude-exec',
    {
      [`${KIT}/.claude-plugin/plugin.json`]: { name: 'kit' },
      [`${KIT}/hooks/hooks.json`]: preToolUse({ command: '${CLAUDE_PLUGIN_ROOT}/check.sh', args: ['claude-exec'] }),
    },
  ],
  [
    'project-dir',
    {
      [`${KIT}/.claude-plugin/plugin.json`]: { name: 'kit' },
      [`${KIT}/hooks/hooks.json`]: preToolUse({ command: `$CLAUDE_PROJECT_DIR/${KIT}/check.sh project-dir` }),
    },
  ],
  [
    'cursor',
    {
      [`${KIT}/.cursor-plugin/plugin.json`]: { name: 'kit', hooks: './hooks/hooks-cursor.json' },
      [`${KIT}/hooks/hooks-cursor.json`]: {
        version: 1,
        hooks: { beforeShellExecution: [{ command: '${CURSOR_PLUGIN_ROOT}/check.sh cursor' }] },
      },
    },
  ],
  [
    'droid',
    {
      [`${KIT}/.factory-plugin/plugin.json`]: { name: 'kit' },
      [`${KIT}/hooks/hooks.json`]: preToolUse({ command: '${DROID_PLUGIN_ROOT}/check.sh droid' }),
    },
  ],
  [
    'open-plugins',
    {
      [`${KIT}/plugin.json`]: { name: 'kit' },
      [`${KIT}/hooks/hooks.json`]: preToolUse({ command: '"${PLUGIN_ROOT}/check.sh" open-plugins' }),
    },
  ],
]

const BASH = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } })

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    const cli = (dir: string, args: string[], input = '') => runCli(args, { runtime: runtime.name, cwd: dir, input })

    test.each(PLACEHOLDERS)('%s: a project folder named with shell syntax runs none of it, and the gate denies', async (tag, files) => {
      for (const name of HOSTILE) {
        const { base, dir } = hostileProject(name, { ...files, [`${KIT}/check.sh`]: GATE(tag) })
        const fired = await cli(dir, ['fire', 'tool:pre_execute', '--payload', '-'], BASH)
        expect(injected(base), name).toEqual([])
        expect(fired.exitCode, fired.stderr).toBe(2)
        expect(fired.json(), name).toMatchObject({ decision: 'deny', reason: expect.stringContaining(`denied by ${tag}`) })
      }
    })

    test('a manifest that cannot be read blocks a gate event, as a broken hooks.json does', async () => {
      const dir = makeProject({ [`${KIT}/.claude-plugin/plugin.json`]: '{ "name": ', [`${KIT}/hooks/check.sh`]: GATE('never') })
      dirs.push(dir)
      trustProjectFor(dir)
      const fired = await cli(dir, ['fire', 'tool:pre_execute', '--payload', '-'], BASH)
      expect(fired.exitCode, fired.stderr).toBe(2)
      expect(fired.json().reason).toContain(`${join(dir, KIT, '.claude-plugin/plugin.json')}: cannot be read as JSON`)
      const info = await cli(dir, ['fire', 'session:start'])
      expect(info.exitCode).toBe(0)
      expect(info.stderr).toContain("the plugin's hooks are not run")
    })

    test("a Claude Code plugin's scripts run for the events its hooks.json names, and no other", async () => {
      const dir = makeProject({
        'state.json': '{}',
        [`${KIT}/.claude-plugin/plugin.json`]: { name: 'kit' },
        [`${KIT}/hooks/hooks.json`]: {
          hooks: {
            SessionStart: [{ hooks: [{ type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}/hooks/session-start.sh"' }] }],
            Stop: [{ hooks: [{ type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}/hooks/stop.sh"' }] }],
          },
        },
        // Published plugins' scripts take no arguments: asked `hook` (kodelet's query), they just run.
        [`${KIT}/hooks/session-start.sh`]: '#!/bin/sh\necho "started $CLAUDE_PLUGIN_ROOT" >> "$CLAUDE_PROJECT_DIR/log.txt"\n',
        [`${KIT}/hooks/stop.sh`]: '#!/bin/sh\nrm -f "$CLAUDE_PROJECT_DIR/state.json"\necho stopped >> "$CLAUDE_PROJECT_DIR/log.txt"\n',
      })
      dirs.push(dir)
      for (const script of ['session-start.sh', 'stop.sh']) chmodSync(join(dir, KIT, 'hooks', script), 0o755)
      trustProjectFor(dir)
      const log = () => (existsSync(join(dir, 'log.txt')) ? readFileSync(join(dir, 'log.txt'), 'utf8').trim().split('\n') : [])

      const tool = await cli(dir, ['fire', 'tool:pre_execute', '--payload', '-'], BASH)
      expect(tool.exitCode, tool.stderr).toBe(0)
      expect(tool.json().hooks).toEqual([])
      expect(existsSync(join(dir, 'state.json'))).toBe(true)
      expect(log()).toEqual([])

      const start = await cli(dir, ['fire', 'session:start'])
      expect(start.exitCode, start.stderr).toBe(0)
      expect(log()).toEqual([`started ${join(dir, KIT)}`])
      expect(existsSync(join(dir, 'state.json'))).toBe(true)

      const stop = await cli(dir, ['fire', 'agent:stop'])
      expect(stop.exitCode, stop.stderr).toBe(0)
      expect(log()).toEqual([`started ${join(dir, KIT)}`, 'stopped'])
      expect(existsSync(join(dir, 'state.json'))).toBe(false)

      const listed = await cli(dir, ['list'])
      expect(listed.stdout).toContain('kit/SessionStart/session-start')
      expect(listed.stdout).not.toMatch(/kit\/(session-start|stop)\.sh/) // not kodelet hooks of their own
    })
  })
}
