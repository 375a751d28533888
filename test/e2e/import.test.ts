/**
 * `hookrun import --agent claude` as users run it: a real Claude Code settings file with a gate on
 * PreToolUse. Before, the agent's own hook blocks `rm -rf`; after import (and `hookrun trust`),
 * the router entry it left in Claude's file runs hookrun, which runs the same hook and gives
 * Claude Code the same block. `--dry-run` writes nothing; importing again changes nothing.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { cliEnvironment, makeProject, removeProject, runCli, RUNTIMES } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const SETTINGS = `{
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/no-rm.sh", "timeout": 10 } ] }
    ],
    "PostToolUse": [ { "hooks": [ { "type": "command", "command": "echo \\"$CLAUDE_PROJECT_DIR\\" >> \\"$CLAUDE_PROJECT_DIR\\"/post.log" } ] } ]
  }
}
`
const NO_RM = '#!/bin/sh\nif grep -q "rm -rf"; then echo "rm -rf is not allowed here" >&2; exit 2; fi\nexit 0\n'

const payload = (dir: string, command: string) => ({
  session_id: 's',
  cwd: dir,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 't',
})

/** What Claude Code does with a hook command: sh -c in the project, payload on stdin, CLAUDE_PROJECT_DIR set. */
function runAsClaude(command: string, input: object, dir: string) {
  return spawnSync('sh', ['-c', command], {
    cwd: dir,
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: { ...cliEnvironment(dir), CLAUDE_PROJECT_DIR: dir } as NodeJS.ProcessEnv,
    timeout: 30_000,
  })
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined)

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test("import --agent claude: the router blocks the call the agent's own hook blocked; dry run writes nothing; a second import changes nothing", async () => {
      const dir = makeProject({ '.claude/settings.json': SETTINGS, '.claude/hooks/no-rm.sh': NO_RM })
      projects.push(dir)
      const settingsFile = join(dir, '.claude', 'settings.json')
      const files = [settingsFile, join(dir, '.claude', 'settings.local.json'), join(dir, '.hookrun', 'hooks.json')]

      // Before: Claude Code runs its own hook, which blocks (exit 2, the reason on stderr).
      const own = JSON.parse(SETTINGS).hooks.PreToolUse[0].hooks[0].command as string
      const before = runAsClaude(own, payload(dir, 'rm -rf build'), dir)
      expect([before.status, before.stderr.trim()]).toEqual([2, 'rm -rf is not allowed here'])

      const planned = await runCli(['import', '--agent', 'claude', '--dry-run'], { runtime: runtime.name, cwd: dir })
      expect(planned.exitCode, planned.stderr).toBe(0)
      expect(files.map(read)).toEqual([SETTINGS, undefined, undefined])
      expect(planned.stdout).toContain(`--- ${settingsFile}\n+++ ${settingsFile}\n`)
      expect(planned.stdout).toContain(`--- /dev/null\n+++ ${join(dir, '.hookrun', 'hooks.json')}\n`)

      const imported = await runCli(['import', '--agent', 'claude'], { runtime: runtime.name, cwd: dir })
      expect(imported.exitCode, imported.stderr).toBe(0)
      expect(imported.stdout).toContain(`claude: moved 2 hooks from ${settingsFile} into ${join(dir, '.hookrun', 'hooks.json')}`)
      expect(imported.stdout).toContain('next: run `hookrun trust`')
      // The user's other settings keep their bytes; the hooks have moved out.
      expect(read(settingsFile)).toBe('{\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n')

      // trust narrows the router to the events the moved hooks fire on: a second import keeps that.
      expect((await runCli(['trust'], { runtime: runtime.name, cwd: dir })).exitCode).toBe(0)
      const after = files.map(read)
      expect(Object.keys(JSON.parse(after[1]!).hooks)).toEqual(['PreToolUse', 'PostToolUse', 'PreSkillShellCommand'])
      const router = JSON.parse(after[1]!).hooks.PreToolUse[0].hooks[0].command as string
      expect(router).toMatch(/ fire --format claude$/)
      const blocked = runAsClaude(router, payload(dir, 'rm -rf build'), dir)
      expect(blocked.status, blocked.stderr).toBe(0)
      expect(JSON.parse(blocked.stdout)).toEqual({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'rm -rf is not allowed here',
        },
      })
      const allowed = runAsClaude(router, payload(dir, 'ls'), dir)
      expect([allowed.status, allowed.stdout.includes('deny')]).toEqual([0, false])
      // The PostToolUse hook still finds $CLAUDE_PROJECT_DIR.
      const post = runAsClaude(
        JSON.parse(after[1]!).hooks.PostToolUse[0].hooks[0].command,
        { ...payload(dir, 'ls'), hook_event_name: 'PostToolUse', tool_response: {} },
        dir,
      )
      expect(post.status, post.stderr).toBe(0)
      expect(read(join(dir, 'post.log'))).toBe(`${dir}\n`)

      const again = await runCli(['import', '--agent', 'claude'], { runtime: runtime.name, cwd: dir })
      expect(again.exitCode, again.stderr).toBe(0)
      expect(again.stdout).toMatch(/^claude: nothing to move from /)
      expect(files.map(read)).toEqual(after)
    })

    test('help import; errors a user can cause: an unknown agent names the nearest; an agent with no hooks is one line, exit 1', async () => {
      const dir = makeProject({})
      projects.push(dir)
      const unknown = await runCli(['import', '--agent', 'cursr'], { runtime: runtime.name, cwd: dir })
      expect([unknown.exitCode, unknown.stderr]).toEqual([
        1,
        'hookrun: --agent cursr: hookrun import reads claude, cursor, gemini, codex, copilot, kiro, reasonix (did you mean cursor?)\n',
      ])
      const help = await runCli(['help', 'import'], { runtime: runtime.name, cwd: dir })
      expect(help.stdout).toContain('--dry-run       Write nothing; print the diff of every file import would\n                  change')
      expect(help.stdout).toContain('hookrun import --agent claude && hookrun trust')
      const none = await runCli(['import', '--agent', 'gemini'], { runtime: runtime.name, cwd: dir })
      expect([none.exitCode, none.stdout]).toEqual([
        1,
        `gemini: no hooks to import: ${join(dir, '.gemini', 'settings.json')} holds no Gemini CLI hooks (for your own, use --user)\n`,
      ])
    })
  })
}
