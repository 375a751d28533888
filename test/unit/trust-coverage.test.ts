// Trust pins what runs by construction (issue 12): every command form, every hook-folder file, no count limit.
import { appendFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { trustDiff, trustProject } from '../../src/commands/trust.ts'
import { loadConfig } from '../../src/config/parse.ts'
import { cliEnvironment, type Files, makeProject, projectAtHome, removeProject, trustFolderIn, writeFiles } from '../helpers.ts'

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
    const { dir, env } = project({
      '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command }] },
      [file]: script,
    })
    trustProject({ cwd: dir, env })
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: true })
    appendFileSync(join(dir, file), 'exit 0\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, reason: 'changed', changed: [`${file} edited`] })
  })

  test('the standard Claude form in a Claude-shaped config', () => {
    const { dir, env } = project({
      '.hookrun/hooks.json': {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/scripts/guard.sh' }] }] },
      },
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
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({
      trusted: false,
      changed: ['.hookrun/plugins/acme@big/lib/f2099.sh edited'],
    })
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
    expect(output).toContain(
      `not covered: .hookrun/hooks.json hooks[1] 'outside': /opt/tools/gate.sh does not exist (yet); the trust is revoked if it appears`,
    )
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
      '.hookrun/hooks.json': {
        hooks: [
          {
            name: 'gate',
            event: '*',
            command: '"$HOOKRUN_CONFIG_DIR/gate.sh"',
            env: { HOOKRUN_CONFIG_DIR: '/tmp/elsewhere-hookrun-test' },
          },
        ],
      },
      '.hookrun/gate.sh': script,
    })
    const output = trustProject({ cwd: dir, env })
    expect(output).toContain(
      `not covered: .hookrun/hooks.json hooks[0] 'gate': /tmp/elsewhere-hookrun-test/gate.sh does not exist (yet); the trust is revoked if it appears`,
    )
  })
})

describe("the files a hook's env makes its programs load are pinned (issue 29 row 3)", () => {
  test.each([
    ['BASH_ENV', 'tools/env.sh', 'bash ./hook.sh'],
    ['ENV', './tools/env.sh', 'sh ./hook.sh'],
    ['NODE_OPTIONS', '--require ./tools/pre.js', 'node ./hook.js', 'tools/pre.js'],
    ['NODE_OPTIONS', '--max-old-space-size=64 --import=./tools/pre.mjs', 'node ./hook.js', 'tools/pre.mjs'],
    ['NODE_OPTIONS', '-r ./tools/pre.js', 'node ./hook.js', 'tools/pre.js'],
    ['PYTHONSTARTUP', 'tools/start.py', 'python3 ./hook.py', 'tools/start.py'],
    ['LD_PRELOAD', './lib/a.so ./lib/b.so', './hook.sh', 'lib/b.so'],
    ['DYLD_INSERT_LIBRARIES', './lib/a.dylib:./lib/b.dylib', './hook.sh', 'lib/b.dylib'],
    ['RUBYOPT', '-r./tools/pre.rb', 'ruby ./hook.rb', 'tools/pre.rb'],
    ['LUA_INIT', '@tools/init.lua', 'lua ./hook.lua', 'tools/init.lua'],
    ['JAVA_TOOL_OPTIONS', '-javaagent:./tools/agent.jar=verbose', 'java -jar ./hook.jar', 'tools/agent.jar'],
    ['GIT_SSH_COMMAND', './tools/ssh.sh -v', 'git fetch', 'tools/ssh.sh'],
  ])('%s=%s', (key, value, command, file = value) => {
    const { dir, env } = project({
      '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command, env: { [key]: value } }] },
      [file]: 'echo loaded\n',
      'tools/other': 'x',
    })
    const output = trustProject({ cwd: dir, env })
    expect(output).toContain(`  ${file.replace(/^\.\//, '')}  sha256:`)
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: true })
    appendFileSync(join(dir, file), 'rm -rf ~\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({
      trusted: false,
      reason: 'changed',
      changed: [`${file.replace(/^\.\//, '')} edited`],
    })
  })

  test.each([['cd sub && bash ./hook.sh'], ["sh -c 'cd sub; bash ./hook.sh'"]])(
    'a relative loader path is pinned from every folder the command starts programs in: %s',
    (command) => {
      const { dir, env } = project({
        '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: '*', command, env: { BASH_ENV: 'env.sh' } }] },
        'sub/env.sh': 'echo loaded\n',
      })
      expect(trustProject({ cwd: dir, env })).toContain('  sub/env.sh  sha256:')
      appendFileSync(join(dir, 'sub/env.sh'), 'exit 0\n')
      expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['sub/env.sh edited'] })
    },
  )

  test("a project plugin's hook: the file its env loads is pinned too", () => {
    const { dir, env } = project({
      '.hookrun/plugins/acme@env/hooks.json': {
        hooks: [{ name: 'gate', event: '*', command: 'bash "$HOOKRUN_PLUGIN_DIR/gate.sh"', env: { BASH_ENV: 'tools/env.sh' } }],
      },
      '.hookrun/plugins/acme@env/gate.sh': script,
      'tools/env.sh': 'true\n',
    })
    expect(trustProject({ cwd: dir, env })).toContain('  tools/env.sh  sha256:')
    appendFileSync(join(dir, 'tools/env.sh'), 'rm -rf ~\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['tools/env.sh edited'] })
  })

  test('a loader file created after the trust revokes it', () => {
    const { dir, env } = project({
      '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: '*', command: 'bash ./hook.sh', env: { BASH_ENV: 'tools/env.sh' } }] },
    })
    trustProject({ cwd: dir, env })
    mkdirSync(join(dir, 'tools'))
    writeFileSync(join(dir, 'tools/env.sh'), 'echo planted\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['tools/env.sh added'] })
  })

  test.each([
    ['PYTHONPATH', 'lib', 'a search path'],
    ['LD_LIBRARY_PATH', './lib', 'a search path'],
    ['NODE_PATH', './lib', 'a search path'],
    ['PATH', './bin:/usr/bin', 'a search path'],
    ['HOME', './home', 'a folder programs read their configuration'],
    ['GIT_DIR', './other/.git', 'a folder programs read their configuration'],
    ['NODE_OPTIONS', '--require ts-node/register', 'loads a module found by name through node_modules'],
    ['NODE_OPTIONS', '--env-file=.env', 'makes node read a file'],
    ['PERL5OPT', '-MEvil', 'loads modules found through @INC'],
    ['RUBYOPT', '-rjson', 'loads a module found by name in the load path'],
    ['BASH_ENV', '$HOME/env.sh', 'is expanded when it is loaded'],
    ['LD_PRELOAD', 'libevil.so', 'is found by name in the library path'],
  ])('%s=%s is refused in a project hook, with one line naming the hook and the variable', (key, value, why) => {
    const { dir, env } = project({
      '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: './x.sh', env: { [key]: value } }] },
      'x.sh': script,
    })
    expect(() => trustProject({ cwd: dir, env })).toThrow(
      `cannot trust ${dir}: .hookrun/hooks.json: hooks[0].env.${key}: hook 'gate' sets ${key}`,
    )
    expect(() => trustProject({ cwd: dir, env })).toThrow(why)
    // Trusted another way (a trusted folder), the hook still does not run, and a gate it guarded blocks.
    trustFolderIn(dir, env.XDG_CONFIG_HOME!)
    const config = loadConfig({ cwd: dir, env })
    expect(config.trust).toMatchObject({ trusted: true, via: 'folder' })
    expect(config.hooks.map((hook) => hook.name)).not.toContain('gate')
    const problem = config.problems.find((found) => found.path === `hooks[0].env.${key}`)
    expect(problem).toMatchObject({ severity: 'error', brokenHook: { events: ['tool:pre_execute'] } })
    expect(problem!.message).toContain(`hook 'gate' sets ${key}`)
  })

  test("the user config may set them: they are the user's own", () => {
    const { dir, env } = project({})
    writeFiles(join(env.XDG_CONFIG_HOME!, 'hookrun'), {
      'hooks.json': {
        hooks: [{ name: 'mine', event: '*', command: 'true', env: { PYTHONPATH: 'lib', NODE_OPTIONS: '--require ts-node/register' } }],
      },
    })
    const config = loadConfig({ cwd: dir, env })
    expect(config.problems).toEqual([])
    expect(config.hooks.map((hook) => hook.name)).toEqual(['mine'])
  })
})

describe('links and paths outside the project are pinned by content (issue 29 row 7)', () => {
  test('a file reached through a link to a folder inside .hookrun/', () => {
    const { dir, env } = project({
      '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: '*', command: '.hookrun/lib/gate.sh' }] },
      'vendor/gate.sh': script,
      'vendor/util.sh': 'true\n',
    })
    symlinkSync('../vendor', join(dir, '.hookrun/lib'))
    const output = trustProject({ cwd: dir, env })
    expect(output).toContain('  .hookrun/lib/gate.sh  sha256:')
    expect(output).toContain('  .hookrun/lib/util.sh  sha256:')
    expect(output).not.toContain('not followed')
    appendFileSync(join(dir, 'vendor/util.sh'), 'rm -rf ~\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['.hookrun/lib/util.sh edited'] })
    // The link pointed elsewhere: the files it reaches are not the ones trusted.
    trustProject({ cwd: dir, env })
    mkdirSync(join(dir, 'other'))
    writeFileSync(join(dir, 'other/gate.sh'), 'exit 0\n')
    rmSync(join(dir, '.hookrun/lib'))
    symlinkSync('../other', join(dir, '.hookrun/lib'))
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({
      trusted: false,
      changed: ['.hookrun/lib/gate.sh edited', '.hookrun/lib/util.sh removed'],
    })
  })

  test('a link outside the project, and a link back into a folder being walked', () => {
    const { dir, env } = project({ '.hookrun/hooks.json': { hooks: [] } })
    const shared = makeProject({ 'lib.sh': 'true\n' })
    projects.push(shared)
    symlinkSync(shared, join(dir, '.hookrun/shared'))
    symlinkSync('.', join(dir, '.hookrun/again'))
    const output = trustProject({ cwd: dir, env })
    expect(output).toContain('  .hookrun/shared/lib.sh  sha256:')
    appendFileSync(join(shared, 'lib.sh'), 'rm -rf ~\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['.hookrun/shared/lib.sh edited'] })
  })

  test('a link to a folder holding the project is refused', () => {
    const { dir, env } = project({ '.hookrun/hooks.json': { hooks: [] } })
    symlinkSync(dir, join(dir, '.hookrun/root'))
    expect(() => trustProject({ cwd: dir, env })).toThrow(
      `cannot trust ${dir}: .hookrun/root links to ${dir}, a folder that holds the project: trust cannot pin it`,
    )
    // Made after the trust, it revokes it.
    rmSync(join(dir, '.hookrun/root'))
    trustProject({ cwd: dir, env })
    symlinkSync(join(dir, '..'), join(dir, '.hookrun/up'))
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['.hookrun/up added'] })
  })

  test.each([['../shared/gate.sh'], ['bash ../shared/gate.sh'], ['ABSOLUTE']])('a hook command outside the project: %s', (written) => {
    const parent = makeProject({ 'shared/gate.sh': script, 'repo/.keep': '' })
    projects.push(parent)
    const dir = join(parent, 'repo')
    const env = cliEnvironment(dir)
    const command = written.replace('ABSOLUTE', join(parent, 'shared/gate.sh'))
    writeFiles(dir, { '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: '*', command }] } })
    const output = trustProject({ cwd: dir, env })
    expect(output).toContain(`  ${join(parent, 'shared/gate.sh')}  sha256:`)
    expect(output).not.toContain('outside the project')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: true })
    appendFileSync(join(parent, 'shared/gate.sh'), 'exit 0\n')
    expect(loadConfig({ cwd: dir, env }).trust).toMatchObject({ trusted: false, changed: ['../shared/gate.sh edited'] })
  })
})
