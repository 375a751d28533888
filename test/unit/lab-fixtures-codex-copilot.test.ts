// The payloads the agent lab recorded from real agent CLIs (test/agents/fixtures/<agent>/<Event>.json),
// read the way `hookrun fire --format <agent>` reads them: which event, which tool, which command.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { prepareDialect, resolveDialect } from '../../src/dialect.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { toolInput } from '../../src/payload/fields.ts'
import { ROOT } from '../helpers.ts'

const FIXTURES = join(ROOT, 'test', 'agents', 'fixtures')

function fixtures(agent: string): [string, Record<string, unknown>][] {
  const dir = join(FIXTURES, agent)
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>])
}

/** What hookrun makes of a fixture: the qualified event and the shell command it sees. */
function seen(format: string, eventArg: string | undefined, payload: Record<string, unknown>) {
  const prepared = prepareDialect(format, eventArg, payload)!
  const fired = qualifyEvent(prepared.event!, prepared.payload, prepared.tool)
  const command = (toolInput(prepared.payload) as { command?: unknown } | undefined)?.command
  return { dialect: prepared.dialect.name, agentEvent: prepared.agentEvent, qualified: fired.qualified, tool: fired.tool, command }
}

describe('Codex 0.169 payloads (codex exec), as `hookrun fire --format codex` reads them', () => {
  // Codex names the event in the payload: the router's command line does not.
  const expected: Record<string, { qualified: string; command?: string }> = {
    SessionStart: { qualified: 'session:start' },
    UserPromptSubmit: { qualified: 'user:prompt_submit' },
    PreModelRequest: { qualified: 'premodelrequest' },
    PreToolUse: { qualified: 'tool:pre_execute:bash', command: 'echo lab-fixture' },
    PostToolUse: { qualified: 'tool:post_execute:bash', command: 'echo lab-fixture' },
    Stop: { qualified: 'agent:stop' },
    SessionEnd: { qualified: 'session:end' },
  }
  test('the lab recorded every event listed here', () => {
    expect(
      fixtures('codex')
        .map(([event]) => event)
        .sort(),
    ).toEqual(Object.keys(expected).sort())
  })
  test.each(fixtures('codex'))('%s', (event, payload) => {
    const read = seen('codex', undefined, payload)
    expect(read.qualified).toBe(expected[event]!.qualified)
    expect(read.command).toBe(expected[event]!.command)
    if (read.tool !== undefined) expect(read.tool).toBe('Bash')
  })
  // PreModelRequest is an event hookrun has no name for: no dialect claims it without --format.
  test('auto-detection: a turn event (with turn_id) is Codex; SessionStart and SessionEnd carry none and read as Claude Code', () => {
    const detected = Object.fromEntries(fixtures('codex').map(([event, payload]) => [event, resolveDialect(undefined, payload)?.name]))
    expect(detected).toEqual({
      PostToolUse: 'codex',
      PreModelRequest: undefined,
      PreToolUse: 'codex',
      SessionEnd: 'claude',
      SessionStart: 'claude',
      Stop: 'codex',
      UserPromptSubmit: 'codex',
    })
  })
})

describe('Copilot CLI 1.0.102 payloads, as `hookrun fire <event> --format copilot` reads them', () => {
  // Copilot's camelCase payloads do not name the event: the router's command line does (the file name here).
  const expected: Record<string, { qualified: string; command?: string }> = {
    sessionStart: { qualified: 'session:start' },
    userPromptSubmitted: { qualified: 'user:prompt_submit' },
    userPromptTransformed: { qualified: 'userprompttransformed' },
    preToolUse: { qualified: 'tool:pre_execute:bash', command: 'echo lab-fixture' },
    // toolInput, not toolArgs, and an object: the command is read all the same.
    permissionRequest: { qualified: 'permission:prompt:bash', command: 'echo lab-fixture' },
    postToolUse: { qualified: 'tool:post_execute:bash', command: 'echo lab-fixture' },
    agentStop: { qualified: 'agent:stop' },
    sessionEnd: { qualified: 'session:end' },
  }
  test('the lab recorded every event listed here', () => {
    expect(
      fixtures('copilot')
        .map(([event]) => event)
        .sort(),
    ).toEqual(Object.keys(expected).sort())
  })
  test.each(fixtures('copilot'))('%s', (event, payload) => {
    const read = seen('copilot', event, payload)
    expect(read.qualified).toBe(expected[event]!.qualified)
    expect(read.command).toBe(expected[event]!.command)
  })
  test('toolArgs arrives as an object (Copilot 1.0.102), and as a JSON string from older versions: the same tool_input', () => {
    const [, payload] = fixtures('copilot').find(([event]) => event === 'preToolUse')!
    expect(typeof payload.toolArgs).toBe('object')
    const asString = { ...payload, toolArgs: JSON.stringify(payload.toolArgs) }
    expect(prepareDialect('copilot', 'preToolUse', payload)!.payload.tool_input).toEqual(payload.toolArgs)
    expect(prepareDialect('copilot', 'preToolUse', asString)!.payload.tool_input).toEqual(payload.toolArgs)
  })
  test('every recorded payload is detected as Copilot', () => {
    for (const [, payload] of fixtures('copilot')) expect(resolveDialect(undefined, payload)?.name).toBe('copilot')
  })
})
