/**
 * Trust as a user lives it, under every runtime: a cloned project's hooks wait; `hookrun trust`
 * lets them run; any change pauses them again until trusted again; `hookrun untrust` stops them.
 */
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, RUNTIMES } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('untrusted → trust → runs → edited → paused → trust again → untrust', async () => {
      const dir = makeProject({
        '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: '"$HOOKRUN_CONFIG_DIR/gate.sh"' }] },
        '.hookrun/gate.sh': '#!/bin/sh\necho "gate says no" >&2\nexit 2\n',
        'src/deep/keep': '',
      })
      projects.push(dir)
      const cli = (...args: string[]) => runCli(args, { runtime: runtime.name, cwd: dir })
      const fire = () => cli('fire', 'tool:pre_execute')
      const notTrusted = `hookrun: warning: project hooks in ${dir} are not trusted, so they do not run. Review them ('hookrun list'), then run: hookrun trust ${dir} (skipped: gate)\n`

      let result = await fire()
      expect([result.exitCode, result.stderr]).toEqual([0, notTrusted])

      result = await cli('trust', 'src/deep')
      expect(result.exitCode, result.stderr).toBe(0)
      expect(result.stdout).toContain(`trusted ${dir}: its 1 project hook run from now on.`)
      result = await fire()
      expect([result.exitCode, result.json().reason, result.stderr]).toEqual([2, 'gate says no', ''])
      expect((await cli('list')).stdout).toContain(`project ${dir}/.hookrun/hooks.json  (trusted)`)

      // Changed since trusted: the gate event blocks (fail closed) and says what to do.
      appendFileSync(join(dir, '.hookrun/gate.sh'), 'exit 0\n')
      result = await fire()
      const changed = `project hooks in ${dir} changed since you trusted them (.hookrun/gate.sh edited): review with 'hookrun trust --diff', then run: hookrun trust ${dir}`
      expect([result.exitCode, result.json().reason, result.stderr]).toEqual([2, changed, `hookrun: warning: ${changed} (skipped: gate)\n`])
      result = await cli('trust', '--diff')
      expect([result.exitCode, result.stdout]).toEqual([0, expect.stringContaining('edited  .hookrun/gate.sh\n+exit 0\n')])

      expect((await cli('trust')).exitCode).toBe(0)
      expect((await fire()).exitCode).toBe(2)

      result = await cli('untrust')
      expect([result.exitCode, result.stdout]).toEqual([0, `untrusted ${dir}: its project hooks no longer run\n`])
      expect((await fire()).stderr).toBe(notTrusted)
      result = await cli('untrust')
      expect(result.stdout).toBe(`${dir} was not trusted by 'hookrun trust'; nothing to undo\n`)
    })
  })
}
