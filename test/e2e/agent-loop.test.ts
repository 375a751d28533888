/**
 * examples/agent-loop/agent.ts, the loop users copy, run as they would run it (Bun and Deno,
 * importing the built package by its name). Its output shows each decision applied.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'

const AGENT = join(ROOT, 'examples', 'agent-loop', 'agent.ts')
const BIN = join(ROOT, 'node_modules', '.bin')

test.each([
  { runtime: 'bun', command: [join(BIN, 'bun'), AGENT] },
  { runtime: 'deno', command: [join(BIN, 'deno'), 'run', '-A', '--quiet', AGENT] },
])('the scripted agent loop applies every decision under $runtime', ({ command }) => {
  const [program, ...args] = command
  const result = spawnSync(program!, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOOKRUN_CONFIG: '' } })
  expect(result.status, result.stderr).toBe(0)
  const lines = result.stdout.trim().split('\n')
  expect(lines).toEqual([
    // updatedPrompt: the function hook redacted the key before the model saw it.
    'user: Fix the off-by-one in src/app.ts. My key is [redacted] if you need it.',
    // additionalContext from the session:start command hook, sent with the next request.
    '  [context for the model: This project runs its tests with: npm test]',
    'assistant (turn 1): Let me look at the code and fix it.',
    // updatedInput from a function hook; allow from another one.
    '  ~ Read input rewritten: {"file_path":"src/app.ts"} → {"file_path":"/workspace/src/app.ts"}',
    '  ✓ Read (allowed by auto-approve-reads): export const answer = 41',
    // A command hook's block: the tool does not run.
    '  ✗ Bash denied by no-sudo: sudo is not allowed here: run the command without it',
    '  ~ Write input rewritten: {"file_path":"src/app.ts","content":"export const answer = 42\\n"} → {"file_path":"/workspace/src/app.ts","content":"export const answer = 42\\n"}',
    '  ✓ Write (allowed by protect-secrets): wrote 25 bytes',
    // The command hook saw the path the function hook before it rewrote.
    '  ✗ Write denied by protect-secrets: secrets files (.env, keys) are protected; ask the user to edit them',
    '  ~ Read input rewritten: {"file_path":"src/missing.ts"} → {"file_path":"/workspace/src/missing.ts"}',
    '  ✗ Read failed: no such file: /workspace/src/missing.ts',
    // keepGoing: the stop hook sends the agent round again, with the reason as context.
    'agent:stop → keep going: run the tests (npm test) before you stop',
    '  [context for the model: Bash was denied: sudo is not allowed here: run the command without it | a file changed: run the tests before you finish | Write was denied: secrets files (.env, keys) are protected; ask the user to edit them | run the tests (npm test) before you stop]',
    'assistant (turn 2): Running the tests.',
    '  ✓ Bash: 1 test passed',
    'session ended after 2 turns; audit log:',
    '  tool:post_execute Read {"file_path":"/workspace/src/app.ts"}',
    '  tool:post_execute Write {"file_path":"/workspace/src/app.ts","content":"export const answer = 42\\n"}',
    '  tool:error Read {"file_path":"/workspace/src/missing.ts"}',
    '  tool:post_execute Bash {"command":"npm test"}',
  ])
  expect(result.stderr).toBe('')
})
