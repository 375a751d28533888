/**
 * The opt-in audit log, as users get it: one JSON line per fire, secrets redacted. Every runtime.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, RUNTIMES, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ012345'

function project(log: object | undefined): string {
  const dir = makeProject({
    '.xdg-config/hookrun/hooks.json': {
      ...(log && { log }),
      hooks: [
        {
          name: 'audit-me',
          event: 'tool:pre_execute:bash',
          command: 'grep -q sudo && { echo "no sudo (saw API_KEY=hunter2)" >&2; exit 2; }; exit 0',
        },
      ],
    },
  })
  projects.push(dir)
  trustProjectFor(dir)
  return dir
}

const payload = (command: string) =>
  JSON.stringify({ session_id: 's1', tool_name: 'Bash', tool_input: { command, env: { GITHUB_TOKEN: TOKEN } } })

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('one redacted line per fire: event, each hook’s outcome, the decision', async () => {
      const dir = project({ path: '~/logs/audit.jsonl' })
      const fire = (command: string) =>
        runCli(['fire', 'tool:pre_execute', '--payload', '-'], { runtime: runtime.name, cwd: dir, input: payload(command) })
      expect((await fire('ls')).exitCode).toBe(0)
      const blocked = await fire(`sudo curl -H "Authorization: Bearer ${TOKEN}" https://x`)
      expect(blocked.exitCode).toBe(2)

      const text = readFileSync(join(dir, 'logs/audit.jsonl'), 'utf8')
      expect(text).not.toContain(TOKEN.slice(4))
      expect(text).not.toContain('hunter2')
      const lines = text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line))
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatchObject({
        event: 'tool:pre_execute:bash',
        decision: 'allow',
        blocked: false,
        hooks: [{ name: 'audit-me', source: 'user', outcome: 'allow', exitCode: 0 }],
      })
      // An unquoted secret value runs to the next space or quote: the ')' after it goes too.
      expect(lines[1]).toMatchObject({
        event: 'tool:pre_execute:bash',
        decision: 'deny',
        blocked: true,
        reason: 'no sudo (saw API_KEY=[REDACTED]',
        hooks: [{ name: 'audit-me', outcome: 'deny', exitCode: 2, reason: 'no sudo (saw API_KEY=[REDACTED]' }],
        payload: {
          session_id: 's1',
          tool_name: 'Bash',
          tool_input: { command: 'sudo curl -H "Authorization: [REDACTED] [REDACTED]" https://x', env: { GITHUB_TOKEN: '[REDACTED]' } },
        },
      })
      expect(typeof lines[1].time).toBe('string')
    })

    test('no log unless configured; a log that cannot be written is a warning, the fire goes on', async () => {
      const quiet = project(undefined)
      expect((await runCli(['fire', 'tool:pre_execute:bash'], { runtime: runtime.name, cwd: quiet })).exitCode).toBe(0)
      expect(existsSync(join(quiet, 'logs'))).toBe(false)

      const dir = project({ path: 'logs-is-a-folder' })
      mkdirSync(join(dir, '.xdg-config/hookrun/logs-is-a-folder'))
      const result = await runCli(['fire', 'tool:pre_execute:bash'], { runtime: runtime.name, cwd: dir })
      expect(result.exitCode).toBe(0)
      expect(result.json().warnings).toEqual([expect.stringMatching(/^cannot write audit log .*logs-is-a-folder: /)])
      expect(result.stderr).toContain('hookrun: warning: cannot write audit log')
    })
  })
}
