/**
 * `hookrun fire --record DIR`: what an agent really sends, saved redacted as `hookrun test` cases
 * that `hookrun test DIR` replays. Every runtime the suite runs.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, RUNTIMES, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ012345'
const GATE = {
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: "grep -q 'rm -rf' && { echo 'use trash' >&2; exit 2; }; exit 0" }] },
    ],
  },
}

function project(): string {
  const dir = makeProject({ '.hookrun/hooks.json': GATE })
  projects.push(dir)
  trustProjectFor(dir)
  return dir
}

const claudePayload = (command: string) =>
  JSON.stringify({
    session_id: 's1',
    transcript_path: '/tmp/t.jsonl',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, env: { GITHUB_TOKEN: TOKEN } },
  })

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('each payload becomes a redacted test case with the answer it got, and hookrun test replays them', async () => {
      const dir = project()
      const fire = (command: string, args: string[], env: Record<string, string> = {}) =>
        runCli(['fire', '--format', 'claude', ...args], { runtime: runtime.name, cwd: dir, input: claudePayload(command), env })
      expect((await fire('rm -rf build', ['--record', 'recorded'])).exitCode).toBe(0)
      expect((await fire('ls', [], { HOOKRUN_RECORD: join(dir, 'recorded') })).exitCode).toBe(0)

      const files = readdirSync(join(dir, 'recorded')).sort()
      expect(files).toHaveLength(2)
      const cases = files.map((file) => readFileSync(join(dir, 'recorded', file), 'utf8'))
      for (const text of cases) expect(text).not.toContain(TOKEN.slice(4))
      const parsed = cases.map((text) => JSON.parse(text))
      expect(parsed.map((testCase) => testCase.expect.decision).sort()).toEqual(['allow', 'deny'])
      expect(parsed[0]).toMatchObject({
        format: 'claude',
        payload: { hook_event_name: 'PreToolUse', tool_name: 'Bash' },
        expect: { exitCode: 0 },
      })

      const replay = await runCli(['test', 'recorded'], { runtime: runtime.name, cwd: dir })
      expect(replay.exitCode, replay.stdout + replay.stderr).toBe(0)
      expect(replay.stdout).toContain('2 passed, 0 failed')

      // The recorded answer holds the hooks to it: a gate that stops blocking fails the replay.
      writeFileSync(
        join(dir, '.hookrun/hooks.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 0' }] }] } }),
      )
      trustProjectFor(dir)
      const changed = await runCli(['test', 'recorded'], { runtime: runtime.name, cwd: dir })
      expect(changed.exitCode).toBe(1)
      expect(changed.stdout).toContain('1 passed, 1 failed')
    })
  })
}
