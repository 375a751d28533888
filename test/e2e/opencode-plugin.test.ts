/**
 * hookrun's plugin for OpenCode with the real hookrun behind it (the compiled binary, through a
 * wrapper that gives it a clean HOME): what the person sees on stderr over a whole session.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { pluginText } from '../../src/install/opencode-plugin.ts'
import { cliEnvironment, makeProject, removeProject, ROOT } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

type Hooks = Record<string, (input: unknown, output?: unknown) => Promise<void>>

/** The plugin as OpenCode loads it from `dir`, running dist/hookrun with `dir` as its HOME. */
async function pluginIn(dir: string): Promise<Hooks> {
  const env = cliEnvironment(dir)
  const wrapper = join(dir, 'hookrun-here')
  const exports = ['HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'].map((key) => `export ${key}='${env[key]}'`)
  writeFileSync(wrapper, `#!/bin/sh\n${exports.join('\n')}\nexec '${join(ROOT, 'dist', 'hookrun')}' "$@"\n`)
  chmodSync(wrapper, 0o755)
  const file = join(dir, 'hookrun.js')
  writeFileSync(file, pluginText('OpenCode', 'opencode', [wrapper], 30))
  const module = (await import(pathToFileURL(file).href)) as { HookrunPlugin: (input: unknown) => Promise<Hooks> }
  return module.HookrunPlugin({ directory: dir, worktree: dir })
}

/** One session of one tool call, as OpenCode 1.18.33 sends it (test/agents/fixtures/opencode/). */
async function oneCallSession(hooks: Hooks, session: string): Promise<void> {
  await hooks.event!({ event: { type: 'session.created', properties: { sessionID: session, info: { id: session } } } })
  await hooks['chat.message']!({ sessionID: session }, { message: {}, parts: [{ type: 'text', text: 'go' }] })
  const call = { tool: 'bash', sessionID: session, callID: 'c1' }
  await hooks['tool.execute.before']!(call, { args: { command: 'ls' } })
  await hooks['tool.execute.after']!({ ...call, args: { command: 'ls' } }, { title: 'ls', output: '', metadata: {} })
  await hooks.event!({ event: { type: 'session.idle', properties: { sessionID: session } } })
}

describe("hookrun's plugin for OpenCode, with hookrun", () => {
  test('an untrusted project is told once a session, with one "hookrun: " before it', async () => {
    const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'exit 2' }] } })
    dirs.push(dir)
    const hooks = await pluginIn(dir)
    const printed: string[] = []
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk))
      return true
    })
    try {
      await oneCallSession(hooks, 'ses_one')
      const first = printed.join('')
      expect(first.match(/are not trusted/g), first).toHaveLength(1)
      expect(first).not.toContain('hookrun: hookrun:')
      expect(first).toContain(`hookrun: project hooks in ${dir} are not trusted`)
      // Another session is told again, once.
      printed.length = 0
      await oneCallSession(hooks, 'ses_two')
      expect(printed.join('').match(/are not trusted/g), printed.join('')).toHaveLength(1)
    } finally {
      spy.mockRestore()
    }
    expect(readFileSync(join(dir, '.hookrun', 'hooks.json'), 'utf8')).toContain('gate')
  }, 60_000)
})
