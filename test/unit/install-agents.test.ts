import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { findOverlaps, routedEvents } from '../../src/install/overlaps.ts'
import { homeAndProject, removeProject } from '../helpers.ts'

/** install / uninstall for the agents of issue 16; the shared guarantees are in install.test.ts. */
const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const place = () => homeAndProject(dirs)

const SELF = '/opt/hookrun/bin/hookrun'
// A project file teams commit runs hookrun from PATH: no machine's path in it.
const PORTABLE = 'hookrun'
const run = (where: ReturnType<typeof place>, agent: string, remove = false, scope: 'user' | 'project' = 'user') =>
  installAgents({ agents: [agent], scope, cwd: where.project, env: where.env, self: SELF }, remove)

function put(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  return text
}
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'))

describe('install / uninstall for Windsurf, Factory Droid, Kiro, Crush and Qwen Code', () => {
  test("Windsurf: flat entries in the workspace's .windsurf/hooks.json, show_output on; the user's entries come back byte for byte", () => {
    const where = place()
    const file = join(where.project, '.windsurf', 'hooks.json')
    const original = put(
      file,
      '{\n  "hooks": {\n    "post_write_code": [ { "command": "bash /u/format.sh", "show_output": false } ]\n  }\n}\n',
    )
    expect(run(where, 'windsurf', false, 'project').exitCode).toBe(0)
    const config = read(file)
    expect(config.hooks.pre_run_command).toEqual([{ command: `${PORTABLE} fire --format windsurf`, show_output: true }])
    expect(config.hooks.post_write_code).toEqual([
      { command: 'bash /u/format.sh', show_output: false },
      { command: `${PORTABLE} fire --format windsurf`, show_output: true },
    ])
    run(where, 'windsurf', true, 'project')
    expect(readFileSync(file, 'utf8')).toBe(original)
  })

  test('Windsurf user level is ~/.codeium/windsurf/hooks.json', () => {
    const where = place()
    run(where, 'windsurf')
    expect(existsSync(join(where.home, '.codeium', 'windsurf', 'hooks.json'))).toBe(true)
    run(where, 'windsurf', true)
    expect(existsSync(join(where.home, '.codeium', 'windsurf', 'hooks.json'))).toBe(false)
  })

  test('Factory Droid: groups under `hooks` in .factory/settings.json, or at the top level of hooks.json when the user has one (Droid then reads only that)', () => {
    const where = place()
    const settings = join(where.project, '.factory', 'settings.json')
    const original = put(settings, '{ "model": "claude-sonnet" }\n')
    run(where, 'droid', false, 'project')
    expect(read(settings).hooks.PreToolUse).toEqual([
      { hooks: [{ type: 'command', command: `${PORTABLE} fire --format droid`, timeout: 600 }] },
    ])
    expect(Object.keys(read(settings).hooks)).toHaveLength(9)
    run(where, 'droid', true, 'project')
    expect(readFileSync(settings, 'utf8')).toBe(original)

    // docs.factory.ai/harness/hooks: "Standalone hooks.json files are keyed directly by event name".
    const hooksFile = put(
      join(where.home, '.factory', 'hooks.json'),
      '{ "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ] }\n',
    )
    run(where, 'droid')
    const written = read(join(where.home, '.factory', 'hooks.json'))
    expect(written.hooks).toBeUndefined()
    expect(written.Stop).toHaveLength(2)
    expect(written.PreToolUse).toEqual([{ hooks: [{ type: 'command', command: `${SELF} fire --format droid`, timeout: 600 }] }])
    expect(Object.keys(written)).toHaveLength(9)
    expect(existsSync(join(where.home, '.factory', 'settings.json'))).toBe(false)
    // Installing again changes nothing; doctor's reading finds the entries where Droid does.
    const again = readFileSync(join(where.home, '.factory', 'hooks.json'), 'utf8')
    run(where, 'droid')
    expect(readFileSync(join(where.home, '.factory', 'hooks.json'), 'utf8')).toBe(again)
    expect(routedEvents(join(where.home, '.factory', 'hooks.json'), 'droid')).toHaveLength(9)
    run(where, 'droid', true)
    expect(readFileSync(join(where.home, '.factory', 'hooks.json'), 'utf8')).toBe(hooksFile)
  })

  test("Kiro: hookrun's own v3 hooks file in .kiro/hooks/hookrun.json, one entry per trigger naming it; uninstall removes the file it created", () => {
    const where = place()
    const file = join(where.project, '.kiro', 'hooks', 'hookrun.json')
    const installed = run(where, 'kiro', false, 'project')
    expect(installed.output).toContain('kiro: which version you have cannot be told (no kiro-cli on PATH): writing the v3 hooks file')
    expect(installed.output).toContain('hookrun install --agent kiro --agent-format legacy')
    const hooks = read(file)
    expect(hooks.version).toBe('v1')
    expect(hooks.hooks[2]).toEqual({
      name: 'hookrun-PreToolUse',
      trigger: 'PreToolUse',
      action: { type: 'command', command: `${PORTABLE} fire PreToolUse --format kiro` },
      timeout: 600,
      enabled: true,
    })
    expect(hooks.hooks.map((entry: { trigger: string }) => entry.trigger)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'Stop',
      'PreTaskExec',
      'PostTaskExec',
      'PostFileCreate',
      'PostFileSave',
      'PostFileDelete',
    ])
    expect(routedEvents(file, 'kiro')).toHaveLength(10)
    // An entry the user added to the file stays through install and uninstall.
    const mine = { name: 'lint', trigger: 'PostFileSave', matcher: '\\.ts$', action: { type: 'command', command: 'npm run lint' } }
    put(file, JSON.stringify({ version: 'v1', hooks: [mine, ...hooks.hooks] }))
    run(where, 'kiro', false, 'project')
    expect(read(file).hooks).toEqual([mine, ...hooks.hooks])
    run(where, 'kiro', true, 'project')
    expect(read(file)).toEqual({ version: 'v1', hooks: [mine] })
    run(where, 'kiro', false, 'project')
    rmSync(file)
    expect(run(where, 'kiro', true, 'project').output).toContain('nothing to remove')
  })

  test('Kiro: the shape the installed kiro-cli reads, switched whole (never both files), --agent-format over it; the user file honours KIRO_HOME', () => {
    const where = place()
    const v3 = join(where.project, '.kiro', 'hooks', 'hookrun.json')
    const agent = join(where.project, '.kiro', 'agents', 'hookrun.json')
    const bin = join(where.project, 'bin')
    mkdirSync(bin, { recursive: true })
    const kiroSays = (version: string) => writeFileSync(join(bin, 'kiro-cli'), `#!/bin/sh\necho "kiro-cli ${version}"\n`, { mode: 0o755 })
    const env = { ...where.env, PATH: `${bin}:${where.env.PATH ?? ''}` }
    const install = (agentFormat?: string) =>
      installAgents({ agents: ['kiro'], scope: 'project', cwd: where.project, env, self: SELF, agentFormat }, false)
    kiroSays('2.21.3')
    expect(install().output).toContain(`kiro: kiro-cli 2.21.3 (${join(bin, 'kiro-cli')}) runs agent configs' hooks`)
    expect(read(agent).hooks.preToolUse).toEqual([{ command: `${PORTABLE} fire --format kiro`, timeout_ms: 600000 }])
    expect(Object.keys(read(agent).hooks).sort()).toEqual(['agentSpawn', 'postToolUse', 'preToolUse', 'stop', 'userPromptSubmit'])
    expect(existsSync(v3)).toBe(false)
    // A sync keeps the agent config: it asks no kiro-cli.
    installAgents({ agents: ['kiro'], scope: 'project', cwd: where.project, env: where.env, sync: true }, false)
    expect(existsSync(v3)).toBe(false)
    expect(existsSync(agent)).toBe(true)
    kiroSays('3.0.1')
    const upgraded = install()
    expect(upgraded.output).toContain(`kiro: kiro-cli 3.0.1 (${join(bin, 'kiro-cli')}): writing the v3 hooks file`)
    expect(existsSync(agent)).toBe(false)
    expect(routedEvents(v3, 'kiro')).toHaveLength(10)
    expect(install('legacy').output).toContain('(--agent-format legacy)')
    expect(existsSync(v3)).toBe(false)
    expect(routedEvents(agent, 'kiro')).toHaveLength(5)
    expect(() => install('v2')).toThrow('--agent-format v2: use current or legacy')
    // uninstall takes out whichever shape is there.
    expect(installAgents({ agents: ['kiro'], scope: 'project', cwd: where.project, env }, true).output).toContain(agent)
    expect(existsSync(join(where.project, '.kiro'))).toBe(false)
    const kiroHome = join(where.home, 'kiro-home')
    installAgents({ agents: ['kiro'], scope: 'user', cwd: where.project, env: { ...env, KIRO_HOME: kiroHome }, self: SELF }, false)
    expect(routedEvents(join(kiroHome, 'hooks', 'hookrun.json'), 'kiro')).toHaveLength(10)
  })

  test("Crush: one flat PreToolUse entry (its only event) in the project's crush.json (or .crush.json if that is the one there)", () => {
    const where = place()
    const file = join(where.project, '.crush.json')
    const original = put(file, '{\n  "options": { "debug": false }\n}\n')
    run(where, 'crush', false, 'project')
    expect(read(file).hooks).toEqual({
      PreToolUse: [{ name: 'hookrun', command: `${PORTABLE} fire --format crush`, timeout: 600 }],
    })
    expect(existsSync(join(where.project, 'crush.json'))).toBe(false)
    run(where, 'crush', true, 'project')
    expect(readFileSync(file, 'utf8')).toBe(original)

    run(where, 'crush')
    expect(existsSync(join(where.home, '.config', 'crush', 'crush.json'))).toBe(true)
  })

  test('Qwen Code: groups with a millisecond timeout in .qwen/settings.json, MessageDisplay left out', () => {
    const where = place()
    run(where, 'qwen')
    const config = read(join(where.home, '.qwen', 'settings.json'))
    expect(config.hooks.PreToolUse).toEqual([
      { hooks: [{ type: 'command', name: 'hookrun', command: `${SELF} fire --format qwen`, timeout: 600000 }] },
    ])
    expect(config.hooks.TodoCreated).toHaveLength(1)
    expect(config.hooks.MessageDisplay).toBeUndefined()
    // Qwen Code's events that carry Claude Code's names (its HookEventName), routed too.
    for (const event of ['InstructionsLoaded', 'UserPromptExpansion', 'PostToolBatch']) expect(config.hooks[event], event).toHaveLength(1)
  })
})

describe('Cursor beside Claude Code: its own gates, and hooks run once', () => {
  test("Cursor after Claude Code gets its own entries (its gates must not hang on Cursor's third-party hooks setting); install says the router answers once", () => {
    const where = place()
    run(where, 'claude', false, 'project')
    const result = run(where, 'cursor', false, 'project')
    const cursor = read(join(where.project, '.cursor', 'hooks.json'))
    expect(cursor.hooks.preToolUse).toHaveLength(1)
    expect(cursor.hooks.beforeSubmitPrompt).toHaveLength(1)
    expect(result.output).toMatch(
      /overlap: Cursor runs hookrun's Claude Code entries in .*settings\.local\.json and its own in .*hooks\.json: the Claude Code entry answers "no opinion" there, so hooks run once/,
    )
  })

  test('Claude Code after Cursor: both keep their entries; the overlap is one the router answers once', () => {
    const where = place()
    run(where, 'cursor', false, 'project')
    // Only Grok Build, which runs a project's .cursor/hooks.json too, and has no entries of its own here.
    expect(findOverlaps({ home: where.home, project: where.project, env: where.env }).map((found) => [found.reader, found.twice])).toEqual([
      ['grok', []],
    ])
    run(where, 'claude', false, 'project')
    const [overlap] = findOverlaps({ home: where.home, project: where.project, env: where.env })
    expect(overlap!.twice[0]!.events).toContain('preToolUse')
    expect(run(where, 'cursor', false, 'project').output).toContain('already installed')
    expect(read(join(where.project, '.cursor', 'hooks.json')).hooks.preToolUse).toHaveLength(1)
  })

  test("a user-level Cursor install is not trimmed by one project's Claude entries", () => {
    const where = place()
    run(where, 'claude', false, 'project')
    run(where, 'cursor')
    expect(read(join(where.home, '.cursor', 'hooks.json')).hooks.preToolUse).toHaveLength(1)
  })
})

describe('the note install prints for Gemini CLI (what the agent lab saw 0.61 need)', () => {
  test('names the setting Gemini 0.61 reads (hooksConfig.enabled, on by default) and its folder trust, not the old tools.enableHooks', () => {
    const where = place()
    const printed = run(where, 'gemini').output
    expect(printed).toContain('hooksConfig.enabled')
    expect(printed).toContain('a folder it trusts')
    expect(printed).not.toContain('tools.enableHooks')
  })
})

describe("Claude Code's events that only newer versions have", () => {
  test('PreSkillShellCommand is written for Claude Code 2.1.332 and for a claude whose version cannot be told, left out (with the reason) for 2.1.331', () => {
    const where = place()
    const bin = join(where.project, 'bin')
    mkdirSync(bin, { recursive: true })
    const claudeSays = (version: string) =>
      writeFileSync(join(bin, 'claude'), `#!/bin/sh\necho "${version} (Claude Code)"\n`, { mode: 0o755 })
    const env = { ...where.env, PATH: `${bin}:${where.env.PATH ?? ''}` }
    const file = join(where.home, '.claude', 'settings.json')
    const install = (withClaude: boolean) =>
      installAgents({ agents: ['claude'], scope: 'user', cwd: where.project, env: withClaude ? env : where.env, self: SELF }, false)
    claudeSays('2.1.331')
    const older = install(true)
    expect(older.output).toContain(
      `claude: leaving out PreSkillShellCommand: 2.1.331 (Claude Code) (${join(bin, 'claude')}) does not have it`,
    )
    expect(read(file).hooks.PreSkillShellCommand).toBeUndefined()
    expect(read(file).hooks.PreToolUse).toHaveLength(1)
    claudeSays('2.1.332')
    install(true)
    expect(read(file).hooks.PreSkillShellCommand).toEqual(read(file).hooks.PreToolUse)
    run(where, 'claude', true)
    install(false)
    expect(read(file).hooks.PreSkillShellCommand).toHaveLength(1)
  })
})
