/**
 * Qwen Code 0.24.4 in the lab: the real CLI, headless, against a fake OpenAI chat-completions
 * server on 127.0.0.1, with hookrun wired in as a user would (`hookrun install --agent qwen`).
 * Each scenario looks at what really happened: the files the shell made, what the model was told
 * next, what the CLI printed. Qwen Code reads its settings only from HOME and the folder it starts
 * in (as Gemini CLI, which it began as a fork of).
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { labResults } from './lab.ts'
import { MCP_GATE_REASON, MCP_RESULT_MARKER, mcpCalls, mcpHooks, mcpSeen } from './mcp.ts'
import {
  addLabMcpServer,
  DONE,
  denyGate,
  editSettings,
  eventCounts,
  fixturesOf,
  type HookEntry,
  type Logged,
  QWEN,
  session,
  shell,
  systemMessageChannels,
  whereSeen,
} from './gemini-family.ts'

const results = labResults('qwen')
const REASON = 'lab gate: no DENIED files here'
/** The payloads of the sessions whose events become fixtures, by scenario. */
const logged: Record<string, Logged> = {}

describe.concurrent('Qwen Code', () => {
  test('deny-shell', async () => {
    const s = await session(QWEN, { turns: [shell('touch DENIED'), DONE], hooks: [denyGate('DENIED', REASON)], log: true })
    logged['deny-shell'] = s.logged()
    expect(s.has('DENIED')).toBe(false)
    expect(s.turns[1]).toContain(REASON)
    results.record('deny-shell', 'honoured', `the command did not run; the reason reached: ${whereSeen(s, REASON).join(', ')}`)
    s.remove()
  })

  test('allow-shell', async () => {
    const s = await session(QWEN, { turns: [shell('touch ALLOWED'), DONE], hooks: [denyGate('DENIED', REASON)] })
    expect(s.has('ALLOWED')).toBe(true)
    expect(s.agent.status).toBe(0)
    results.record('allow-shell', 'honoured', 'the command ran; the session ended normally')
    s.remove()
  })

  test('rewrite-input', async () => {
    // Qwen applies updatedInput only from a PermissionRequest allow; a yolo run asks no permission,
    // so PreToolUse's would be dropped and the original run: hookrun refuses the call out loud.
    // (Headless without yolo, Qwen does not even offer run_shell_command, and PermissionRequest never fired.)
    const rewrite = { name: 'rewrite', event: 'tool:pre_execute:bash', command: `echo '{"updatedInput":{"command":"touch REWRITTEN"}}'` }
    const s = await session(QWEN, { turns: [shell('touch ORIGINAL'), DONE], hooks: [rewrite], log: true })
    logged['rewrite-input'] = s.logged()
    const events = Object.keys(eventCounts(s.payloads()))
    if (s.has('REWRITTEN')) {
      expect(s.has('ORIGINAL')).toBe(false)
      results.record('rewrite-input', 'honoured', 'the rewritten command ran')
    } else {
      // Qwen would run the original input: hookrun refuses the call instead, and says why.
      expect(s.has('ORIGINAL'), 'the input the hook replaced must not run').toBe(false)
      const where = whereSeen(s, /ignores a rewrite on PreToolUse/)
      expect(where, `the refusal does not reach anyone (events: ${events.join(', ')})`).toContain('the model')
      results.record(
        'rewrite-input',
        'ignored, hookrun warns',
        `Qwen drops PreToolUse updatedInput, so hookrun refuses the call (neither the original nor the rewrite ran); the reason reached: ${where.join(', ')}`,
      )
    }
    s.remove()
  })

  test('context', async () => {
    const hooks = [
      { name: 'start-context', event: 'session:start', command: `echo '{"additionalContext":"LAB-SESSION-CONTEXT"}'` },
      { name: 'prompt-context', event: 'user:prompt_submit', command: `echo '{"additionalContext":"LAB-PROMPT-CONTEXT"}'` },
      { name: 'post-context', event: 'tool:post_execute', command: `echo '{"additionalContext":"LAB-TOOL-CONTEXT"}'` },
    ]
    const s = await session(QWEN, { turns: [shell('true'), DONE], hooks, log: true })
    logged.context = s.logged()
    expect(s.turns[0]).toContain('LAB-SESSION-CONTEXT')
    expect(s.turns[0]).toContain('LAB-PROMPT-CONTEXT')
    expect(s.turns[1]).toContain('LAB-TOOL-CONTEXT')
    results.record(
      'context',
      'honoured',
      'additionalContext from SessionStart and UserPromptSubmit reached the first request, from PostToolUse the next one',
    )
    s.remove()
  })

  test('post-tool-output', async () => {
    const post = {
      name: 'post',
      event: 'tool:post_execute:bash',
      command: 'cat >> "$HOOKRUN_PROJECT_DIR/post.jsonl"; echo >> "$HOOKRUN_PROJECT_DIR/post.jsonl"',
    }
    const s = await session(QWEN, {
      turns: [shell('echo LAB-OUTPUT-42'), shell('echo failing >&2; exit 3'), shell('true'), DONE],
      hooks: [post],
      log: true,
    })
    logged['post-tool-output'] = s.logged()
    const seen = readFileSync(join(s.run.project, 'post.jsonl'), 'utf8')
    expect(seen).toContain('LAB-OUTPUT-42')
    const counts = eventCounts(s.payloads())
    console.log('qwen events for 3 tool calls (default install):', JSON.stringify(counts))
    expect(counts.PreToolUse).toBe(3)
    results.record(
      'post-tool-output',
      'honoured',
      // Only what was asserted: the per-turn events follow the model requests, which vary under load.
      "PostToolUse's tool_response held the output; 3 tool calls fired PreToolUse 3 times",
    )
    s.remove()
  })

  test('untrusted-notice', async () => {
    const s = await session(QWEN, { turns: [shell('touch DENIED'), DONE], hooks: [denyGate('DENIED', REASON)], trust: false, log: false })
    expect(s.has('DENIED')).toBe(true) // an untrusted project's hooks do not run
    const where = whereSeen(s, 'are not trusted, so they do not run')
    expect(where, 'hookrun says it once per session, on SessionStart, whose systemMessage Qwen does not show').not.toEqual([])
    results.record('untrusted-notice', 'honoured', `the hooks did not run; hookrun's notice reached: ${where.join(', ')}`)
    s.remove()
  })

  test('mcp-gate', async () => {
    // Qwen 0.24.4 defers MCP tools: the model is not offered mcp__labmcp__* but told of them, finds
    // them with tool_search and calls them through tool_call {name, arguments}, as a real model would here.
    const s = await session(QWEN, {
      turns: [
        { tool: 'tool_search', input: { query: 'labmcp' } },
        { tool: 'tool_call', input: { name: 'mcp__labmcp__lab_wipe', arguments: {} } },
        { tool: 'tool_call', input: { name: 'mcp__labmcp__lab_read', arguments: {} } },
        DONE,
      ],
      hooks: (run) => (mcpHooks(run) as { hooks: HookEntry[] }).hooks,
      prepare: (run) => addLabMcpServer(QWEN, run),
      log: true,
    })
    expect(s.agent.status).toBe(0)
    const first = s.model.requests.find(QWEN.isTurn)?.body as { tools?: { function?: { name?: string } }[] } | undefined
    const offered = first?.tools ?? []
    expect(offered.map((tool) => tool.function?.name)).toEqual(expect.arrayContaining(['tool_search', 'tool_call']))
    expect(offered.some((tool) => tool.function?.name?.startsWith('mcp__'))).toBe(false)
    expect(s.turns[2]).toContain('"name\\":\\"mcp__labmcp__lab_wipe')
    expect(mcpCalls(s.run)).toEqual(['lab_read'])
    expect(mcpSeen(s.run)).toEqual(['labmcp lab_wipe mcp__labmcp__lab_wipe', 'labmcp lab_read mcp__labmcp__lab_read'])
    // PreToolUse names the tool behind the bridge, never tool_call; no server field.
    const pre = s.payloads().filter((payload) => payload.hook_event_name === 'PreToolUse')
    expect(pre.map((payload) => payload.tool_name)).toEqual(['tool_search', 'mcp__labmcp__lab_wipe', 'mcp__labmcp__lab_read'])
    expect(s.turns[2]).toContain(`"content":[{"type":"text","text":"${MCP_GATE_REASON}"}]`)
    expect(s.turns[3]).toContain(MCP_RESULT_MARKER)
    results.record(
      'mcp-gate',
      'honoured',
      `MCP tools are deferred (not offered; found with tool_search): the model called tool_call {name: mcp__labmcp__lab_wipe} and {name: mcp__labmcp__lab_read}; PreToolUse fired with the tool behind the bridge, tool_name mcp__labmcp__<tool> (no server field); the gate stopped lab_wipe (the server never got it; the model's tool message was "${MCP_GATE_REASON}") and lab_read ran`,
    )
    s.remove()
  })

  test('timeout-blocks', async () => {
    const slow = { name: 'slow-gate', event: 'tool:pre_execute:bash', command: 'sleep 30', timeout: 1 }
    const s = await session(QWEN, { turns: [shell('touch TIMEOUT'), DONE], hooks: [slow] })
    expect(s.has('TIMEOUT')).toBe(false)
    expect(s.turns[1]).toContain('slow-gate')
    results.record('timeout-blocks', 'honoured', 'the call was blocked; the model was told the gate timed out')
    s.remove()
  })

  test('crash-blocks', async () => {
    const crashing = {
      name: 'crash-gate',
      event: 'tool:pre_execute:bash',
      command: 'case "$HOOKRUN_BASH_COMMAND" in *CRASHED*) exit 1;; *KILLED*) kill -9 $$;; esac',
    }
    const s = await session(QWEN, { turns: [shell('touch CRASHED'), shell('touch KILLED'), DONE], hooks: [crashing] })
    expect(s.has('CRASHED')).toBe(false)
    expect(s.has('KILLED')).toBe(false)
    expect(s.turns[2]).toContain('crash-gate')
    results.record('crash-blocks', 'honoured', 'a gate that exits 1 and one killed by SIGKILL both blocked the call')
    s.remove()
  })

  test('cd-elsewhere', async () => {
    const turns = [shell('mkdir -p ../elsewhere && cd ../elsewhere && touch DENIED'), shell('cd .. && touch DENIED'), DONE]
    const s = await session(QWEN, { turns, hooks: [denyGate('DENIED', REASON)] })
    expect(s.has('../elsewhere/DENIED')).toBe(false)
    expect(s.has('../DENIED')).toBe(false)
    expect(s.turns[2]).toContain(REASON)
    results.record('cd-elsewhere', 'honoured', 'cd out of the project inside the command: both calls denied')
    s.remove()
  })

  test('subfolder-start', async () => {
    // The user-level install: one router in ~/.qwen/settings.json, the project found from the start folder.
    const s = await session(QWEN, {
      turns: [shell('touch DENIED'), DONE],
      hooks: [denyGate('DENIED', REASON)],
      install: 'user',
      startIn: 'sub',
    })
    expect(s.has('sub/DENIED')).toBe(false)
    expect(s.turns[1]).toContain(REASON)
    results.record(
      'subfolder-start',
      'honoured',
      'with the user-level install (hookrun install --agent qwen) the gate held in project/sub; a --project install runs no hook there (Qwen reads .qwen/ only in the start folder)',
    )
    s.remove()
  })

  test('subfolder-start with a --project install: Qwen reads .qwen/ only in the start folder', async () => {
    const s = await session(QWEN, {
      turns: [shell('touch DENIED'), DONE],
      hooks: [denyGate('DENIED', REASON)],
      install: 'project',
      startIn: 'sub',
      log: true,
    })
    // What the lab saw: no hook runs at all, so the gate does not hold. The recommended install is the user-level one.
    expect(s.payloads()).toEqual([])
    expect(s.has('sub/DENIED')).toBe(true)
    s.remove()
  })

  test("Qwen honours a tool event's matcher as hookrun's --narrow compiles it (^(name)$)", async () => {
    const groups = (matcher: string, mark: string) => [
      { matcher, hooks: [{ type: 'command', name: mark, command: `touch "\${QWEN_PROJECT_DIR:-.}/${mark}"` }] },
    ]
    const s = await session(QWEN, {
      turns: [shell('true'), DONE],
      install: 'none',
      prepare(run) {
        mkdirSync(join(run.project, '.qwen'))
        const hooks = {
          PreToolUse: [...groups('^(write_file)$', 'PRE-OTHER'), ...groups('^(run_shell_command)$', 'PRE-SHELL')],
          PostToolUse: [...groups('^(write_file)$', 'POST-OTHER'), ...groups('^(run_shell_command)$', 'POST-SHELL')],
        }
        writeFileSync(join(run.project, '.qwen', 'settings.json'), `${JSON.stringify({ hooks }, null, 2)}\n`)
      },
    })
    expect([s.has('PRE-SHELL'), s.has('POST-SHELL'), s.has('PRE-OTHER'), s.has('POST-OTHER')]).toEqual([true, true, false, false])
    s.remove()
  })

  test('where a systemMessage reaches, by event (the channels a notice can take)', async () => {
    const channels = await systemMessageChannels(QWEN)
    console.log('qwen systemMessage channels:', JSON.stringify(channels))
    // Qwen shows no systemMessage at all headless (stream-json): a notice must reach the model (additionalContext) or a block reason.
    expect(channels).toEqual({ start: [], prompt: [], pre: [], post: [], stop: [] })
  })

  test('unknown-event', async () => {
    // Qwen 0.24.4 has events hookrun has no name for (PostToolBatch, InstructionsLoaded,
    // UserPromptExpansion): a user who wires the router on them by hand must keep a working session.
    const unknown = ['PostToolBatch', 'InstructionsLoaded', 'UserPromptExpansion']
    const s = await session(QWEN, {
      turns: [shell('touch ALLOWED'), DONE],
      hooks: [{ name: 'any', event: '*', command: 'true' }],
      prepare(run) {
        writeFileSync(join(run.project, 'QWEN.md'), 'Instructions for the lab.\n')
        mkdirSync(join(run.root, 'unknown'))
        const script = join(run.root, 'unknown-event.sh')
        writeFileSync(
          script,
          `#!/bin/sh\ntee "${run.root}/unknown/$(date +%s%N)-$$.json" | hookrun fire --format qwen 2>>"${run.root}/unknown.err"\necho $? >> "${run.root}/unknown.status"\n`,
        )
        chmodSync(script, 0o755)
        editSettings(join(run.project, '.qwen', 'settings.json'), (settings) => {
          for (const event of unknown) settings.hooks[event] = [{ hooks: [{ type: 'command', name: 'unknown', command: script }] }]
        })
      },
    })
    expect(s.agent.status).toBe(0)
    expect(s.has('ALLOWED')).toBe(true)
    const fired = readdirSync(join(s.run.root, 'unknown'))
      .sort()
      .map((file) => JSON.parse(readFileSync(join(s.run.root, 'unknown', file), 'utf8')) as Record<string, unknown>)
    const names = unknown.filter((event) => fired.some((payload) => payload.hook_event_name === event))
    expect(names.length).toBeGreaterThan(0)
    const statuses = readFileSync(join(s.run.root, 'unknown.status'), 'utf8').trim().split('\n')
    expect(new Set(statuses)).toEqual(new Set(['0']))
    const said = readFileSync(join(s.run.root, 'unknown.err'), 'utf8').trim().split('\n')[0]
    logged['unknown-event'] = { root: s.run.root, payloads: fired }
    results.record(
      'unknown-event',
      'honoured',
      `the router wired by hand on ${names.join(', ')} (events hookrun has no name for) answered with exit 0; the session went on; hookrun said: ${said || 'nothing'}`,
    )
    s.remove()
  })
})

test('fixtures: the first payload of each event Qwen Code sent', () => {
  const dir = join(import.meta.dirname, 'fixtures', 'qwen')
  mkdirSync(dir, { recursive: true })
  const fixtures = fixturesOf(
    ['post-tool-output', 'context', 'deny-shell', 'rewrite-input', 'unknown-event'].map((scenario) => logged[scenario]),
  )
  expect(fixtures.size).toBeGreaterThan(0)
  for (const [name, text] of fixtures) writeFileSync(join(dir, `${name}.json`), text)
})

test('results', async () => {
  await results.check()
})
