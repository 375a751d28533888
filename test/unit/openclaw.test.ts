// OpenClaw: payloads of hookrun's plugin in the shape its typed hooks get them (openclaw 2026.9.6,
// docs/plugins/hooks/tool-policy.md, and as the lab's run logged them: test/agents/openclaw.lab.ts), read as
// `--format openclaw` reads them; the dialect's answers; and the plugin itself, run in-process
// with a stand-in for hookrun, failing closed.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import type { Decision } from '../../src/core/protocol.ts'
import { prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { loadAgentsFor } from '../../src/agents/loaded.ts'
import { openclaw } from '../../src/agents/openclaw.ts'
import { openclawPluginText } from '../../src/agents/openclaw-plugin.ts'
import { qualifyEvent } from '../../src/event/event.ts'

// The agents these tests name, loaded as a fire loads them (src/agents/loaded.ts).
await loadAgentsFor(undefined)

const toolCall = (more: Record<string, unknown> = {}) => ({
  openclaw_hook: 'before_tool_call',
  event: { toolName: 'exec', params: { command: 'rm -rf x' }, toolCallId: 't1', runId: 'r1', ...more },
  ctx: { agentId: 'main', sessionId: 'sess-1', toolName: 'exec' },
  cwd: '/work/project',
})

describe('--format openclaw reads', () => {
  test('before_tool_call on exec is tool:pre_execute:bash, with the params as the tool input and the session', () => {
    const payload = toolCall()
    expect(resolveDialect(undefined, payload)?.name).toBe('openclaw')
    const prepared = prepareDialect('openclaw', 'before_tool_call', payload)!
    expect(qualifyEvent(prepared.event!, prepared.payload, prepared.tool).qualified).toBe('tool:pre_execute:bash')
    expect(prepared.payload).toMatchObject({ tool_input: { command: 'rm -rf x' }, session_id: 'sess-1', cwd: '/work/project' })
  })
  test("Code Mode's exec (JavaScript, not a shell) is not read as bash", () => {
    const prepared = prepareDialect('openclaw', 'before_tool_call', toolCall({ toolKind: 'code_mode_exec' }))!
    expect(qualifyEvent(prepared.event!, prepared.payload, prepared.tool).qualified).toBe('tool:pre_execute:code_mode_exec')
  })
  test('before_agent_run is the prompt gate, with the prompt', () => {
    const payload = { openclaw_hook: 'before_agent_run', event: { prompt: 'hello' }, ctx: { sessionId: 's' }, cwd: '/w' }
    const prepared = prepareDialect('openclaw', 'before_agent_run', payload)!
    expect(qualifyEvent(prepared.event!, prepared.payload, prepared.tool).qualified).toBe('user:prompt_submit')
    expect(prepared.payload.prompt).toBe('hello')
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
  const rendered = renderFor(openclaw, made, { openclaw_hook: event, event: {} }, event)
  return { json: JSON.parse(rendered.stdout) as Record<string, unknown>, warnings: rendered.warnings }
}

describe('--format openclaw answers', () => {
  test('a deny blocks a tool call or a run; an ask is the plugin approval on a tool call, a refusal of a run', () => {
    expect(answer(decision({ decision: 'deny', blocked: true, reason: 'no', decidedBy: 'g' }), 'before_tool_call').json).toEqual({
      block: 'no',
    })
    expect(answer(decision({ decision: 'deny', blocked: true, reason: 'no', decidedBy: 'g' }), 'before_agent_run').json).toEqual({
      block: 'no',
    })
    expect(answer(decision({ decision: 'ask', reason: 'sure?', decidedBy: 'g' }), 'before_tool_call').json).toEqual({
      ask: "hook 'g' asks for confirmation: sure?",
    })
    expect(answer(decision({ decision: 'ask', decidedBy: 'g' }), 'before_agent_run').json.block).toMatch(/refused it/)
  })
  test('a rewrite is params', () => {
    expect(answer(decision({ updatedInput: { command: 'ls' } }), 'before_tool_call').json).toEqual({ params: { command: 'ls' } })
  })
  test('what OpenClaw cannot take is named: context, a new prompt, a new tool result, a block after the tool', () => {
    const warned = (made: Partial<Decision>, event: string) => answer(decision(made), event).warnings.join('\n')
    expect(warned({ additionalContext: ['a'] }, 'before_tool_call')).toMatch(/OpenClaw cannot apply additionalContext/)
    expect(warned({ updatedPrompt: 'p' }, 'before_agent_run')).toMatch(/updatedPrompt/)
    expect(warned({ updatedToolOutput: 'x' } as Partial<Decision>, 'after_tool_call')).toMatch(/updatedToolOutput/)
    expect(warned({ decision: 'deny', blocked: true, decidedBy: 'g' }, 'after_tool_call')).toMatch(
      /cannot apply a block on after_tool_call/,
    )
  })
})

/** The helper's folders (a fake hookrun and the loaded plugin each), removed after the file's tests. */
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

type Handler = (event: Record<string, unknown>, ctx: Record<string, unknown>) => Promise<unknown>

/** The plugin as OpenClaw loads it (its default export's register), with `script` standing in for hookrun. */
async function plugin(script: string, timeoutSeconds = 30) {
  const dir = mkdtempSync(join(tmpdir(), 'hookrun-openclaw-'))
  dirs.push(dir)
  const fake = join(dir, 'fake-hookrun')
  writeFileSync(fake, `#!/bin/sh\n${script}\n`)
  chmodSync(fake, 0o755)
  const file = join(dir, 'index.js')
  writeFileSync(file, openclawPluginText([fake], timeoutSeconds))
  const module = (await import(pathToFileURL(file).href)) as { default: { id: string; register: (api: unknown) => void } }
  const on: Record<string, Handler> = {}
  const options: Record<string, unknown> = {}
  module.default.register({
    on: (name: string, handler: Handler, opts?: unknown) => {
      on[name] = handler
      options[name] = opts
    },
  })
  return { on, options, dir, id: module.default.id }
}

const event = () => ({ toolName: 'exec', params: { command: 'rm -rf x' }, toolCallId: 't1' })

describe("hookrun's plugin for OpenClaw", () => {
  test('a block is {block, blockReason}; a rewrite is params; an ask is requireApproval', async () => {
    const blocked = await plugin(`echo '{"block":"lab says no"}'`)
    expect(blocked.id).toBe('hookrun')
    expect(await blocked.on.before_tool_call!(event(), {})).toEqual({ block: true, blockReason: 'lab says no' })
    const rewrite = await plugin(`echo '{"params":{"command":"ls"}}'`)
    expect(await rewrite.on.before_tool_call!(event(), {})).toEqual({ params: { command: 'ls' } })
    const asked = await plugin(`echo '{"ask":"hook g asks"}'`)
    expect(await asked.on.before_tool_call!(event(), {})).toEqual({
      requireApproval: { title: 'hookrun', description: 'hook g asks', severity: 'warning' },
    })
  })

  test("OpenClaw's 15 s budget for a gate is raised to hookrun's, within OpenClaw's 600 s cap", async () => {
    const { options } = await plugin('echo {}', 600)
    expect(options.before_tool_call).toEqual({ timeoutMs: 600_000 })
    expect(options.before_agent_run).toEqual({ timeoutMs: 600_000 })
  })

  test.each([
    ['hookrun is not there', 'exec /nonexistent/hookrun', /hookrun could not check this, so it is refused .*failed/],
    ['hookrun fails', 'echo "hookrun: config broken" >&2; exit 1', /refused .*exit 1.*config broken/],
    ['hookrun answers no JSON', 'echo not-json', /refused .*not JSON/],
    ['hookrun answers another shape', `echo '{"params":"rm -rf /"}'`, /its params is not an object/],
  ])('a gate fails closed when %s', async (_case, script, message) => {
    const { on } = await plugin(script)
    expect(await on.before_tool_call!(event(), {})).toMatchObject({ block: true, blockReason: expect.stringMatching(message) })
    expect(await on.before_agent_run!({ prompt: 'go', messages: [] }, {})).toMatchObject({
      outcome: 'block',
      reason: expect.stringMatching(message),
    })
  })

  test('a gate fails closed when hookrun gives no answer in time', async () => {
    const { on } = await plugin('sleep 5', 1)
    expect(await on.before_tool_call!(event(), {})).toMatchObject({ block: true, blockReason: expect.stringMatching(/no answer in 1 s/) })
  })

  test("the payload: the hook, the event (a run's history left out), the context, the run's workspace as cwd", async () => {
    const { on, dir } = await plugin(`cat > "$(dirname "$0")/stdin.json"; echo "$@" > "$(dirname "$0")/argv"; echo '{}'`)
    expect(await on.before_agent_run!({ prompt: 'go', messages: [{ role: 'user' }] }, { sessionId: 's', workspaceDir: dir })).toEqual({
      outcome: 'pass',
    })
    expect(readFileSync(join(dir, 'argv'), 'utf8').trim()).toBe('fire before_agent_run --format openclaw')
    expect(JSON.parse(readFileSync(join(dir, 'stdin.json'), 'utf8'))).toEqual({
      openclaw_hook: 'before_agent_run',
      event: { prompt: 'go' },
      ctx: { sessionId: 's', workspaceDir: dir },
      cwd: dir,
    })
    // A tool hook's context names no folder: the run's is kept.
    await on.before_tool_call!(event(), { sessionId: 's', toolName: 'exec' })
    expect(JSON.parse(readFileSync(join(dir, 'stdin.json'), 'utf8')).cwd).toBe(dir)
  })

  test('a hook that only observes goes on when hookrun fails', async () => {
    const { on } = await plugin('exit 1')
    await expect(on.after_tool_call!({ ...event(), result: 'out' }, {})).resolves.toBeUndefined()
  })
})
