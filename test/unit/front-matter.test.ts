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

  test('front matter indented as a whole is read at its own indentation', () => {
    const indented = '---\n  name: x\n  hooks:\n    A:\n    - hooks: [{command: y}]\n---\n'
    expect(frontMatterHooks(indented)).toEqual({ A: [{ hooks: [{ command: 'y' }] }] })
    expect(() => frontMatterHooks('---\n  name: x\nhooks: {}\n---\n')).toThrow(/line 3: indented less than the keys above it/)
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

  test.each([
    ['an alias', 'hooks:\n  A: *ref', /line 5: an alias \(\*ref\)/],
    ['an anchor', 'hooks:\n  A: &ref []', /line 5: an anchor/],
    ['a tag', 'hooks: !!map {}', /line 4: a tag/],
    ['a key given twice', 'hooks:\n  A: []\n  A: []', /line 6: "A" given twice/],
    ['hooks given twice', 'hooks: {}\nhooks: {}', /line 5: "hooks" given twice/],
    ['a tab in the indentation', 'hooks:\n  A:\n\t- x', /line 6: a tab/],
    ['a quote that never closes', 'hooks:\n  A: "open\n    more', /line 5: a quote that does not close/],
    ['a key inside [ ]', 'hooks:\n  A: [a, b: c]', /line 5: a key: value pair inside \[ \]/],
    ['text after a flow collection', 'hooks:\n  A: {a: 1} more', /line 5: text after the closing bracket/],
    ['a line that is no key', 'hooks:\n  A: 1\n{B: 2}', /line 6: not a `key: value` line/],
    ['bad indentation', 'hooks:\n  A:\n    - 1\n   - 2', /line 7: indented where a key was expected/],
    ['nesting past any hooks entry', `hooks: ${'['.repeat(100)}${']'.repeat(100)}`, /nesting too deep/],
  ])('refuses %s, naming the line', (_, yaml, message) => {
    expect(() => frontMatterHooks(file(yaml))).toThrow(JsonTextError)
    expect(() => frontMatterHooks(file(yaml))).toThrow(message)
  })

  test('a value over many lines costs its length: a hostile file cannot hang scan', () => {
    const lines = 20_000
    const flow = `hooks:\n  A: [\n${Array.from({ length: lines }, (_, index) => `    x${index},`).join('\n')}\n  ]`
    const quoted = `hooks:\n  A: "${Array.from({ length: lines }, (_, index) => `w${index}`).join('\n    ')}"`
    const started = performance.now()
    expect((frontMatterHooks(file(flow)) as { A: unknown[] }).A).toHaveLength(lines)
    expect(((frontMatterHooks(file(quoted)) as { A: string }).A.match(/ /g) ?? []).length).toBe(lines - 1)
    // Under a second here; read again from the start at each line, these would take minutes.
    expect(performance.now() - started).toBeLessThan(15_000)
  })
})
