/**
 * A hook's environment is exactly the caller's, minus BUN_OPTIONS/BUN_BE_BUN, plus HOOKRUN_*:
 * nothing of the runtime hookrun runs on, and nothing of hookrun's own internals, leaks in.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { HOOK_VARIABLES } from '../../src/run/env.ts'
import { cliEnvironment, makeProject, removeProject, runCli, ALL_RUNTIMES, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

/** What `sh` itself adds to every process it starts. */
const SHELL_VARIABLES = new Set(['PWD', 'OLDPWD', 'SHLVL', '_'])

for (const runtime of ALL_RUNTIMES) {
  describe(runtime.name, () => {
    test('hooks see the caller’s variables and HOOKRUN_*, nothing else', async () => {
      const dir = makeProject({
        '.hookrun/hooks.json': { hooks: [{ name: 'dump', event: 'tool:pre_execute', command: 'env -0 > env.bin' }] },
      })
      projects.push(dir)
      trustProjectFor(dir)
      // BUN_BE_BUN would turn the compiled binary itself into bun: only the other runtimes get it.
      const extra = { BUN_OPTIONS: '--smol', ...(runtime.name !== 'binary' && { BUN_BE_BUN: '1' }), CALLER_ONLY: 'x' }
      const result = await runCli(['fire', 'tool:pre_execute:bash'], { runtime: runtime.name, cwd: dir, env: extra })
      expect(result.exitCode, result.stderr).toBe(0)

      const seen = new Map(
        readFileSync(join(dir, 'env.bin'), 'utf8')
          .split('\0')
          .filter((entry) => entry !== '')
          .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
      )
      const caller = cliEnvironment(dir, extra)
      const hookrun = new Set(HOOK_VARIABLES.map(([suffix]) => `HOOKRUN_${suffix}`))
      // A project's hooks also get the agents' project-folder variables, set to the project root:
      // trust expanded them that way (src/trust/material.ts).
      const projectDirs = ['CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR', 'CURSOR_PROJECT_DIR']
      // On Linux, the marker that lets hookrun end what a hook left in a session of its own.
      if (process.platform === 'linux') expect(seen.get('HOOKRUN_FIRE_ID')).toMatch(/^\d+-[0-9a-f]{12}$/)
      seen.delete('HOOKRUN_FIRE_ID')
      for (const name of projectDirs) expect(seen.get(name), name).toBe(dir)
      const unexplained = [...seen.keys()].filter(
        (key) => !(key in caller) && !hookrun.has(key) && !SHELL_VARIABLES.has(key) && !projectDirs.includes(key),
      )
      expect(unexplained).toEqual([])
      expect(seen.has('BUN_OPTIONS')).toBe(false)
      expect(seen.has('BUN_BE_BUN')).toBe(false)
      expect(seen.get('CALLER_ONLY')).toBe('x')
      for (const [key, value] of Object.entries(caller)) {
        if (key.startsWith('BUN_') || SHELL_VARIABLES.has(key) || projectDirs.includes(key)) continue
        expect(seen.get(key), key).toBe(value)
      }
    })
  })
}
