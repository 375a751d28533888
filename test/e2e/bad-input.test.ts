/**
 * Payloads the JSON case runner cannot carry (raw bytes, 64 MiB, 100,000 levels of nesting): each
 * is one clear line on stderr and no hook has run; on a gate event the answer blocks (exit 2: an
 * agent reads exit 1 as proceed). Every runtime.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, RUNTIMES, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const cases: ReadonlyArray<{ name: string; input: () => Uint8Array | string; message: string }> = [
  {
    name: 'invalid UTF-8',
    input: () => Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    message: 'payload on stdin is not valid UTF-8 text; send the event as UTF-8 JSON',
  },
  {
    name: '100,000 levels of nesting',
    input: () => `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
    message: 'payload on stdin is nested more than 512 levels deep; send a flatter JSON object',
  },
  {
    name: 'more than 64 MiB',
    input: () => Buffer.alloc(64 * 1024 * 1024 + 1, 0x20),
    message: 'payload on stdin is larger than 64 MiB; pass large data by path instead',
  },
]

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test.each(cases)('$name: one line, the gate blocks, no hook ran', async ({ input, message }) => {
      const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'toucher', event: '*', command: 'touch ran' }] } })
      projects.push(dir)
      trustProjectFor(dir)
      const result = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], {
        runtime: runtime.name,
        cwd: dir,
        input: input(),
        timeoutMs: 30_000,
      })
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toBe(`hookrun: ${message}\n`)
      expect(result.json()).toMatchObject({
        decision: 'deny',
        blocked: true,
        decidedBy: 'hookrun',
        reason: `blocked because hookrun could not decide: ${message}`,
      })
      expect(existsSync(join(dir, 'ran'))).toBe(false)
    })
  })
}
