import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { staleAgentConfigs } from '../../src/install/narrowed-sync.ts'
import { agentTarget } from '../../src/install/agents.ts'
import { compileNativeMatchers, isCompiledMatcher } from '../../src/install/matchers.ts'
import { processesPer100ToolCalls } from '../../scripts/agent-processes.ts'
import { makeHook, makeProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const compile = (agent: string, hooks: Parameters<typeof makeHook>[0][]) =>
  compileNativeMatchers(agentTarget(agent)!, hooks.map(makeHook), false)

describe("compileNativeMatchers: hookrun patterns as the agent's own events and matchers", () => {
  test('Claude: entries only on events a hook fires on; a tool event names only the wanted tools', () => {
    const entries = compile('claude', [{ event: ['tool:pre_execute:bash|write'] }, { event: ['session:start'] }])!
    expect([...entries.keys()].sort()).toEqual(['PreSkillShellCommand', 'PreToolUse', 'SessionStart'])
    // A skill's embedded shell command (Claude Code 2.1.332) is a tool:pre_execute too.
    expect(entries.get('PreSkillShellCommand')).toEqual(entries.get('PreToolUse'))
    expect(entries.get('PreToolUse')).toEqual({ matcher: '^(Bash|Shell|Write|exec)$' })
    expect(entries.get('SessionStart')).toEqual({})
  })
  test("Claude Code's matcher also names the tools of the agents that run its entries (Cursor, Devin CLI): a gate is asked there too", () => {
    const matcher = compile('claude', [{ event: ['tool:pre_execute:bash'] }])!.get('PreToolUse')!.matcher!
    for (const tool of ['Bash', 'Shell', 'exec']) expect(new RegExp(matcher).test(tool), tool).toBe(true)
    expect(new RegExp(matcher).test('Read')).toBe(false)
  })
  test('Gemini, Qwen and Codex get the tools in their own spelling', () => {
    expect(compile('gemini', [{ event: ['tool:pre_execute:bash'] }])!.get('BeforeTool')).toEqual({ matcher: '^(run_shell_command)$' })
    expect(compile('qwen', [{ event: ['tool:pre_execute:bash|write'] }])!.get('PreToolUse')).toEqual({
      matcher: '^(run_shell_command|write_file)$',
    })
    expect(compile('codex', [{ event: ['PreToolUse:Bash'] }])!.get('PreToolUse')?.matcher).toMatch(/^\^\(.*Bash.*\)\$$/)
  })
  test('Cursor and Copilot: per-event lists only (no tool matcher)', () => {
    const entries = compile('cursor', [{ event: ['tool:pre_execute:bash'] }])!
    expect(entries.get('preToolUse')).toEqual({})
    expect([...entries.values()].every((entry) => entry.matcher === undefined)).toBe(true)
    expect(entries.has('stop')).toBe(false)
  })
  test('anything hookrun cannot name exactly means every tool, never fewer', () => {
    expect(compile('claude', [{ event: ['tool:pre_execute:mcp__*'] }])!.get('PreToolUse')).toEqual({})
    expect(compile('claude', [{ event: ['tool:pre_execute'] }])!.get('PreToolUse')).toEqual({})
    expect(compile('claude', [{ event: ['tool:pre_execute:bash'] }, { event: ['tool:*'] }])!.get('PreToolUse')).toEqual({})
    // A Claude-shape hook: an exact-list matcher narrows, a regular expression does not.
    expect(compile('claude', [{ event: ['tool:pre_execute'], shape: 'claude', matcher: 'Edit|Write' }])!.get('PreToolUse')).toEqual({
      matcher: '^(Edit|StrReplace|Write|edit)$',
    })
    expect(compile('claude', [{ event: ['tool:pre_execute'], shape: 'claude', matcher: 'Notebook.*' }])!.get('PreToolUse')).toEqual({})
  })
  test('`*` keeps every event; a switched-off hook wants nothing; hook folders make it unknowable', () => {
    const all = compile('claude', [{ event: ['*'] }])!
    expect(all.size).toBe(agentTarget('claude')!.events.length)
    expect(compile('claude', [{ event: ['agent:stop'], enabled: false }])!.size).toBe(0)
    expect(compileNativeMatchers(agentTarget('claude')!, [makeHook({ event: ['agent:stop'] })], true)).toBeUndefined()
  })
  test("compiled matchers are told apart from the user's", () => {
    expect(isCompiledMatcher('^(Bash|Write)$')).toBe(true)
    expect(isCompiledMatcher('Edit|Write')).toBe(false)
    expect(isCompiledMatcher('^Bash$')).toBe(false)
  })
})

describe('install --project compiles the project hooks; --sync and staleness follow hooks.json', () => {
  test('entries only where hooks fire, a stale file is reported, --sync brings it up to date', () => {
    const root = makeProject()
    dirs.push(root)
    const home = join(root, 'home')
    const project = join(root, 'project')
    mkdirSync(home)
    mkdirSync(join(project, '.hookrun'), { recursive: true })
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') }
    // A trusted project (an untrusted one also gets its session start, for hookrun's notice).
    mkdirSync(join(home, '.config', 'hookrun'), { recursive: true })
    writeFileSync(join(home, '.config', 'hookrun', 'hooks.json'), JSON.stringify({ trustedFolders: [project] }))
    const hooksFile = join(project, '.hookrun', 'hooks.json')
    writeFileSync(hooksFile, JSON.stringify({ hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'true' }] }))
    // Without --narrow a project install keeps an entry on every event: nothing to go stale.
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun' }, false)
    const settingsFile = agentTarget('claude')!.file('project', { home, project, env })
    expect(Object.keys(JSON.parse(readFileSync(settingsFile, 'utf8')).hooks).length).toBeGreaterThan(10)
    expect(staleAgentConfigs(project, env)).toEqual([])
    const result = installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun', narrow: true }, false)
    expect(result.exitCode).toBe(0)
    const settings = agentTarget('claude')!.file('project', { home, project, env })
    const gate = [
      { matcher: '^(Bash|Shell|exec)$', hooks: [{ type: 'command', command: '/opt/hookrun fire --format claude', timeout: 600 }] },
    ]
    expect(JSON.parse(readFileSync(settings, 'utf8')).hooks).toEqual({ PreToolUse: gate, PreSkillShellCommand: gate })
    expect(staleAgentConfigs(project, env)).toEqual([])

    writeFileSync(
      hooksFile,
      JSON.stringify({
        hooks: [
          { name: 'no-sudo', event: 'tool:pre_execute:bash|write', command: 'true' },
          { name: 'done', event: 'agent:stop', command: 'true' },
        ],
      }),
    )
    const stale = staleAgentConfigs(project, env)
    expect(stale).toHaveLength(1)
    expect(stale[0]!.what).toContain('Stop has no entry')
    expect(stale[0]!.what).toContain('PreToolUse matches ^(Bash|Shell|exec)$, hooks.json wants ^(Bash|Shell|Write|exec)$')
    expect(stale[0]!.fix).toBe('hookrun install --project --sync')

    installAgents({ agents: [], scope: 'project', cwd: project, env, self: '/opt/hookrun', sync: true }, false)
    const synced = JSON.parse(readFileSync(settings, 'utf8')).hooks
    expect(Object.keys(synced).sort()).toEqual(['PreSkillShellCommand', 'PreToolUse', 'Stop'])
    expect(synced.PreToolUse[0].matcher).toBe('^(Bash|Shell|Write|exec)$')
    expect(staleAgentConfigs(project, env)).toEqual([])

    // A hook removed: its event's entry goes with the next sync; uninstall still removes the rest.
    writeFileSync(hooksFile, JSON.stringify({ hooks: [{ name: 'done', event: 'agent:stop', command: 'true' }] }))
    installAgents({ agents: [], scope: 'project', cwd: project, env, self: '/opt/hookrun', sync: true }, false)
    expect(Object.keys(JSON.parse(readFileSync(settings, 'utf8')).hooks)).toEqual(['Stop'])
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/opt/hookrun' }, true)
    // install created the file, and it held only hookrun's entries: uninstall removes it.
    expect(existsSync(settings)).toBe(false)
  })
})

test('in a session of 100 tool calls, compiled matchers start hookrun only for the events and tools its hooks want', () => {
  // 24 Bash calls reach the shell gate, 18 Edit + 5 Write calls the formatter; nothing else starts hookrun.
  expect(processesPer100ToolCalls()).toEqual({ before: 223, after: 47, events: 223 })
})

describe('a narrowed install of a project whose hooks do not run', () => {
  test("also routes the agent's session start, where hookrun's notice reaches someone; a trusted project's does not", async () => {
    const { trustProject } = await import('../../src/commands/trust.ts')
    const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute:bash', command: 'exit 2' }] } })
    dirs.push(dir)
    const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg'), XDG_STATE_HOME: join(dir, '.state'), XDG_CACHE_HOME: join(dir, '.cache') }
    const settings = () => JSON.parse(readFileSync(join(dir, '.codex', 'hooks.json'), 'utf8')) as { hooks: Record<string, unknown> }
    installAgents({ agents: ['codex'], scope: 'project', cwd: dir, env, narrow: true }, false)
    expect(Object.keys(settings().hooks).sort()).toEqual(['PreToolUse', 'SessionStart'])
    trustProject({ cwd: dir, env, syncAgents: false })
    installAgents({ agents: ['codex'], scope: 'project', cwd: dir, env, narrow: true }, false)
    expect(Object.keys(settings().hooks)).toEqual(['PreToolUse'])
  })
})
