// Trust pins what runs by construction (issue 12): every command form, every hook-folder file, no count limit.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { trustDiff, trustProject } from '../../src/commands/trust.ts'
import { loadConfig } from '../../src/config/parse.ts'
import { type Files, projectAtHome, removeProject } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const project = (files: Files) => projectAtHome(projects, files)

const script = '#!/bin/sh\nexit 2\n'

describe('an edited script revokes the trust, whatever form the command names it in', () => {
  test.each([
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', 'tools/guard.sh', '"$CLAUDE_PROJECT_DIR"/tools/guard.sh'],
    ['timeout 5 ./scripts/gate.sh', 'scripts/gate.sh'],
    ['cd scripts && ./gate.sh', 'scripts/gate.sh'],
    ['nice -n 5 ./x', 'x'],
    ['. ./x', 'x'],
    ['source ./x', 'x'],
    ['"$PWD/x"', 'x'],
    ['/usr/bin/env sh ./x', 'x'],
    ['env -i FOO=1 ./x --flag', 'x'],
    ['timeout -s KILL 5 nice ./x', 'x'],
    ["bash -c 'cd scripts; ./gate.sh'", 'scripts/gate.sh'],
    ['./x 2>/dev/null', 'x'],
  ])('%s', (_name, file, command = _name) => {
    const { dir, env } = project({ '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command }] }, [file]: script })
    trustProject({ cwd: dir, env })
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: true })
    appendFileSync(join(dir, file), 'exit 0\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, reason: 'changed', changed: [`${file} edited`] })
  })

  test('the standard Claude form in a Claude-shaped config', () => {
    const { dir, env } = project({
      '.hookrun/hooks.json': { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/scripts/guard.sh' }] }] } },
      'scripts/guard.sh': script,
    })
    trustProject({ cwd: dir, env })
    appendFileSync(join(dir, 'scripts/guard.sh'), 'exit 0\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['scripts/guard.sh edited'] })
  })
})

describe('every file of the hook folders is pinned, named by a command or not', () => {
  test.each([
    ['.hookrun/hooks/lib/helper.sh'],
    ['.hookrun/hooks/.helper'],
    ['.hookrun/lib/common.sh'],
    ['.claude/hooks/anything.py'],
    ['.gemini/hooks/sub/x.js'],
    ['.cursor/hooks/y.sh'],
  ])('%s', (file) => {
    const { dir, env } = project({ '.hookrun/hooks/guard': '#!/bin/sh\n. "$(dirname "$0")/lib/helper.sh"\n', [file]: 'exit 2\n' })
    trustProject({ cwd: dir, env })
    appendFileSync(join(dir, file), 'exit 0\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: [`${file} edited`] })
    // A new file appearing there is a change too.
    trustProject({ cwd: dir, env })
    writeFileSync(join(dir, `${file}.new`), 'x')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: [`${file}.new added`] })
  })

  test('a plugin file past the 2,000th', () => {
    const { dir, env } = project({ '.hookrun/plugins/acme@big/hooks.json': { hooks: [] } })
    const plugin = join(dir, '.hookrun/plugins/acme@big/lib')
    mkdirSync(plugin, { recursive: true })
    for (let index = 0; index < 2100; index++) writeFileSync(join(plugin, `f${String(index).padStart(4, '0')}.sh`), 'exit 0\n')
    trustProject({ cwd: dir, env })
    appendFileSync(join(plugin, 'f2099.sh'), 'rm -rf ~\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['.hookrun/plugins/acme@big/lib/f2099.sh edited'] })
  })

  test('log files are left out (hooks write them) and named as not covered', () => {
    const { dir, env } = project({ '.hookrun/hooks.json': { hooks: [] }, '.hookrun/audit.log': 'one\n' })
    const output = trustProject({ cwd: dir, env })
    expect(output).toContain('not covered: .hookrun/audit.log (a log file; left out so that hooks can write it)')
    appendFileSync(join(dir, '.hookrun/audit.log'), 'two\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: true })
  })
})

describe('hookrun trust names what it cannot pin', () => {
  test('variables hookrun does not set, paths outside the project, command substitution, PATH programs', () => {
    const { dir, env } = project({
      '.hookrun/hooks.json': {
        hooks: [
          { name: 'home', event: '*', command: '"$HOME/bin/check"' },
          { name: 'outside', event: '*', command: '/opt/tools/gate.sh --fast' },
          { name: 'dynamic', event: '*', command: 'sh "$(cat .which)"' },
          { name: 'path', event: '*', command: 'jq -e .tool_input | grep -q sudo' },
          { name: 'pinned', event: '*', command: './ok.sh' },
        ],
      },
      'ok.sh': script,
    })
    const output = trustProject({ cwd: dir, env })
    expect(output).toContain(`not covered: .hookrun/hooks.json hooks[0] 'home': $HOME/bin/check uses $HOME, which hookrun does not set`)
    expect(output).toContain(`not covered: .hookrun/hooks.json hooks[1] 'outside': /opt/tools/gate.sh is outside the project`)
    expect(output).toContain(`not covered: .hookrun/hooks.json hooks[2] 'dynamic': runs what a command substitution prints`)
    expect(output).toContain('not covered: programs found on PATH (not hashed): cat, grep, jq, sh')
    expect(output).not.toContain("'pinned'")
  })
})

describe('hookrun trust --diff', () => {
  test('lists what changed since the last trust, with the lines of a changed text file', () => {
    const { dir, env } = project({
      '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: './gate.sh' }] },
      'gate.sh': '#!/bin/sh\necho no >&2\nexit 2\n',
    })
    expect(() => trustDiff({ cwd: dir, env })).toThrow(`${dir} has not been trusted`)
    trustProject({ cwd: dir, env })
    expect(trustDiff({ cwd: dir, env })).toBe(`nothing changed in ${dir} since it was trusted\n`)
    writeFileSync(join(dir, 'gate.sh'), '#!/bin/sh\nexit 0\n')
    writeFileSync(join(dir, '.hookrun/extra.sh'), 'echo hi\n')
    const diff = trustDiff({ cwd: dir, env })
    expect(diff).toContain('edited  gate.sh')
    expect(diff).toContain('-echo no >&2\n-exit 2\n+exit 0\n')
    expect(diff).toContain('added   .hookrun/extra.sh')
    expect(diff).toContain(`then run: hookrun trust ${dir}`)
  })
})

describe('what a hook runs is what trust expanded', () => {
  test("a hook's own env overrides the variables hookrun sets, in trust as when it runs", () => {
    const { dir, env } = project({
      '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: '*', command: '"$HOOKRUN_CONFIG_DIR/gate.sh"', env: { HOOKRUN_CONFIG_DIR: '/tmp/elsewhere', PATH: './bin' } }] },
      '.hookrun/gate.sh': script,
    })
    const output = trustProject({ cwd: dir, env })
    expect(output).toContain(`not covered: .hookrun/hooks.json hooks[0] 'gate': /tmp/elsewhere/gate.sh is outside the project`)
    expect(output).toContain(`not covered: .hookrun/hooks.json hooks[0] 'gate': its env sets PATH; the programs it finds there are not pinned`)
  })
})
