/**
 * An agent that names its project in a variable (Factory Droid's FACTORY_PROJECT_DIR, Crush's
 * CRUSH_PROJECT_DIR, Qwen Code's QWEN_PROJECT_DIR) runs hooks from wherever it has cd'ed to:
 * hookrun finds the project's gates there all the same.
 */
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, RUNTIMES, runCli, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('Factory Droid: FACTORY_PROJECT_DIR names the project when the working directory is in none', async () => {
      const project = makeProject({
        '.hookrun/hooks.json': {
          hooks: [{ name: 'no-push', event: 'tool:pre_execute:bash', command: "echo 'no pushes from here' >&2; exit 2" }],
        },
      })
      const elsewhere = makeProject()
      projects.push(project, elsewhere)
      const env = {
        XDG_CONFIG_HOME: join(elsewhere, '.xdg-config'),
        XDG_STATE_HOME: join(elsewhere, '.xdg-state'),
        XDG_CACHE_HOME: join(elsewhere, '.xdg-cache'),
      }
      trustProjectFor(project, env)
      const payload = {
        session_id: 's',
        transcript_path: '/t',
        cwd: elsewhere,
        hook_event_name: 'PreToolUse',
        tool_name: 'Execute',
        tool_input: { command: 'git push' },
      }
      const run = (extra: Record<string, string>) =>
        runCli(['fire', '--format', 'droid'], {
          runtime: runtime.name,
          cwd: elsewhere,
          input: JSON.stringify(payload),
          env: { ...env, ...extra },
        })
      const found = await run({ FACTORY_PROJECT_DIR: project })
      expect(found.exitCode, found.stderr).toBe(0)
      expect(JSON.parse(found.stdout).hookSpecificOutput).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: 'no pushes from here',
      })
      // Without it, the payload's cwd (in no project) finds no gate: the variable is what found it.
      expect((await run({})).stdout.trim()).toBe('{}')
    })
  })
}
