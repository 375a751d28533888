/**
 * The library cases (cases.ts) under Node with vitest, and the same file under Bun and Deno
 * through run.ts.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import { CASES } from './cases.ts'

describe('node', () => {
  for (const { name, run } of CASES) test(name, run)
})

const BIN = join(ROOT, 'node_modules', '.bin')
const RUN = join(ROOT, 'test', 'library', 'run.ts')

describe.each([
  { runtime: 'bun', command: [join(BIN, 'bun'), RUN] },
  { runtime: 'deno', command: [join(BIN, 'deno'), 'run', '-A', '--quiet', RUN] },
])('$runtime', ({ command }) => {
  test(`every library case passes (${CASES.length} cases)`, () => {
    const [program, ...args] = command
    const result = spawnSync(program!, args, { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
    const output = `${result.stdout}\n${result.stderr}`
    expect(result.status, output).toBe(0)
    expect(result.stdout.match(/^ok - /gm)?.length, output).toBe(CASES.length)
    expect(result.stdout).toContain(`${CASES.length} passed, 0 failed`)
  })
})
