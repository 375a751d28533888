import { describe, expect, test } from 'vitest'
import { qualifyEvent } from '../../src/event/event.ts'

describe('qualifyEvent', () => {
  test('takes the subject from the payload, keeping the agent spelling in `tool`', () => {
    expect(qualifyEvent('tool:pre_execute', { tool_name: 'Bash' })).toEqual({
      name: 'tool:pre_execute',
      tool: 'Bash',
      segments: ['tool', 'pre_execute', 'bash'],
      qualified: 'tool:pre_execute:bash',
    })
  })
  test('--tool wins over the payload; contradicting the name is refused', () => {
    expect(qualifyEvent('tool:pre_execute', { tool_name: 'Bash' }, 'Write').qualified).toBe('tool:pre_execute:write')
    expect(() => qualifyEvent('tool:pre_execute:read', {}, 'Write')).toThrow("names the subject 'read' but --tool says 'Write'")
  })
  test('a third segment is the subject', () => {
    expect(qualifyEvent('tool:post_execute:Edit', {}).tool).toBe('Edit')
  })
  test.each([['tool'], ['toolName']])('payload key %s', (key) => {
    expect(qualifyEvent('tool:pre_execute', { [key]: 'grep' }).qualified).toBe('tool:pre_execute:grep')
  })
  test('no subject: the name alone, lowercased', () => {
    expect(qualifyEvent('Session:Start', {}).qualified).toBe('session:start')
  })
  test.each(['tool:*', 'a:b:c:d', '', 'tool:pre execute', 'x,y'])('refuses %j', (name) => {
    expect(() => qualifyEvent(name, {})).toThrow(/not a valid name/)
  })
})

describe('aliases', () => {
  test.each([
    ['PreToolUse', 'tool:pre_execute'],
    ['pretooluse', 'tool:pre_execute'],
    ['tool_start', 'tool:pre_execute'],
    ['before_tool_call', 'tool:pre_execute'],
    ['agent_end', 'agent:stop'],
    ['Stop', 'agent:stop'],
    ['user_message_send', 'user:prompt_submit'],
    ['PermissionRequest', 'permission:prompt'],
    ['TeammateIdle', 'teammate:idle'],
    ['turn_end', 'turn:end'],
  ])('%s fires %s', (alias, canonical) => {
    expect(qualifyEvent(alias, {}).name).toBe(canonical)
  })
  test('an alias may carry a subject', () => {
    expect(qualifyEvent('PreToolUse:Bash', {}).qualified).toBe('tool:pre_execute:bash')
  })
  test('one-segment events take a subject as second segment', () => {
    expect(qualifyEvent('notification:idle', {}).segments).toEqual(['notification', 'idle'])
  })
})
