/**
 * What a fire knows of every agent without loading their modules (src/agents/vocabulary.ts) is the
 * registry's, and a fire named by `--format` loads its agent's module and its callers' only.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import { marked } from '../../src/agents/callers.ts'
import { AGENTS, DIALECTS } from '../../src/agents/registry.ts'
import { vocabularyWithTables } from '../../src/event/vocabulary-tables.ts'
import type { Payload } from '../../src/core/types.ts'
import { ROOT } from '../helpers.ts'
import { VOCABULARY } from '../../src/agents/vocabulary.ts'
import { eventAliases, namesOf } from '../../src/event/events.ts'
import { isOwnEventName } from '../../src/dialect.ts'

describe('the agents a fire knows without loading them', () => {
  test('src/agents/vocabulary.json is what the registry says (run: npm run vocabulary)', () => {
    expect(VOCABULARY).toEqual(JSON.parse(JSON.stringify(vocabularyWithTables())))
  })

  test('a dialect tells its own event names as namesOf lists them, from its own module, without building every row', () => {
    const names = eventAliases().map((row) => row.alias)
    for (const dialect of DIALECTS)
      for (const name of [...names, 'pretooluse', 'nope'])
        expect(isOwnEventName(dialect, name), `${dialect.name} ${name}`).toBe(namesOf(dialect.source).has(name))
  })

  test('every agent loads by its name; --format loads its agent and the agents that run its entries, no other', async () => {
    for (const [name] of VOCABULARY.agents) {
      vi.resetModules()
      // A fresh module graph without the registry, as a fire has.
      const loaded = await import('../../src/agents/loaded.ts')
      await loaded.loadAgentsFor(name)
      const agent = loaded.agentNamed(name)!
      expect(agent.name).toBe(name)
      for (const caller of agent.callers ?? []) expect(loaded.agentNamed(caller)?.name).toBe(caller)
      const other = VOCABULARY.agents.map(([each]) => each).find((each) => each !== name && !(agent.callers ?? []).includes(each))!
      expect(() => loaded.agentNamed(other)).toThrow(/before its module was loaded/)
    }
  })

  test('without a format every agent is loaded, in detection order', async () => {
    vi.resetModules()
    const loaded = await import('../../src/agents/loaded.ts')
    await loaded.loadAgentsFor(undefined)
    expect(loaded.dialectsInDetectionOrder().map((dialect) => dialect.name)).toEqual(VOCABULARY.formats)
    for (const [name] of VOCABULARY.agents) expect(loaded.agentNamed(name)?.name).toBe(name)
  })

  test('a fire loads the agents that run its entries only where their marks are: a plain Claude Code fire loads no Cursor', async () => {
    vi.resetModules()
    const loaded = await import('../../src/agents/loaded.ts')
    const payload = { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } }
    await loaded.loadAgentsFor('claude', { payload, env: { CLAUDE_CODE_ENTRYPOINT: 'cli' } })
    expect(loaded.agentNamed('agent-sdk')?.name).toBe('agent-sdk')
    expect(() => loaded.agentNamed('cursor')).toThrow(/before its module was loaded/)
    expect(loaded.callersOf('claude', { payload, env: {} }).map((caller) => caller.name)).toEqual([])
    const fromCursor = { ...payload, cursor_version: '3.1.0' }
    await loaded.loadAgentsFor('claude', { payload: fromCursor, env: {} })
    expect(loaded.callersOf('claude', { payload: fromCursor, env: {} }).find((caller) => caller.detect(fromCursor, {}))?.name).toBe(
      'cursor',
    )
  })

  test("callersOf holds a caller's detect and reading to its marks, whatever the caller's own functions say", async () => {
    vi.resetModules()
    const loaded = await import('../../src/agents/loaded.ts')
    const always = () => true
    const reading = { from: always, render: () => ({ stdout: '', exitCode: 0, warnings: [] }) }
    const caller = { when: 'always', detect: always, marks: { fields: ['x_mark'], variables: ['X_MARK'] }, reading, source: 'test' }
    loaded.addLoaded([
      { name: 'test-owner', label: 'Test owner', callers: ['test-caller'] },
      { name: 'test-caller', label: 'Test caller', caller },
    ])
    const [found] = loaded.callersOf('test-owner')
    expect(found?.name).toBe('test-caller')
    expect(found!.detect({}, {})).toBe(false)
    expect(found!.detect({ x_mark: 1 }, {})).toBe(true)
    expect(found!.detect({}, { X_MARK: '1' })).toBe(true)
    expect(found!.reading!.from({})).toBe(false)
    expect(found!.reading!.from({ x_mark: 1 })).toBe(true)
  })

  test("a Claude Code fire reads the look-up tables, never every agent's events or tools", async () => {
    vi.resetModules()
    const { VOCABULARY_JSON } = await import('../../src/agents/vocabulary-data.ts')
    const parse = vi.spyOn(JSON, 'parse')
    try {
      // What a fire does with the vocabulary, in a module graph without the registry: load the
      // agent, read its payload, qualify the event with its tool.
      const loaded = await import('../../src/agents/loaded.ts')
      const { prepareDialect } = await import('../../src/dialect.ts')
      const { qualifyEvent } = await import('../../src/event/event.ts')
      const payload = { hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Read', tool_input: { file_path: 'x' } }
      await loaded.loadAgentsFor('claude', { payload, env: {} })
      const prepared = prepareDialect('claude', undefined, payload)!
      expect(qualifyEvent(prepared.event!, prepared.payload).segments).toEqual(['tool', 'post_execute', 'read'])
      const parts = parse.mock.calls.flatMap(([text]) =>
        Object.entries(VOCABULARY_JSON)
          .filter(([, json]) => json === text)
          .map(([part]) => part),
      )
      expect(parts).toEqual(expect.arrayContaining(['eventNames', 'toolNames']))
      expect(parts).not.toContain('events')
      expect(parts).not.toContain('tools')
    } finally {
      parse.mockRestore()
    }
  })

  test("a payload is detected only by a dialect whose marks it has (every payload the lab saw, every e2e case's)", () => {
    const seen = new Map<string, number>()
    for (const { file, payload } of knownPayloads()) {
      const detected = DIALECTS.find((dialect) => dialect.detect(payload))
      if (detected === undefined) continue
      seen.set(detected.name, (seen.get(detected.name) ?? 0) + 1)
      expect(
        marked({ fields: detected.detectMarks }, payload, {}),
        `${detected.name} detects ${file} without its marks (${detected.detectMarks.join(', ')})`,
      ).toBe(true)
      // So detecting among the marked dialects alone finds the same one, in the same order.
      const withMarks = DIALECTS.filter((dialect) => marked({ fields: dialect.detectMarks }, payload, {}))
      expect(withMarks.find((dialect) => dialect.detect(payload))?.name, file).toBe(detected.name)
    }
    expect(seen.size).toBeGreaterThan(15)
  })

  test('a fire without --format loads only the agents whose marks its payload has: a Claude Code payload loads no Pi', async () => {
    vi.resetModules()
    const loaded = await import('../../src/agents/loaded.ts')
    const { resolveDialect } = await import('../../src/dialect.ts')
    const payload = { hook_event_name: 'PreToolUse', session_id: 's', transcript_path: '/t', tool_name: 'Bash', tool_input: {} }
    await loaded.loadAgentsFor(undefined, { payload, env: {} })
    expect(resolveDialect(undefined, payload)?.name).toBe('claude')
    expect(() => loaded.agentNamed('pi')).toThrow(/before its module was loaded/)
    expect(() => loaded.agentNamed('windsurf')).toThrow(/before its module was loaded/)
  })

  test('a caller is detected, and reads an answer its way, only where its marks are (every payload the lab saw)', () => {
    const fixtures = join(ROOT, 'test', 'agents', 'fixtures')
    const payloads = readdirSync(fixtures, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({ file, payload: JSON.parse(readFileSync(join(fixtures, file), 'utf8')) as Payload }))
      .filter(({ payload }) => typeof payload === 'object' && payload !== null && !Array.isArray(payload))
    expect(payloads.length).toBeGreaterThan(100)
    let seen = 0
    for (const agent of AGENTS) {
      const caller = agent.caller
      if (caller === undefined) continue
      for (const { file, payload } of payloads) {
        if (!caller.detect(payload, {}) && !caller.reading?.from(payload)) continue
        seen++
        expect(marked(caller.marks, payload, {}), `${agent.name}: ${file}`).toBe(true)
      }
    }
    expect(seen).toBeGreaterThan(0)
  })
})

/** Every payload the lab saw, and every e2e case's stdin that is an object. */
function knownPayloads(): Array<{ file: string; payload: Payload }> {
  const fixtures = join(ROOT, 'test', 'agents', 'fixtures')
  const lab = readdirSync(fixtures, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({ file, payload: JSON.parse(readFileSync(join(fixtures, file), 'utf8')) as unknown }))
  const cases = join(ROOT, 'test', 'e2e', 'cases')
  const e2e = readdirSync(cases)
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => {
      const parsed = JSON.parse(readFileSync(join(cases, file), 'utf8')) as { cases?: Array<{ description: string; stdin?: unknown }> }
      return (parsed.cases ?? []).map((each) => ({ file: `${file}: ${each.description}`, payload: each.stdin }))
    })
  return [...lab, ...e2e].filter(
    (each): each is { file: string; payload: Payload } =>
      typeof each.payload === 'object' && each.payload !== null && !Array.isArray(each.payload),
  )
}
