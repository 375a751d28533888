import { describe, expect, test } from 'vitest'
import { withEventName } from '../../src/chain-steps.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { mcpSubject, mcpToolOf } from '../../src/event/mcp.ts'
import { compilePattern } from '../../src/event/pattern.ts'
import { hookEnvironment } from '../../src/run/env.ts'
import { matchesClaudeMatcher } from '../../src/select/filters.ts'

const context = { hookName: 'h', projectDir: '/p', configDir: '/p/.hookrun', depth: 0 }

describe('one name for an MCP tool in every agent', () => {
  test("Claude Code's mcp__<server>__<tool> names the server and the tool (a server's own _ kept)", () => {
    expect(mcpToolOf('mcp__github__get_issue', {})).toEqual({ server: 'github', tool: 'get_issue' })
    expect(mcpToolOf('mcp__my_srv__do__it', {})).toEqual({ server: 'my_srv', tool: 'do__it' })
    expect(mcpToolOf('Bash', {})).toBeUndefined()
    expect(mcpToolOf('mcp_github_get', {})).toBeUndefined()
  })

  test("a payload's own mcp_server and mcp_tool (what a dialect reads from its agent) win over the tool's name", () => {
    const payload = { tool_name: 'github-get_issue', mcp_server: 'github', mcp_tool: 'get_issue' }
    expect(mcpToolOf('github-get_issue', payload)).toEqual({ server: 'github', tool: 'get_issue' })
    // Empty strings name nothing.
    expect(mcpToolOf('github-get_issue', { mcp_server: '', mcp_tool: 'x' })).toBeUndefined()
  })

  test('the subject is mcp__<server>__<tool>, lowercased, with what a pattern segment cannot hold as _', () => {
    expect(mcpSubject({ server: 'GitHub', tool: 'Get Issue' })).toBe('mcp__github__get_issue')
    expect(mcpSubject({ server: 'a:b', tool: 't' })).toBe('mcp__a_b__t')
  })

  test('one pattern and one Claude matcher hold for every spelling of the same call', () => {
    const gate = compilePattern('tool:pre_execute:mcp__github__*')
    const named = [
      { tool_name: 'mcp__github__create_issue' },
      { tool_name: 'github-create_issue', mcp_server: 'github', mcp_tool: 'create_issue' },
      { tool_name: 'create_issue', mcp_server: 'GitHub', mcp_tool: 'create_issue' },
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

  test('outside tool events mcp_server means nothing to the subject (an elicitation names its server another way)', () => {
    const event = qualifyEvent('Notification', { mcp_server: 'x', mcp_tool: 'y' })
    expect(event.mcp).toBeUndefined()
    expect(event.qualified).toBe('notification')
  })

  test('hooks get HOOKRUN_MCP_SERVER / HOOKRUN_MCP_TOOL and mcp_server / mcp_tool on stdin', () => {
    const payload = { tool_name: 'mcp__github__get_issue', tool_input: {} }
    const event = qualifyEvent('PreToolUse', payload)
    const env = hookEnvironment({}, event, payload, context, undefined)
    expect(env.HOOKRUN_MCP_SERVER).toBe('github')
    expect(env.HOOKRUN_MCP_TOOL).toBe('get_issue')
    expect(withEventName(payload, event)).toMatchObject({ mcp_server: 'github', mcp_tool: 'get_issue', tool_name: 'mcp__github__get_issue' })
    const bash = { tool_name: 'Bash', tool_input: { command: 'ls' } }
    const plain = hookEnvironment({}, qualifyEvent('PreToolUse', bash), bash, context, undefined)
    expect(plain.HOOKRUN_MCP_SERVER).toBeUndefined()
    expect(withEventName(bash, qualifyEvent('PreToolUse', bash))).not.toHaveProperty('mcp_server')
  })
})
