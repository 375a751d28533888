// `install --agent claude --serve`: http handlers to hookrun serve, the start command, the private
// settings file; back to commands without --serve; uninstall removes exactly these; --sync keeps them.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { agentTarget } from '../../src/install/agents.ts'
import { routedEvents } from '../../src/install/overlaps.ts'
import { serveSecret } from '../../src/serve/state.ts'
import { makeProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

type Handler = { type: string; url?: string; command?: string; onFailure?: string; headers?: Record<string, string> }
type Settings = { hooks: Record<string, Array<{ matcher?: string; hooks: Handler[] }>> }

function place(files: Record<string, object> = {}) {
  const root = makeProject()
  dirs.push(root)
  const home = join(root, 'home')
  const project = join(root, 'project')
  mkdirSync(join(project, '.hookrun'), { recursive: true })
  // No claude on PATH unless a test puts one there.
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.state'),
    PATH: join(root, 'bin'),
  }
  mkdirSync(join(home, '.config', 'hookrun'), { recursive: true })
  writeFileSync(join(home, '.config', 'hookrun', 'hooks.json'), JSON.stringify({ trustedFolders: [project] }))
  for (const [path, content] of Object.entries(files)) writeFileSync(join(project, path), JSON.stringify(content))
  const settingsFile = (scope: 'user' | 'project') => agentTarget('claude')!.file(scope, { home, project, env })
  const read = (scope: 'user' | 'project' = 'user') => JSON.parse(readFileSync(settingsFile(scope), 'utf8')) as Settings
  const install = (flags: {
    serve?: { port: number } | false
    scope?: 'user' | 'project'
    narrow?: boolean
    sync?: boolean
    remove?: boolean
  }) =>
    installAgents(
      {
        agents: ['claude'],
        scope: flags.scope ?? 'user',
        cwd: project,
        env,
        self: '/opt/hookrun',
        serve: flags.serve,
        narrow: flags.narrow,
        sync: flags.sync,
      },
      flags.remove === true,
    )
  return { root, home, project, env, settingsFile, read, install }
}

const handlerOf = (settings: Settings, event: string) => settings.hooks[event]?.[0]?.hooks[0]

describe('install --agent claude --serve', () => {
  test('gate events get an http handler that blocks on failure; others continue; SessionStart and UserPromptSubmit start the server', () => {
    const where = place()
    const result = where.install({ serve: { port: 47_555 } })
    expect(result.exitCode).toBe(0)
    const settings = where.read()
    const secret = serveSecret(where.env)
    const url = 'http://127.0.0.1:47555/claude?if-down=run-hookrun-serve'
    expect(handlerOf(settings, 'PreToolUse')).toEqual({
      type: 'http',
      url,
      headers: { 'x-hookrun-secret': secret },
      timeout: 600,
      onFailure: 'block',
    })
    expect(handlerOf(settings, 'PermissionRequest')?.onFailure).toBe('block')
    expect(handlerOf(settings, 'PostToolUse')?.onFailure).toBe('continue')
    for (const event of ['SessionStart', 'UserPromptSubmit'])
      expect(handlerOf(settings, event)).toEqual({ type: 'command', command: '/opt/hookrun serve --start --port 47555', timeout: 600 })
    // The file holds the secret: the user's alone.
    expect(statSync(where.settingsFile('user')).mode & 0o777).toBe(0o600)
    expect(result.output).toContain(`served:  http handlers to ${url}`)
    // A new file is made private without a word; installing again changes nothing.
    expect(result.output).not.toMatch(/readable by you alone/)
    expect(where.install({ serve: { port: 47_555 } }).output).toMatch(/already installed/)
    expect(where.read()).toEqual(settings)
    // Doctor and overlaps count them as hookrun's.
    expect(routedEvents(where.settingsFile('user'), 'claude')).toContain('PreToolUse')
  })

  test('an existing settings file readable by others is made private, and install says so', () => {
    const where = place()
    mkdirSync(join(where.home, '.claude'), { recursive: true })
    writeFileSync(where.settingsFile('user'), '{ "model": "x" }\n')
    chmodSync(where.settingsFile('user'), 0o644)
    const result = where.install({ serve: { port: 47_555 } })
    expect(statSync(where.settingsFile('user')).mode & 0o777).toBe(0o600)
    expect(result.output).toMatch(/readable by you alone \(mode 600, was 644\)/)
  })

  test('install without --serve puts command handlers back; --port moves the url; uninstall removes exactly these entries', () => {
    const where = place()
    mkdirSync(join(where.home, '.claude'), { recursive: true })
    const own = { type: 'http', url: 'http://127.0.0.1:9999/mine', timeout: 5 }
    writeFileSync(where.settingsFile('user'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [own] }] } }))
    where.install({ serve: { port: 47_555 } })
    where.install({ serve: { port: 47_556 } })
    expect(JSON.stringify(where.read())).not.toContain('47555')
    expect(handlerOf(where.read(), 'Stop')?.url).toContain(':47556/')
    where.install({ serve: false })
    const back = where.read()
    expect(JSON.stringify(back)).not.toContain('"http://127.0.0.1:47556')
    expect(handlerOf(back, 'SessionStart')).toEqual({ type: 'command', command: '/opt/hookrun fire --format claude', timeout: 600 })
    expect(back.hooks.PreToolUse?.flatMap((group) => group.hooks)).toContainEqual({
      type: 'command',
      command: '/opt/hookrun fire --format claude',
      timeout: 600,
    })
    where.install({ serve: { port: 47_555 } })
    where.install({ remove: true })
    // The user's own http handler stays; nothing of hookrun's is left.
    expect(where.read()).toEqual({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [own] }] } })
  })

  test('a narrowed project install keeps SessionStart and UserPromptSubmit (they start the server); --sync keeps serving', () => {
    const where = place({ '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute:bash', command: 'true' }] } })
    where.install({ serve: { port: 47_555 }, scope: 'project', narrow: true })
    const settings = where.read('project')
    expect(Object.keys(settings.hooks).sort()).toEqual(['PreSkillShellCommand', 'PreToolUse', 'SessionStart', 'UserPromptSubmit'])
    expect(settings.hooks.PreToolUse?.[0]?.matcher).toBe('^(Bash|Shell|exec)$')
    expect(statSync(where.settingsFile('project')).mode & 0o777).toBe(0o600)
    // hooks.json grows a PostToolUse hook; the sync a fire starts keeps http handlers and the port.
    writeFileSync(
      join(where.project, '.hookrun', 'hooks.json'),
      JSON.stringify({
        hooks: [
          { name: 'gate', event: 'tool:pre_execute:bash', command: 'true' },
          { name: 'after', event: 'tool:post_execute:bash', command: 'true' },
        ],
      }),
    )
    where.install({ scope: 'project', sync: true })
    const synced = where.read('project')
    expect(handlerOf(synced, 'PostToolUse')).toMatchObject({ type: 'http', onFailure: 'continue' })
    expect(handlerOf(synced, 'PostToolUse')?.url).toContain(':47555/')
    expect(handlerOf(synced, 'SessionStart')?.command).toBe('/opt/hookrun serve --start --port 47555')
  })

  test('refused with one line for a Claude Code older than 2.1.295, and for other agents', () => {
    const where = place()
    mkdirSync(join(where.root, 'bin'))
    writeFileSync(join(where.root, 'bin', 'claude'), '#!/bin/sh\necho "2.1.200 (Claude Code)"\n')
    chmodSync(join(where.root, 'bin', 'claude'), 0o755)
    expect(() => where.install({ serve: { port: 47_555 } })).toThrow(/--serve needs Claude Code 2\.1\.295 or later .* is 2\.1\.200/)
    writeFileSync(join(where.root, 'bin', 'claude'), '#!/bin/sh\necho "2.1.331 (Claude Code)"\n')
    expect(where.install({ serve: { port: 47_555 } }).output).not.toMatch(/needs Claude Code/)
    expect(() =>
      installAgents({ agents: ['claude', 'codex'], scope: 'user', cwd: where.project, env: where.env, serve: { port: 1 } }, false),
    ).toThrow(/--serve is for --agent claude, gemini, copilot, qwen, codebuddy only/)
  })
})
