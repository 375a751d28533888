/**
 * `hookrun test` and trust (issue 27 §5): test cases are not hook material, so adding one keeps
 * the project trusted; and a project whose hooks do not run (never trusted, or changed since) is
 * refused out loud, never passed on hookrun's own fail-closed deny.
 */
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, trustProjectFor, writeFiles } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const DENY_CASE = {
  name: 'blocks sudo',
  event: 'tool:pre_execute',
  payload: { tool_name: 'Bash', tool_input: { command: 'sudo ls' } },
  expect: { decision: 'deny', blocked: true },
}

function gateProject(): string {
  const dir = makeProject({
    '.hookrun/hooks.json': { hooks: [{ name: 'no-sudo', event: 'tool:pre_execute', command: '"$HOOKRUN_CONFIG_DIR/gate.sh"' }] },
    '.hookrun/gate.sh': '#!/bin/sh\ncase "$HOOKRUN_BASH_COMMAND" in *sudo*) echo "sudo is not allowed" >&2; exit 2;; esac\n',
  })
  projects.push(dir)
  return dir
}

test('a test case added after trust keeps the project trusted: its hook runs and decides', async () => {
  const dir = gateProject()
  trustProjectFor(dir)
  writeFiles(dir, {
    '.hookrun/tests/gate.json': [{ ...DENY_CASE, expect: { ...DENY_CASE.expect, decidedBy: 'no-sudo', reason: 'sudo is not allowed' } }],
  })
  const result = await runCli(['test'], { cwd: dir })
  expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, expect.stringContaining('1 passed, 0 failed'), ''])
  // A fire agrees: the gate still runs.
  const fired = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], { cwd: dir, input: JSON.stringify(DENY_CASE.payload) })
  expect([fired.exitCode, fired.json().decidedBy]).toEqual([2, 'no-sudo'])
})

test('a project changed since trust fails hookrun test, though the case expects the deny hookrun gives', async () => {
  const dir = gateProject()
  writeFiles(dir, { '.hookrun/tests/gate.json': [DENY_CASE] })
  trustProjectFor(dir)
  appendFileSync(join(dir, '.hookrun/gate.sh'), 'exit 0\n')
  const result = await runCli(['test'], { cwd: dir })
  expect(result.exitCode).toBe(1)
  expect(result.stdout).not.toContain('passed')
  expect(result.stderr).toBe(
    `hookrun: no case was run: project hooks in ${dir} changed since you trusted them (.hookrun/gate.sh edited): review with 'hookrun trust --diff', then run: hookrun trust ${dir}\n`,
  )
})

test('a never-trusted project fails hookrun test and says how to trust it', async () => {
  const dir = gateProject()
  writeFiles(dir, { '.hookrun/tests/gate.json': [{ ...DENY_CASE, expect: { decision: 'allow' } }] })
  const result = await runCli(['test'], { cwd: dir })
  expect([result.exitCode, result.stderr]).toEqual([
    1,
    `hookrun: no case was run: project hooks in ${dir} are not trusted, so they do not run. Review them ('hookrun list'), then run: hookrun trust ${dir}\n`,
  ])
})
