import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../src/config/parse.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { fire } from '../../src/fire.ts'
import { hookAnswerCacheFile } from '../../src/folders/cache.ts'
import { discoverHookFolders, isLeftover } from '../../src/discover/folders.ts'
import { patternsFromAnswer, shellQuote, withFolderHooks } from '../../src/folders/hooks.ts'
import { fromKodeletAnswer } from '../../src/answer/kodelet.ts'
import { compilePattern } from '../../src/event/pattern.ts'
import { parsePluginSource, pluginNameFromSource } from '../../src/folders/plugins.ts'
import { interpretCommandRun as interpretRun } from '../../src/answer/parse.ts'
import type { CommandRun } from '../../src/core/types.ts'
import { applySetFields } from '../../src/payload/set-fields.ts'
import { makeProject, removeProject, writeFiles, trustFolderIn } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

function project(files: Record<string, string | object>): string {
  const dir = makeProject(files)
  trustFolderIn(dir, join(dir, '.xdg-config'))
  projects.push(dir)
  return dir
}

/** The environment a test project sees: its own home, config and cache, nothing of the developer's. */
function envOf(dir: string): Record<string, string | undefined> {
  return {
    ...process.env,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, '.xdg-config'),
    XDG_CACHE_HOME: join(dir, '.xdg-cache'),
    HOOKRUN_CONFIG: undefined,
    HOOKRUN_DEPTH: undefined,
  }
}

const hook = (event: string, log = 'log.txt') =>
  `#!/bin/sh\ncase "$1" in hook) echo asked >> "$HOOKRUN_PROJECT_DIR/${log}"; echo '${event}' ;; run) cat >/dev/null ;; esac\n`

describe('the answer to ./hook hook', () => {
  test('kodelet type names match the canonical events they stand for', () => {
    const matches = (pattern: string, event: string) => compilePattern(pattern).matches(event.split(':'))
    expect(matches('before_tool_call', 'tool:pre_execute:bash')).toBe(true)
    expect(matches('before_tool_call:bash', 'tool:pre_execute:write')).toBe(false)
    expect(matches('turn_end,agent_stop', 'agent:stop')).toBe(true)
    expect(matches('USER_MESSAGE_SEND', 'user:prompt_submit')).toBe(true)
    expect(matches('after_tool_call', 'tool:pre_execute:bash')).toBe(false)
  })

  test('one or more patterns, separated by white space or lines', () => {
    expect(patternsFromAnswer({ exitCode: 0, stdout: 'before_tool_call\n' })).toEqual({ patterns: ['before_tool_call'] })
    expect(patternsFromAnswer({ exitCode: 0, stdout: 'session:start\n  tool:*:write|edit\n' })).toEqual({
      patterns: ['session:start', 'tool:*:write|edit'],
    })
  })

  test('an answer that is not event patterns is a problem that says what was expected', () => {
    expect(patternsFromAnswer({ exitCode: 1, stdout: 'turn_end' })).toEqual({ problem: expect.stringContaining('exit 1') })
    expect(patternsFromAnswer({ exitCode: 0, stdout: '  \n' })).toEqual({ problem: expect.stringContaining('printed nothing') })
    expect(patternsFromAnswer({ exitCode: 0, stdout: 'usage: x [a|b]' })).toEqual({ problem: expect.stringContaining("pattern 'usage:'") })
  })
})

describe("kodelet's answers", () => {
  const run = (stdout: string, exitCode = 0): CommandRun => ({
    exitCode,
    signal: null,
    timedOut: false,
    stdout,
    stderr: '',
    truncated: { stdout: false, stderr: false },
    durationMs: 1,
  })
  const gate = {
    name: 'gate',
    named: true,
    event: ['tool:pre_execute'],
    command: 'x',
    timeout: 10,
    blocking: true,
    enabled: true,
    shape: 'hookrun' as const,
    envPrefixes: [],
    source: { layer: 'project-folder' as const, file: '/p/.hookrun/hooks/gate', index: 0, path: '', executable: true },
  }
  const event = qualifyEvent('tool:pre_execute', { tool_name: 'bash' })

  test('{"blocked": true, "reason"} blocks with that reason', () => {
    const result = interpretRun(gate, event, run('{"blocked": true, "reason": "not today"}'), {})
    expect(result).toMatchObject({
      blocks: true,
      decision: 'deny',
      reason: 'not today',
      report: { outcome: 'deny', source: 'project-folder' },
    })
  })

  test('{"blocked": false} and other kodelet answers ({"success": true}) allow', () => {
    expect(interpretRun(gate, event, run('{"blocked": false}'), {})).toMatchObject({ blocks: false, report: { outcome: 'allow' } })
    expect(interpretRun(gate, event, run('{"success": true}'), {})).toMatchObject({ blocks: false, warnings: [] })
  })

  test('{"input": {…}} is the new tool input', () => {
    const result = interpretRun(gate, event, run('{"blocked": false, "input": {"command": "ls -la"}}'), {})
    expect(result.answer?.updatedInput).toEqual({ command: 'ls -la' })
  })

  test("the protocol's own fields win over kodelet's, except that blocked: true outvotes an allow or ask", () => {
    expect(fromKodeletAnswer({ blocked: true, decision: 'ask' })).toEqual({ blocked: true, decision: 'deny' })
    expect(fromKodeletAnswer({ blocked: true, decision: 'approve' })).toEqual({ blocked: true, decision: 'deny' })
    expect(fromKodeletAnswer({ blocked: true, decision: 'block' })).toEqual({ blocked: true, decision: 'block' })
    expect(fromKodeletAnswer({ blocked: false, decision: 'allow' })).toEqual({ blocked: false, decision: 'allow' })
    expect(fromKodeletAnswer({ input: { a: 1 }, updatedInput: { b: 2 } })).toEqual({ input: { a: 1 }, updatedInput: { b: 2 } })
    expect(fromKodeletAnswer({ input: 'text' })).toEqual({ input: 'text' })
  })
})

describe('--set', () => {
  test('key=value sets a string, key:=JSON any value; the command line wins', () => {
    expect(applySetFields({ recipe_name: 'old', keep: 1 }, ['recipe_name=code-review', 'n:=3', 'list:=["a"]', 'eq=a=b', 'empty='])).toEqual(
      {
        recipe_name: 'code-review',
        keep: 1,
        n: 3,
        list: ['a'],
        eq: 'a=b',
        empty: '',
      },
    )
  })

  test('a malformed assignment is one clear error', () => {
    expect(() => applySetFields({}, ['novalue'])).toThrow("--set 'novalue' needs key=value")
    expect(() => applySetFields({}, ['=x'])).toThrow("--set '=x' needs key=value")
    expect(() => applySetFields({}, ['n:={'])).toThrow("the value after ':=' is not JSON")
  })
})

describe('plugin sources', () => {
  test('git URLs with an optional @ref, named by their last two path segments', () => {
    const cases: Array<[string, { location: string; ref?: string }, string]> = [
      ['https://github.com/acme/hooks', { location: 'https://github.com/acme/hooks' }, 'acme/hooks'],
      ['https://github.com/acme/hooks.git@v1.2.0', { location: 'https://github.com/acme/hooks.git', ref: 'v1.2.0' }, 'acme/hooks'],
      [
        'https://user@host.example/acme/hooks@feature/x',
        { location: 'https://user@host.example/acme/hooks', ref: 'feature/x' },
        'acme/hooks',
      ],
      ['git@github.com:acme/hooks.git', { location: 'git@github.com:acme/hooks.git' }, 'acme/hooks'],
      ['git@github.com:acme/hooks@main', { location: 'git@github.com:acme/hooks', ref: 'main' }, 'acme/hooks'],
      ['file:///srv/git/acme/hooks.git@abc1234', { location: 'file:///srv/git/acme/hooks.git', ref: 'abc1234' }, 'acme/hooks'],
    ]
    for (const [spec, expected, name] of cases) {
      const source = parsePluginSource(spec, '/')
      expect(source, spec).toEqual({ kind: 'git', ...expected })
      expect(pluginNameFromSource(source), spec).toBe(name)
    }
  })

  test('a local folder is copied, or cloned when it has @ref; it is named after itself', () => {
    const dir = project({ 'kits/org@safety/hooks.json': { hooks: [] } })
    const folder = parsePluginSource('kits/org@safety', dir)
    expect(folder).toEqual({ kind: 'folder', location: join(dir, 'kits/org@safety') })
    expect(pluginNameFromSource(folder)).toBe('org/safety')
    const atRef = parsePluginSource('kits/org@safety@v2', dir)
    expect(atRef).toEqual({ kind: 'git', location: join(dir, 'kits/org@safety'), ref: 'v2' })
    expect(pluginNameFromSource(atRef)).toBe('org/safety')
    expect(() => parsePluginSource('kits/none', dir)).toThrow("no such folder 'kits/none'")
    expect(() => parsePluginSource('https://github.com/acme/hooks@', dir)).toThrow("ends with '@'")
  })
})

describe('discovery', () => {
  test('editor back-ups, hidden, patch and switched-off files are leftovers', () => {
    for (const name of [
      '.hidden',
      'guard~',
      '#guard#',
      'guard.bak',
      'guard.orig',
      'guard.rej',
      '.guard.swp',
      'guard.disable',
      'pre-commit.sample',
    ]) {
      expect(isLeftover(name), name).toBe(true)
    }
    for (const name of ['guard', 'guard.sh', 'guard.py', 'log-tool-calls']) expect(isLeftover(name), name).toBe(false)
  })

  test('returns every file it found, in precedence order, for whoever must hash them', () => {
    const dir = project({
      '.hookrun/hooks/b': hook('*'),
      '.hookrun/hooks/a': hook('*'),
      '.hookrun/hooks/notes.md': 'notes\n',
      '.hookrun/plugins/acme@kit/hooks.json': { hooks: [] },
      '.hookrun/plugins/acme@kit/hooks/x': hook('*'),
      '.hookrun/plugins/.add-123/hooks/half': hook('*'),
      '.xdg-config/hookrun/hooks/u': hook('*'),
    })
    const found = discoverHookFolders({ projectRoot: dir, env: envOf(dir) })
    expect(found.files).toEqual([
      join(dir, '.hookrun/hooks/a'),
      join(dir, '.hookrun/hooks/b'),
      join(dir, '.hookrun/plugins/acme@kit/hooks.json'),
      join(dir, '.hookrun/plugins/acme@kit/hooks/x'),
      join(dir, '.xdg-config/hookrun/hooks/u'),
      join(dir, '.hookrun/hooks/notes.md'),
    ])
    expect(found.sources.map((source) => source.layer)).toEqual([
      'project-folder',
      'project-folder',
      'project-plugin',
      'project-plugin',
      'user-folder',
    ])
    expect(found.skipped).toEqual([{ path: join(dir, '.hookrun/hooks/notes.md'), why: expect.stringContaining('not executable') }])
  })

  test('a project with only a hook folder is found from a subfolder', async () => {
    const dir = project({ '.hookrun/hooks/guard': hook('*'), 'src/deep/.keep': '' })
    const config = await withFolderHooks(loadConfig({ cwd: join(dir, 'src/deep'), env: envOf(dir) }), { env: envOf(dir) })
    expect(config.projectRoot).toBe(dir)
    expect(config.hooks.map((each) => each.name)).toEqual(['guard'])
  })

  test('--config replaces discovery: folder and plugin hooks are not read', async () => {
    const dir = project({ '.hookrun/hooks/guard': hook('*'), 'only.json': { hooks: [{ name: 'only', event: '*', command: 'true' }] } })
    const config = await withFolderHooks(loadConfig({ cwd: dir, configFiles: ['only.json'], env: envOf(dir) }), { env: envOf(dir) })
    expect(config.hooks.map((each) => each.name)).toEqual(['only'])
    expect(config.discovery).toBeUndefined()
  })
})

describe('folder hooks in the pipeline', () => {
  test('an executable whose path has spaces and quotes runs as itself with the argument run', async () => {
    const dir = project({
      "it's a dir/.hookrun/hooks/echo args":
        '#!/bin/sh\ncase "$1" in hook) echo session:start ;; run) echo "{\\"additionalContext\\": \\"args: $*\\"}" ;; esac\n',
    })
    const root = join(dir, "it's a dir")
    const decision = await fire({ event: 'session:start', cwd: root, env: envOf(dir) })
    expect(decision.additionalContext).toEqual(['args: run'])
    expect(decision.hooks).toMatchObject([{ name: 'echo args', source: 'project-folder', file: join(root, '.hookrun/hooks/echo args') }])
    expect(shellQuote("/a b/it's")).toBe("'/a b/it'\\''s'")
  })

  test('a damaged cache file is ignored and rewritten', async () => {
    const dir = project({ '.hookrun/hooks/guard': hook('session:start') })
    const env = envOf(dir)
    mkdirSync(join(dir, '.xdg-cache/hookrun'), { recursive: true })
    writeFileSync(hookAnswerCacheFile(env), '{"version": 1, "hooks": {"x": "damaged"')
    const decision = await fire({ event: 'session:start', cwd: dir, env })
    expect(decision.hooks.map((each) => each.name)).toEqual(['guard'])
    expect(JSON.parse(readFileSync(hookAnswerCacheFile(env), 'utf8')).hooks).toHaveProperty([join(dir, '.hookrun/hooks/guard')])
    await fire({ event: 'session:start', cwd: dir, env })
    expect(readFileSync(join(dir, 'log.txt'), 'utf8')).toBe('asked\n')
  })

  test('a query that fails to start is not remembered: it is asked again once the interpreter is there', async () => {
    const dir = project({})
    const interpreter = join(dir, 'bin/interp')
    writeFiles(dir, {
      '.hookrun/hooks/guard': `#!${interpreter}\ncase "$1" in hook) echo session:start ;; run) echo '{"additionalContext": "ran"}' ;; esac\n`,
    })
    const env = envOf(dir)
    const first = await fire({ event: 'session:start', cwd: dir, env })
    expect(first.hooks).toEqual([])
    expect(first.warnings).toEqual([expect.stringContaining('check its shebang line')])
    expect(existsSync(hookAnswerCacheFile(env))).toBe(false)
    mkdirSync(join(dir, 'bin'))
    symlinkSync('/bin/sh', interpreter)
    const second = await fire({ event: 'session:start', cwd: dir, env })
    expect(second).toMatchObject({ additionalContext: ['ran'], warnings: [] })
  })
})
