/**
 * Gemini CLI 0.61 in the lab: the real CLI, headless, against a fake Gemini API on 127.0.0.1,
 * with hookrun wired in as a user would (`hookrun install --agent gemini`). Each scenario looks at
 * what really happened: the files the shell made, what the model was told next, what the CLI
 * printed. Gemini CLI reads its settings only from HOME and the folder it starts in, runs hooks
 * only when `hooksConfig.enabled` is on, and runs none in an untrusted folder
 * (GEMINI_CLI_TRUST_WORKSPACE=true here, as a user who trusts the folder).
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
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
  GEMINI,
  type HookEntry,
  type Logged,
  session,
  shell,
  systemMessageChannels,
  whereSeen,
} from './gemini-family.ts'

const results = labResults('gemini')
const REASON = 'lab gate: no DENIED files here'
/** The payloads of the sessions whose events become fixtures, by scenario. */
const logged: Record<string, Logged> = {}

describe.concurrent('Gemini CLI', () => {
  test('deny-shell', async () => {
    const s = await session(GEMINI, { turns: [shell('touch DENIED'), DONE], hooks: [denyGate('DENIED', REASON)], log: true })
    logged['deny-shell'] = s.logged()
    expect(s.has('DENIED')).toBe(false)
    expect(s.turns[1]).toContain(REASON)
    results.record(
      'deny-shell',
      'honoured',
      `the command did not run; the model got the reason in the functionResponse (${whereSeen(s, REASON).join(', ')})`,
    )
    s.remove()
  })

  test('allow-shell', async () => {
    const s = await session(GEMINI, { turns: [shell('touch ALLOWED'), DONE], hooks: [denyGate('DENIED', REASON)] })
    expect(s.has('ALLOWED')).toBe(true)
    expect(s.agent.status).toBe(0)
    results.record('allow-shell', 'honoured', 'the command ran; the session ended normally')
    s.remove()
  })

  test('rewrite-input', async () => {
    const rewrite = { name: 'rewrite', event: 'tool:pre_execute:bash', command: `echo '{"updatedInput":{"command":"touch REWRITTEN"}}'` }
    const s = await session(GEMINI, { turns: [shell('touch ORIGINAL'), DONE], hooks: [rewrite] })
    expect(s.has('REWRITTEN')).toBe(true)
    expect(s.has('ORIGINAL')).toBe(false)
    results.record(
      'rewrite-input',
      'honoured',
      'BeforeTool hookSpecificOutput.tool_input replaced the command: the rewritten one ran, the original did not',
    )
    s.remove()
  })

  test('context', async () => {
    const hooks = [
      { name: 'start-context', event: 'session:start', command: `echo '{"additionalContext":"LAB-SESSION-CONTEXT"}'` },
      { name: 'prompt-context', event: 'user:prompt_submit', command: `echo '{"additionalContext":"LAB-PROMPT-CONTEXT"}'` },
      { name: 'post-context', event: 'tool:post_execute', command: `echo '{"additionalContext":"LAB-TOOL-CONTEXT"}'` },
    ]
    const s = await session(GEMINI, { turns: [shell('true'), DONE], hooks, log: true })
    logged.context = s.logged()
    expect(s.turns[0]).toContain('LAB-SESSION-CONTEXT')
    expect(s.turns[0]).toContain('LAB-PROMPT-CONTEXT')
    expect(s.turns[1]).toContain('LAB-TOOL-CONTEXT')
    results.record(
      'context',
      'honoured',
      'additionalContext from SessionStart and BeforeAgent reached the first request, from AfterTool the next one',
    )
    s.remove()
  })

  test('post-tool-output', async () => {
    const post = {
      name: 'post',
      event: 'tool:post_execute:bash',
      command: 'cat >> "$HOOKRUN_PROJECT_DIR/post.jsonl"; echo >> "$HOOKRUN_PROJECT_DIR/post.jsonl"',
    }
    const s = await session(GEMINI, {
      turns: [shell('echo LAB-OUTPUT-42'), shell('echo failing >&2; exit 3'), shell('true'), DONE],
      hooks: [post],
      log: true,
    })
    logged['post-tool-output'] = s.logged()
    const seen = readFileSync(join(s.run.project, 'post.jsonl'), 'utf8')
    expect(seen).toContain('LAB-OUTPUT-42')
    const counts = eventCounts(s.payloads())
    // Every event of a session with 3 tool calls: the per-turn ones fire once per model request.
    console.log('gemini events for 3 tool calls (default install):', JSON.stringify(counts))
    expect(counts.BeforeTool).toBe(3)
    expect(counts.AfterTool).toBe(3)
    results.record(
      'post-tool-output',
      'honoured',
      // Only what was asserted: the per-turn events follow the model requests, which vary under load.
      "AfterTool's tool_response held the output; 3 tool calls fired BeforeTool 3 times and AfterTool 3 times",
    )
    s.remove()
  })

  test('untrusted-notice', async () => {
    const s = await session(GEMINI, { turns: [shell('touch DENIED'), DONE], hooks: [denyGate('DENIED', REASON)], trust: false })
    expect(s.has('DENIED')).toBe(true) // an untrusted project's hooks do not run
    const where = whereSeen(s, 'are not trusted, so they do not run')
    expect(where).not.toEqual([])
    results.record('untrusted-notice', 'honoured', `the hooks did not run; hookrun's notice reached: ${where.join(', ')}`)
    s.remove()
  })

  test('mcp-gate', async () => {
    // The server in ~/.gemini/settings.json as a user adds it; Gemini offers its tools as mcp_<server>_<tool>.
    const s = await session(GEMINI, {
      turns: [{ tool: 'mcp_labmcp_lab_wipe', input: {} }, { tool: 'mcp_labmcp_lab_read', input: {} }, DONE],
      hooks: (run) => (mcpHooks(run) as { hooks: HookEntry[] }).hooks,
      prepare: (run) => addLabMcpServer(GEMINI, run),
      log: true,
    })
    expect(s.agent.status).toBe(0)
    expect(mcpCalls(s.run)).toEqual(['lab_read'])
    expect(mcpSeen(s.run)).toEqual(['labmcp lab_wipe mcp_labmcp_lab_wipe', 'labmcp lab_read mcp_labmcp_lab_read'])
    // BeforeTool names the parts itself: mcp_context {server_name, tool_name} (with the server's command and args).
    const contexts = s
      .payloads()
      .filter((payload) => payload.hook_event_name === 'BeforeTool')
      .map((payload) => payload.mcp_context as { server_name?: string; tool_name?: string } | undefined)
    expect(contexts.map((context) => `${context?.server_name} ${context?.tool_name}`)).toEqual(['labmcp lab_wipe', 'labmcp lab_read'])
    // The deny is the functionResponse's error; lab_read's answer its output.
    expect(s.turns[1]).toContain(`"error":"Tool execution blocked: ${MCP_GATE_REASON}"`)
    expect(s.turns[2]).toContain(MCP_RESULT_MARKER)
    results.record(
      'mcp-gate',
      'honoured',
      `the model called mcp_labmcp_lab_wipe and mcp_labmcp_lab_read; BeforeTool fired for both with tool_name mcp_labmcp_<tool> and mcp_context {server_name: labmcp, tool_name}; the gate stopped lab_wipe (the server never got it; the model's functionResponse error was "Tool execution blocked: ${MCP_GATE_REASON}") and lab_read ran`,
    )
    s.remove()
  })

  test('timeout-blocks', async () => {
    const slow = { name: 'slow-gate', event: 'tool:pre_execute:bash', command: 'sleep 30', timeout: 1 }
    const s = await session(GEMINI, { turns: [shell('touch TIMEOUT'), DONE], hooks: [slow] })
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
    const s = await session(GEMINI, { turns: [shell('touch CRASHED'), shell('touch KILLED'), DONE], hooks: [crashing] })
    expect(s.has('CRASHED')).toBe(false)
    expect(s.has('KILLED')).toBe(false)
    expect(s.turns[2]).toContain('crash-gate')
    results.record('crash-blocks', 'honoured', 'a gate that exits 1 and one killed by SIGKILL both blocked the call')
    s.remove()
  })

  test('cd-elsewhere', async () => {
    // Gemini's shell starts each call in the start folder: a cd lasts one call. Both ways out are tried.
    const turns = [shell('mkdir -p ../elsewhere && cd ../elsewhere && touch DENIED'), shell('cd .. && touch DENIED'), DONE]
    const s = await session(GEMINI, { turns, hooks: [denyGate('DENIED', REASON)] })
    expect(s.has('../elsewhere/DENIED')).toBe(false)
    expect(s.has('../DENIED')).toBe(false)
    expect(s.turns[2]).toContain(REASON)
    results.record(
      'cd-elsewhere',
      'honoured',
      'cd out of the project inside the command: both calls denied (a cd does not outlive its call)',
    )
    s.remove()
  })

  test('subfolder-start', async () => {
    // The user-level install: one router in ~/.gemini/settings.json, the project found from the start folder.
    const s = await session(GEMINI, {
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
      'with the user-level install (hookrun install --agent gemini) the gate held in project/sub; a --project install runs no hook there (Gemini reads .gemini/ only in the start folder)',
    )
    s.remove()
  })

  test('subfolder-start with a --project install: Gemini reads .gemini/ only in the start folder', async () => {
    const s = await session(GEMINI, {
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

  test('a folder Gemini does not trust: headless, Gemini does not start at all', async () => {
    const agent = {
      ...GEMINI,
      env: (model: Parameters<typeof GEMINI.env>[0]) => ({ ...GEMINI.env(model), GEMINI_CLI_TRUST_WORKSPACE: 'false' }),
    }
    const s = await session(agent, { turns: [shell('touch DENIED'), DONE], hooks: [denyGate('DENIED', REASON)], log: true })
    // Not a hook-less run: no model request, no tool call, exit 55 with how to trust the folder.
    expect(s.agent.status).toBe(55)
    expect(s.agent.stderr).toContain('not running in a trusted directory')
    expect(s.model.requests).toEqual([])
    expect(s.payloads()).toEqual([])
    s.remove()
  })

  test('where a systemMessage reaches, by event (the channels a notice can take)', async () => {
    const channels = await systemMessageChannels(GEMINI)
    console.log('gemini systemMessage channels:', JSON.stringify(channels))
    // Gemini prints every event's systemMessage on stderr (with -p and stream-json), never to the model.
    expect(channels).toEqual({ start: ['stderr'], prompt: ['stderr'], pre: ['stderr'], post: ['stderr'], stop: ['stderr'] })
  })

  test('unknown-event', async () => {
    // Gemini 0.61 sends no event hookrun lacks a name for; a future one is played by renaming
    // BeforeTool's payload on its way to a hand-wired router: its answer must let the call run.
    const s = await session(GEMINI, {
      turns: [shell('touch ALLOWED'), DONE],
      hooks: [{ name: 'any', event: '*', command: 'cat > "$HOOKRUN_PROJECT_DIR/any-$HOOKRUN_EVENT.json"' }],
      prepare(run) {
        const script = join(run.root, 'future-event.sh')
        writeFileSync(
          script,
          `#!/bin/sh\nsed -E 's/"hook_event_name": ?"BeforeTool"/"hook_event_name":"BeforeLabFuture"/' | hookrun fire --format gemini 2>>"${run.root}/future.err"\necho $? >> "${run.root}/future.status"\n`,
        )
        chmodSync(script, 0o755)
        editSettings(join(run.project, '.gemini', 'settings.json'), (settings) =>
          settings.hooks.BeforeTool!.push({ hooks: [{ type: 'command', name: 'future', command: script }] }),
        )
      },
    })
    expect(s.agent.status).toBe(0)
    expect(s.has('ALLOWED')).toBe(true)
    const statuses = readFileSync(join(s.run.root, 'future.status'), 'utf8').trim().split('\n')
    expect(statuses).toEqual(['0'])
    const stderr = readFileSync(join(s.run.root, 'future.err'), 'utf8')
    results.record(
      'unknown-event',
      'honoured',
      `an unknown event name (BeforeTool renamed) got exit 0 and let the call run; hookrun said: ${stderr.trim().split('\n')[0] || 'nothing'}`,
    )
    s.remove()
  })
})

test('fixtures: the first payload of each event Gemini CLI sent', () => {
  const dir = join(import.meta.dirname, 'fixtures', 'gemini')
  mkdirSync(dir, { recursive: true })
  const order = ['post-tool-output', 'context', 'deny-shell']
  const fixtures = fixturesOf(order.map((scenario) => logged[scenario]))
  expect(fixtures.size).toBeGreaterThan(0)
  for (const [name, text] of fixtures) writeFileSync(join(dir, `${name}.json`), text)
})

test('results', async () => {
  await results.check()
})
