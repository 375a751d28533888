import { describe, expect, test } from 'vitest'
import { mcpGateLines, mcpGates } from '../../src/install/mcp-doctor.ts'
import { makeHook } from '../helpers.ts'

const CLAUDE = { agent: 'claude', label: 'Claude Code', format: 'claude' }
const CURSOR = { agent: 'cursor', label: 'Cursor', format: 'cursor' }

describe('doctor: where an MCP gate would not hold', () => {
  const gate = makeHook({ name: 'no-deletes', event: ['tool:pre_execute:mcp__github__delete_*'] })
  const claudeMatcher = makeHook({ name: 'matcher-gate', event: ['PreToolUse'], matcher: 'mcp__github__.*' })
  const shell = makeHook({ name: 'shell', event: ['tool:pre_execute:bash'] })

  test('an MCP gate is a tool pattern or a Claude matcher naming mcp__…; a shell gate is not', () => {
    expect(mcpGates([gate, claudeMatcher, shell]).map((hook) => hook.name)).toEqual(['no-deletes', 'matcher-gate'])
    expect(mcpGates([makeHook({ name: 'alias', event: ['PreToolUse:mcp__x__y'] })])).toHaveLength(1)
  })

  test('no MCP gate: nothing to say', () => {
    expect(mcpGateLines([], [CLAUDE, CURSOR])).toEqual([])
  })

  test('an agent whose MCP names hookrun does not know is warned about; lab-verified ones are named as holding', () => {
    const lines = mcpGateLines([gate], [CLAUDE, CURSOR, { agent: 'kilo', label: 'Kilo Code', format: 'opencode' }, CLAUDE])
    expect(lines[0]).toMatchObject({ status: 'ok' })
    expect(lines[0]!.what).toContain('Claude Code')
    expect(lines[0]!.what).toContain('Kilo Code')
    const cursor = lines.find((line) => line.what.startsWith('Cursor'))
    expect(cursor).toMatchObject({ status: 'warn' })
    expect(cursor!.what).toContain("'no-deletes' may not hold there")
    expect(lines).toHaveLength(2)
  })
})
