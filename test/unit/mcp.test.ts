import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { withEventName } from '../../src/payload/fields.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { mcpCallOf, mcpReadings, mcpSubjects } from '../../src/event/mcp.ts'
import { prepareDialect } from '../../src/dialect.ts'
import { loadAgentsFor } from '../../src/agents/loaded.ts'
import { compilePattern } from '../../src/event/pattern.ts'
import { hookEnvironment } from '../../src/run/env.ts'
import { matchesClaudeMatcher } from '../../src/select/filters.ts'

// The agents these tests name, loaded as a fire loads them (src/agents/loaded.ts).
await loadAgentsFor(undefined)

const context = { hookName: 'h', projectDir: '/p', configDir: '/p/.hookrun', depth: 0 }

describe('one name for an MCP tool in every agent', () => {
  test("Claude Code's mcp__<server>__<tool> names the server and the tool (a server's own _ kept)", () => {
    expect(mcpCallOf('mcp__github__get_issue', {})).toEqual([{ server: 'github', tool: 'get_issue' }])
    expect(mcpCallOf('mcp__my_srv__do__it', {})[0]).toEqual({ server: 'my_srv', tool: 'do__it' })
    expect(mcpCallOf('Bash', {})).toEqual([])
    expect(mcpCallOf('mcp_github_get', {})).toEqual([])
  })

  test("a payload's own mcp field (what a dialect reads from its agent) wins over the tool's name", () => {
    const payload = { tool_name: 'github-get_issue', mcp: { server: 'github', tool: 'get_issue' } }
    expect(mcpCallOf('github-get_issue', payload)).toEqual([{ server: 'github', tool: 'get_issue' }])
    // Empty strings name nothing.
    expect(mcpCallOf('github-get_issue', { mcp: { server: '', tool: 'x' } })).toEqual([])
  })

  test('a name joined with a character the server may hold has every reading, the first separator first', () => {
    expect(mcpReadings('my_srv_get', { prefix: '', separator: '_' })).toEqual([
      { server: 'my', tool: 'srv_get' },
      { server: 'my_srv', tool: 'get' },
    ])
    expect(mcpReadings('github-mcp-server-search_code', { prefix: '', separator: '-' }).map((reading) => reading.server)).toEqual([
      'github',
      'github-mcp',
      'github-mcp-server',
    ])
    // One of the agents' own tools is never an MCP tool, whatever it holds.
    expect(mcpReadings('apply_patch', { prefix: '', separator: '_' })).toEqual([])
    expect(mcpReadings('mcp_srv_get', { prefix: 'mcp_', separator: '_' })[0]).toEqual({ server: 'srv', tool: 'get' })
  })

  test("a gate on a server whose name holds the agent's separator holds, whichever reading is first", () => {
    const prepared = prepareDialect('copilot', 'preToolUse', {
      sessionId: 's',
      timestamp: 1,
      toolName: 'my-mcp-srv-delete_repo',
      toolArgs: '{}',
    })!
    const event = qualifyEvent('tool:pre_execute', prepared.payload)
    expect(event.mcp).toEqual({ server: 'my', tool: 'mcp-srv-delete_repo' })
    expect(compilePattern('tool:pre_execute:mcp__my-mcp-srv__delete_*').matchesEvent(event)).toBe(true)
    expect(compilePattern('tool:pre_execute:mcp__my-mcp-srv__*').matches(event.segments)).toBe(false)
    expect(compilePattern('tool:pre_execute:mcp__gitlab__*').matchesEvent(event)).toBe(false)
    expect(matchesClaudeMatcher('mcp__my-mcp-srv__.*', event, prepared.payload)).toBe(true)
  })

  test.each([
    [
      'claude',
      { hook_event_name: 'PreToolUse', tool_name: 'mcp__my_srv__get', mcp_server: { name: 'my.srv', source: 'project' } },
      'my.srv',
      'get',
    ],
    [
      'gemini',
      { hook_event_name: 'BeforeTool', tool_name: 'mcp_my_srv_get', mcp_context: { server_name: 'my_srv', tool_name: 'get' } },
      'my_srv',
      'get',
    ],
    ['gemini', { hook_event_name: 'BeforeTool', tool_name: 'mcp_srv_get' }, 'srv', 'get'],
    ['qwen', { hook_event_name: 'PreToolUse', tool_name: 'mcp__srv__get', timestamp: '2026-11-27T00:00:00Z' }, 'srv', 'get'],
    ['codex', { hook_event_name: 'PreToolUse', tool_name: 'mcp__srv__get', turn_id: 't' }, 'srv', 'get'],
    ['goose', { event: 'PreToolUse', session_id: 's', matcher_context: null, tool_name: 'srv__get', tool_input: {} }, 'srv', 'get'],
    [
      'cline',
      {
        hookName: 'tool_call',
        taskId: 't',
        tool_call: { id: 'c', name: 'srv__get', input: {} },
        preToolUse: { toolName: 'srv__get', parameters: {} },
      },
      'srv',
      'get',
    ],
    [
      'opencode',
      { hook: 'tool.execute.before', input: { tool: 'srv_get', sessionID: 's', callID: 'c' }, output: { args: {} } },
      'srv',
      'get',
    ],
  ])('%s: its spelling of server %s tool %s is the subject mcp__<server>__<tool>', (format, payload, server, tool) => {
    const prepared = prepareDialect(format, undefined, payload)!
    const event = qualifyEvent(prepared.event ?? 'tool:pre_execute', prepared.payload, prepared.tool)
    expect(event.mcp).toEqual({ server, tool })
    expect(event.segments.at(-1)).toBe(`mcp__${server}__${tool}`)
    // Written as Claude Code writes the name, the same pattern holds.
    expect(compilePattern(`tool:pre_execute:mcp__${server.replace('.', '_')}__*`).matchesEvent(event)).toBe(true)
  })

  test('the subject is mcp__<server>__<tool>, lowercased, with what a pattern segment cannot hold as _, and also as Claude Code writes it', () => {
    expect(mcpSubjects({ server: 'GitHub', tool: 'Get Issue' })).toEqual(['mcp__github__get_issue'])
    expect(mcpSubjects({ server: 'a:b', tool: 't' })).toEqual(['mcp__a_b__t'])
    expect(mcpSubjects({ server: 'my.srv', tool: 'get' })).toEqual(['mcp__my.srv__get', 'mcp__my_srv__get'])
  })

  test("a gate written with the server's real name holds where the agent cleaned the name up (newer Codex: my-srv is my_srv)", () => {
    const codex = qualifyEvent('PreToolUse', { tool_name: 'mcp__my_srv__drop_table' })
    expect(compilePattern('tool:pre_execute:mcp__my-srv__drop_*').matchesEvent(codex)).toBe(true)
    expect(compilePattern('tool:pre_execute:mcp__my-srv__drop_table').matchesEvent(codex)).toBe(true)
    const claude = qualifyEvent('PreToolUse', { tool_name: 'mcp__my-srv__drop_table' })
    expect(compilePattern('tool:pre_execute:mcp__my_srv__drop_*').matchesEvent(claude)).toBe(true)
    expect(compilePattern('tool:pre_execute:mcp__other__*').matchesEvent(claude)).toBe(false)
  })

  test('one pattern and one Claude matcher hold for every spelling of the same call', () => {
    const gate = compilePattern('tool:pre_execute:mcp__github__*')
    const named = [
      { tool_name: 'mcp__github__create_issue' },
      { tool_name: 'github-create_issue', mcp: { server: 'github', tool: 'create_issue' } },
      { tool_name: 'create_issue', mcp: { server: 'GitHub', tool: 'create_issue' } },
    ]
    for (const payload of named) {
      const event = qualifyEvent('PreToolUse', payload)
      expect(event.qualified).toBe('tool:pre_execute:mcp__github__create_issue')
      expect(event.mcp?.tool).toBe('create_issue')
      expect(gate.matches(event.segments), JSON.stringify(payload)).toBe(true)
      expect(matchesClaudeMatcher('mcp__github__.*', event, payload)).toBe(true)
      expect(matchesClaudeMatcher('mcp__memory__.*', event, payload)).toBe(false)
    }
    expect(gate.matches(qualifyEvent('PreToolUse', { tool_name: 'mcp__memory__create' }).segments)).toBe(false)
  })

  test('a server and tool too long for a segment are refused, as a long tool name is', () => {
    expect(() => qualifyEvent('PreToolUse', { tool_name: 'x', mcp: { server: 's'.repeat(300), tool: 't' } })).toThrow(/at most 256/)
  })

  test('outside tool events an mcp field means nothing to the subject (an elicitation names its server another way)', () => {
    const event = qualifyEvent('Notification', { mcp: { server: 'x', tool: 'y' } })
    expect(event.mcp).toBeUndefined()
    expect(event.qualified).toBe('notification')
  })

  test('hooks get HOOKRUN_MCP_SERVER / HOOKRUN_MCP_TOOL and an mcp field on stdin', () => {
    const payload = { tool_name: 'mcp__github__get_issue', tool_input: {} }
    const event = qualifyEvent('PreToolUse', payload)
    const env = hookEnvironment({}, event, payload, context, undefined)
    expect(env.HOOKRUN_MCP_SERVER).toBe('github')
    expect(env.HOOKRUN_MCP_TOOL).toBe('get_issue')
    expect(withEventName(payload, event)).toMatchObject({
      mcp: { server: 'github', tool: 'get_issue' },
      tool_name: 'mcp__github__get_issue',
    })
    const bash = { tool_name: 'Bash', tool_input: { command: 'ls' } }
    const plain = hookEnvironment({}, qualifyEvent('PreToolUse', bash), bash, context, undefined)
    expect(plain.HOOKRUN_MCP_SERVER).toBeUndefined()
    expect(withEventName(bash, qualifyEvent('PreToolUse', bash))).not.toHaveProperty('mcp')
  })

  test("the agent's own server list picks the real reading: Copilot's built-in github-mcp-server, an OpenCode project's server my_srv", () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookrun-mcp-'))
    try {
      const copilot = (event: string, name: string) =>
        qualifyEvent(
          name,
          prepareDialect('copilot', event, {
            sessionId: 's',
            timestamp: 1,
            cwd: dir,
            toolName: 'github-mcp-server-get_me',
            toolArgs: '{}',
          })!.payload,
        )
      const after = copilot('postToolUse', 'tool:post_execute')
      expect(after.mcp).toEqual({ server: 'github-mcp-server', tool: 'get_me' })
      // One reading; the other subject is its loose spelling only.
      expect(after.alternates?.map((segments) => segments.at(-1))).toEqual(['mcp__github_mcp_server__get_me'])
      // On a gate the configured reading comes first (what hooks see), and the others stay for matching.
      const gate = copilot('preToolUse', 'tool:pre_execute')
      expect(gate.mcp).toEqual({ server: 'github-mcp-server', tool: 'get_me' })
      expect(gate.alternates?.map((segments) => segments.at(-1))).toContain('mcp__github__mcp-server-get_me')
      const opencode = (tool: string, hook = 'tool.execute.before') =>
        qualifyEvent(
          hook === 'tool.execute.before' ? 'tool:pre_execute' : 'tool:post_execute',
          prepareDialect('opencode', undefined, {
            hook,
            directory: dir,
            input: { tool, sessionID: 's', callID: 'c' },
            output: { args: {} },
          })!.payload,
        )
      // Not configured: every reading stays.
      expect(opencode('my_srv_get').alternates).toHaveLength(1)
      writeFileSync(join(dir, 'opencode.json'), JSON.stringify({ mcp: { 'my.srv': { type: 'local', command: ['x'] } } }))
      const configured = opencode('my_srv_get', 'tool.execute.after')
      expect(configured.mcp).toEqual({ server: 'my_srv', tool: 'get' })
      expect(configured.alternates).toBeUndefined()
      // A repository's opencode.json that names a shorter server (my) does not take the reading a
      // gate on my_db matches away (the real server may be in a file hookrun does not read).
      writeFileSync(join(dir, 'opencode.json'), JSON.stringify({ mcp: { my: { type: 'local', command: ['x'] } } }))
      const planted = opencode('my_db_drop_table')
      expect(planted.mcp).toEqual({ server: 'my', tool: 'db_drop_table' })
      expect(compilePattern('tool:pre_execute:mcp__my_db__*').matchesEvent(planted)).toBe(true)
      // A file that is not plain JSON tells nothing.
      mkdirSync(join(dir, '.opencode'))
      writeFileSync(join(dir, 'opencode.json'), '{ // comment\n }')
      expect(opencode('my_srv_get').mcp).toEqual({ server: 'my', tool: 'srv_get' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
