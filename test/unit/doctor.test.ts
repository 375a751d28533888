import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { initProject } from '../../src/commands/init.ts'
import { doctorCommand } from '../../src/commands/doctor.ts'
import { type DoctorCheck, runDoctor } from '../../src/install/doctor.ts'
import { trustProject } from '../../src/commands/trust.ts'
import { makeProject, removeProject } from '../helpers.ts'

const folders: string[] = []
afterAll(() => folders.forEach(removeProject))

/** A user (HOME) with a project, and a PATH that holds a `hookrun` or not. */
function machine(withHookrun: boolean) {
  const home = makeProject()
  folders.push(home)
  const project = join(home, 'project')
  const bin = join(home, 'bin')
  mkdirSync(project)
  mkdirSync(bin)
  if (withHookrun) {
    writeFileSync(join(bin, 'hookrun'), '#!/bin/sh\n')
    chmodSync(join(bin, 'hookrun'), 0o755)
  }
  const env = { HOME: home, PATH: bin }
  return { home, project, bin, env, doctor: () => runDoctor({ cwd: project, env, version: '0.0.0' }) }
}

describe('hookrun doctor', () => {
  test('nothing wired: a gate is not in force (exit 1), with the command that wires one', () => {
    const { doctor } = machine(true)
    const { lines, exitCode } = doctor()
    expect(exitCode).toBe(1)
    expect(lines).toContainEqual({ status: 'fail', what: 'no agent runs hookrun: no router entries in any agent config', fix: 'hookrun install --agent claude   (or cursor, gemini, codex, copilot, …)' })
  })

  test('a project gate wired, trusted and hookrun on PATH: every gate is in force (exit 0)', () => {
    const { project, env, doctor } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/bin/sh' }, false)
    installAgents({ agents: ['gemini'], scope: 'project', cwd: project, env }, false)
    const { lines, exitCode } = doctor()
    expect(lines.filter((line) => line.status !== 'ok'), JSON.stringify(lines)).toEqual([])
    expect(exitCode).toBe(0)
    expect(lines.map((line) => line.what)).toContain(`project ${project}: trusted; its hooks run`)
  })

  test('a --narrow install that hooks.json outgrew: the new hook is never asked, so doctor fails with --sync as the fix', () => {
    const { project, env } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/bin/sh', narrow: true }, false)
    expect(doctorCommand({ cwd: project, env, version: '0.0.0', json: false }).exitCode).toBe(0)
    // A gate on a new event, added after the narrow install: Claude Code has no entry for it.
    const hooksFile = join(project, '.hookrun', 'hooks.json')
    const config = JSON.parse(readFileSync(hooksFile, 'utf8'))
    config.hooks.push({ name: 'prompt-gate', event: 'user:prompt_submit', command: 'true' })
    writeFileSync(hooksFile, JSON.stringify(config))
    trustProject({ cwd: project, env })
    const result = doctorCommand({ cwd: project, env, version: '0.0.0', json: false })
    expect(result.exitCode).toBe(1)
    expect(result.output).toContain('UserPromptSubmit has no entry')
    expect(result.output).toContain('fix: hookrun install --project --sync')
    installAgents({ agents: [], scope: 'project', cwd: project, env, self: '/bin/sh', sync: true }, false)
    const after = doctorCommand({ cwd: project, env, version: '0.0.0', json: false })
    expect(after.exitCode, after.output).toBe(0)
  })

  test('an edited, untrusted project, a committed file running a hookrun PATH lacks, a router path that is gone: each fails with its fix', () => {
    const { project, env, doctor } = machine(false)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    writeFileSync(join(project, '.hookrun', 'scripts', 'dangerous-commands.sh'), '#!/bin/sh\nexit 0\n')
    installAgents({ agents: ['gemini'], scope: 'project', cwd: project, env }, false)
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: '/nowhere/hookrun' }, false)
    const { lines, exitCode } = doctor()
    expect(exitCode).toBe(1)
    const failed = lines.filter((line) => line.status === 'fail')
    expect(failed).toEqual([
      { status: 'fail', what: `hookrun is not on PATH, but ${join(project, '.gemini', 'settings.json')} runs it from there`, fix: 'put it there: npm install -g hookrun, or the release installer (README: Install)' },
      { status: 'fail', what: `Claude Code: ${join(project, '.claude', 'settings.local.json')} runs /nowhere/hookrun fire --format claude, which is not there`, fix: 'hookrun install --agent claude --project' },
      { status: 'fail', what: `project ${project}: 1 hook not running, changed since trusted: .hookrun/scripts/dangerous-commands.sh edited`, fix: `hookrun trust --diff, then hookrun trust ${project}` },
    ])
  })

  test('other checks add their lines (the library function other issues extend)', () => {
    const { project, env } = machine(true)
    const stale: DoctorCheck = (context) => [{ status: 'warn', what: `checked ${context.cwd}`, fix: 'hookrun install --sync' }]
    expect(runDoctor({ cwd: project, env, version: '0.0.0', checks: [stale] })).toEqual({ lines: [{ status: 'warn', what: `checked ${project}`, fix: 'hookrun install --sync' }], exitCode: 0 })
  })

  test('one screen: each line, its fix under it, and the verdict', () => {
    const { project, env } = machine(true)
    const { output, exitCode } = doctorCommand({ cwd: project, env, version: '0.0.0', json: false })
    expect(exitCode).toBe(1)
    expect(output).toContain('FAIL  no agent runs hookrun: no router entries in any agent config\n      fix: hookrun install --agent claude')
    expect(output.endsWith('\n1 problem keeps gates from running (exit 1)\n')).toBe(true)
    rmSync(join(project), { recursive: true })
  })
})
