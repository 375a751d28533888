import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH, parsePayload, readPayload } from '../../src/payload/payload.ts'
import { PayloadError } from '../../src/payload/payload-error.ts'
import { cpuMs, makeProject, removeProject, ROOT } from '../helpers.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

describe('parsePayload: every way a payload is wrong has its own one-line message', () => {
  test.each([
    ['', 'payload is empty; send a JSON object'],
    ['  \n', 'payload is empty'],
    ['{not json', 'payload is not valid JSON: '],
    ['[1,2]', 'payload must be a JSON object, got an array'],
    ['"text"', 'payload must be a JSON object, got a string'],
    ['null', 'payload must be a JSON object, got null'],
  ])('%j', (text, message) => {
    expect(() => parsePayload(bytes(text))).toThrow(message)
  })

  test('invalid UTF-8', () => {
    expect(() => parsePayload(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]))).toThrow('payload is not valid UTF-8 text')
  })

  test(`nesting: ${MAX_PAYLOAD_DEPTH} levels pass, one more is refused, 100,000 never overflow the stack`, () => {
    expect(parsePayload(bytes(nested(MAX_PAYLOAD_DEPTH)))).toHaveProperty('a')
    expect(() => parsePayload(bytes(nested(MAX_PAYLOAD_DEPTH + 1)))).toThrow(`payload is nested more than ${MAX_PAYLOAD_DEPTH} levels deep`)
    expect(() => parsePayload(bytes(nested(100_000)))).toThrow(`nested more than ${MAX_PAYLOAD_DEPTH} levels deep`)
    expect(() => parsePayload(bytes(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`))).toThrow('levels deep')
  })

  test('a wide payload is fine and quick to check', () => {
    const wide = JSON.stringify({ items: Array.from({ length: 200_000 }, (_, index) => ({ index })) })
    const { value, ms } = cpuMs(() => parsePayload(bytes(wide)))
    expect(value.items).toHaveLength(200_000)
    expect(ms).toBeLessThan(2000)
  })
})

describe('readPayload: bounded, whatever the source', () => {
  test('stdin larger than the limit is refused without reading it all', async () => {
    let sent = 0
    async function* endless() {
      const chunk = new Uint8Array(1024 * 1024).fill(0x20)
      for (;;) {
        sent += chunk.byteLength
        yield chunk
      }
    }
    await expect(readPayload('-', endless())).rejects.toThrow('payload on stdin is larger than 64 MiB')
    expect(sent).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES + 1024 * 1024)
  })

  test('a payload path naming an endless device is refused at the limit', async () => {
    await expect(readPayload('/dev/zero')).rejects.toThrow('payload file /dev/zero is larger than 64 MiB')
  })

  test('a missing file and a folder are named', async () => {
    const dir = makeProject()
    projects.push(dir)
    await expect(readPayload(join(dir, 'nope.json'))).rejects.toThrow(`cannot read payload file ${join(dir, 'nope.json')}: no such file`)
    await expect(readPayload(dir)).rejects.toThrow(`cannot read payload file ${dir}: it is a folder`)
  })
})

describe('readPayload: a syntax error has its line and column, whatever the runtime says', () => {
  async function* chunks(...parts: Uint8Array[]) {
    yield* parts
  }
  test.each([
    ['{"a": 1,}', 'line 1, column 9: expected a property name in double quotes'],
    ['{\n  "a": 1\n  "b": 2\n}', 'line 3, column 3: expected a comma'],
    ["{'a': 1}", 'line 1, column 2: '],
    ['{"a": [1, 2}', 'line 1, column 12: expected a comma'],
  ])('%j', async (text, where) => {
    await expect(readPayload('-', chunks(bytes(text)))).rejects.toThrow(`payload on stdin is not valid JSON: ${where}`)
  })

  test("the fields before the error are kept, so the agent's event can still be told", async () => {
    const error = await readPayload('-', chunks(bytes('{"hook_event_name":"PreToolUse","tool_name":"Bash","x":'))).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(PayloadError)
    expect((error as PayloadError).partial).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash' })
  })

  test('a file is named, with what to do', async () => {
    const dir = makeProject({ 'event.json': '{"a":\n' })
    projects.push(dir)
    const file = join(dir, 'event.json')
    await expect(readPayload(file)).rejects.toThrow(
      `payload file ${file} is not valid JSON: line 2, column 1: expected a value (JSON allows no trailing comma); fix ${file}: it must hold one JSON object`,
    )
  })
})

describe('readPayload: sources', () => {
  async function* chunks(...parts: Uint8Array[]) {
    yield* parts
  }
  test('absent means an empty object and reads nothing', async () => {
    expect(await readPayload(undefined, chunks(bytes('not json')))).toEqual({})
  })
  test('reads stdin in chunks', async () => {
    expect(await readPayload('-', chunks(bytes('{"a":'), bytes('1}')))).toEqual({ a: 1 })
  })
  test('a 10 MB payload file works', async () => {
    const dir = makeProject()
    projects.push(dir)
    const { writeFileSync } = await import('node:fs')
    writeFileSync(join(dir, 'big.json'), JSON.stringify({ tool_input: { content: 'x'.repeat(10 * 1024 * 1024) } }))
    const payload = await readPayload(join(dir, 'big.json'))
    expect((payload.tool_input as { content: string }).content.length).toBe(10 * 1024 * 1024)
  })
  test('a regular file larger than the limit is refused by its size, unread', async () => {
    const dir = makeProject()
    projects.push(dir)
    const { truncateSync, writeFileSync } = await import('node:fs')
    writeFileSync(join(dir, 'huge.json'), '')
    truncateSync(join(dir, 'huge.json'), MAX_PAYLOAD_BYTES + 1)
    await expect(readPayload(join(dir, 'huge.json'))).rejects.toThrow(`payload file ${join(dir, 'huge.json')} is larger than 64 MiB`)
  })
})

describe('readStdin', () => {
  const readThroughStdin = (input: Buffer, allocate = 'undefined') => {
    const script = `import { readStdin } from ${JSON.stringify(join(ROOT, 'src/payload/stdin.ts'))}
const sizes = []; const hash = (await import('node:crypto')).createHash('sha256')
for await (const chunk of readStdin(${allocate})) { sizes.push(chunk.byteLength); hash.update(chunk) }
console.log(JSON.stringify({ sizes, sha: hash.digest('hex') }))`
    const result = spawnSync(join(ROOT, 'node_modules/.bin/bun'), ['-e', script], {
      input,
      encoding: 'utf8',
      env: { ...process.env, BUN_OPTIONS: undefined },
    })
    expect(result.stderr).toBe('')
    return JSON.parse(result.stdout)
  }
  test('a pipe (64 KiB a read) is read into one chunk, every byte kept in order: the payload is never concatenated', () => {
    const input = Buffer.from(Array.from({ length: 2_500_000 }, (_, i) => i % 251))
    expect(readThroughStdin(input)).toEqual({ sizes: [2_500_000], sha: createHash('sha256').update(input).digest('hex') })
    const small = Buffer.from('{"tool_name":"Bash"}')
    expect(readThroughStdin(small)).toEqual({ sizes: [small.length], sha: createHash('sha256').update(small).digest('hex') })
  })
  test('where the large buffer cannot be had (strict overcommit), the rest comes in 1 MiB chunks, every byte in order', () => {
    const input = Buffer.from(Array.from({ length: 2_500_000 }, (_, i) => i % 251))
    const refusing = "(size) => { if (size > 1048576) throw new RangeError('Out of memory'); return Buffer.allocUnsafe(size) }"
    expect(readThroughStdin(input, refusing)).toEqual({
      sizes: [1_048_576, 1_048_576, 402_848],
      sha: createHash('sha256').update(input).digest('hex'),
    })
  })

  test('reading stops one byte past the largest payload, leaving the rest unread', () => {
    const input = Buffer.alloc(MAX_PAYLOAD_BYTES + 1_000_000, 0x20)
    expect(readThroughStdin(input).sizes).toEqual([MAX_PAYLOAD_BYTES + 1])
  })
})
