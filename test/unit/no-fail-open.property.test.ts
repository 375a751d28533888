// Property (issue 12): on a gate event, no hook answer and no config entry lets a call through by accident.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { decide } from '../../src/answer/decide.ts'
import { interpretRun } from '../../src/answer/interpret.ts'
import { parseAnswer } from '../../src/answer/parse.ts'
import { mergeHooks } from '../../src/config/load.ts'
import { parseConfigDocument } from '../../src/config/parse.ts'
import type { CommandRun } from '../../src/core/types.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { brokenGateBlock } from '../../src/answer/blocks.ts'
import { selectHooks } from '../../src/select/select.ts'
import { makeHook } from '../helpers.ts'

const gate = qualifyEvent('tool:pre_execute', { tool_name: 'Bash' })

function run(exitCode: number | null, stdout: string, over: Partial<CommandRun> = {}): CommandRun {
  return {
    exitCode,
    signal: null,
    timedOut: false,
    stdout,
    stderr: '',
    truncated: { stdout: false, stderr: false },
    durationMs: 1,
    ...over,
  }
}

/** What a hook may print: JSON answers (fitting or not, deep or not), garbled JSON, plain text. */
const deep = fc.integer({ min: 1, max: 2000 }).map((levels) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)
const answer = fc.record(
  {
    decision: fc.oneof(fc.constantFrom('allow', 'deny', 'ask', 'approve', 'block', 'maybe', ''), fc.jsonValue()),
    reason: fc.oneof(fc.string(), fc.jsonValue()),
    continue: fc.oneof(fc.boolean(), fc.jsonValue()),
    hookSpecificOutput: fc.oneof(
      fc.record({ permissionDecision: fc.constantFrom('allow', 'deny', 'ask', 'defer', 'nope') }, { requiredKeys: [] }),
      fc.jsonValue(),
    ),
    updatedInput: fc.jsonValue(),
  },
  { requiredKeys: [] },
)
const stdout = fc.oneof(
  answer.map((value) => JSON.stringify(value)),
  fc.json().filter((text) => text.trimStart().startsWith('{')),
  fc.string().map((text) => `{${text}`),
  deep,
  fc.string(),
)

/** What a clean allow looks like: exit 0, and either no JSON or a fitting answer that does not deny. */
function cleanAllow(exitCode: number | null, out: string): boolean {
  if (exitCode !== 0) return false
  if (!out.trimStart().startsWith('{')) return true
  const parsed = parseAnswer(out)
  return parsed.answer !== undefined
}

describe('hook answers on a gate event', () => {
  test('anything but exit 0 with a readable answer blocks; a deny in any form blocks', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<number | null>(0, 0, 0, 1, 2, 3, 124, 126, 127, 255, null),
        stdout,
        fc.boolean(),
        (exitCode, out, timedOut) => {
          const hook = makeHook({ event: ['tool:pre_execute'] })
          const result = interpretRun(hook, gate, run(exitCode, out, { timedOut }), {}, parseAnswer(out))
          const decision = decide(gate, [result], {}, [])
          if (decision.decision === 'allow' || decision.decision === 'ask') {
            expect(timedOut).toBe(false)
            expect(cleanAllow(exitCode, out)).toBe(true)
            const parsed = parseAnswer(out).answer
            expect(parsed?.decision).not.toBe('deny')
            expect(parsed?.hookSpecificOutput?.permissionDecision).not.toBe('deny')
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})

/** One answer that decides in several forms at once: the protocol's, Claude's, Cursor's, Copilot's, kodelet's. */
const decisionValue = fc.constantFrom('allow', 'deny', 'ask', 'approve', 'block')
const manyForms = fc.record(
  {
    decision: decisionValue,
    hookSpecificOutput: fc.record(
      {
        permissionDecision: fc.constantFrom('allow', 'deny', 'ask', 'defer'),
        decision: fc.record({ behavior: fc.constantFrom('allow', 'deny', 'ask') }),
      },
      { requiredKeys: [] },
    ),
    permission: fc.constantFrom('allow', 'deny', 'ask'),
    permissionDecision: fc.constantFrom('allow', 'deny', 'ask'),
    behavior: fc.constantFrom('allow', 'deny', 'ask'),
    blocked: fc.boolean(),
  },
  { requiredKeys: [] },
)

describe('an answer that decides in several forms', () => {
  test('a deny in any one of them blocks; otherwise an ask in any one of them asks', () => {
    fc.assert(
      fc.property(manyForms, (answer) => {
        const out = JSON.stringify(answer)
        const result = interpretRun(makeHook({ event: ['tool:pre_execute'] }), gate, run(0, out), {}, parseAnswer(out))
        const said = [
          answer.decision,
          answer.hookSpecificOutput?.permissionDecision,
          answer.hookSpecificOutput?.decision?.behavior,
          answer.permission,
          answer.permissionDecision,
          answer.behavior,
        ]
        const denies = said.includes('deny') || said.includes('block') || answer.blocked === true
        expect(result.blocks, out).toBe(denies)
        if (!denies && said.includes('ask')) expect(result.decision, out).toBe('ask')
      }),
      { numRuns: 500 },
    )
  })
})

/** Config entries as people write them: right fields, typo'd fields, wrong types, missing parts. */
const fieldValue = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }))
const entry = fc.record(
  {
    name: fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fieldValue),
    event: fc.oneof(
      fc.constantFrom('tool:pre_execute', 'tool:*', '*', 'PreToolUse', 'tool:pre_exectue', 'tool:pre_execute:bash', 'session:start'),
      fieldValue,
    ),
    evnt: fc.constant('tool:pre_execute'),
    command: fc.oneof(fc.constant('./gate.sh'), fieldValue),
    comand: fc.constant('./gate.sh'),
    timeout: fc.oneof(fc.integer({ min: 1, max: 60 }), fieldValue),
    onError: fc.oneof(fc.constantFrom('block', 'allow'), fieldValue),
    cwd: fc.oneof(fc.constant('sub'), fieldValue),
    env: fc.oneof(fc.dictionary(fc.constantFrom('A', 'B'), fc.string()), fieldValue),
    enabled: fc.oneof(fc.boolean(), fieldValue),
    blocking: fc.oneof(fc.boolean(), fieldValue),
  },
  { requiredKeys: [] },
)

describe('config entries on a gate event', () => {
  test('an entry meant for the gate either runs or blocks: it is never silently dropped', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), (entries) => {
        const ref = { layer: 'config' as const, file: '/p/hooks.json' }
        const document = parseConfigDocument(ref, JSON.stringify({ hooks: entries }))
        const problems = [...document.problems]
        const hooks = mergeHooks(document.entries, problems)
        const selected = selectHooks(hooks, gate, { tool_name: 'Bash' })
        const blocked = brokenGateBlock(problems, gate) !== undefined
        entries.forEach((raw, index) => {
          const meant =
            raw.event === undefined ||
            raw.event === null ||
            ['tool:pre_execute', 'tool:*', '*', 'PreToolUse', 'tool:pre_exectue', 'tool:pre_execute:bash'].includes(raw.event as string)
          // Switched off or sent to the background on purpose: the author's choice, not a dropped gate.
          const onPurpose = raw.enabled === false || raw.blocking === false
          // A later entry of the same name replaces this one: that one is judged instead.
          const replaced = typeof raw.name === 'string' && entries.slice(index + 1).some((later) => later.name === raw.name)
          if (!meant || onPurpose || replaced) return
          const runs = selected.some((hook) => hook.source.path === `hooks[${index}]`)
          expect(runs || blocked, JSON.stringify(raw)).toBe(true)
        })
      }),
      { numRuns: 500 },
    )
  })
})
