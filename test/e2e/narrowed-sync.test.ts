/**
 * A narrowed install kept up to date by fires, as users run it: `hookrun install --project
 * --narrow`, hooks.json edited, then one fire of the command Claude Code runs (sh -c, its payload
 * on stdin) brings `.claude/settings.local.json` up to date through a detached sync; the next
 * fire tells the user. An untrusted project's fire touches no agent config.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { readStamp } from '../../src/config/narrowed.ts'
import { cliEnvironment, makeProject, removeProject, runCli, RUNTIMES, waitForNoProcess } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const A_MINUTE_AGO = new Date(Date.now() - 60_000)

function writeSettled(file: string, value: object): void {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, JSON.stringify(value))
  utimesSync(file, A_MINUTE_AGO, A_MINUTE_AGO)
}

/** A HOME and a project with a gate on Bash; the project listed in trustedFolders or not. */
function setUp(trusted: boolean) {
  const root = makeProject()
  dirs.push(root)
  const home = join(root, 'home')
  const project = join(root, 'project')
  const xdg = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.state'),
  }
  writeSettled(join(xdg.XDG_CONFIG_HOME, 'hookrun', 'hooks.json'), trusted ? { trustedFolders: [project] } : {})
  const hooksFile = join(project, '.hookrun', 'hooks.json')
  writeSettled(hooksFile, { hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'true' }] })
  const settings = join(project, '.claude', 'settings.local.json')
  const matcher = () => JSON.parse(readFileSync(settings, 'utf8')).hooks.PreToolUse[0].matcher as string
  /** What Claude Code does for a Bash call: the installed command through sh -c, its payload on stdin. */
  const claudeFires = () => {
    const command: string = JSON.parse(readFileSync(settings, 'utf8')).hooks.PreToolUse[0].hooks[0].command
    const payload = {
      session_id: 's1',
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 't',
    }
    return spawnSync('sh', ['-c', command], {
      cwd: project,
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: cliEnvironment(home, xdg),
      timeout: 20_000,
    })
  }
  return { home, project, xdg, hooksFile, settings, matcher, claudeFires }
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
    test('hooks.json gains a hook on another tool: the next fire brings the narrowed Claude Code config up to date by itself', async () => {
      const { project, xdg, hooksFile, matcher, claudeFires } = setUp(true)
      const install = await runCli(['install', '--agent', 'claude', '--project', '--narrow'], {
        runtime: runtime.name,
        cwd: project,
        env: xdg,
      })
      expect(install.exitCode, install.stderr).toBe(0)
      expect(install.stdout).toContain('or in a trusted folder the next fire does')
      expect(matcher()).toBe('^(Bash|Shell|exec)$')
      // Nothing changed: a fire starts nothing.
      const quiet = claudeFires()
      expect(quiet.status, quiet.stderr).toBe(0)
      expect(quiet.stdout.trim()).toBe('{}')
      expect(readStamp(project, xdg)!.startedAt).toBeUndefined()

      writeFileSync(
        hooksFile,
        JSON.stringify({
          hooks: [
            { name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'true' },
            { name: 'no-secrets', event: 'tool:pre_execute:write', command: 'true' },
          ],
        }),
      )
      const fired = claudeFires()
      expect(fired.status, fired.stderr).toBe(0)
      expect(fired.stdout.trim()).toBe('{}')
      await until('the detached sync to rewrite .claude/settings.local.json', () => matcher() === '^(Bash|Shell|Write|exec)$')
      await until('the sync to stamp what it compiled', () => readStamp(project, xdg)?.notice !== undefined)
      expect(await waitForNoProcess(`--cwd ${project}`, 20_000)).toEqual([])

      // The user hears of it once, in the agent, with what to do for an agent that read its hooks at session start.
      const told = claudeFires()
      expect(JSON.parse(told.stdout).systemMessage).toMatch(
        /^hookrun: \.hookrun\/hooks\.json changed, so hookrun brought its entries in \.claude\/settings\.local\.json up to date; .*next session$/,
      )
      expect(claudeFires().stdout.trim()).toBe('{}')
      expect((await runCli(['doctor'], { runtime: runtime.name, cwd: project, env: xdg })).stdout).not.toContain('out of date')
    }, 90_000)

    test("an untrusted project's fire changes no agent config, and doctor says what will", async () => {
      const { project, xdg, hooksFile, settings, claudeFires } = setUp(false)
      const install = await runCli(['install', '--agent', 'claude', '--project', '--narrow'], {
        runtime: runtime.name,
        cwd: project,
        env: xdg,
      })
      expect(install.exitCode, install.stderr).toBe(0)
      const before = readFileSync(settings, 'utf8')
      writeFileSync(hooksFile, JSON.stringify({ hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:*', command: 'true' }] }))
      const fired = claudeFires()
      expect(fired.status, fired.stderr).not.toBeNull()
      // The fire claimed no sync (it would have stamped when it started one) and started none.
      expect(readStamp(project, xdg)!.startedAt).toBeUndefined()
      expect(await waitForNoProcess(`--cwd ${project}`, 5_000)).toEqual([])
      expect(readFileSync(settings, 'utf8')).toBe(before)
      const doctor = await runCli(['doctor'], { runtime: runtime.name, cwd: project, env: xdg })
      expect(doctor.stdout).toContain("fires here bring it up to date once you trust the project's hooks (hookrun trust)")
    }, 60_000)
  })
}
