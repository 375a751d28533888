import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { installAgents } from '../../src/commands/install.ts'
import { routedEvents } from '../../src/install/overlaps.ts'
import { discardedBecause } from '../../src/install/discarded-files.ts'
import { agentTarget } from '../../src/install/agents.ts'
import { userInstalls } from '../../src/install/user-routing.ts'
import { homeAndProject, removeProject } from '../helpers.ts'

/** install / uninstall for Grok Build, Antigravity CLI, Junie CLI, Hermes Agent and Deep Agents Code (issue 36 §2). */
const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))
const place = () => homeAndProject(dirs)
const SELF = '/opt/hookrun/bin/hookrun'
const run = (where: ReturnType<typeof place>, agent: string, remove = false, scope: 'user' | 'project' = 'user') =>
  installAgents({ agents: [agent], scope, cwd: where.project, env: where.env, self: SELF }, remove)

function put(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  return text
}
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'))

describe('Grok Build: a hooks file of its own', () => {
  test("~/.grok/hooks/hookrun.json in Claude Code's groups with a 600 s timeout (Grok's default is 5 s); the user's other files untouched; uninstall removes the file", () => {
    const where = place()
    const theirs = put(
      join(where.home, '.grok', 'hooks', 'mine.json'),
      '{ "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ] } }\n',
    )
    const file = join(where.home, '.grok', 'hooks', 'hookrun.json')
    expect(run(where, 'grok').exitCode).toBe(0)
    const written = read(file)
    expect(written.hooks.PreToolUse).toEqual([{ hooks: [{ type: 'command', command: `${SELF} fire --format grok`, timeout: 600 }] }])
    expect(Object.keys(written.hooks)).toHaveLength(14)
    const once = readFileSync(file, 'utf8')
    run(where, 'grok')
    expect(readFileSync(file, 'utf8')).toBe(once)
    expect(routedEvents(file, 'grok')).toContain('PreToolUse')
    run(where, 'grok', true)
    expect(existsSync(file)).toBe(false)
    expect(readFileSync(join(where.home, '.grok', 'hooks', 'mine.json'), 'utf8')).toBe(theirs)
  })

  test('a project install writes <project>/.grok/hooks/hookrun.json with the portable command', () => {
    const where = place()
    run(where, 'grok', false, 'project')
    expect(read(join(where.project, '.grok', 'hooks', 'hookrun.json')).hooks.PreToolUse[0].hooks[0].command).toBe(
      'hookrun fire --format grok',
    )
  })
})

describe('Antigravity CLI: a named hook group in hooks.json', () => {
  test("hookrun's group beside the user's: matcher groups on the tool events, handlers directly on the others, the event on the command line; uninstall gives the file back byte for byte", () => {
    const where = place()
    const file = join(where.project, '.agents', 'hooks.json')
    const original = put(
      file,
      '{\n  "lint-checker": {\n    "PostToolUse": [ { "matcher": "run_command", "hooks": [ { "type": "command", "command": "./lint.sh" } ] } ]\n  }\n}\n',
    )
    expect(run(where, 'antigravity', false, 'project').exitCode).toBe(0)
    const written = read(file)
    expect(written['lint-checker'].PostToolUse[0].hooks[0].command).toBe('./lint.sh')
    expect(written.hookrun.PreToolUse).toEqual([{ hooks: [{ type: 'command', command: 'hookrun fire PreToolUse --format antigravity' }] }])
    expect(written.hookrun.Stop).toEqual([{ type: 'command', command: 'hookrun fire Stop --format antigravity' }])
    expect(written.hookrun.PreInvocation).toEqual([{ type: 'command', command: 'hookrun fire PreInvocation --format antigravity' }])
    // What install wrote is a file agy loads.
    expect(discardedBecause(agentTarget('antigravity')!, file)).toBeUndefined()
    const once = readFileSync(file, 'utf8')
    run(where, 'antigravity', false, 'project')
    expect(readFileSync(file, 'utf8')).toBe(once)
    run(where, 'antigravity', true, 'project')
    expect(readFileSync(file, 'utf8')).toBe(original)
  })

  test('the user file is ~/.gemini/config/hooks.json, found as a user install (its event map under the hook name) so fires keep it narrowed', () => {
    const where = place()
    run(where, 'antigravity')
    expect(read(join(where.home, '.gemini', 'config', 'hooks.json')).hookrun.SessionStart).toHaveLength(1)
    expect(userInstalls(where.env).map((target) => target.name)).toContain('antigravity')
  })

  test('doctor reads the file as agy does: an unknown event or a bad handler drops the whole file', () => {
    const where = place()
    const target = agentTarget('antigravity')!
    const file = join(where.project, '.agents', 'hooks.json')
    put(file, '{ "mine": { "SessionEnd": [ { "type": "command", "command": "x" } ] } }\n')
    expect(discardedBecause(target, file)).toContain('"SessionEnd", which is not an Antigravity CLI event')
    put(file, '{ "mine": { "PreToolUse": [ { "type": "command", "command": "x" } ] } }\n')
    expect(discardedBecause(target, file)).toContain('is not a { "matcher", "hooks": [...] } group')
    put(file, '{ "mine": { "stop": [ { "type": "command", "command": "x", "timeout": 1.5 } ] } }\n')
    expect(discardedBecause(target, file)).toContain('not a whole number')
    put(file, '{ "mine": { "stop": [ { "type": "command", "command": "x", "timeout": 5 } ], "enabled": false } }\n')
    expect(discardedBecause(target, file)).toBeUndefined()
  })
})

describe('Junie CLI: the user file only, advisory', () => {
  test("SessionStart in ~/.junie/config.json beside the user's settings; the note says a gate there is advisory", () => {
    const where = place()
    const file = join(where.home, '.junie', 'config.json')
    const original = put(file, '{\n  "model": "gpt-5"\n}\n')
    const result = run(where, 'junie')
    expect(result.exitCode).toBe(0)
    expect(result.output).toContain('ADVISORY ONLY')
    expect(read(file)).toEqual({
      model: 'gpt-5',
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `${SELF} fire --format junie`, timeout: 600 }] }] },
    })
    run(where, 'junie', true)
    expect(readFileSync(file, 'utf8')).toBe(original)
  })

  test('a project install is refused in one line', () => {
    const where = place()
    expect(() => run(where, 'junie', false, 'project')).toThrow(
      /Junie CLI reads hooks only from .*config\.json, for every project: run hookrun install --agent junie without --project/,
    )
  })
})

describe('Deep Agents Code: argv lists in ~/.deepagents/hooks.json', () => {
  test("one entry per event, the command an argv list; the user's entries kept; re-install idempotent; uninstall gives the file back", () => {
    const where = place()
    const file = join(where.home, '.deepagents', 'hooks.json')
    const original = put(
      file,
      `${JSON.stringify({ hooks: [{ command: ['bash', '-c', 'cat >> ~/log'], events: ['session.start'] }] }, null, 2)}\n`,
    )
    const result = run(where, 'deepagents')
    expect(result.exitCode).toBe(0)
    expect(result.output).toContain('ADVISORY ONLY')
    const hooks = read(file).hooks
    expect(hooks[0]).toEqual({ command: ['bash', '-c', 'cat >> ~/log'], events: ['session.start'] })
    expect(hooks[1]).toEqual({ command: [SELF, 'fire', '--format', 'deepagents'], events: ['session.start'] })
    expect(hooks).toHaveLength(7)
    expect(routedEvents(file, 'deepagents')).toEqual([
      'session.start',
      'session.end',
      'user.prompt',
      'input.required',
      'permission.request',
      'task.complete',
    ])
    const once = readFileSync(file, 'utf8')
    run(where, 'deepagents')
    expect(readFileSync(file, 'utf8')).toBe(once)
    run(where, 'deepagents', true)
    expect(readFileSync(file, 'utf8')).toBe(original)
  })

  test('a file install made goes with uninstall', () => {
    const where = place()
    run(where, 'deepagents')
    run(where, 'deepagents', true)
    expect(existsSync(join(where.home, '.deepagents', 'hooks.json'))).toBe(false)
  })
})

describe("Hermes Agent: hooks: in config.yaml, the user's YAML kept", () => {
  const CONFIG = [
    '# Hermes config — my settings',
    'model:',
    '  default: "anthropic/claude-sonnet"   # the model I like',
    '  provider: openrouter',
    '',
    '# my hooks',
    'hooks:',
    '  post_tool_call:',
    "    - command: '~/bin/log-tool.sh'    # logs every tool",
    '      timeout: 10',
    '',
    'terminal: {backend: local,  cwd: .}',
    '',
  ].join('\n')

  test('a commented config survives install and uninstall byte for byte; pre_tool_call fails closed; re-install changes nothing', () => {
    const where = place()
    const file = join(where.home, '.hermes', 'config.yaml')
    put(file, CONFIG)
    const result = run(where, 'hermes')
    expect(result.exitCode).toBe(0)
    expect(result.output).toContain('HERMES_ACCEPT_HOOKS=1')
    const text = readFileSync(file, 'utf8')
    // The user's lines, comments and spacing, are where they were.
    for (const line of CONFIG.split('\n').filter((line) => line !== '')) expect(text).toContain(line)
    const config = parseYaml(text)
    expect(config.hooks.post_tool_call).toEqual([
      { command: '~/bin/log-tool.sh', timeout: 10 },
      { command: `${SELF} fire --format hermes`, timeout: 300 },
    ])
    expect(config.hooks.pre_tool_call).toEqual([{ command: `${SELF} fire --format hermes`, timeout: 300, fail_closed: true }])
    expect(config.terminal).toEqual({ backend: 'local', cwd: '.' })
    run(where, 'hermes')
    expect(readFileSync(file, 'utf8')).toBe(text)
    run(where, 'hermes', true)
    expect(readFileSync(file, 'utf8')).toBe(CONFIG)
  })

  test('$HERMES_HOME holds the config; a file with no hooks: gets one and loses it again; a hand-edited entry is brought back to fail closed', () => {
    const where = place()
    const home = join(where.home, 'profile')
    const env = { ...where.env, HERMES_HOME: home }
    const file = join(home, 'config.yaml')
    const original = put(file, 'model:\n  default: x # mine\n')
    installAgents({ agents: ['hermes'], scope: 'user', cwd: where.project, env, self: SELF }, false)
    const edited = readFileSync(file, 'utf8').replace('      fail_closed: true\n', '')
    writeFileSync(file, edited)
    installAgents({ agents: ['hermes'], scope: 'user', cwd: where.project, env, self: SELF }, false)
    expect(parseYaml(readFileSync(file, 'utf8')).hooks.pre_tool_call[0].fail_closed).toBe(true)
    installAgents({ agents: ['hermes'], scope: 'user', cwd: where.project, env, self: SELF }, true)
    expect(readFileSync(file, 'utf8')).toBe(original)
  })

  test('a config that is not YAML is left untouched, with one line naming the file and a failed result (--json)', () => {
    const where = place()
    const file = join(where.home, '.hermes', 'config.yaml')
    const broken = put(file, 'model: [unclosed\n')
    const result = run(where, 'hermes')
    expect(result.exitCode).not.toBe(0)
    expect(result.output).toMatch(/config\.yaml: is not valid YAML .*; left untouched/)
    expect(result.results).toEqual([
      expect.objectContaining({
        agent: 'hermes',
        file,
        status: 'failed',
        error: expect.stringMatching(/^is not valid YAML .*; left untouched$/),
      }),
    ])
    expect(readFileSync(file, 'utf8')).toBe(broken)
  })
})

describe('Antigravity CLI: install leaves a file agy would drop as it is', () => {
  test("an unknown event in a hook of the user's: install refuses in one line naming the file and why", () => {
    const where = place()
    const file = join(where.project, '.agents', 'hooks.json')
    const broken = put(file, '{ "mine": { "SessionEnd": [ { "type": "command", "command": "x" } ] } }\n')
    const result = run(where, 'antigravity', false, 'project')
    expect(result.exitCode).not.toBe(0)
    expect(result.output).toContain(
      `${file}: "mine" names "SessionEnd", which is not an Antigravity CLI event, so Antigravity CLI drops the whole file; left untouched`,
    )
    expect(readFileSync(file, 'utf8')).toBe(broken)
  })
})
