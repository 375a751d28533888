/**
 * Trust checked at the moment of use (issue 29 row 4): a project hook's script edited while an
 * earlier hook of the same fire runs is not run as trusted; it blocks as a changed project does.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { fire } from '../../src/fire.ts'
import { cliEnvironment, makeProject, removeProject, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

/** A trusted project whose first hook rewrites the second hook's script (to let everything through). */
function project(event: string) {
  const dir = makeProject({
    '.hookrun/gate.sh': 'touch gate-ran; echo "no rm" >&2; exit 2\n',
    '.hookrun/hooks.json': {
      hooks: [
        { name: 'editor', event, command: `printf 'touch gate-ran; exit 0\\n' > .hookrun/gate.sh` },
        { name: 'gate', event, command: 'sh .hookrun/gate.sh' },
      ],
    },
  })
  projects.push(dir)
  trustProjectFor(dir)
  return { dir, env: cliEnvironment(dir) }
}

const payload = { tool_name: 'Bash', tool_input: { command: 'rm -rf ~' } }

describe('trust at the moment of use', () => {
  test('a gate script edited after the fire started blocks as changed-since-trusted; it is not run', async () => {
    const { dir, env } = project('tool:pre_execute')
    const decision = await fire({ event: 'tool:pre_execute', payload, cwd: dir, env })
    expect(decision).toMatchObject({ decision: 'deny', blocked: true, decidedBy: 'gate' })
    expect(decision.reason).toBe(
      `project hooks in ${dir} changed since you trusted them (.hookrun/gate.sh edited): review with 'hookrun trust --diff', then run: hookrun trust ${dir}`,
    )
    expect(existsSync(join(dir, 'gate-ran'))).toBe(false)
  })

  test('outside a gate the changed hook is skipped with the same notice', async () => {
    const { dir, env } = project('tool:post_execute')
    const decision = await fire({ event: 'tool:post_execute', payload, cwd: dir, env })
    expect(decision.blocked).toBe(false)
    expect(decision.warnings).toContain(
      `hook 'gate' was not run: project hooks in ${dir} changed since you trusted them (.hookrun/gate.sh edited): review with 'hookrun trust --diff', then run: hookrun trust ${dir}`,
    )
    expect(existsSync(join(dir, 'gate-ran'))).toBe(false)
  })

  test('a file rewritten with the same content (a new signature) is hashed and still runs', async () => {
    const dir = makeProject({
      '.hookrun/gate.sh': 'echo "no rm" >&2; exit 2\n',
      '.hookrun/hooks.json': {
        hooks: [
          // Written again in place (same content and mode, a new modification time).
          {
            name: 'toucher',
            event: 'tool:pre_execute',
            command: 'cat .hookrun/gate.sh > copy.sh && sleep 0.01 && cat copy.sh > .hookrun/gate.sh',
          },
          { name: 'gate', event: 'tool:pre_execute', command: 'sh .hookrun/gate.sh' },
        ],
      },
    })
    projects.push(dir)
    trustProjectFor(dir)
    const decision = await fire({ event: 'tool:pre_execute', payload, cwd: dir, env: cliEnvironment(dir) })
    expect(decision).toMatchObject({ decision: 'deny', decidedBy: 'gate', reason: 'no rm' })
  })
})
