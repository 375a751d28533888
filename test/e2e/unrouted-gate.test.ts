/**
 * A narrowed user install (`hookrun install --agent claude`) routes only what some hook wants. A
 * gate added to your hooks.json is routed by the sync the next fire starts, but Claude Code read
 * its settings when the session started, before that: the session runs without the gate. The
 * session start's answer says so, naming the gate, and so does `hookrun doctor`.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { cliEnvironment, makeProject, removeProject, runCli, RUNTIMES, waitForNoProcess } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const A_MINUTE_AGO = new Date(Date.now() - 60_000)
const WRITE_GATE = { name: 'no-write', event: 'tool:pre_execute:write', command: 'exit 2' }

function writeSettled(file: string, value: object): void {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, JSON.stringify(value))
  utimesSync(file, A_MINUTE_AGO, A_MINUTE_AGO)
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
    test('a gate added to your hooks.json after a narrowed user install: the session start and doctor name it until it is routed', async () => {
      const root = makeProject()
      dirs.push(root)
      const home = join(root, 'home')
      const work = join(root, 'work')
      mkdirSync(work, { recursive: true })
      const env = {
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_CACHE_HOME: join(home, '.cache'),
        XDG_STATE_HOME: join(home, '.state'),
      }
      const userHooks = join(env.XDG_CONFIG_HOME, 'hookrun', 'hooks.json')
      const settings = join(home, '.claude', 'settings.json')
      const cli = (args: string[]) => runCli(args, { runtime: runtime.name, cwd: work, env })
      const routed = () => Object.keys(JSON.parse(readFileSync(settings, 'utf8')).hooks as object)
      /** What Claude Code does when a session starts: the installed command through sh -c, its payload on stdin. */
      const sessionStarts = (session: string) => {
        const command: string = JSON.parse(readFileSync(settings, 'utf8')).hooks.SessionStart[0].hooks[0].command
        const payload = {
          session_id: session,
          transcript_path: '/tmp/t.jsonl',
          cwd: work,
          hook_event_name: 'SessionStart',
          source: 'startup',
        }
        const run = spawnSync('sh', ['-c', command], {
          cwd: work,
          input: JSON.stringify(payload),
          encoding: 'utf8',
          env: cliEnvironment(home, env),
        })
        expect(run.status, run.stderr).toBe(0)
        return JSON.parse(run.stdout) as { systemMessage?: string }
      }

      writeSettled(userHooks, { hooks: [] })
      mkdirSync(home, { recursive: true })
      const install = await runCli(['install', '--agent', 'claude'], { runtime: runtime.name, cwd: home, env })
      expect(install.exitCode, install.stderr).toBe(0)
      expect(routed()).toEqual(['SessionStart'])

      writeSettled(userHooks, { hooks: [WRITE_GATE] })
      const gate = `the gate on tool:pre_execute:write (hook 'no-write' in ${userHooks})`
      const doctor = await cli(['doctor'])
      expect(doctor.exitCode, doctor.stdout).toBe(1)
      expect(doctor.stdout).toContain(`FAIL  Claude Code: ${settings} does not route ${gate} yet`)

      const answer = sessionStarts('s1')
      expect(answer.systemMessage).toContain(
        `hookrun: ${gate} is not in force in this session: Claude Code read ${settings} before hookrun routed it; restart the session`,
      )

      // The sync that session start began routes it: the next session has the gate, and nothing is said.
      await until('the user install to route PreToolUse', () => routed().includes('PreToolUse'))
      expect(await waitForNoProcess(`--user --quiet --cwd ${work}`, 60_000)).toEqual([])
      expect(sessionStarts('s2').systemMessage ?? '').not.toContain('not in force')
      const after = await cli(['doctor'])
      expect(after.stdout).not.toContain('does not route')
    }, 90_000)

    test('a gate on a tool the installed matcher leaves out is named too; one it lets through is not', async () => {
      const root = makeProject()
      dirs.push(root)
      const home = join(root, 'home')
      mkdirSync(home, { recursive: true })
      const env = {
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_CACHE_HOME: join(home, '.cache'),
        XDG_STATE_HOME: join(home, '.state'),
      }
      const userHooks = join(env.XDG_CONFIG_HOME, 'hookrun', 'hooks.json')
      const bashGate = { name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'exit 2' }
      writeSettled(userHooks, { hooks: [bashGate] })
      expect((await runCli(['install', '--agent', 'claude'], { runtime: runtime.name, cwd: home, env })).exitCode).toBe(0)
      const starts = async () => {
        const payload = { session_id: `s${Math.random()}`, cwd: home, hook_event_name: 'SessionStart', source: 'startup' }
        const run = await runCli(['fire', '--format', 'claude'], { runtime: runtime.name, cwd: home, env, input: JSON.stringify(payload) })
        expect(run.exitCode, run.stderr).toBe(0)
        return (run.json() as { systemMessage?: string }).systemMessage ?? ''
      }
      // A second gate on Bash: the matcher already lets it through.
      writeSettled(userHooks, { hooks: [bashGate, { ...bashGate, name: 'no-curl' }] })
      expect(await starts()).not.toContain('not in force')
      expect(await waitForNoProcess(`--user --quiet --cwd ${home}`, 60_000)).toEqual([])
      writeSettled(userHooks, { hooks: [bashGate, WRITE_GATE] })
      const said = await starts()
      expect(said).toContain(`the gate on tool:pre_execute:write (hook 'no-write' in ${userHooks}) is not in force in this session`)
      expect(said).not.toContain('no-sudo')
      expect(await waitForNoProcess(`--user --quiet --cwd ${home}`, 60_000)).toEqual([])
    }, 90_000)
  })
}
