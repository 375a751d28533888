/**
 * A project install narrows by default, and the agent config follows hooks.json through the
 * commands a user runs anyway: an edit revokes the project's trust, and `hookrun trust` compiles
 * the narrowed configs again (so does `plugin add`). `--all-events` keeps every event; a --user
 * install is narrowed to every trusted project's hooks (test/e2e/user-routing.test.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { AGENTS } from '../../src/install/agents.ts'
import { makeProject, removeProject, runCli, RUNTIMES } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const CLAUDE_EVENTS = AGENTS.find((agent) => agent.name === 'claude')!.events

const BASH_GATE = { name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'true' }
const ON_STOP = { name: 'on-stop', event: 'agent:stop', command: 'true' }

/** A project with a gate on Bash, its own HOME (cliEnvironment), trusted. */
async function setUp(runtime: string) {
  const project = makeProject({ '.hookrun/hooks.json': { hooks: [BASH_GATE] } })
  dirs.push(project)
  const cli = (args: string[]) => runCli(args, { runtime, cwd: project })
  const trust = await cli(['trust'])
  expect(trust.exitCode, trust.stderr).toBe(0)
  const settings = join(project, '.claude', 'settings.local.json')
  const hooks = () => JSON.parse(readFileSync(settings, 'utf8')).hooks as Record<string, Array<{ matcher?: string }>>
  const writeHooks = (list: object[]) => writeFileSync(join(project, '.hookrun', 'hooks.json'), JSON.stringify({ hooks: list }))
  return { project, cli, settings, hooks, writeHooks }
}

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('install --project routes only the events and tools the hooks fire on; trust after an edit adds and removes routes', async () => {
      const { cli, hooks, writeHooks } = await setUp(runtime.name)
      const install = await cli(['install', '--agent', 'claude', '--project'])
      expect(install.exitCode, install.stderr).toBe(0)
      expect(install.stdout).toContain("narrowed: only the events and tools this project's hooks can fire on")
      expect(Object.keys(hooks())).toEqual(['PreToolUse', 'PreSkillShellCommand'])
      expect(hooks().PreToolUse![0]!.matcher).toBe('^(Bash|Shell|exec)$')

      // A hook on a new event: the edit revokes trust; trusting it again routes the event.
      writeHooks([BASH_GATE, ON_STOP])
      const trusted = await cli(['trust'])
      expect(trusted.exitCode, trusted.stderr).toBe(0)
      expect(trusted.stdout).toContain(
        "claude: brought .claude/settings.local.json up to date with the project's hooks: it now asks hookrun on PreToolUse, PreSkillShellCommand, Stop",
      )
      expect(Object.keys(hooks()).sort()).toEqual(['PreSkillShellCommand', 'PreToolUse', 'Stop'])

      // The last hook of an event goes: so does its route.
      writeHooks([ON_STOP])
      const again = await cli(['trust'])
      expect(again.exitCode, again.stderr).toBe(0)
      expect(again.stdout).toContain('it now asks hookrun on Stop')
      expect(Object.keys(hooks())).toEqual(['Stop'])

      // Nothing changed: trust says nothing about agents.
      expect((await cli(['trust'])).stdout).not.toContain('claude:')
      expect((await cli(['doctor'])).stdout).not.toContain('out of date')
    }, 60_000)

    test('--all-events keeps an entry on every event, and trust leaves it so', async () => {
      const { cli, hooks, writeHooks } = await setUp(runtime.name)
      const install = await cli(['install', '--agent', 'claude', '--project', '--all-events'])
      expect(install.exitCode, install.stderr).toBe(0)
      expect(install.stdout).toContain(`${CLAUDE_EVENTS.length} events added`)
      expect(Object.keys(hooks()).sort()).toEqual([...CLAUDE_EVENTS].sort())
      expect(hooks().PreToolUse![0]!.matcher).toBeUndefined()
      writeHooks([ON_STOP])
      const trusted = await cli(['trust'])
      expect(trusted.stdout).not.toContain('claude:')
      expect(Object.keys(hooks()).sort()).toEqual([...CLAUDE_EVENTS].sort())
      // --narrow, the old opt-in, is still accepted; with --all-events it is a contradiction.
      expect((await cli(['install', '--agent', 'claude', '--project', '--all-events', '--narrow'])).stderr).toContain(
        '--all-events and --narrow exclude each other',
      )
      const narrowed = await cli(['install', '--agent', 'claude', '--project', '--narrow'])
      expect(narrowed.exitCode, narrowed.stderr).toBe(0)
      expect(Object.keys(hooks())).toEqual(['Stop'])
    }, 60_000)

    test("plugin add compiles the narrowed config again (a plugin's events are known only by running it: every event)", async () => {
      const { cli, hooks } = await setUp(runtime.name)
      await cli(['install', '--agent', 'claude', '--project'])
      expect(Object.keys(hooks())).toEqual(['PreToolUse', 'PreSkillShellCommand'])
      const source = makeProject({ 'hooks/guard': '#!/bin/sh\ncase "$1" in hook) echo agent:stop ;; esac\n' })
      dirs.push(source)
      const added = await cli(['plugin', 'add', source])
      expect(added.exitCode, added.stderr).toBe(0)
      expect(added.stdout).toContain(
        "claude: brought .claude/settings.local.json up to date with the project's hooks: it now asks hookrun on every event",
      )
      expect(Object.keys(hooks()).sort()).toEqual([...CLAUDE_EVENTS].sort())
    }, 60_000)

    test('hookrun init in a project installed before it had hooks: the config is narrowed to the new hooks', async () => {
      const project = makeProject()
      dirs.push(project)
      const cli = (args: string[]) => runCli(args, { runtime: runtime.name, cwd: project })
      const install = await cli(['install', '--agent', 'claude', '--project'])
      expect(install.exitCode, install.stderr).toBe(0)
      expect(install.stdout).toContain(
        "every event: which events this project's hooks fire on cannot be told from its config (no hooks.json yet",
      )
      const settings = join(project, '.claude', 'settings.local.json')
      const events = () => Object.keys(JSON.parse(readFileSync(settings, 'utf8')).hooks)
      // No hooks.json yet: nothing to compile from, so every event keeps its entry.
      expect(events().length).toBe(CLAUDE_EVENTS.length)
      const init = await cli(['init', '--template', 'dangerous-commands'])
      expect(init.exitCode, init.stderr).toBe(0)
      expect(init.stdout).toContain(
        "claude: brought .claude/settings.local.json up to date with the project's hooks: it now asks hookrun on PreToolUse, PreSkillShellCommand",
      )
      expect(events()).toEqual(['PreToolUse', 'PreSkillShellCommand'])
    }, 30_000)

    test('Codex: trust leaves its narrowed config (Codex stops running a changed entry until reviewed) and says what to run', async () => {
      const { project, cli, writeHooks } = await setUp(runtime.name)
      expect((await cli(['install', '--agent', 'codex', '--project'])).exitCode).toBe(0)
      const file = join(project, '.codex', 'hooks.json')
      const before = readFileSync(file, 'utf8')
      expect(Object.keys(JSON.parse(before).hooks)).toEqual(['PreToolUse'])
      writeHooks([BASH_GATE, ON_STOP])
      const trusted = await cli(['trust'])
      expect(trusted.exitCode, trusted.stderr).toBe(0)
      expect(readFileSync(file, 'utf8')).toBe(before)
      expect(trusted.stdout).toContain('Stop has no entry')
      expect(trusted.stdout).toContain("run hookrun install --project --sync, then review the changed entries in Codex's /hooks")
      const synced = await cli(['install', '--project', '--sync'])
      expect(synced.exitCode, synced.stderr).toBe(0)
      expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).hooks).sort()).toEqual(['PreToolUse', 'Stop'])
    }, 30_000)

    test("Codex: a gate added where no trust is asked (the user's own hooks.json) and its narrowed config leaves out is named by Codex's fires until it is synced", async () => {
      const { project, cli } = await setUp(runtime.name)
      expect((await cli(['install', '--agent', 'codex', '--project'])).exitCode).toBe(0)
      const call = JSON.stringify({
        session_id: 's',
        cwd: project,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
      })
      const fire = () => runCli(['fire', '--format', 'codex'], { runtime: runtime.name, cwd: project, input: call })
      expect((await fire()).stdout).not.toContain('not in force')
      // The project is the test's HOME: its user config is under XDG_CONFIG_HOME (cliEnvironment).
      mkdirSync(join(project, '.xdg-config', 'hookrun'), { recursive: true })
      writeFileSync(
        join(project, '.xdg-config', 'hookrun', 'hooks.json'),
        JSON.stringify({ hooks: [{ name: 'no-edit', event: 'tool:pre_execute:edit', command: 'exit 2' }] }),
      )
      // Only a fire of the agent that reviews its entries looks: a Claude Code fire here says nothing
      // of Codex's file, and leaves Codex's notice to Codex's next fire.
      const claude = await runCli(['fire', '--format', 'claude'], { runtime: runtime.name, cwd: project, input: call })
      expect(claude.exitCode, claude.stderr).toBe(0)
      expect(claude.stdout).not.toContain('Codex')
      for (let round = 0; round < 2; round++) {
        const told = await fire()
        expect(told.exitCode, told.stderr).toBe(0)
        expect(told.stdout).toContain("the gate on tool:pre_execute:edit (hook 'no-edit'")
        expect(told.stdout).toContain('is not in force in Codex')
      }
      expect((await cli(['install', '--project', '--sync'])).exitCode).toBe(0)
      expect((await fire()).stdout).not.toContain('not in force')
    }, 30_000)

    test('hookrun import: every event until the hooks it moved are trusted, then narrowed to them by hookrun trust', async () => {
      const project = makeProject({
        '.claude/settings.json': { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 0' }] }] } },
      })
      dirs.push(project)
      const cli = (args: string[]) => runCli(args, { runtime: runtime.name, cwd: project })
      const imported = await cli(['import', '--agent', 'claude'])
      expect(imported.exitCode, imported.stderr).toBe(0)
      const events = () => Object.keys(JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')).hooks)
      expect(events().length).toBe(CLAUDE_EVENTS.length)
      const trusted = await cli(['trust'])
      expect(trusted.stdout).toContain(
        "claude: brought .claude/settings.local.json up to date with the project's hooks: it now asks hookrun on PreToolUse, PreSkillShellCommand",
      )
      expect(events()).toEqual(['PreToolUse', 'PreSkillShellCommand'])
    }, 30_000)

    test("a --user install is narrowed too (to every trusted project's hooks); --all-events keeps every event", async () => {
      const { cli } = await setUp(runtime.name)
      const install = await cli(['install', '--agent', 'claude'])
      expect(install.exitCode, install.stderr).toBe(0)
      expect(install.stdout).toContain("narrowed: only the events and tools your hooks and your trusted projects' hooks can fire on")
      expect(install.stdout).toMatch(
        /events: {2}PreToolUse \(\^\(Bash\|Shell\|exec\)\$\), SessionStart, PreSkillShellCommand \(\^\(Bash\|Shell\|exec\)\$\)\n/,
      )
      const all = await cli(['install', '--agent', 'claude', '--all-events'])
      expect(all.stdout).toContain(
        'every event: hookrun install --agent claude without --all-events routes only what your hooks can fire on',
      )
    }, 30_000)
  })
}
