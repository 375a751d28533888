import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { HookrunError } from '../../src/errors.ts'
import { MAX_PAYLOAD_BYTES, parsePayload, readPayload } from '../../src/payload.ts'
import { makeProject } from '../helpers.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
async function* chunks(...parts: Uint8Array[]) {
  yield* parts
}

describe('readPayload', () => {
  test('absent means an empty object and reads nothing', async () => {
    expect(await readPayload(undefined, chunks(bytes('not json')))).toEqual({})
  })
  test('reads stdin in chunks', async () => {
    expect(await readPayload('-', chunks(bytes('{"a":'), bytes('1}')))).toEqual({ a: 1 })
  })
  test('reads a file', async () => {
    const dir = makeProject({ 'event.json': { tool_name: 'bash' } })
    expect(await readPayload(join(dir, 'event.json'))).toEqual({ tool_name: 'bash' })
  })
  test('a missing file is named', async () => {
    await expect(readPayload('/no/such/payload.json')).rejects.toThrow('cannot read payload file /no/such/payload.json: no such file')
  })
  test('refuses more than the limit without reading it all', async () => {
    const big = new Uint8Array(MAX_PAYLOAD_BYTES / 2)
    await expect(readPayload('-', chunks(big, big, big))).rejects.toThrow(/larger than 64 MiB/)
  })
  test('a 10 MB payload works', async () => {
    const dir = makeProject()
    const file = join(dir, 'big.json')
    writeFileSync(file, JSON.stringify({ tool_input: { content: 'x'.repeat(10 * 1024 * 1024) } }))
    const payload = await readPayload(file)
    expect((payload.tool_input as { content: string }).content.length).toBe(10 * 1024 * 1024)
  })
})

describe('parsePayload', () => {
  test.each([
    ['', 'payload is empty'],
    ['  \n', 'payload is empty'],
    ['{oops', 'payload is not valid JSON'],
    ['[]', 'payload must be a JSON object, got an array'],
    ['null', 'payload must be a JSON object, got null'],
    ['"text"', 'payload must be a JSON object, got a string'],
    ['42', 'payload must be a JSON object, got a number'],
  ])('%j → %s', (text, message) => {
    expect(() => parsePayload(bytes(text))).toThrow(message)
  })
  test('invalid UTF-8 is refused', () => {
    expect(() => parsePayload(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).toThrow('payload is not valid UTF-8')
  })
  test('deep nesting parses or is a clear HookrunError, never a raw RangeError', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000)
    try {
      expect(parsePayload(bytes(`{"a":${deep}}`))).toHaveProperty('a')
    } catch (error) {
      expect(error).toBeInstanceOf(HookrunError)
      expect((error as Error).message).toBe('payload is not valid JSON: it is nested too deeply')
    }
  })
})
