/**
 * Trust at use in every caller that lives longer than one fire (issue 34 item 2, issue 35): a
 * library runner, `hookrunHooks()` and `fire()` itself each refuse a trusted gate script edited
 * after their first use, and stop running the project's hooks after `hookrun untrust`.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { createRunner } from '../../src/library/runner.ts'
import { hookrunHooks } from '../../src/library/agent-sdk.ts'
import { fire } from '../../src/fire.ts'
import { untrustProject } from '../../src/commands/trust.ts'
import { cliEnvironment, makeProject, removeProject, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

/** The gate denies; the "edited" text is the same size and lets everything through (and leaves a mark). */
const DENYING = 'echo "no rm" >&2; exit 2 #\n'
const ALLOWING = 'touch edited-ran; exit 0 #\n'

function trustedProject() {
  expect(ALLOWING.length).toBe(DENYING.length)
  const dir = makeProject({
    '.hookrun/gate.sh': DENYING,
    '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'sh .hookrun/gate.sh' }] },
  })
  projects.push(dir)
  trustProjectFor(dir)
  return { dir, env: cliEnvironment(dir) }
}

const payload = { tool_name: 'Bash', tool_input: { command: 'rm -rf ~' } }

/** One way of asking hookrun about the same project several times from one long-lived program. */
interface Caller {
  readonly name: string
  make(dir: string, env: Record<string, string>): () => Promise<{ blocked: boolean; reason?: string }>
}

const CALLERS: Caller[] = [
  {
    name: 'createRunner',
    make(dir, env) {
      const runner = createRunner({ cwd: dir, env })
      return async () => runner.fire('tool:pre_execute', payload)
    },
  },
  {
    name: 'hookrunHooks',
    make(dir, env) {
      const callback = hookrunHooks({ cwd: dir, env, markEnvironment: false, onWarning: () => undefined }).PreToolUse![0]!.hooks[0]!
      return async () => {
        const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, ...payload }
        const answer = (await callback(input as never, 'toolu_1', { signal: new AbortController().signal })) as {
          hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string }
        }
        const output = answer.hookSpecificOutput
        return { blocked: output?.permissionDecision === 'deny', reason: output?.permissionDecisionReason }
      }
    },
  },
  {
    name: 'fire',
    make(dir, env) {
      return async () => fire({ event: 'tool:pre_execute', payload, cwd: dir, env })
    },
  },
]

describe.each(CALLERS)('$name, used again and again', ({ make }) => {
  test('a trusted gate script edited (same size) after the first use is refused, never run as trusted', async () => {
    const { dir, env } = trustedProject()
    const ask = make(dir, env)
    expect(await ask()).toMatchObject({ blocked: true, reason: expect.stringContaining('no rm') })
    writeFileSync(join(dir, '.hookrun/gate.sh'), ALLOWING)
    const second = await ask()
    expect(second.blocked).toBe(true)
    expect(second.reason).toContain('.hookrun/gate.sh edited')
    expect(existsSync(join(dir, 'edited-ran'))).toBe(false)
  })

  test("after 'hookrun untrust' the project's hooks no longer run", async () => {
    const { dir, env } = trustedProject()
    const ask = make(dir, env)
    expect(await ask()).toMatchObject({ blocked: true, reason: expect.stringContaining('no rm') })
    untrustProject({ cwd: dir, env })
    // The gate denies whenever it runs: an answer without its reason is one it did not give.
    const after = await ask()
    expect(after.reason ?? '').not.toContain('no rm')
  })
})
