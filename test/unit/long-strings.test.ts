// A large payload's long strings stay undecoded bytes until read (src/payload/long-strings.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, test } from 'vitest'
import { fire } from '../../src/fire.ts'
import { HookrunError } from '../../src/core/errors.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { boundedText, hasNul, isUndecoded, parseLeavingLongStrings, spreadKeepingLongStrings } from '../../src/payload/long-strings.ts'
import { applySetFields } from '../../src/payload/set-fields.ts'
import { LARGE_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH, payloadBytes, readPayload } from '../../src/payload/payload.ts'
import { ENV_VALUE_CAP, hookEnvironment, variablesWithNul } from '../../src/run/env.ts'
import { cutUtf8, makeProject, removeProject } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const encode = (text: string) => Buffer.from(text)
async function* stdinOf(bytes: Uint8Array) {
  yield bytes
}
/** Parsed with a small threshold, so that short test strings count as long. */
const parse = (text: string | Uint8Array, longString = 8) =>
  parseLeavingLongStrings(typeof text === 'string' ? encode(text) : text, {
    maxDepth: MAX_PAYLOAD_DEPTH,
    where: 'payload on stdin',
    longString,
  })

/** Every value read, as JSON.parse would have given it: reading is what decodes. */
const readAll = (value: unknown) => JSON.parse(JSON.stringify(value))

/** Text JSON escapes in every way: quotes, backslashes, controls, line separators, astral characters. */
const awkward = fc.string({
  unit: fc.constantFrom('a', 'b', '"', '\\', '\n', '\t', '\u0001', '\u2028', '\uFEFF', 'é', '€', '😀', '/', 'u'),
  maxLength: 40,
})
const payloadValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    awkward,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(awkward, tie('value'), { maxKeys: 3 }),
  ),
})).value
const payloadObject = fc.dictionary(awkward, payloadValue, { maxKeys: 4 })

describe('parseLeavingLongStrings', () => {
  test('gives what JSON.parse gives, however the text is spaced, with long strings left undecoded until read', () => {
    fc.assert(
      fc.property(payloadObject, fc.constantFrom(undefined, 2, '\t'), fc.integer({ min: 1, max: 12 }), (value, space, longString) => {
        const text = JSON.stringify(value, null, space)
        const parsed = parse(text, longString) as Record<string, unknown>
        expect(parsed).toBeDefined()
        for (const [key, item] of Object.entries(value)) {
          if (typeof item === 'string' && encode(JSON.stringify(item)).length - 2 >= longString)
            expect(isUndecoded(parsed, key), key).toBe(true)
        }
        expect(readAll(parsed)).toEqual(JSON.parse(text))
        expect(Object.keys(parsed)).toEqual(Object.keys(JSON.parse(text)))
      }),
      { numRuns: 300 },
    )
  })

  test('a long string is decoded once, on first read, and a write replaces it', () => {
    const parsed = parse('{"a":{"content":"0123456789abcdef","n":1},"list":["0123456789abcdef"]}') as {
      a: { content: string }
      list: string[]
    }
    expect(isUndecoded(parsed.a, 'content')).toBe(true)
    expect(isUndecoded(parsed.list, '0')).toBe(true)
    expect(parsed.a.content).toBe('0123456789abcdef')
    expect(isUndecoded(parsed.a, 'content')).toBe(false)
    expect(parsed.list).toEqual(['0123456789abcdef'])
    parsed.a.content = 'new'
    expect(parsed.a).toEqual({ content: 'new', n: 1 })
    expect(Object.getOwnPropertyDescriptor(parsed.a, 'content')).toMatchObject({ value: 'new', writable: true })
  })

  test('a long key stays a key, and a payload holding the marker text gains nothing', () => {
    const key = 'k'.repeat(20)
    expect(readAll(parse(`{"${key}":"v","x":"\\u0000hookrun-long-string:abc:0"}`))).toEqual({
      [key]: 'v',
      x: '\0hookrun-long-string:abc:0',
    })
  })

  test(`${MAX_PAYLOAD_DEPTH} levels with a long string at the bottom are taken, as the whole parse takes them`, () => {
    const deep = parse(`${'{"a":'.repeat(MAX_PAYLOAD_DEPTH - 1)}{"s":"0123456789abcdef"}${'}'.repeat(MAX_PAYLOAD_DEPTH - 1)}`)
    expect(deep).toBeDefined()
  })

  test.each([
    [
      'not UTF-8 outside the long strings',
      Buffer.concat([encode('{"a":"0123456789abcdef","b":"'), Buffer.from([0xc3, 0x28]), encode('"}')]),
    ],
    ['broken outside the long strings', encode('{"a":"0123456789abcdef",}')],
    ['no closing quote', encode('{"a":"0123456789abcdef}')],
    ['an array', encode('["0123456789abcdef"]')],
    ['one long string', encode('"0123456789abcdef"')],
    ['too deep', encode(`${'{"a":'.repeat(MAX_PAYLOAD_DEPTH + 1)}"0123456789abcdef"${'}'.repeat(MAX_PAYLOAD_DEPTH + 1)}`)],
  ])('%s: undefined, and the whole parse says why', (_, bytes) => {
    expect(parse(bytes)).toBeUndefined()
  })

  test('bytes that are not UTF-8 in a long string fail the read that decodes it, and the leading characters too', () => {
    const parsed = parse(Buffer.concat([encode('{"tool_input":{"content":"0123456789'), Buffer.from([0xc3, 0x28]), encode('"}}')])) as {
      tool_input: { content: string }
    }
    expect(isUndecoded(parsed.tool_input, 'content')).toBe(true)
    expect(() => boundedText(parsed.tool_input, 'content', 100)).toThrow(
      /^payload on stdin is not valid JSON: the string 'content' at byte 25: /,
    )
    expect(() => parsed.tool_input.content).toThrow(HookrunError)
  })

  test('a bad escape or raw control character in a long string fails the read that decodes it, naming it', () => {
    for (const body of ['0123456789\\x', '0123456789\u0001abc', '0123456789\\u12G4']) {
      const parsed = parse(`{"tool_input":{"content":"${body}"}}`) as { tool_input: { content: string } }
      expect(() => parsed.tool_input.content).toThrow(HookrunError)
      expect(() => parsed.tool_input.content).toThrow(
        /^payload on stdin is not valid JSON: the string 'content' at byte 25: .+; send the event as valid JSON$/,
      )
    }
  })

  test('never gives a value that differs from JSON.parse: bytes it takes either read the same or fail the read', () => {
    const mutated = fc
      .tuple(payloadObject, fc.nat(), fc.constantFrom('"', '\\', ',', '}', '\u0001', 'u', 'x', ':', '['))
      .map(([value, at, insert]) => {
        const text = JSON.stringify(value)
        const cut = at % (text.length + 1)
        return text.slice(0, cut) + insert + text.slice(cut)
      })
    fc.assert(
      fc.property(mutated, fc.integer({ min: 1, max: 6 }), (text, longString) => {
        const bytes = encode(text)
        const parsed = parse(bytes, longString)
        if (parsed === undefined) return
        let whole: unknown
        try {
          // What the bytes say (a cut surrogate pair is not in them as it was in the text).
          whole = JSON.parse(bytes.toString())
        } catch {
          expect(() => readAll(parsed), text).toThrow(HookrunError)
          return
        }
        expect(readAll(parsed)).toEqual(whole)
      }),
      { numRuns: 1000 },
    )
  })
})

describe('boundedText', () => {
  test('the whole string when it can fit, else a start of it that fits, without keeping it decoded', () => {
    fc.assert(
      fc.property(
        fc.oneof(awkward, fc.string({ unit: fc.constantFrom('a', '\\', '\u0001', 'é', '😀', '\uD83D'), maxLength: 400 })),
        fc.integer({ min: 0, max: 300 }),
        (text, max) => {
          const parsed = parse(JSON.stringify({ s: text }), 0) as { s: string }
          const bounded = boundedText(parsed, 's', max)!
          expect(isUndecoded(parsed, 's')).toBe(true)
          expect(bounded).toEqual({ text: cutUtf8(text, max), complete: Buffer.byteLength(text) <= max })
        },
      ),
      { numRuns: 500 },
    )
  })

  test('a 10 MB string is read only as far as a variable holds', () => {
    const parsed = parse(JSON.stringify({ s: `é${'x'.repeat(10_000_000)}` }), 0) as { s: string }
    const bounded = boundedText(parsed, 's', 1000)!
    expect(bounded).toEqual({ text: `é${'x'.repeat(998)}`, complete: false })
    // Escaped the way Python's json.dumps writes it: every character an escape, pairs split in two.
    const escaped = parse(`{"s":"${'\\ud83d\\ude00\\u00e9'.repeat(1_000_000)}"}`, 0) as { s: string }
    expect(boundedText(escaped, 's', 1000)).toEqual({ text: cutUtf8('😀é'.repeat(1000), 1000), complete: false })
    expect(isUndecoded(parsed, 's')).toBe(true)
  })

  test('bytes that are not valid anywhere in the string: what is read is a start of the string, or the read fails as the whole read does', () => {
    const broken = fc.tuple(
      awkward,
      fc.nat(),
      fc.constantFrom([0xc3], [0xff], [0x5c, 0x71], [0x01], [0x5c, 0x75, 0x31]),
      fc.integer({ min: 1, max: 40 }),
    )
    fc.assert(
      fc.property(broken, ([text, at, bad, max]) => {
        const body = Buffer.from(JSON.stringify(text).slice(1, -1))
        const cut = at % (body.length + 1)
        const bytes = Buffer.concat([encode('{"s":"'), body.subarray(0, cut), Buffer.from(bad), body.subarray(cut), encode('"}')])
        const parsed = parse(bytes, 0) as { s: string } | undefined
        // Not taken at all (the inserted bytes broke the string's end): the whole parse says why.
        if (parsed === undefined) return
        let whole: string | undefined
        try {
          whole = parsed.s
        } catch {}
        const again = parse(bytes, 0) as { s: string }
        let bounded: { text: string; complete: boolean } | undefined
        try {
          bounded = boundedText(again, 's', max)
        } catch {
          expect(whole).toBeUndefined()
          return
        }
        if (whole !== undefined) expect(whole.startsWith(bounded!.text)).toBe(true)
        else expect(bounded!.complete).toBe(false)
      }),
      { numRuns: 1000 },
    )
  })

  test('undefined for anything but an undecoded long string', () => {
    const parsed = parse('{"s":"0123456789abcdef","short":"ab"}') as { s: string }
    expect(boundedText(parsed, 'short', 1)).toBeUndefined()
    expect(boundedText({ s: 'plain' }, 's', 1)).toBeUndefined()
    void parsed.s
    expect(boundedText(parsed, 's', 1)).toBeUndefined()
  })

  test('a bad escape fails as reading the whole string does', () => {
    const parsed = parse('{"s":"ab\\qcdefghijkl"}') as { s: string }
    expect(() => boundedText(parsed, 's', 5)).toThrow(/not valid JSON: the string 's'/)
  })
})

describe('spreadKeepingLongStrings', () => {
  test('is a spread whose long strings stay undecoded, in the copy and in the source', () => {
    fc.assert(
      fc.property(
        payloadObject,
        fc.dictionary(fc.constantFrom('event', 'a', 'tool_input'), fc.string(), { maxKeys: 2 }),
        (value, fields) => {
          const parsed = parse(JSON.stringify(value), 4) as Record<string, unknown>
          const long = Object.keys(parsed).filter((key) => isUndecoded(parsed, key) && !(key in fields))
          const copy = spreadKeepingLongStrings(parsed, fields)
          for (const key of long) expect(isUndecoded(copy, key) && isUndecoded(parsed, key)).toBe(true)
          expect(Object.keys(copy)).toEqual(Object.keys({ ...JSON.parse(JSON.stringify(value)), ...fields }))
          expect(readAll(copy)).toEqual({ ...JSON.parse(JSON.stringify(value)), ...fields })
        },
      ),
      { numRuns: 300 },
    )
  })

  test('a key named __proto__ stays a property; a write to the copy leaves the source as it was', () => {
    const parsed = parse('{"__proto__":{"x":1},"s":"0123456789abcdef"}') as Record<string, unknown>
    const copy = spreadKeepingLongStrings(parsed)
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.keys(copy)).toEqual(['__proto__', 's'])
    const withField = spreadKeepingLongStrings(parsed, JSON.parse('{"__proto__":{"polluted":1}}'))
    expect(Object.getPrototypeOf(withField)).toBe(Object.prototype)
    expect(readAll(withField)).toEqual(JSON.parse('{"__proto__":{"polluted":1},"s":"0123456789abcdef"}'))
    copy.s = 'changed'
    expect(parsed.s).toBe('0123456789abcdef')
  })

  test("--set fields keep the payload's long strings undecoded", () => {
    const parsed = parse('{"prompt":"0123456789abcdef"}') as Record<string, unknown>
    const set = applySetFields(parsed, ['recipe=x'])
    expect(isUndecoded(set, 'prompt')).toBe(true)
    expect(readAll(set)).toEqual({ prompt: '0123456789abcdef', recipe: 'x' })
  })
})

describe('hasNul', () => {
  test('says whether the decoded string would hold a NUL, from its bytes', () => {
    const withNul = fc.string({ unit: fc.constantFrom('a', '\0', '\\', 'u', '0', '"'), maxLength: 30 })
    fc.assert(
      fc.property(withNul, (text) => {
        const parsed = parse(JSON.stringify({ s: text }), 0) as { s: string }
        expect(hasNul(parsed, 's')).toBe(text.includes('\0'))
        expect(isUndecoded(parsed, 's')).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
})

describe('hook variables from a payload with long strings', () => {
  const context = { hookName: 'h', projectDir: '/p', configDir: '/p', depth: 0 }
  // A small limit keeps it fast (the code is the same): strings around it, and ones read only in part.
  const CAP = 300
  const text = fc.oneof(awkward, fc.string({ unit: fc.constantFrom('a', '\0', '"', '😀'), minLength: CAP / 4 - 3, maxLength: 2 * CAP }))
  const payload = fc.record(
    {
      tool_name: fc.constant('Bash'),
      tool_input: fc.record({ command: text, content: text }, { requiredKeys: [] }),
      prompt: text,
      tool_response: fc.oneof(text, fc.record({ stdout: text })),
      last_assistant_message: text,
      session_id: text,
    },
    { requiredKeys: ['tool_name'] },
  )
  test('are what the whole parse gives, and read no long string whole', () => {
    fc.assert(
      fc.property(payload, fc.constantFrom('tool:pre_execute', 'tool:post_execute', 'user:prompt_submit'), (value, name) => {
        const json = JSON.stringify(value)
        const whole = JSON.parse(json)
        const lazy = parse(json, 4) as typeof whole
        const env = (from: typeof whole) =>
          hookEnvironment({}, qualifyEvent(name, from), from, context, undefined, ['PIGO_', 'FORGE_'], CAP)
        expect(variablesWithNul(qualifyEvent(name, lazy), lazy)).toEqual(variablesWithNul(qualifyEvent(name, whole), whole))
        expect(env(lazy)).toEqual(env(whole))
        if (typeof value.prompt === 'string' && value.prompt.length > 8) expect(isUndecoded(lazy, 'prompt')).toBe(true)
        if ((value.tool_input?.content?.length ?? 0) > 8) expect(isUndecoded(lazy.tool_input, 'content')).toBe(true)
      }),
      { numRuns: 200 },
    )
  })
})

describe('a large payload through readPayload and a hook environment', () => {
  const content = `line "one"\n\ttwo é 😀 \\ ${'x'.repeat(LARGE_PAYLOAD_BYTES)}`
  const text = JSON.stringify({ session_id: 's', tool_name: 'Write', tool_input: { file_path: '/tmp/f', content } })

  test('the long string stays undecoded; the bytes are the payload as it came; HOOKRUN_TOOL_ARGS is what the whole parse gives', async () => {
    const payload = await readPayload('-', stdinOf(encode(text)))
    const input = payload.tool_input as { content: string }
    expect(isUndecoded(input, 'content')).toBe(true)
    expect(Buffer.from(payloadBytes(payload)!).toString()).toBe(text)
    const env = hookEnvironment(
      {},
      qualifyEvent('tool:pre_execute', payload),
      payload,
      { hookName: 'h', projectDir: '/p', configDir: '/p', depth: 0 },
      undefined,
    )
    expect(isUndecoded(input, 'content')).toBe(true)
    expect(env.HOOKRUN_TOOL_ARGS).toBe(cutUtf8(JSON.stringify(JSON.parse(text).tool_input), ENV_VALUE_CAP))
    expect(env.HOOKRUN_TOOL_ARGS_TRUNCATED).toBe('1')
    expect(input.content).toBe(content)
  })

  test('a fire hands a hook the bytes as they came and decodes the long string nowhere on the way', async () => {
    const dir = makeProject({
      'hooks.json': {
        hooks: [{ name: 'reader', event: 'tool:pre_execute', command: 'cat > got.json; printf %s "$HOOKRUN_TOOL_ARGS" > args.txt' }],
      },
    })
    projects.push(dir)
    const payload = await readPayload('-', stdinOf(encode(text)))
    const decision = await fire({ event: 'tool:pre_execute', payload, configFiles: [join(dir, 'hooks.json')], cwd: dir })
    expect(decision).toMatchObject({ decision: 'allow', warnings: [] })
    expect(isUndecoded(payload.tool_input as object, 'content')).toBe(true)
    const got = readFileSync(join(dir, 'got.json'), 'utf8')
    expect(got.startsWith(text.slice(0, -1))).toBe(true)
    expect(JSON.parse(got)).toEqual({ ...JSON.parse(text), event: 'tool:pre_execute:write', hook_event_name: 'tool:pre_execute' })
    expect(readFileSync(join(dir, 'args.txt'), 'utf8')).toBe(cutUtf8(JSON.stringify(JSON.parse(text).tool_input), ENV_VALUE_CAP))
  })

  test('a long top-level string (a prompt) stays undecoded through a fire too, though the event fields are added to a copy', async () => {
    const dir = makeProject({
      'hooks.json': {
        hooks: [{ name: 'reader', event: 'user:prompt_submit', command: 'cat > got.json; printf %s "$HOOKRUN_USER_MESSAGE" > prompt.txt' }],
      },
    })
    projects.push(dir)
    const prompt = `say "hi"\n\t${content}`
    const prompted = JSON.stringify({ session_id: 's', hook_event_name: 'UserPromptSubmit', prompt })
    const payload = await readPayload('-', stdinOf(encode(prompted)))
    await fire({ event: 'user:prompt_submit', payload, configFiles: [join(dir, 'hooks.json')], cwd: dir })
    expect(isUndecoded(payload, 'prompt')).toBe(true)
    expect(JSON.parse(readFileSync(join(dir, 'got.json'), 'utf8')).prompt).toBe(prompt)
    expect(readFileSync(join(dir, 'prompt.txt'), 'utf8')).toBe(cutUtf8(prompt, ENV_VALUE_CAP))
  })

  test('a payload under the threshold is parsed whole', async () => {
    const payload = await readPayload('-', stdinOf(encode(JSON.stringify({ tool_input: { content: 'x'.repeat(200_000) } }))))
    expect(isUndecoded(payload.tool_input as object, 'content')).toBe(false)
  })

  test('a large payload that is not JSON is refused with the message any payload gets', async () => {
    await expect(readPayload('-', stdinOf(encode(`${text.slice(0, -1)},}`)))).rejects.toThrow(/^payload on stdin is not valid JSON: /)
  })
})
