/**
 * `hookrun install` as users run it, under every runtime: the router command written into the
 * agent's user config holds an absolute path to this hookrun (a committed project file: `hookrun`
 * from PATH), and running that command exactly as the
 * agent would (sh -c, the agent's payload on stdin) gives the agent's answer. Uninstall gives the
 * user's file back byte for byte.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, runtimeCommand, RUNTIMES, trustFolderIn } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const USER_SETTINGS = `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Edit|Write", "hooks": [ { "type": "command", "command": "./format.sh", "timeout": 30 } ] }
    ]
  }
}
`

/**
 * What an agent does with a hook command: sh -c, payload on stdin, its own environment (HOME is
 * the project here). A project file's command is the portable `hookrun …`, so `hookrun` on PATH
 * is the runtime under test.
 */
function runAsAgent(command: string, payload: object, cwd: string, runtime = 'binary') {
  const bin = join(cwd, '.path')
  mkdirSync(bin, { recursive: true })
  writeFileSync(
    join(bin, 'hookrun'),
    `#!/bin/sh\nexec ${runtimeCommand(runtime)
      .map((part) => `'${part}'`)
      .join(' ')} "$@"\n`,
    { mode: 0o755 },
  )
  const env: Record<string, string | undefined> = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    HOME: cwd,
    XDG_CONFIG_HOME: join(cwd, '.xdg-config'),
    HOOKRUN_CONFIG: undefined,
    HOOKRUN_DEPTH: undefined,
  }
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key]
  return spawnSync('sh', ['-c', command], {
    cwd,
    input: JSON.stringify(payload),
    encoding: 'utf8',
    env: env as NodeJS.ProcessEnv,
    timeout: 20_000,
  })
}

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('install --agent claude: the installed command runs this hookrun and answers Claude Code; uninstall restores the file', async () => {
      const dir = makeProject({
        '.claude/settings.json': USER_SETTINGS,
        '.hookrun/hooks.json': {
          hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:bash', command: "echo 'sudo is not allowed' >&2; exit 2" }],
        },
      })
      projects.push(dir)
      trustFolderIn(dir, join(dir, '.xdg-config'))
      const install = await runCli(['install', '--agent', 'claude'], { runtime: runtime.name, cwd: dir })
      expect(install.exitCode, install.stderr).toBe(0)
      const text = readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')
      expect(text).toContain('{ "matcher": "Edit|Write", "hooks": [ { "type": "command", "command": "./format.sh", "timeout": 30 } ] }')
      const command: string = JSON.parse(text).hooks.PreToolUse[1].hooks[0].command
      expect(command).toMatch(/^'?\/\S+.* fire --format claude$/)

      const answer = runAsAgent(
        command,
        {
          session_id: 's',
          cwd: dir,
          hook_event_name: 'PreToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'sudo ls' },
          tool_use_id: 't',
        },
        dir,
      )
      expect(answer.status, answer.stderr).toBe(0)
      expect(JSON.parse(answer.stdout)).toEqual({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'sudo is not allowed' },
      })

      const uninstall = await runCli(['uninstall', '--agent', 'claude'], { runtime: runtime.name, cwd: dir })
      expect(uninstall.exitCode, uninstall.stderr).toBe(0)
      expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe(USER_SETTINGS)
    })

    test('install --agent copilot --project: each entry names its event, and Copilot gets its own JSON', async () => {
      const dir = makeProject({
        '.hookrun/hooks.json': { hooks: [{ name: 'no-rm', event: 'tool:pre_execute:bash', command: "echo 'no rm -rf' >&2; exit 2" }] },
      })
      projects.push(dir)
      trustFolderIn(dir, join(dir, '.xdg-config'))
      const install = await runCli(['install', '--agent', 'copilot', '--project'], { runtime: runtime.name, cwd: dir })
      expect(install.exitCode, install.stderr).toBe(0)
      const file = join(dir, '.github', 'hooks', 'hookrun.json')
      const command: string = JSON.parse(readFileSync(file, 'utf8')).hooks.preToolUse[0].bash
      expect(command).toBe('hookrun fire preToolUse --format copilot')
      const answer = runAsAgent(
        command,
        { sessionId: 's', timestamp: 1704614600000, cwd: dir, toolName: 'bash', toolArgs: '{"command":"rm -rf /"}' },
        dir,
        runtime.name,
      )
      expect(JSON.parse(answer.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' })
      await runCli(['uninstall', '--agent', 'copilot', '--project'], { runtime: runtime.name, cwd: dir })
      expect(existsSync(file)).toBe(false)
    })

    test('install --agent windsurf --project: Cascade runs the entry, and a block is exit 2 with the reason on stderr', async () => {
      const dir = makeProject({
        '.hookrun/hooks.json': { hooks: [{ name: 'no-env', event: 'tool:pre_execute:read', command: "echo 'no .env reads' >&2; exit 2" }] },
      })
      projects.push(dir)
      trustFolderIn(dir, join(dir, '.xdg-config'))
      const install = await runCli(['install', '--agent', 'windsurf', '--project'], { runtime: runtime.name, cwd: dir })
      expect(install.exitCode, install.stderr).toBe(0)
      const file = join(dir, '.windsurf', 'hooks.json')
      const command: string = JSON.parse(readFileSync(file, 'utf8')).hooks.pre_read_code[0].command
      const payload = {
        agent_action_name: 'pre_read_code',
        trajectory_id: 't',
        execution_id: 'e',
        timestamp: '2026-11-20T10:00:00Z',
        tool_info: { file_path: join(dir, '.env') },
      }
      expect(command).toBe('hookrun fire --format windsurf')
      const answer = runAsAgent(command, payload, dir, runtime.name)
      expect(answer.status, answer.stderr).toBe(2)
      expect(answer.stderr).toBe('no .env reads\n')
      await runCli(['uninstall', '--agent', 'windsurf', '--project'], { runtime: runtime.name, cwd: dir })
      expect(existsSync(file)).toBe(false)
    })

    test('init, then hookrun test passes on the starter cases; a wrong case fails with exit 1', async () => {
      const dir = makeProject()
      projects.push(dir)
      expect((await runCli(['init'], { runtime: runtime.name, cwd: dir })).exitCode).toBe(0)
      const passing = await runCli(['test'], { runtime: runtime.name, cwd: dir })
      expect(passing.exitCode, passing.stdout + passing.stderr).toBe(0)
      expect(passing.stdout).toMatch(/\n\d+ passed, 0 failed/)
      // The same cases against a config without the gate: the deny cases must fail.
      const empty = makeProject({ '.hookrun/hooks.json': { hooks: [] } })
      projects.push(empty)
      const wrong = await runCli(['test', join(dir, '.hookrun', 'tests', 'dangerous-commands.json')], { runtime: runtime.name, cwd: empty })
      expect(wrong.exitCode).toBe(1)
      expect(wrong.stdout).toContain('1 passed, 4 failed')
    })
  })
}
