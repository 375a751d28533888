// OpenCode: the payloads the agent lab recorded from hookrun's plugin in OpenCode 1.18.33
// (test/agents/fixtures/opencode/), read as `--format opencode` reads them; the dialect's answers;
// and the plugin itself, run in-process with a stand-in for hookrun, failing closed.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import type { Decision } from '../../src/core/protocol.ts'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { opencode } from '../../src/agents/opencode.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { toolInput } from '../../src/payload/fields.ts'
import { pluginText } from '../../src/install/opencode-plugin.ts'
import { ROOT } from '../helpers.ts'

/** The payloads the lab recorded from one of the two agents (the same plugin in both). */
const fixturesOf = (agent: string) => {
  const dir = join(ROOT, 'test', 'agents', 'fixtures', agent)
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>] as const)
}

describe.each([
  ['opencode', 'OpenCode 1.18.33'],
  ['kilo', 'Kilo Code 7.7.7'],
])('%s payloads (%s, hookrun plugin), as `hookrun fire --format opencode` reads them', (agent) => {
  const fixtures = fixturesOf(agent)
  const expected: Record<string, { qualified: string; command?: string; tool?: string }> = {
    'session.created': { qualified: 'session:start' },
    'chat.message': { qualified: 'user:prompt_submit' },
    'tool.execute.before': { qualified: 'tool:pre_execute:bash', command: 'touch allowed-marker', tool: 'bash' },
    'tool.execute.after': { qualified: 'tool:post_execute:bash', command: 'touch allowed-marker', tool: 'bash' },
    'session.idle': { qualified: 'agent:stop' },
  }
  test('the lab recorded every event listed here', () => {
    expect(fixtures.map(([event]) => event).sort()).toEqual(Object.keys(expected).sort())
  })
  test.each(fixtures)('%s', (event, payload) => {
    // The plugin names the event on the command line and in the payload; auto-detection finds it too.
    expect(resolveDialect(undefined, payload)?.name).toBe('opencode')
    const prepared = prepareDialect('opencode', event, payload)!
    const fired = qualifyEvent(prepared.event!, prepared.payload, prepared.tool)
    expect(fired.qualified).toBe(expected[event]!.qualified)
    expect(fired.tool).toBe(expected[event]!.tool)
    expect((toolInput(prepared.payload) as { command?: unknown } | undefined)?.command).toBe(expected[event]!.command)
    expect(prepared.payload.cwd).toBe('/home/lab/project')
    expect(prepared.payload.session_id).toBe('ses_lab')
  })
  test("the prompt and the tool's output reach hooks in hookrun's field names", () => {
    const prompt = prepareDialect('opencode', 'chat.message', Object.fromEntries(fixtures)['chat.message']!)!
    expect(prompt.payload.prompt).toBe('"lab session gate"')
    const after = prepareDialect('opencode', 'tool.execute.after', Object.fromEntries(fixtures)['tool.execute.after']!)!
    expect(after.payload.tool_response).toBe('(no output)')
  })
})

const decision = (more: Partial<Decision>): Decision => ({
  event: 'tool:pre_execute:bash',
  decision: 'allow',
  blocked: false,
  continue: true,
  additionalContext: [],
  hooks: [],
  warnings: [],
  ...more,
})
const answer = (made: Decision, event: string) => {
  const rendered = renderFor(opencode, made, { hook: event, input: {} }, event)
  return { json: JSON.parse(rendered.stdout) as Record<string, unknown>, warnings: rendered.warnings, exitCode: rendered.exitCode }
}

describe('--format opencode answers', () => {
  test('a deny is a block with the reason; an ask is a block too (no plugin hook can ask)', () => {
    expect(answer(decision({ decision: 'deny', blocked: true, reason: 'no', decidedBy: 'g' }), 'tool.execute.before').json).toEqual({
      block: 'no',
    })
    const asked = answer(decision({ decision: 'ask', decidedBy: 'g' }), 'tool.execute.before')
    expect(asked.json.block).toMatch(/asked for confirmation.*refused/)
    expect(asked.warnings.join()).toMatch(/OpenCode cannot apply decision 'ask'/)
    expect(answer(decision({ decision: 'deny', blocked: true, reason: 'no', decidedBy: 'g' }), 'chat.message').json).toEqual({
      block: 'no',
    })
  })
  test('a rewrite is args; context joins the system prompt, or comes under a tool result after the tool', () => {
    expect(answer(decision({ updatedInput: { command: 'ls' } }), 'tool.execute.before').json).toEqual({ args: { command: 'ls' } })
    expect(answer(decision({ additionalContext: ['a', 'b'] }), 'session.created').json).toEqual({ context: 'a\n\nb' })
    expect(answer(decision({ additionalContext: ['a'] }), 'tool.execute.after').json).toEqual({ append: 'a' })
    expect(answer(decision({ updatedToolOutput: 'new' } as Partial<Decision>), 'tool.execute.after').json).toEqual({ output: 'new' })
    expect(answer(decision({ updatedPrompt: 'p' }), 'chat.message').json).toEqual({ prompt: 'p' })
  })
  test('what OpenCode cannot do is named, never dropped in silence', () => {
    const stop = answer(decision({ decision: 'deny', blocked: true, reason: 'keep going', decidedBy: 'g' }), 'session.idle')
    expect(stop.json).toEqual({})
    expect(stop.warnings.join('\n')).toMatch(/OpenCode cannot apply a block on session.idle/)
    expect(answer(decision({ updatedInput: { command: 'ls' } }), 'tool.execute.after').warnings.join('\n')).toMatch(/updatedInput/)
    const asked = answer(decision({ decision: 'ask', decidedBy: 'g' }), 'tool.execute.after')
    expect(asked).toMatchObject({
      json: {},
      warnings: [expect.stringMatching(/OpenCode cannot apply decision 'ask' on tool.execute.after/)],
    })
  })
  test('an event hookrun has no name for passes with an empty answer', () => {
    const prepared = prepareDialect('opencode', 'command.execute.before', { hook: 'command.execute.before', input: {}, output: {} })!
    expect(qualifyEvent(prepared.event!, prepared.payload, prepared.tool).qualified).toBe('command.execute.before')
    expect(answer(decision({}), 'command.execute.before')).toEqual({ json: {}, warnings: [], exitCode: 0 })
  })
})

/** The helper's folders (a fake hookrun and the loaded plugin each), removed after the file's tests. */
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

type Hooks = Record<string, (input: unknown, output?: unknown) => Promise<void>>

/** The plugin as OpenCode loads it, with `script` standing in for hookrun (it gets the plugin's argv and stdin). */
async function plugin(script: string, timeoutSeconds = 30): Promise<{ hooks: Hooks; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookrun-opencode-'))
  dirs.push(dir)
  const fake = join(dir, 'fake-hookrun')
  writeFileSync(fake, `#!/bin/sh\n${script}\n`)
  chmodSync(fake, 0o755)
  const file = join(dir, 'hookrun.js')
  writeFileSync(file, pluginText('OpenCode', 'opencode', [fake], timeoutSeconds))
  const module = (await import(pathToFileURL(file).href)) as { HookrunPlugin: (input: unknown) => Promise<Hooks> }
  return { hooks: await module.HookrunPlugin({ directory: dir, worktree: dir }), dir }
}

describe("hookrun's plugin for OpenCode", () => {
  const call = () => ({ input: { tool: 'bash', sessionID: 's', callID: 'c' }, output: { args: { command: 'rm -rf x', description: 'd' } } })

  test('a block throws with the reason; a rewrite replaces the args object in place (OpenCode runs that very object)', async () => {
    const { hooks } = await plugin(`echo '{"block":"lab says no"}'`)
    const { input, output } = call()
    await expect(hooks['tool.execute.before']!(input, output)).rejects.toThrow('lab says no')
    const rewrite = await plugin(`echo '{"args":{"command":"ls"}}'`)
    const args = call().output.args
    await rewrite.hooks['tool.execute.before']!(call().input, { args })
    expect(args).toEqual({ command: 'ls' })
  })

  test.each([
    ['hookrun is not there', 'exec /nonexistent/hookrun', /hookrun could not check this, so it is refused .*failed/],
    ['hookrun fails', 'echo "hookrun: config broken" >&2; exit 1', /refused .*exit 1.*config broken/],
    ['hookrun answers no JSON', 'echo not-json', /refused .*not JSON/],
  ])('a gate fails closed when %s', async (_case, script, message) => {
    const { hooks } = await plugin(script)
    const { input, output } = call()
    await expect(hooks['tool.execute.before']!(input, output)).rejects.toThrow(message)
    await expect(hooks['chat.message']!({ sessionID: 's' }, { message: {}, parts: [] })).rejects.toThrow(message)
  })

  test.each([
    ['[]', /an array, not an object/],
    ['42', /a number, not an object/],
    ['"deny"', /a string, not an object/],
    ['true', /a boolean, not an object/],
    ['null', /null, not an object/],
    ['{"block":true}', /its block is not a string/],
    ['{"args":"rm -rf /"}', /its args is not an object/],
  ])('a gate fails closed when hookrun exits 0 with %s, not an answer of its shape', async (printed, why) => {
    const { hooks } = await plugin(`echo '${printed}'`)
    const { input, output } = call()
    await expect(hooks['tool.execute.before']!(input, output)).rejects.toThrow(/hookrun could not check this, so it is refused/)
    await expect(hooks['tool.execute.before']!(input, output)).rejects.toThrow(why)
    await expect(hooks['chat.message']!({ sessionID: 's' }, { message: {}, parts: [] })).rejects.toThrow(why)
  })

  test('an empty answer lets the call through unchanged; a field hookrun does not give is left alone', async () => {
    for (const printed of ['{}', '{"later":1}']) {
      const { hooks } = await plugin(`echo '${printed}'`)
      const { input, output } = call()
      await hooks['tool.execute.before']!(input, output)
      expect(output.args).toEqual({ command: 'rm -rf x', description: 'd' })
    }
  })

  test('a gate fails closed when hookrun gives no answer in time', async () => {
    const { hooks } = await plugin('sleep 5', 1)
    const { input, output } = call()
    await expect(hooks['tool.execute.before']!(input, output)).rejects.toThrow(/no answer in 1 s/)
  })

  test('the payload is what OpenCode passed, with the session folder; context reaches the system prompt of that session', async () => {
    const { hooks, dir } = await plugin(
      `cat > "$(dirname "$0")/stdin.json"; echo "$@" > "$(dirname "$0")/argv"; echo '{"context":"LAB-CONTEXT"}'`,
    )
    await hooks.event!({ event: { type: 'session.created', properties: { sessionID: 's', info: { id: 's' } } } })
    expect(readFileSync(join(dir, 'argv'), 'utf8').trim()).toBe('fire session.created --format opencode')
    expect(JSON.parse(readFileSync(join(dir, 'stdin.json'), 'utf8'))).toEqual({
      hook: 'session.created',
      input: { sessionID: 's', info: { id: 's' } },
      output: {},
      directory: dir,
      worktree: dir,
    })
    const system: string[] = []
    await hooks['experimental.chat.system.transform']!({ sessionID: 's' }, { system })
    expect(system).toEqual(['LAB-CONTEXT'])
    const other: string[] = []
    await hooks['experimental.chat.system.transform']!({ sessionID: 'other' }, { system: other })
    expect(other).toEqual([])
  })

  test('after a tool: output replaced and appended; a failure there is told, and the result stays', async () => {
    const { hooks } = await plugin(`echo '{"output":"new","append":"note"}'`)
    const output = { title: 't', output: 'old', metadata: {} }
    await hooks['tool.execute.after']!({ tool: 'bash', sessionID: 's', callID: 'c', args: {} }, output)
    expect(output.output).toBe('new\n\nnote')
    const failing = await plugin('exit 1')
    const kept = { title: 't', output: 'old', metadata: {} }
    await failing.hooks['tool.execute.after']!({ tool: 'bash', sessionID: 's', callID: 'c', args: {} }, kept)
    expect(kept.output).toBe('old')
  })

  test('a new prompt replaces the text parts', async () => {
    const { hooks } = await plugin(`echo '{"prompt":"rewritten"}'`)
    const parts = [
      { type: 'text', text: 'one' },
      { type: 'file', url: 'x' },
      { type: 'text', text: 'two' },
    ]
    await hooks['chat.message']!({ sessionID: 's' }, { message: {}, parts })
    expect(parts.map((part) => part.text)).toEqual(['rewritten', undefined, ''])
  })
})
