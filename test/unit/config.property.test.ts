/**
 * Property tests over config parsing: whatever text a hooks.json holds, parsing never throws, takes
 * a few milliseconds, keeps only entries the schema accepts, and names the file and JSON path of
 * every problem.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { mergeHooks } from '../../src/config/load.ts'
import type { ConfigDocument } from '../../src/config/document.ts'
import { parseConfigDocument } from '../../src/config/parse.ts'
import { HookSchema } from '../../src/config/schema.ts'
import { cpuMs } from '../helpers.ts'

const FEW_MS = 50
const ref = { layer: 'project' as const, file: '/p/.hookrun/hooks.json' }

function parseTimed(text: string): { document: ConfigDocument; ms: number } {
  const parse = () =>
    cpuMs(() => {
      const parsed = parseConfigDocument(ref, text)
      mergeHooks(parsed.entries, parsed.problems)
      return parsed
    })
  const first = parse()
  // A garbage collection can land in any one parse; an input that is really slow is slow twice.
  return { document: first.value, ms: first.ms < FEW_MS ? first.ms : Math.min(first.ms, parse().ms) }
}

function checkDocument(document: ConfigDocument): void {
  for (const { entry } of document.entries) {
    // A spec is a schema-valid hook plus what normalising added (its shape, JSON path, …).
    const { shape: _shape, path: _path, envPrefixes: _prefixes, ordinal: _ordinal, when: _when, ...hook } = entry
    expect(HookSchema.safeParse(hook).success, JSON.stringify(entry)).toBe(true)
  }
  for (const problem of document.problems) {
    expect(problem.file).toBe(ref.file)
    expect(problem.message).not.toBe('')
    expect(problem.message).not.toContain('\n')
  }
}

/** Values of every JSON type, for any field. */
const anyJson = fc.jsonValue({ maxDepth: 3 })

/** Hook-shaped objects whose fields hold sometimes the right type, sometimes anything. */
const hookish = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 10 }), anyJson),
    event: fc.oneof(
      fc.constantFrom('tool:pre_execute', 'tool:*:bash', '*', 'session:start,session:end', 'x:y:z:w', ''),
      fc.string({ maxLength: 20 }),
      anyJson,
    ),
    command: fc.oneof(fc.constant('true'), anyJson),
    timeout: fc.oneof(fc.double(), fc.integer(), anyJson),
    blocking: fc.oneof(fc.boolean(), anyJson),
    onError: fc.oneof(fc.constantFrom('block', 'allow', 'maybe'), anyJson),
    enabled: fc.oneof(fc.boolean(), anyJson),
    env: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })), anyJson),
    cwd: anyJson,
    extra: anyJson,
  },
  { requiredKeys: [] },
)

describe('config parsing: no input crashes or hangs', () => {
  test('any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const { document, ms } = parseTimed(text)
        checkDocument(document)
        expect(ms).toBeLessThan(FEW_MS)
      }),
      { numRuns: 300 },
    )
  })

  test('any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const { document, ms } = parseTimed(JSON.stringify(value))
        checkDocument(document)
        expect(ms).toBeLessThan(FEW_MS)
      }),
      { numRuns: 300 },
    )
  })

  test('files of hook-shaped entries with fields of any type: good entries kept, bad ones named', () => {
    fc.assert(
      fc.property(fc.array(hookish, { maxLength: 8 }), fc.option(anyJson), (hooks, settings) => {
        const { document, ms } = parseTimed(JSON.stringify({ hooks, ...(settings !== null && { log: settings }) }))
        checkDocument(document)
        expect(ms).toBeLessThan(FEW_MS)
        // Every entry either survives or has an error naming it (a warning alone never drops one).
        const kept = new Set(document.entries.map((parsed) => parsed.index))
        hooks.forEach((_, index) => {
          const named = document.problems.some((problem) => problem.severity === 'error' && problem.path.startsWith(`hooks[${index}]`))
          expect(kept.has(index) || named).toBe(true)
        })
        // A bad setting is ignored alone: it never costs the file its hooks.
        for (const problem of document.problems.filter((problem) => problem.path.startsWith('log')))
          expect(problem.message).toMatch(/setting ignored$/)
      }),
      { numRuns: 300 },
    )
  })
})
