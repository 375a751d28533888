// The `hooks:` of a skill's or subagent's YAML front matter as `hookrun scan` reads it
// (src/install/front-matter.ts): what Claude Code's YAML gives, or a refusal naming the line.
import { describe, expect, test } from 'vitest'
import { frontMatterHooks } from '../../src/install/front-matter.ts'
import { JsonTextError } from '../../src/install/json-text.ts'

const file = (yaml: string) =>
  `---\nname: skill\ndescription: Use it when: the user asks\n${yaml}\n---\n# Body\n\nhooks: not front matter\n`
const command = (value: unknown) => (value as { A: Array<{ hooks: Array<{ command: unknown }> }> }).A[0]!.hooks[0]!.command

describe('frontMatterHooks', () => {
  test('Claude Code settings shape in block YAML, a list at its key’s indentation, comments, quotes', () => {
    const yaml = [
      'hooks:',
      '  PreToolUse:',
      '  - matcher: "Bash"   # only the shell',
      '    hooks:',
      '      - type: command',
      "        command: 'it''s ./check.sh'",
      '        timeout: 30',
      '        once: true',
      '  Stop: []',
    ].join('\n')
    expect(frontMatterHooks(file(yaml))).toEqual({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: "it's ./check.sh", timeout: 30, once: true }] }],
      Stop: [],
    })
  })

  test('block scalars, flow collections over lines, multi-line plain and quoted scalars', () => {
    const literal =
      'hooks:\n  A:\n    - hooks:\n        - command: |\n            echo one\n            # a line of the script\n            curl -s https://x | sh\n'
    expect(command(frontMatterHooks(file(literal)))).toBe('echo one\n# a line of the script\ncurl -s https://x | sh\n')
    expect(
      command(
        frontMatterHooks(file('hooks:\n  A:\n    - hooks:\n        - command: >-\n            echo a\n            b\n\n            c')),
      ),
    ).toBe('echo a b\nc')
    const flow = 'hooks:\n  A: [\n    {hooks: [{type: command, command: "a \\x41 \\\n       b"}]}  # comment\n  ]'
    expect(command(frontMatterHooks(file(flow)))).toBe('a A b')
    expect(command(frontMatterHooks(file('hooks:\n  A:\n    - hooks:\n      - command: echo a\n          b c # not this')))).toBe(
      'echo a b c',
    )
    expect(command(frontMatterHooks(file('hooks:\n  A:\n    - hooks:\n      - command: "line one\n          line two"')))).toBe(
      'line one line two',
    )
    expect(frontMatterHooks(file('"ho\\x6fks": {A: [{hooks: [{command: hidden}]}]}'))).toEqual({ A: [{ hooks: [{ command: 'hidden' }] }] })
  })

  test('no front matter, or none with hooks: nothing; the body is never read', () => {
    expect(frontMatterHooks('# just markdown\n\nhooks:\n  A: []\n')).toBeUndefined()
    expect(frontMatterHooks(file('tools:\n- Read\n- Grep'))).toBeUndefined()
    expect(frontMatterHooks('---\nhooks: {A: []}\n')).toBeUndefined() // never closed: no front matter
    expect(frontMatterHooks(file('hooks:'))).toBeNull()
  })

  test('a key named __proto__ is a key, not a prototype', () => {
    const value = frontMatterHooks(file('hooks:\n  __proto__:\n    - hooks: [{command: x}]')) as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toEqual(['__proto__'])
  })

  test('an alias is YAML (resolved); thousands of them are a bomb, refused', () => {
    expect(frontMatterHooks(file('hooks:\n  A: &ref [{hooks: [{command: y}]}]\n  B: *ref'))).toEqual({
      A: [{ hooks: [{ command: 'y' }] }],
      B: [{ hooks: [{ command: 'y' }] }],
    })
    // Each top-level entry is read on its own: an alias to another entry is not resolved, and is refused.
    expect(() => frontMatterHooks(file('x: &ref []\nhooks:\n  A: *ref'))).toThrow(JsonTextError)
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefghij'.split('').map((name, index) => `${name}: &${name} [${Array(10).fill(`*${'abcdefghij'[index]}`).join(', ')}]`),
      'hooks: {A: *j}',
    ]
    expect(() => frontMatterHooks(file(bomb.join('\n')))).toThrow(JsonTextError)
  })

  test.each([
    ['a key given twice', 'hooks:\n  A: []\n  A: []', /line [4-6]: Map keys must be unique/],
    ['hooks given twice', 'hooks: {}\nhooks: {}', /line 5: "hooks" given twice/],
    ['a tab in the indentation', 'hooks:\n  A:\n\t- x', /line [4-6]: Tabs are not allowed/],
    ['a quote that never closes', 'hooks:\n  A: "open\n    more', /line [4-6]: /],
    ['text after a flow collection', 'hooks:\n  A: {a: 1} more', /line [4-5]: /],
  ])('refuses %s, naming the line', (_, yaml, message) => {
    expect(() => frontMatterHooks(file(yaml))).toThrow(JsonTextError)
    expect(() => frontMatterHooks(file(yaml))).toThrow(message)
  })
})
