// hookrun import: each agent's handlers as hooks.json entries that run as they did, and the command around it.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { importAgents } from '../../src/commands/import.ts'
import { installAgents } from '../../src/commands/install.ts'
import { normalizeAgentHooks, normalizeConfig } from '../../src/config/shapes.ts'
import { fire } from '../../src/fire.ts'
import { readAgentFile } from '../../src/install/import.ts'
import { JsonTextError } from '../../src/install/json-text.ts'
import { homeAndProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

function put(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  return text
}

/** What hookrun reads from a hooks.json entry, without where it was written. */
function specOfEntry(entry: object) {
  const problems: string[] = []
  const { specs } = normalizeConfig({ hooks: [entry] }, (path, message) => problems.push(`${path}: ${message}`))
  expect(problems).toEqual([])
  const { path, ordinal, envPrefixes, ...rest } = specs[0]!
  return rest
}

const CLAUDE = `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [
        { "type": "command", "command": "./gate.sh", "timeout": 5, "if": "Bash(rm *)", "statusMessage": "checking" },
        { "type": "prompt", "prompt": "ok? $ARGUMENTS" },
        { "type": "command", "command": "/usr/bin/hookrun fire --format claude", "timeout": 600 }
      ] }
    ],
    "UserPromptSubmit": [ { "hooks": [ { "type": "command", "command": "./prompt.sh", "onFailure": "block" } ] } ],
    "PostToolUse": [ { "hooks": [ { "type": "command", "command": "./log.sh", "async": true }, { "type": "command", "command": "./wake.sh", "asyncRewake": true } ] } ],
    "Stop": [ { "hooks": [ { "type": "command", "command": "./stop.sh", "color": "red" } ] } ],
    "MessageDisplay": [ { "hooks": [ { "type": "command", "command": "./each-chunk.sh" } ] } ],
    "SessionStart": [ { "hooks": [ { "type": "command", "command": "hookrun fire session:start" } ] } ]
  }
}
`

describe('readAgentFile: Claude Code', () => {
  const read = readAgentFile('claude', '/p/.claude/settings.json', CLAUDE, 'project')

  test('each command handler becomes an entry that keeps its event, matcher, if, timeout, async and onFailure', () => {
    expect(read.moved.map((hook) => [hook.path, hook.entry])).toEqual([
      [
        'hooks.PreToolUse[0].hooks[0]',
        {
          name: 'PreToolUse[Bash] ./gate.sh',
          agent: 'claude',
          event: 'tool:pre_execute',
          matcher: 'Bash',
          if: 'Bash(rm *)',
          command: './gate.sh',
          timeout: 5,
        },
      ],
      // Claude Code's default on UserPromptSubmit is 30 s: written out, since hookrun's own is 10.
      [
        'hooks.UserPromptSubmit[0].hooks[0]',
        {
          name: 'UserPromptSubmit[*] ./prompt.sh',
          agent: 'claude',
          event: 'user:prompt_submit',
          command: './prompt.sh',
          timeout: 30,
          onError: 'block',
        },
      ],
      [
        'hooks.PostToolUse[0].hooks[0]',
        {
          name: 'PostToolUse[*] ./log.sh',
          agent: 'claude',
          event: 'tool:post_execute',
          command: './log.sh',
          timeout: 600,
          blocking: false,
        },
      ],
    ])
    expect(read.moved[0]!.notCarried).toEqual(["statusMessage (Claude Code's spinner text while the hook runs)"])
    expect(read.routers).toBe(1)
  })

  test('an entry reads back as the same hook hookrun runs from the pasted settings file', () => {
    const pasted = normalizeAgentHooks('claude', JSON.parse(CLAUDE).hooks, () => {})
    for (const hook of read.moved) {
      // The entry is named by the handler's identity (its long name), so a copy left in another layer runs once.
      const { path, ordinal, envPrefixes, identity, ...asPasted } = pasted.find((spec) => spec.path === hook.path)!
      expect(specOfEntry(hook.entry)).toEqual({ ...asPasted, name: identity })
    }
  })

  test('what hookrun would not run the same way stays, each with why', () => {
    expect(read.staying).toEqual([
      { path: 'hooks.PreToolUse[0].hooks[1]', why: expect.stringContaining("type 'prompt' handlers are not run by hookrun") },
      { path: 'hooks.PostToolUse[0].hooks[1]', why: expect.stringContaining('cannot wake the agent later') },
      { path: 'hooks.Stop[0].hooks[0]', why: 'hooks.Stop[0].hooks[0].color: unknown key to hookrun' },
      { path: 'hooks.MessageDisplay[0].hooks[0]', why: expect.stringContaining("hookrun's router has no entry on MessageDisplay") },
      { path: 'hooks.SessionStart[0].hooks[0]', why: expect.stringContaining('it runs hookrun itself') },
    ])
  })

  test('the file loses exactly the moved handlers; an emptied group and event go with them, every other byte stays', () => {
    expect(read.text).toBe(`{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [
        { "type": "prompt", "prompt": "ok? $ARGUMENTS" },
        { "type": "command", "command": "/usr/bin/hookrun fire --format claude", "timeout": 600 }
      ] }
    ],
    "PostToolUse": [ { "hooks": [ { "type": "command", "command": "./wake.sh", "asyncRewake": true } ] } ],
    "Stop": [ { "hooks": [ { "type": "command", "command": "./stop.sh", "color": "red" } ] } ],
    "MessageDisplay": [ { "hooks": [ { "type": "command", "command": "./each-chunk.sh" } ] } ],
    "SessionStart": [ { "hooks": [ { "type": "command", "command": "hookrun fire session:start" } ] } ]
  }
}
`)
  })

  test('an entry that is no handler at all stays, and is said to', () => {
    const odd = readAgentFile(
      'claude',
      'f',
      JSON.stringify({ hooks: { Stop: ['say done', { hooks: [{ type: 'command', command: 'say bye' }] }] } }),
      'project',
    )
    expect(odd.moved.map((hook) => hook.path)).toEqual(['hooks.Stop[1].hooks[0]'])
    expect(odd.staying).toEqual([{ path: 'hooks.Stop[0]', why: expect.stringContaining('hook skipped') }])
    expect(JSON.parse(odd.text)).toEqual({ hooks: { Stop: ['say done'] } })
  })

  test('a file that is not JSON is refused with line and column', () => {
    expect(() => readAgentFile('claude', 'f', '{\n  "hooks": {,}\n}', 'project')).toThrow(
      new JsonTextError('is not valid JSON (line 2, column 13: expected a value (JSON allows no trailing comma))'),
    )
    expect(() => readAgentFile('claude', 'f', '{"hooks": []}', 'project')).toThrow(
      /"hooks" is an array, but Claude Code expects an object of events/,
    )
  })
})

describe('readAgentFile: Codex, Gemini CLI, Cursor, Copilot', () => {
  test("Codex: Claude's document with Codex's 600 s default on every event; async handlers (which Codex skips) stay", () => {
    const read = readAgentFile(
      'codex',
      'f',
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                { type: 'command', command: './a.sh' },
                { type: 'command', command: './b.sh', async: true },
              ],
            },
          ],
        },
      }),
      'project',
    )
    expect(read.moved.map((hook) => hook.entry)).toEqual([
      { name: 'codex UserPromptSubmit[*] ./a.sh', agent: 'codex', event: 'user:prompt_submit', command: './a.sh', timeout: 600 },
    ])
    expect(read.staying).toEqual([
      { path: 'hooks.UserPromptSubmit[0].hooks[1]', why: 'Codex skips async handlers; moved, hookrun would run it' },
    ])
  })

  test('Gemini CLI: timeouts from ms, sequential groups, comments kept, a handler switched off by name stays', () => {
    const text = `{
  // mine
  "hooks": {
    "BeforeTool": [ { "matcher": "run_shell_command", "sequential": true, "hooks": [
      { "name": "block-rm", "command": "./rm.sh", "timeout": 5000, "description": "no rm" },
      { "name": "off", "command": "./off.sh" } ] } ],
    "disabled": ["off"]
  }
}`
    const read = readAgentFile('gemini', 'f', text, 'project')
    expect(read.moved.map((hook) => hook.entry)).toEqual([
      {
        name: 'BeforeTool[run_shell_command] block-rm',
        agent: 'gemini',
        event: 'tool:pre_execute',
        matcher: 'run_shell_command',
        command: './rm.sh',
        timeout: 5,
        sequential: true,
        description: 'no rm',
      },
    ])
    expect(read.staying).toEqual([{ path: 'hooks.BeforeTool[0].hooks[1]', why: "switched off in Gemini CLI (hooks.disabled names 'off')" }])
    expect(read.text).toContain('// mine')
    expect(read.text).not.toContain('./rm.sh')
  })

  test('Cursor: failClosed is onError block; user-level hooks keep running in ~/.cursor; loop_limit and the tool-specific events stay', () => {
    const text = JSON.stringify({
      version: 1,
      hooks: {
        preToolUse: [{ command: './c.sh', failClosed: true, matcher: 'Shell', timeout: 3 }],
        stop: [{ command: './s.sh', loop_limit: 3 }],
        beforeShellExecution: [{ command: './b.sh' }],
      },
    })
    const read = readAgentFile('cursor', '/home/u/.cursor/hooks.json', text, 'user')
    expect(read.moved.map((hook) => hook.entry)).toEqual([
      {
        name: 'preToolUse[Shell] ./c.sh',
        agent: 'cursor',
        event: 'tool:pre_execute',
        matcher: 'Shell',
        command: './c.sh',
        timeout: 3,
        onError: 'block',
        cwd: '/home/u/.cursor',
      },
    ])
    expect(read.staying.map((stay) => stay.path)).toEqual(['hooks.stop[0]', 'hooks.beforeShellExecution[0]'])
    expect(JSON.parse(read.text)).toEqual({
      version: 1,
      hooks: { stop: [{ command: './s.sh', loop_limit: 3 }], beforeShellExecution: [{ command: './b.sh' }] },
    })
  })

  test("Copilot: bash is the command, timeoutSec defaults to 30, a failing preToolUse hook denies as Copilot's does; env with variables and prompt hooks stay", () => {
    const text = JSON.stringify({
      version: 1,
      hooks: {
        preToolUse: [
          { type: 'command', bash: './p.sh', powershell: './p.ps1', cwd: 'scripts', env: { MODE: 'strict' } },
          { type: 'command', bash: './q.sh', env: { A: '$HOME/a' } },
        ],
        postToolUse: [{ type: 'command', bash: './log.sh', timeoutSec: 5 }],
        sessionStart: [{ type: 'prompt', prompt: '/init' }],
      },
    })
    const read = readAgentFile('copilot', 'f', text, 'project')
    expect(read.moved.map((hook) => hook.entry)).toEqual([
      {
        name: 'copilot preToolUse[*] ./p.sh',
        event: 'tool:pre_execute',
        command: './p.sh',
        timeout: 30,
        onError: 'block',
        cwd: 'scripts',
        env: { MODE: 'strict' },
      },
      { name: 'copilot postToolUse[*] ./log.sh', event: 'tool:post_execute', command: './log.sh', timeout: 5, onError: 'allow' },
    ])
    expect(read.moved[0]!.notCarried).toEqual(['powershell (the command Copilot runs on Windows)'])
    expect(read.staying).toEqual([
      { path: 'hooks.preToolUse[1]', why: 'its env expands variables (or is not text), which Copilot does and hookrun does not' },
      { path: 'hooks.sessionStart[0]', why: "type 'prompt' handlers are Copilot's own; hookrun runs commands" },
    ])
  })
})

describe('an entry with agent keeps that agent rules when it runs', () => {
  test("exit 1 from an agent's gate lets the call through (its agent's rule); the same entry without agent blocks", async () => {
    const where = homeAndProject(dirs)
    const env = { ...where.env, PATH: process.env.PATH!, XDG_CONFIG_HOME: join(where.home, '.config') }
    const config = join(where.project, 'hooks.json')
    const entry = { name: 'gate', event: 'tool:pre_execute', command: 'exit 1', timeout: 5 }
    put(config, JSON.stringify({ hooks: [{ ...entry, agent: 'claude' }] }))
    expect(
      await fire({ event: 'tool:pre_execute', cwd: where.project, env, configFiles: [config], payload: { tool_name: 'Bash' } }),
    ).toMatchObject({ blocked: false })
    put(config, JSON.stringify({ hooks: [entry] }))
    expect(
      await fire({ event: 'tool:pre_execute', cwd: where.project, env, configFiles: [config], payload: { tool_name: 'Bash' } }),
    ).toMatchObject({ blocked: true })
  })
})

describe('importAgents', () => {
  const setup = () => {
    const where = homeAndProject(dirs)
    const env = { ...where.env, XDG_CONFIG_HOME: join(where.home, '.config'), XDG_STATE_HOME: join(where.home, '.state') }
    const settings = join(where.project, '.claude', 'settings.json')
    put(settings, CLAUDE)
    const options = { agents: ['claude'], scope: 'project' as const, cwd: where.project, env, dryRun: false, self: '/opt/hookrun' }
    return {
      ...where,
      env,
      settings,
      options,
      hooksFile: join(where.project, '.hookrun', 'hooks.json'),
      local: join(where.project, '.claude', 'settings.local.json'),
    }
  }
  const snapshot = (files: readonly string[]) => files.map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined))

  test('moves the hooks, installs the router where they were, backs up what it changed, and says trust is needed', async () => {
    const place = setup()
    const result = await importAgents(place.options)
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(readFileSync(place.hooksFile, 'utf8')).hooks.map((entry: { name: string }) => entry.name)).toEqual([
      'PreToolUse[Bash] ./gate.sh',
      'UserPromptSubmit[*] ./prompt.sh',
      'PostToolUse[*] ./log.sh',
    ])
    expect(JSON.parse(readFileSync(place.local, 'utf8')).hooks.PreToolUse).toEqual([
      { hooks: [{ type: 'command', command: '/opt/hookrun fire --format claude', timeout: 600 }] },
    ])
    expect(result.output).toContain(`claude: moved 3 hooks from ${place.settings} into ${place.hooksFile}`)
    expect(result.output).toContain('  hooks.PreToolUse[0].hooks[0] → hooks[0] "PreToolUse[Bash] ./gate.sh"')
    expect(result.output).toContain(`  stays in ${place.settings}: hooks.MessageDisplay[0].hooks[0]: `)
    expect(result.output).toContain(`next: run \`hookrun trust ${place.project}\`: ${place.hooksFile} changed`)
    const backup = /^backup: (\S+) holds/m.exec(result.output)![1]!
    expect(readdirSync(backup).map((name) => readFileSync(join(backup, name), 'utf8'))).toEqual([CLAUDE])
  })

  test("--user: the user's settings lose their hooks and get the router in the same file; the hooks go to the user's hooks.json, no trust needed", async () => {
    const place = setup()
    const settings = join(place.home, '.claude', 'settings.json')
    put(settings, '{\n  "theme": "dark",\n  "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ] }\n}\n')
    const result = await importAgents({ ...place.options, scope: 'user' })
    expect(result.exitCode).toBe(0)
    const userHooks = join(place.home, '.config', 'hookrun', 'hooks.json')
    expect(JSON.parse(readFileSync(userHooks, 'utf8')).hooks).toEqual([
      { name: 'Stop[*] say done', agent: 'claude', event: 'agent:stop', command: 'say done', timeout: 600 },
    ])
    const after = JSON.parse(readFileSync(settings, 'utf8'))
    expect(after.theme).toBe('dark')
    expect(after.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: '/opt/hookrun fire --format claude', timeout: 600 }] }])
    expect(result.output).not.toContain('hookrun trust')
    expect(result.output).not.toContain('HOOKRUN_CONFIG')
    expect(readFileSync(place.settings, 'utf8')).toBe(CLAUDE)
    // With discovery replaced, the user is told fire would not see the hooks where they went.
    put(settings, '{ "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "say bye" } ] } ] } }')
    const replaced = await importAgents({ ...place.options, scope: 'user', env: { ...place.env, HOOKRUN_CONFIG: '/etc/hooks.json' } })
    expect(replaced.output).toContain(
      `note: HOOKRUN_CONFIG is set (/etc/hooks.json), so fire reads only the files it names, not ${userHooks}: add it there, or unset it\n`,
    )
  })

  test("Claude Code's local settings are read too, and get the router where their hooks were", async () => {
    const place = setup()
    put(place.settings, '{}\n')
    put(
      place.local,
      '{\n  "hooks": { "PreToolUse": [ { "matcher": "Write", "hooks": [ { "type": "command", "command": "./fmt.sh" } ] } ] },\n  "env": { "A": "1" }\n}\n',
    )
    const result = await importAgents(place.options)
    expect(result.output).toContain(`claude: moved 1 hook from ${place.local} into ${place.hooksFile}`)
    expect(result.output).not.toContain('is shared')
    const local = JSON.parse(readFileSync(place.local, 'utf8'))
    expect(local.env).toEqual({ A: '1' })
    expect(local.hooks.PreToolUse).toEqual([{ hooks: [{ type: 'command', command: '/opt/hookrun fire --format claude', timeout: 600 }] }])
    expect(readFileSync(place.settings, 'utf8')).toBe('{}\n')
  })

  test('a router installed with --events keeps its events, plus the ones the moved hooks need', async () => {
    const place = setup()
    put(place.settings, '{}\n')
    installAgents(
      { agents: ['claude'], scope: 'project', cwd: place.project, env: place.env, self: '/opt/hookrun', events: ['PreToolUse'] },
      false,
    )
    const local = JSON.parse(readFileSync(place.local, 'utf8'))
    local.hooks.Stop = [{ hooks: [{ type: 'command', command: 'say done' }] }]
    put(place.local, JSON.stringify(local, null, 2))
    expect((await importAgents(place.options)).exitCode).toBe(0)
    expect(Object.keys(JSON.parse(readFileSync(place.local, 'utf8')).hooks)).toEqual(['PreToolUse', 'Stop'])
  })

  test('importing again changes nothing, and a hooks.json that has the hook already gets no second copy', async () => {
    const place = setup()
    await importAgents(place.options)
    const files = [place.settings, place.local, place.hooksFile]
    const after = snapshot(files)
    const again = await importAgents(place.options)
    expect(again.exitCode).toBe(0)
    expect(again.output).toContain('claude: nothing to move from')
    expect(again.output).not.toContain('backup:')
    expect(snapshot(files)).toEqual(after)
    // The same handler back in the agent's file: moved out again, not added twice.
    put(place.settings, CLAUDE)
    const third = await importAgents(place.options)
    expect(third.output).toContain('  hooks.PreToolUse[0].hooks[0] → already in hooks.json as hooks[0] "PreToolUse[Bash] ./gate.sh"')
    expect(JSON.parse(readFileSync(place.hooksFile, 'utf8')).hooks).toHaveLength(3)
  })

  test('--dry-run writes nothing and prints a unified diff of every file it would change', async () => {
    const place = setup()
    const files = [place.settings, place.local, place.hooksFile]
    const before = snapshot(files)
    const result = await importAgents({ ...place.options, dryRun: true })
    expect(snapshot(files)).toEqual(before)
    expect(existsSync(join(place.home, '.state'))).toBe(false)
    expect(result.output).toMatch(/^dry run: nothing written; import would change 3 files:\n/)
    expect(result.output).toContain(`--- ${place.settings}\n+++ ${place.settings}`)
    expect(result.output).toContain(
      '-        { "type": "command", "command": "./gate.sh", "timeout": 5, "if": "Bash(rm *)", "statusMessage": "checking" },',
    )
    expect(result.output).toContain(`--- /dev/null\n+++ ${place.hooksFile}`)
    expect(result.output).toContain('+      "name": "PreToolUse[Bash] ./gate.sh",')
  })

  test('errors a user can cause: one line, exit 1 or a HookrunError, and nothing written', async () => {
    const place = setup()
    await expect(importAgents({ ...place.options, agents: ['claud'] })).rejects.toThrow(
      '--agent claud: hookrun import reads claude, cursor, gemini, codex, copilot, kiro, reasonix (did you mean claude?)',
    )
    const none = await importAgents({ ...place.options, agents: ['cursor'] })
    expect(none).toEqual({
      exitCode: 1,
      output: `cursor: no hooks to import: ${join(place.project, '.cursor', 'hooks.json')} holds no Cursor hooks (for your own, use --user)\n`,
    })
    put(join(place.project, '.cursor', 'hooks.json'), '{ "version": 1, "hooks": { "stop": [ } }')
    const broken = await importAgents({ ...place.options, agents: ['cursor'] })
    expect(broken.exitCode).toBe(1)
    expect(broken.output).toMatch(
      /^cursor: \S+hooks\.json is not valid JSON \(line 1, column 38: expected a value \(JSON allows no trailing comma\)\); nothing imported from Cursor/,
    )
    // Copilot's router file cannot be edited: nothing moves, its hooks stay where Copilot runs them.
    const mine = put(
      join(place.project, '.github', 'hooks', 'mine.json'),
      JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: './p.sh' }] } }),
    )
    put(join(place.project, '.github', 'hooks', 'hookrun.json'), '{ "version": 1, "hooks": ')
    const stuck = await importAgents({ ...place.options, agents: ['copilot'] })
    expect(stuck.exitCode).toBe(1)
    expect(stuck.output).toMatch(
      /^copilot: \S+hookrun\.json: is not valid JSON .*; left untouched\ncopilot: nothing imported from Copilot: its hooks stay where they are until hookrun's router can be installed\n$/,
    )
    expect(readFileSync(join(place.project, '.github', 'hooks', 'mine.json'), 'utf8')).toBe(mine)
    expect(existsSync(place.hooksFile)).toBe(false)
    put(join(place.project, '.codex', 'config.toml'), 'model = "o4"\n\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n')
    const toml = await importAgents({ ...place.options, agents: ['codex'] })
    expect(toml.output).toMatch(
      /^codex: \S+config\.toml has hooks in TOML \(\[hooks\]\), which import does not read: move them to \S+\.codex\/hooks\.json and import again\ncodex: no hooks to import/,
    )
    put(place.hooksFile, JSON.stringify({ hooks: { PreToolUse: [] } }))
    await expect(importAgents(place.options)).rejects.toThrow(
      /"hooks" is written in an agent's object form, and import adds to hookrun's list/,
    )
    expect(readFileSync(place.settings, 'utf8')).toBe(CLAUDE)
  })
})

const KIRO_V3 = `{
  "version": "v1",
  "hooks": [
    { "name": "no-sudo", "trigger": "PreToolUse", "matcher": "execute_*", "action": { "type": "command", "command": "./no-sudo.sh" }, "timeout": 10 },
    { "name": "review", "trigger": "PreToolUse", "action": { "type": "agent", "prompt": "Review the call" } },
    { "name": "paused", "trigger": "Stop", "action": { "type": "command", "command": "./notify.sh" }, "enabled": false },
    { "name": "by-hand", "trigger": "Manual", "action": { "type": "command", "command": "./lint.sh" } }
  ]
}
`

describe('readAgentFile: Kiro CLI v3 hook files', () => {
  const read = readAgentFile('kiro', '/p/.kiro/hooks/mine.json', KIRO_V3, 'project')

  test('command entries move with their event, Kiro matcher, timeout in seconds and enabled: false kept', () => {
    expect(read.moved.map((hook) => [hook.path, hook.entry])).toEqual([
      [
        'hooks[0]',
        {
          name: 'PreToolUse[^execute_.*$] ./no-sudo.sh',
          agent: 'kiro',
          event: 'tool:pre_execute',
          matcher: '^execute_.*$',
          command: './no-sudo.sh',
          timeout: 10,
          description: "Kiro's no-sudo",
        },
      ],
      [
        'hooks[2]',
        {
          name: 'Stop[*] ./notify.sh',
          agent: 'kiro',
          event: 'agent:stop',
          command: './notify.sh',
          timeout: 30,
          enabled: false,
          description: "Kiro's paused",
        },
      ],
    ])
  })

  test('an agent action and a Manual trigger stay, each saying why; the file keeps its version and a list Kiro reads', () => {
    expect(read.staying.map((stay) => stay.path)).toEqual(['hooks[1]', 'hooks[3]'])
    expect(read.staying[0]!.why).toContain("'review' has a type 'agent' action")
    expect(read.staying[1]!.why).toContain("hookrun's router has no entry on Manual")
    const after = JSON.parse(read.text)
    expect(after.version).toBe('v1')
    expect(after.hooks.map((hook: { name: string }) => hook.name)).toEqual(['review', 'by-hand'])
  })

  test("a moved entry reads back in Kiro's shape, with its matcher", () => {
    const spec = specOfEntry(read.moved[0]!.entry)
    expect(spec.shape).toBe('kiro')
    expect(spec.matcher).toBe('^execute_.*$')
  })

  test('a hook file of another version is refused, naming it', () => {
    expect(() => readAgentFile('kiro', 'f', '{ "version": "v2", "hooks": [] }', 'project')).toThrow(
      `"version" is "v2", but Kiro's hook files say "v1"`,
    )
  })
})

describe('importAgents: Kiro', () => {
  test("moves the v3 files' command entries into hooks.json, leaving hookrun's own router file alone", async () => {
    const where = homeAndProject(dirs)
    const env = { ...where.env, XDG_CONFIG_HOME: join(where.home, '.config'), XDG_STATE_HOME: join(where.home, '.state') }
    const mine = join(where.project, '.kiro', 'hooks', 'mine.json')
    put(mine, KIRO_V3)
    const options = { agents: ['kiro'], scope: 'project' as const, cwd: where.project, env, dryRun: false, self: '/opt/hookrun' }
    installAgents({ agents: ['kiro'], scope: 'project', cwd: where.project, env, self: '/opt/hookrun' }, false)
    const router = join(where.project, '.kiro', 'hooks', 'hookrun.json')
    const routerText = readFileSync(router, 'utf8')
    const result = await importAgents(options)
    expect(result.exitCode, result.output).toBe(0)
    const hooksFile = join(where.project, '.hookrun', 'hooks.json')
    expect(JSON.parse(readFileSync(hooksFile, 'utf8')).hooks.map((entry: { name: string }) => entry.name)).toEqual([
      'PreToolUse[^execute_.*$] ./no-sudo.sh',
      'Stop[*] ./notify.sh',
    ])
    expect(JSON.parse(readFileSync(mine, 'utf8')).hooks.map((hook: { name: string }) => hook.name)).toEqual(['review', 'by-hand'])
    expect(result.output).toContain(`kiro: moved 2 hooks from ${mine} into ${hooksFile}`)
    expect(readFileSync(router, 'utf8')).toBe(routerText)
  })
})

describe('readAgentFile: Reasonix', () => {
  test('match becomes an anchored matcher, ms timeouts seconds (5 s default on PreToolUse), description kept; an entry with cwd stays', () => {
    const text = `{
  "hooks": {
    "PreToolUse": [
      { "match": "bash", "command": "./gate.sh", "description": "gate", "timeout": 2500 },
      { "command": "./any.sh" },
      { "command": "./here.sh", "cwd": "tools" }
    ],
    "SessionStart": [ { "command": "./hello.sh" } ]
  }
}
`
    const read = readAgentFile('reasonix', '/p/.reasonix/settings.json', text, 'project')
    expect(read.moved.map((hook) => hook.entry)).toEqual([
      {
        name: 'PreToolUse[^(?:bash)$] ./gate.sh',
        agent: 'reasonix',
        event: 'tool:pre_execute',
        matcher: '^(?:bash)$',
        command: './gate.sh',
        timeout: 2.5,
        description: 'gate',
      },
      { name: 'PreToolUse[*] ./any.sh', agent: 'reasonix', event: 'tool:pre_execute', command: './any.sh', timeout: 5 },
      { name: 'SessionStart[*] ./hello.sh', agent: 'reasonix', event: 'session:start', command: './hello.sh', timeout: 30 },
    ])
    expect(read.staying).toEqual([
      { path: 'hooks.PreToolUse[2]', why: 'its cwd is resolved by Reasonix, which hookrun cannot match for sure' },
    ])
  })
})
