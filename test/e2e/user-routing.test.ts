/**
 * A user install (`hookrun install --agent gemini`, what Gemini CLI and Qwen Code need to work
 * from subfolders) routes only what can fire somewhere: the user's own hooks, every trusted
 * project's, and the session start (for the untrusted notice). It follows the hooks by itself:
 * `hookrun trust`, `validate` and a fire that sees a changed config bring it up to date.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { cliEnvironment, makeProject, removeProject, runCli, RUNTIMES, waitForNoProcess } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const A_MINUTE_AGO = new Date(Date.now() - 60_000)
const BASH_GATE = { name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'true' }
const ON_STOP = { name: 'on-stop', event: 'agent:stop', command: 'true' }

function writeSettled(file: string, value: object): void {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, JSON.stringify(value))
  utimesSync(file, A_MINUTE_AGO, A_MINUTE_AGO)
}

/** A HOME with a user install of Gemini CLI, and a project with a gate on shell commands (not trusted yet). */
async function setUp(runtime: string) {
  const root = makeProject()
  dirs.push(root)
  const home = join(root, 'home')
  const project = join(root, 'project')
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.state'),
  }
  mkdirSync(home, { recursive: true })
  const userHooks = join(env.XDG_CONFIG_HOME, 'hookrun', 'hooks.json')
  writeSettled(join(project, '.hookrun', 'hooks.json'), { hooks: [BASH_GATE] })
  const cli = (args: string[], cwd = project) => runCli(args, { runtime, cwd, env })
  const settings = join(home, '.gemini', 'settings.json')
  const routes = () =>
    Object.fromEntries(
      Object.entries(JSON.parse(readFileSync(settings, 'utf8')).hooks as Record<string, Array<{ matcher?: string }>>).map(
        ([event, groups]) => [event, groups[0]!.matcher ?? '*'],
      ),
    )
  /** What Gemini CLI does at a session start: the installed command through sh -c, its payload on stdin. */
  const geminiStarts = () => {
    const command: string = JSON.parse(readFileSync(settings, 'utf8')).hooks.SessionStart[0].hooks[0].command
    const payload = { session_id: 's1', cwd: project, hook_event_name: 'SessionStart', source: 'startup', timestamp: '' }
    return spawnSync('sh', ['-c', command], {
      cwd: project,
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: cliEnvironment(home, env),
      timeout: 20_000,
    })
  }
  return { home, project, env, userHooks, cli, settings, routes, geminiStarts }
}

async function until(what: string, check: () => boolean, ms = 40_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`)
    await new Promise((resolveWait) => setTimeout(resolveWait, 100))
  }
}

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test("a user install routes the session start alone until a project is trusted; trust adds its hooks' routes, and takes them away again", async () => {
      const { cli, routes, project, home } = await setUp(runtime.name)
      const install = await cli(['install', '--agent', 'gemini'], home)
      expect(install.exitCode, install.stderr).toBe(0)
      expect(install.stdout).toContain("narrowed: only the events and tools your hooks and your trusted projects' hooks can fire on")
      // No per-turn event (BeforeModel, BeforeToolSelection, PreCompress) and no tool event: nothing can fire there.
      expect(routes()).toEqual({ SessionStart: '*' })

      const trust = await cli(['trust'])
      expect(trust.exitCode, trust.stderr).toBe(0)
      expect(trust.stdout).toContain('gemini: brought')
      expect(routes()).toEqual({ SessionStart: '*', BeforeTool: '^(run_shell_command)$' })

      // The last hook on the tool event goes: so does its route.
      writeFileSync(join(project, '.hookrun', 'hooks.json'), JSON.stringify({ hooks: [ON_STOP] }))
      const again = await cli(['trust'])
      expect(again.exitCode, again.stderr).toBe(0)
      expect(routes()).toEqual({ SessionStart: '*', AfterAgent: '*' })
    }, 60_000)

    test('hookrun validate brings the user install up to date with your own hooks.json; --all-events keeps every event', async () => {
      const { cli, routes, home, userHooks } = await setUp(runtime.name)
      expect((await cli(['install', '--agent', 'gemini'], home)).exitCode).toBe(0)
      writeSettled(userHooks, { hooks: [ON_STOP] })
      const validate = await cli(['validate'], home)
      expect(validate.exitCode, validate.stderr).toBe(0)
      expect(validate.stdout).toContain('gemini: brought')
      expect(routes()).toEqual({ SessionStart: '*', AfterAgent: '*' })

      const all = await cli(['install', '--agent', 'gemini', '--all-events'], home)
      expect(all.exitCode, all.stderr).toBe(0)
      expect(Object.keys(routes())).toContain('BeforeModel')
      // Not followed any more: validate leaves it as it is.
      writeSettled(userHooks, { hooks: [] })
      await cli(['validate'], home)
      expect(Object.keys(routes())).toContain('BeforeModel')
    }, 60_000)

    test('a trustedFolders setting keeps every event (hooks of a folder trusted that way are known only where they run)', async () => {
      const { cli, routes, home, userHooks, project } = await setUp(runtime.name)
      writeSettled(userHooks, { trustedFolders: [join(project, '..')] })
      const install = await cli(['install', '--agent', 'gemini'], home)
      expect(install.exitCode, install.stderr).toBe(0)
      expect(install.stdout).toContain('every event: which events your hooks fire on cannot be told')
      expect(Object.keys(routes())).toEqual(expect.arrayContaining(['BeforeTool', 'BeforeModel', 'AfterAgent']))
    }, 60_000)

    test("your hooks.json gains a hook on a new event: the next session's start brings the user install up to date by itself, and tells you", async () => {
      const { cli, routes, home, project, userHooks, geminiStarts } = await setUp(runtime.name)
      writeSettled(userHooks, { hooks: [] })
      expect((await cli(['install', '--agent', 'gemini'], home)).exitCode).toBe(0)
      expect((await cli(['trust'])).exitCode).toBe(0)
      writeSettled(userHooks, { hooks: [ON_STOP] })
      const first = geminiStarts()
      expect(first.status, first.stderr).toBe(0)
      await until('the user install to route AfterAgent', () => existsSync(join(home, '.gemini')) && 'AfterAgent' in routes())
      await waitForNoProcess(`--quiet --cwd ${project}`, 10_000)
      const next = geminiStarts()
      expect(next.stdout).toContain('your hooks changed, so hookrun brought its entries in')
    }, 60_000)
  })
}
