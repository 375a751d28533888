import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { fire } from '../../src/fire.ts'
import { parsePayload } from '../../src/payload/payload.ts'
import { applySetFields } from '../../src/payload/set-fields.ts'
import { makeProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

/** Fire with hooks that copy their stdin to files; returns what each hook read. */
async function stdinOfHooks(hooks: object[], payload: Record<string, unknown>, event = 'tool:pre_execute'): Promise<string[]> {
  const dir = makeProject({ 'hooks.json': { hooks } })
  dirs.push(dir)
  const env = { PATH: process.env.PATH, HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg'), XDG_CACHE_HOME: join(dir, '.cache') }
  await fire({ event, payload, cwd: dir, configFiles: [join(dir, 'hooks.json')], env })
  return hooks.map((_, index) => readFileSync(join(dir, `got-${index}.json`), 'utf8'))
}

const copy = (index: number, extra: object = {}) => ({
  name: `copy-${index}`,
  event: 'tool:pre_execute',
  command: `cat > got-${index}.json`,
  ...extra,
})

test('a hook reads the bytes that came in, with the event fields appended inside the object', async () => {
  const text = '{ "tool_name" : "Bash",\n  "tool_input": {"command": "ls"}, "n": 1.0, "s": "\\u00e9" }\n'
  const [got] = await stdinOfHooks([copy(0)], parsePayload(new TextEncoder().encode(text)))
  expect(got).toBe(
    '{ "tool_name" : "Bash",\n  "tool_input": {"command": "ls"}, "n": 1.0, "s": "\\u00e9" ,"event":"tool:pre_execute:bash","hook_event_name":"tool:pre_execute"}\n',
  )
  expect(JSON.parse(got!)).toMatchObject({ tool_name: 'Bash', n: 1, s: 'é', event: 'tool:pre_execute:bash' })
})

test('a payload that names its event is passed byte for byte; an empty object gets only the fields', async () => {
  const named = '{"event":"mine","hook_event_name":"PreToolUse",  "x": [1, 2]}'
  expect(await stdinOfHooks([copy(0)], parsePayload(new TextEncoder().encode(named)))).toEqual([named])
  expect(await stdinOfHooks([copy(0)], parsePayload(new TextEncoder().encode(' {} ')))).toEqual([
    ' {"event":"tool:pre_execute","hook_event_name":"tool:pre_execute"} ',
  ])
})

test('after a hook rewrites the input, the next hook reads the rewritten payload, serialised', async () => {
  const rewrite = { name: 'rewrite', event: 'tool:pre_execute', command: `cat > got-0.json; echo '{"updatedInput":{"command":"ls -a"}}'` }
  const text = '{"tool_name": "Bash", "tool_input": {"command": "ls"}}'
  const [first, second] = await stdinOfHooks([rewrite, copy(1)], parsePayload(new TextEncoder().encode(text)))
  expect(first).toBe(
    '{"tool_name": "Bash", "tool_input": {"command": "ls"},"event":"tool:pre_execute:bash","hook_event_name":"tool:pre_execute"}',
  )
  expect(second).toBe(
    '{"tool_name":"Bash","tool_input":{"command":"ls -a"},"event":"tool:pre_execute:bash","hook_event_name":"tool:pre_execute"}',
  )
})

test('fields set on the command line make a new payload, which is serialised', async () => {
  const payload = applySetFields(parsePayload(new TextEncoder().encode('{"a": 1}')), ['b=2'])
  expect(await stdinOfHooks([copy(0)], payload)).toEqual([
    '{"a":1,"b":"2","event":"tool:pre_execute","hook_event_name":"tool:pre_execute"}',
  ])
})

test('a byte order mark the decoder skipped is not passed on', async () => {
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"event":"e","hook_event_name":"h"}')])
  expect(await stdinOfHooks([copy(0)], parsePayload(bytes))).toEqual(['{"event":"e","hook_event_name":"h"}'])
})
