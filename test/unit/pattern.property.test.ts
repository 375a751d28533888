/**
 * Property tests over event patterns: whatever a config says and whatever an agent fires, compiling
 * and matching never throws and never takes more than a few milliseconds; and the matching rules
 * of DESIGN §3 hold for every generated event.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { EventPatternSchema } from '../../src/config/schema.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { compilePattern, eventKeys, MAX_SEGMENT_LENGTH, MAX_WILDCARDS, patternKeys, patternProblem } from '../../src/event/pattern.ts'
import { cpuMs } from '../helpers.ts'

/**
 * CPU time, generous: the worst accepted glob (three wildcards against a 256-character name) takes
 * ~30 ms on its first, cold run, and more on a loaded machine (51 ms seen in a full run); one
 * wildcard more, which is refused, takes over a second, and unbounded backtracking far longer.
 */
const FEW_MS = 250

/** Time one accepted pattern against some segments; rejected patterns are skipped, as `fire` skips them. */
function timeMatch(pattern: string, events: readonly (readonly string[])[]): number {
  return cpuMs(() => {
    if (patternProblem(pattern) === undefined) {
      const compiled = compilePattern(pattern)
      for (const segments of events) expect(typeof compiled.matches(segments)).toBe('boolean')
    }
  }).ms
}

const globChar = fc.constantFrom(
  'a',
  'b',
  'x',
  '_',
  '-',
  '.',
  '*',
  '?',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '!',
  '+',
  '@',
  '|',
  ':',
  ',',
  ' ',
  '\\',
  '^',
)
const segment = fc.string({ unit: fc.constantFrom('a', 'b', 'x', '_', '.', '-', '/'), maxLength: MAX_SEGMENT_LENGTH })
const event = fc.array(segment, { minLength: 1, maxLength: 3 })

describe('patterns: no input crashes or hangs', () => {
  test('any pattern text is accepted or refused with a reason, and matching takes a few milliseconds', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: globChar, maxLength: 60 }), fc.string({ maxLength: 60 })),
        fc.array(event, { maxLength: 5 }),
        (pattern, events) => {
          const problem = patternProblem(pattern)
          expect(problem === undefined || typeof problem === 'string').toBe(true)
          // The schema and patternProblem agree: what one refuses the other refuses.
          expect(EventPatternSchema.safeParse(pattern).success).toBe(problem === undefined)
          expect(timeMatch(pattern, events)).toBeLessThan(FEW_MS)
        },
      ),
      { numRuns: 500 },
    )
  })

  test('globs built to backtrack are refused, and every accepted one stays fast on its worst input', () => {
    let accepted = 0
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom('a', 'ab', '?', '[a-z]'),
        fc.constantFrom('b', '', 'x?'),
        (stars, filler, end) => {
          const glob = `${`*${filler}`.repeat(stars - 1)}*${end}`
          const pattern = `tool:pre_execute:${glob}`
          const worst = ['a'.repeat(MAX_SEGMENT_LENGTH), 'ab'.repeat(MAX_SEGMENT_LENGTH / 2), `${'a'.repeat(MAX_SEGMENT_LENGTH - 1)}c`]
          if (stars > MAX_WILDCARDS) expect(patternProblem(pattern)).toMatch(/wildcards; at most/)
          else accepted++
          expect(
            timeMatch(
              pattern,
              worst.map((subject) => ['tool', 'pre_execute', subject]),
            ),
          ).toBeLessThan(FEW_MS)
        },
      ),
      { numRuns: 100 },
    )
    expect(accepted).toBeGreaterThan(0)
  })

  test('an event segment longer than the limit is refused before any pattern sees it', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_SEGMENT_LENGTH + 1, max: 100_000 }), (length) => {
        expect(() => qualifyEvent('tool:pre_execute', { tool_name: 'a'.repeat(length) })).toThrow(/at most 256/)
        expect(() => qualifyEvent(`tool:${'a'.repeat(length)}`, {})).toThrow(/at most 256/)
      }),
      { numRuns: 20 },
    )
  })
})

describe('patterns: the matching rules hold for every event', () => {
  const name = fc.stringMatching(/^[a-z][a-z_]{0,11}$/)
  const firedEvent = fc.tuple(name, name, fc.option(fc.stringMatching(/^[A-Za-z][\w-]{0,15}$/), { nil: undefined }))

  test('a literal pattern of the first N segments matches, in any case; one segment more never does', () => {
    fc.assert(
      fc.property(firedEvent, fc.integer({ min: 1, max: 3 }), ([domain, action, tool], n) => {
        const fired = qualifyEvent(`${domain}:${action}`, {}, tool)
        const prefix = fired.segments.slice(0, n).join(':')
        expect(compilePattern(prefix).matches(fired.segments)).toBe(true)
        expect(compilePattern(prefix.toUpperCase()).matches(fired.segments)).toBe(true)
        if (fired.segments.length < 3) expect(compilePattern(`${fired.qualified}:x`).matches(fired.segments)).toBe(false)
      }),
    )
  })

  test("'*' matches every event; a segment '*' matches any value there", () => {
    fc.assert(
      fc.property(firedEvent, ([domain, action, tool]) => {
        const fired = qualifyEvent(`${domain}:${action}`, {}, tool)
        expect(compilePattern('*').matches(fired.segments)).toBe(true)
        expect(compilePattern(`${domain}:*`).matches(fired.segments)).toBe(true)
        expect(compilePattern(`*:${action}`).matches(fired.segments)).toBe(true)
      }),
    )
  })

  test("',' is any of the alternatives and '|' any of the choices", () => {
    fc.assert(
      fc.property(firedEvent, name, name, ([domain, action, tool], other, another) => {
        const fired = qualifyEvent(`${domain}:${action}`, {}, tool)
        const matches = (pattern: string) => compilePattern(pattern).matches(fired.segments)
        const a = `${domain}:${other}`
        const b = `${another}:${action}`
        expect(matches(`${a},${b}`)).toBe(matches(a) || matches(b))
        expect(matches(`${domain}:${other}|${action}`)).toBe(true)
      }),
    )
  })
})

describe('patterns that can never match or would backtrack are refused', () => {
  test.each([
    ['tool:pre execute', /characters no event name has/],
    ['tool:pre_execute;', /characters no event name has/],
    ['tool:{pre,post}_execute', /',' separates whole patterns/],
    ['tool:pre_[execute', /unbalanced/],
    ['tool:pre_execute:\\*', /backslash/],
    ['tool:+(a)', /extglob/],
    ['tool:pre_execute:*a*b*c*d', /4 '\*' wildcards/],
  ])('%s', (pattern, message) => {
    expect(patternProblem(pattern)).toMatch(message)
    expect(EventPatternSchema.safeParse(pattern).success).toBe(false)
  })

  test('subjects may hold characters event names cannot (tool names come from the agent)', () => {
    expect(patternProblem('tool:pre_execute:my tool')).toBeUndefined()
    expect(patternProblem('tool:*:mcp__*__*')).toBeUndefined()
  })
})

describe('the index keys selection goes by never leave out a pattern that matches', () => {
  // Names, aliases, tool names in several agents' spellings, globs and choices, in any case.
  const part = fc.constantFrom(
    'tool',
    'session',
    'notification',
    'user',
    'pre_execute',
    'post_execute',
    'start',
    'prompt_submit',
    'PreToolUse',
    'SessionStart',
    'tool_start',
    'Bash',
    'bash',
    'Shell',
    'run_shell_command',
    'Write',
    'edit',
    'mcp__x__y',
    '*',
    'pre_*',
    't?ol',
    '[pt]ool',
    'b*',
    '',
  )
  const choices = fc.array(part, { minLength: 1, maxLength: 3 }).map((list) => list.join('|'))
  const alternative = fc.array(choices, { minLength: 1, maxLength: 4 }).map((list) => list.join(':'))
  const pattern = fc.array(alternative, { minLength: 1, maxLength: 3 }).map((list) => list.join(','))
  const eventName = fc.constantFrom(
    'tool:pre_execute',
    'tool:post_execute',
    'session:start',
    'notification',
    'PreToolUse',
    'user:prompt_submit',
    'SessionStart',
    'tool_start',
  )
  const toolName = fc.option(fc.constantFrom('Bash', 'Shell', 'run_shell_command', 'Write', 'mcp__x__y', 'Edit'), { nil: undefined })

  test('whenever a pattern matches an event, the two share a key', () => {
    let matched = 0
    fc.assert(
      fc.property(pattern, eventName, toolName, fc.boolean(), (source, name, tool, upper) => {
        const text = upper ? source.toUpperCase() : source
        const fired = qualifyEvent(name, {}, tool)
        const shared = patternKeys(text).some((key) => eventKeys(fired.segments).includes(key))
        if (compilePattern(text).matches(fired.segments)) {
          matched++
          expect(shared).toBe(true)
        }
      }),
      { numRuns: 3000 },
    )
    expect(matched).toBeGreaterThan(100)
  })

  test('a pattern for another tool or action shares no key with the event: it is not compiled', () => {
    const fired = qualifyEvent('tool:pre_execute', {}, 'Bash')
    for (const other of ['tool:pre_execute:tool7', 'tool:post_execute', 'PostToolUse:Bash', 'session:*']) {
      expect(patternKeys(other).some((key) => eventKeys(fired.segments).includes(key))).toBe(false)
    }
    for (const same of [
      'tool:pre_execute:run_shell_command',
      'PreToolUse:Bash',
      'tool:*:bash',
      'tool',
      '*',
      'tool:pre_execute|post_execute',
    ]) {
      expect(patternKeys(same).some((key) => eventKeys(fired.segments).includes(key))).toBe(true)
    }
  })
})
