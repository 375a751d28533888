import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { decide } from '../../src/answer/decide.ts'
import type { Hook } from '../../src/core/types.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { MAX_JUDGING_ROUNDS, runChain } from '../../src/chain.ts'
import { makeHook, makeProject, removeProject } from '../helpers.ts'

// Which handlers run (docs/protocol.md "Which handlers run"): agent shapes run every matching handler,
// concurrently; hookrun's own shapes chain and stop at the first block.
const dir = makeProject()
afterAll(() => removeProject(dir))
const event = qualifyEvent('tool:pre_execute', { tool_name: 'Bash' })
const context = { env: { ...process.env, BUN_OPTIONS: undefined }, depth: 0, projectRoot: dir }
const hook = (name: string, command: string, over: Partial<Hook> = {}) => makeHook({ name, command, ...over })
const run = (hooks: Hook[]) => runChain(hooks, event, { tool_name: 'Bash', tool_input: { command: 'ls' } }, context)

describe("rule 'all' (Claude Code, Gemini CLI, Cursor shapes)", () => {
  test('a logger beside a gate still runs when the gate blocks, and every context is kept', async () => {
    const chain = await run([
      hook('gate', "echo 'no' >&2; exit 2", { shape: 'claude' }),
      hook('logger', `echo logged > ${join(dir, 'logged')}; echo '{"additionalContext":"from the logger"}'`, { shape: 'claude' }),
    ])
    expect(chain.results.map((result) => result.report.name)).toEqual(['gate', 'logger'])
    expect(readFileSync(join(dir, 'logged'), 'utf8').trim()).toBe('logged')
    const decision = decide(event, chain.results, chain.rewrites, chain.warnings)
    expect(decision).toMatchObject({ decision: 'deny', decidedBy: 'gate', reason: 'no', additionalContext: ['from the logger'] })
  })

  test('the most restrictive answer wins whatever the order: deny > ask > allow', async () => {
    const answer = (decision: string) => `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}"}}'`
    const chain = await run([
      hook('a', answer('allow'), { shape: 'claude' }),
      hook('b', answer('ask'), { shape: 'claude' }),
      hook('c', answer('deny'), { shape: 'claude' }),
    ])
    expect(decide(event, chain.results, chain.rewrites, []).decidedBy).toBe('c')
  })

  test('N handlers run at once, not one after another: each waits until all have started', async () => {
    const barrier = makeProject()
    const said = makeProject()
    // Run one at a time, the first would wait for the others in vain (it gives up after 10 s) and say so.
    const waits = `i=0; while [ $(ls ${barrier} | wc -l) -lt 5 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done`
    const hooks = [1, 2, 3, 4, 5].map((n) =>
      hook(
        `handler-${n}`,
        `touch ${join(barrier, String(n))}; ${waits}; [ $(ls ${barrier} | wc -l) -eq 5 ] && echo together > ${join(said, String(n))} || echo alone > ${join(said, String(n))}`,
        {
          shape: 'claude',
          timeout: 60,
        },
      ),
    )
    const chain = await run(hooks)
    const heard = [1, 2, 3, 4, 5].map((n) => readFileSync(join(said, String(n)), 'utf8').trim())
    removeProject(barrier)
    removeProject(said)
    expect(chain.results).toHaveLength(5)
    expect(heard).toEqual(['together', 'together', 'together', 'together', 'together'])
  }, 120_000)

  test('concurrent handlers all see the payload as it was; their rewrites apply afterwards in config order', async () => {
    // 'first' rewrites only `ls`: judging 'second''s rewrite again (round 2), it lets it stand.
    const rewrite = (command: string) => `grep -q '"ls"' && echo '{"updatedInput":{"command":"${command}"}}' || true`
    const chain = await run([
      hook('first', rewrite('one'), { shape: 'claude' }),
      hook('second', `cat > ${join(dir, 'seen')}; echo '{"updatedInput":{"command":"two"}}'`, { shape: 'claude' }),
    ])
    expect(JSON.parse(readFileSync(join(dir, 'seen'), 'utf8')).tool_input).toEqual({ command: 'ls' })
    expect(chain.rewrites.updatedInput).toEqual({ command: 'two' })
    expect(chain.results.map((result) => [result.report.name, result.report.round])).toEqual([
      ['first', 2],
      ['second', undefined],
    ])
  })

  test('a Gemini group with sequential: true runs its handlers in order, each seeing the earlier rewrite, none stopped by a block', async () => {
    const chain = await run([
      hook('rewrite', `cat > /dev/null; echo '{"updatedInput":{"command":"ls -la"}}'`, { shape: 'gemini', sequential: true }),
      hook('gate', "cat > /dev/null; echo 'blocked' >&2; exit 2", { shape: 'gemini' }),
      hook('reader', `cat > ${join(dir, 'sequential-seen')}`, { shape: 'gemini' }),
    ])
    expect(chain.results.map((result) => result.report.name)).toEqual(['rewrite', 'gate', 'reader'])
    expect(JSON.parse(readFileSync(join(dir, 'sequential-seen'), 'utf8')).tool_input).toEqual({ command: 'ls -la' })
  })
})

describe('rewrites are judged again (README "Rewrites are judged again")', () => {
  const rewrite = (command: string) => `cat > /dev/null; echo '{"updatedInput":{"command":"${command}"}}'`

  test('a gate that judged before a later rewrite runs again on the rewrite, and its new answer stands', async () => {
    const chain = await run([
      hook('gate', `grep -q 'rm -rf' && exit 2 || true`),
      hook('rewriter', rewrite('rm -rf ~')),
      hook('later', 'true'),
    ])
    const decision = decide(event, chain.results, chain.rewrites, chain.warnings)
    expect(decision).toMatchObject({ decision: 'deny', decidedBy: 'gate' })
    expect(chain.judged.map(({ step, round, payload }) => [step, round, (payload.tool_input as { command: string }).command])).toEqual([
      ['gate', 1, 'ls'],
      ['rewriter', 1, 'rm -rf ~'],
      ['later', 1, 'rm -rf ~'],
      ['gate', 2, 'rm -rf ~'],
    ])
  })

  test('hooks that keep rewriting each other block after MAX_JUDGING_ROUNDS rounds, naming them', async () => {
    const chain = await run([hook('one', rewrite('one')), hook('two', rewrite('two'))])
    const decision = decide(event, chain.results, chain.rewrites, chain.warnings)
    expect(decision).toMatchObject({ decision: 'deny', blocked: true, decidedBy: 'hookrun' })
    expect(decision.reason).toBe(
      "hooks kept rewriting the input: after 3 rounds 'one' had still judged an input other than the one that would run, so no gate has approved it; make the rewriting hooks agree (see 'hookrun explain')",
    )
    expect(Math.max(...chain.judged.map((view) => view.round))).toBe(MAX_JUDGING_ROUNDS)
  })

  test('outside a gate event a rewrite is not judged again', async () => {
    const post = qualifyEvent('tool:post_execute', { tool_name: 'Bash' })
    const chain = await runChain(
      [hook('one', rewrite('one')), hook('two', rewrite('two'))],
      post,
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      context,
    )
    expect(chain.results.map((result) => result.report.round)).toEqual([undefined, undefined])
    expect(chain.rewrites.updatedInput).toEqual({ command: 'two' })
  })

  test('past the chain budget the hooks still running are killed and a gate blocks', async () => {
    // Not killed, the hook would end after its 30 s sleep, exit 0 and let the event through.
    // A Claude-shaped handler killed lets the event through under Claude's rules: the budget's block must not.
    const chain = await runChain(
      [hook('slow', 'sleep 30', { timeout: 60, shape: 'claude' })],
      event,
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      { ...context, budgetMs: 300 },
    )
    const decision = decide(event, chain.results, chain.rewrites, chain.warnings)
    expect(decision).toMatchObject({ decision: 'deny', decidedBy: 'hookrun' })
    expect(decision.reason).toBe(
      "hooks ran past hookrun's budget of 0 s for one event; the ones still running were killed, so the event is blocked",
    )
  })
})

describe("rule 'chain' (hookrun's own shapes)", () => {
  test('stops at the first block: later hooks do not run', async () => {
    const chain = await run([hook('gate', 'exit 2'), hook('later', `touch ${join(dir, 'later-ran')}`)])
    expect(chain.results.map((result) => result.report.name)).toEqual(['gate'])
    expect(chain.skipped.map((step) => step.name)).toEqual(['later'])
    expect(existsSync(join(dir, 'later-ran'))).toBe(false)
  })

  test('a file with both shapes: a block stops the chain hooks after it, never an agent-shaped handler', async () => {
    const chain = await run([
      hook('native-gate', 'exit 2'),
      hook('claude-logger', `touch ${join(dir, 'claude-logger-ran')}`, { shape: 'claude' }),
      hook('native-later', `touch ${join(dir, 'native-later-ran')}`),
    ])
    expect(chain.results.map((result) => result.report.name)).toEqual(['native-gate', 'claude-logger'])
    expect(existsSync(join(dir, 'claude-logger-ran'))).toBe(true)
    expect(existsSync(join(dir, 'native-later-ran'))).toBe(false)
  })
})
