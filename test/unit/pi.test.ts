// Pi: the payloads the agent lab recorded from hookrun's extension in Pi 1.6.0
// (test/agents/fixtures/pi/), read as `--format pi` reads them; the dialect's answers; and the
// extension itself, run in-process with a stand-in for hookrun, failing closed.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import type { Decision } from '../../src/core/protocol.ts'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { pi } from '../../src/agents/pi.ts'
import { piExtensionText } from '../../src/agents/pi-extension.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { toolInput } from '../../src/payload/fields.ts'
import { ROOT } from '../helpers.ts'

const FIXTURES = join(ROOT, 'test', 'agents', 'fixtures', 'pi')
const fixtures = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Record<string, unknown>] as const)

describe('Pi 1.6.0 payloads (hookrun extension), as `hookrun fire --format pi` reads them', () => {
  const expected: Record<string, { qualified: string; command?: string; tool?: string }> = {
    session_start: { qualified: 'session:start' },
    input: { qualified: 'user:prompt_submit' },
    agent_start: { qualified: 'agent:start' },
    tool_call: { qualified: 'tool:pre_execute:bash', command: 'touch allowed-marker', tool: 'bash' },
    tool_result: { qualified: 'tool:post_execute:bash', command: 'touch allowed-marker', tool: 'bash' },
    agent_end: { qualified: 'agent:stop' },
    session_shutdown: { qualified: 'session:end' },
  }
  test('the lab recorded every event listed here', () => {
    expect(fixtures.map(([event]) => event).sort()).toEqual(Object.keys(expected).sort())
  })
  test.each(fixtures)('%s', (event, payload) => {
    expect(resolveDialect(undefined, payload)?.name).toBe('pi')
    const prepared = prepareDialect('pi', event, payload)!
    const fired = qualifyEvent(prepared.event!, prepared.payload, prepared.tool)
    expect(fired.qualified).toBe(expected[event]!.qualified)
    expect(fired.tool).toBe(expected[event]!.tool)
    expect((toolInput(prepared.payload) as { command?: unknown } | undefined)?.command).toBe(expected[event]!.command)
    expect(prepared.payload.cwd).toBe('/home/lab/project')
    expect(prepared.payload.session_id).toBe('lab-session')
  })
  test("the prompt, the tool's output and the run's last answer reach hooks in hookrun's field names", () => {
    const byEvent = Object.fromEntries(fixtures)
    expect(prepareDialect('pi', 'input', byEvent.input!)!.payload.prompt).toBe('lab session gate')
    expect(prepareDialect('pi', 'tool_result', byEvent.tool_result!)!.payload.tool_response).toBe('(no output)')
    expect(byEvent.agent_end!.last_assistant_message).toBe('done')
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
  const rendered = renderFor(pi, made, { pi_event: event, event: {} }, event)
  return { json: JSON.parse(rendered.stdout) as Record<string, unknown>, warnings: rendered.warnings }
}

describe('--format pi answers', () => {
  test("a deny blocks a tool call or a prompt; an ask is Pi's confirmation on a tool call and a refusal of a prompt", () => {
    expect(answer(decision({ decision: 'deny', blocked: true, reason: 'no', decidedBy: 'g' }), 'tool_call').json).toEqual({ block: 'no' })
    expect(answer(decision({ decision: 'deny', blocked: true, reason: 'no', decidedBy: 'g' }), 'input').json).toEqual({ block: 'no' })
    expect(answer(decision({ decision: 'ask', reason: 'sure?', decidedBy: 'g' }), 'tool_call').json).toEqual({
      ask: "hook 'g' asks for confirmation: sure?",
    })
    const prompt = answer(decision({ decision: 'ask', decidedBy: 'g' }), 'input')
    expect(prompt.json.block).toMatch(/Pi cannot ask about a prompt, so hookrun refused it/)
    expect(prompt.warnings.join()).toMatch(/Pi cannot apply decision 'ask' on input/)
  })
  test('a rewrite is input; context comes under a tool result after the tool, else for the model; a new result is content', () => {
    expect(answer(decision({ updatedInput: { command: 'ls' } }), 'tool_call').json).toEqual({ input: { command: 'ls' } })
    expect(answer(decision({ additionalContext: ['a', 'b'] }), 'session_start').json).toEqual({ context: 'a\n\nb' })
    expect(answer(decision({ additionalContext: ['a'] }), 'tool_result').json).toEqual({ append: 'a' })
    expect(answer(decision({ updatedToolOutput: 'new' } as Partial<Decision>), 'tool_result').json).toEqual({ content: 'new' })
    expect(answer(decision({ updatedPrompt: 'p' }), 'input').json).toEqual({ prompt: 'p' })
  })
  test('what Pi cannot do is named, never dropped in silence', () => {
    const stop = answer(decision({ decision: 'deny', blocked: true, reason: 'keep going', decidedBy: 'g' }), 'agent_end')
    expect(stop).toEqual({ json: {}, warnings: [expect.stringMatching(/Pi cannot apply a block on agent_end/)] })
    expect(answer(decision({ updatedInput: { command: 'ls' } }), 'tool_result').warnings.join()).toMatch(/updatedInput/)
    expect(answer(decision({ additionalContext: ['a'] }), 'session_shutdown').warnings.join()).toMatch(/the session is ending/)
  })
})

/** The helper's folders (a fake hookrun and the loaded plugin each), removed after the file's tests. */
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

type Handler = (event: Record<string, unknown>, ctx: Record<string, unknown>) => Promise<unknown> | unknown

/** The extension as Pi loads it, with `script` standing in for hookrun (it gets the extension's argv and stdin). */
async function extension(script: string, timeoutSeconds = 30): Promise<{ on: Record<string, Handler>; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookrun-pi-'))
  dirs.push(dir)
  const fake = join(dir, 'fake-hookrun')
  writeFileSync(fake, `#!/bin/sh\n${script}\n`)
  chmodSync(fake, 0o755)
  const file = join(dir, 'hookrun.js')
  writeFileSync(file, piExtensionText([fake], timeoutSeconds))
  const module = (await import(pathToFileURL(file).href)) as { default: (pi: unknown) => void }
  const on: Record<string, Handler> = {}
  module.default({ on: (name: string, handler: Handler) => (on[name] = handler) })
  return { on, dir }
}

const ctx = (more: Record<string, unknown> = {}) => ({ cwd: tmpdir(), hasUI: false, sessionManager: { getSessionId: () => 's' }, ...more })
const call = () => ({ type: 'tool_call', toolName: 'bash', toolCallId: 'c1', input: { command: 'rm -rf x', timeout: 5 } })

describe("hookrun's extension for Pi", () => {
  test('a block is {block, reason}; a rewrite replaces event.input in place (Pi runs that very object)', async () => {
    const { on } = await extension(`echo '{"block":"lab says no"}'`)
    expect(await on.tool_call!(call(), ctx())).toEqual({ block: true, reason: 'lab says no' })
    const rewrite = await extension(`echo '{"input":{"command":"ls"}}'`)
    const event = call()
    const input = event.input
    expect(await rewrite.on.tool_call!(event, ctx())).toBeUndefined()
    expect(input).toEqual({ command: 'ls' })
  })

  test("an ask is Pi's confirmation where it has a UI; in print mode no one can answer, so it is refused", async () => {
    const { on } = await extension(`echo '{"ask":"hook g asks"}'`)
    expect(await on.tool_call!(call(), ctx())).toEqual({
      block: true,
      reason: 'hook g asks; no one can confirm it in this mode, so it is refused',
    })
    const asked: string[] = []
    const yes = ctx({ hasUI: true, ui: { confirm: async (_title: string, text: string) => asked.push(text) > 0 } })
    expect(await on.tool_call!(call(), yes)).toBeUndefined()
    expect(asked).toEqual(['hook g asks'])
    const no = ctx({ hasUI: true, ui: { confirm: async () => false } })
    expect(await on.tool_call!(call(), no)).toEqual({ block: true, reason: 'hook g asks: not confirmed' })
  })

  test.each([
    ['hookrun is not there', 'exec /nonexistent/hookrun', /hookrun could not check this, so it is refused .*failed/],
    ['hookrun fails', 'echo "hookrun: config broken" >&2; exit 1', /refused .*exit 1.*config broken/],
    ['hookrun answers no JSON', 'echo not-json', /refused .*not JSON/],
    ['hookrun answers another shape', `echo '{"block":true}'`, /its block is not a string/],
    ['hookrun answers a list', 'echo "[]"', /an array, not an object/],
  ])('a gate fails closed when %s', async (_case, script, message) => {
    const { on } = await extension(script)
    const refused = (await on.tool_call!(call(), ctx())) as { block: boolean; reason: string }
    expect(refused.block).toBe(true)
    expect(refused.reason).toMatch(message)
    expect(await on.input!({ type: 'input', text: 'go', source: 'interactive' }, ctx())).toEqual({ action: 'handled' })
  })

  test('a gate fails closed when hookrun gives no answer in time', async () => {
    const { on } = await extension('sleep 5', 1)
    expect(await on.tool_call!(call(), ctx())).toMatchObject({ block: true, reason: expect.stringMatching(/no answer in 1 s/) })
  })

  test('the payload is what Pi passed; context reaches the next run, or comes under that call’s result', async () => {
    const { on, dir } = await extension(
      `cat > "$(dirname "$0")/stdin.json"; echo "$@" > "$(dirname "$0")/argv"; echo '{"context":"LAB-CONTEXT"}'`,
    )
    await on.session_start!({ type: 'session_start', reason: 'startup' }, ctx())
    expect(readFileSync(join(dir, 'argv'), 'utf8').trim()).toBe('fire session_start --format pi')
    expect(JSON.parse(readFileSync(join(dir, 'stdin.json'), 'utf8'))).toEqual({
      pi_event: 'session_start',
      event: { type: 'session_start', reason: 'startup' },
      cwd: tmpdir(),
      session_id: 's',
    })
    expect(await on.before_agent_start!({ type: 'before_agent_start', prompt: 'go' }, ctx())).toEqual({
      message: { customType: 'hookrun', content: 'LAB-CONTEXT', display: false },
    })
    // Sent once.
    expect(await on.before_agent_start!({ type: 'before_agent_start', prompt: 'go' }, ctx())).toBeUndefined()
    await on.tool_call!(call(), ctx())
    const result = await on.tool_result!(
      { type: 'tool_result', toolName: 'bash', toolCallId: 'c1', content: [{ type: 'text', text: 'out' }] },
      ctx(),
    )
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'out' },
        { type: 'text', text: 'LAB-CONTEXT' },
      ],
    })
  })

  test("agent_end sends the run's last answer, not its whole conversation", async () => {
    const { on, dir } = await extension(`cat > "$(dirname "$0")/stdin.json"; echo '{}'`)
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'all done' }] },
    ]
    await on.agent_end!({ type: 'agent_end', messages }, ctx())
    const sent = JSON.parse(readFileSync(join(dir, 'stdin.json'), 'utf8')) as Record<string, unknown>
    expect(sent.event).toEqual({ type: 'agent_end' })
    expect(sent.last_assistant_message).toBe('all done')
  })

  test('after a tool: content replaced and appended; a failure there is told, and the result stays', async () => {
    const { on } = await extension(`echo '{"content":"new","append":"note"}'`)
    const event = { type: 'tool_result', toolName: 'bash', toolCallId: 'c', content: [{ type: 'text', text: 'old' }] }
    expect(await on.tool_result!(event, ctx())).toEqual({
      content: [
        { type: 'text', text: 'new' },
        { type: 'text', text: 'note' },
      ],
    })
    const failing = await extension('exit 1')
    expect(await failing.on.tool_result!(event, ctx())).toBeUndefined()
  })

  test('a new prompt transforms the input; a blocked one is handled (dropped)', async () => {
    const { on } = await extension(`echo '{"prompt":"rewritten"}'`)
    expect(await on.input!({ type: 'input', text: 'go', source: 'interactive' }, ctx())).toEqual({ action: 'transform', text: 'rewritten' })
    const blocked = await extension(`echo '{"block":"not that"}'`)
    expect(await blocked.on.input!({ type: 'input', text: 'go', source: 'interactive' }, ctx())).toEqual({ action: 'handled' })
  })
})
