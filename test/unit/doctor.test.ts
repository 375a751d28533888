import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { initProject } from '../../src/commands/init.ts'
import { doctorCommand } from '../../src/commands/doctor.ts'
import { runDoctor } from '../../src/install/doctor.ts'
import type { DoctorCheck } from '../../src/install/doctor-types.ts'
import { trustProject } from '../../src/commands/trust.ts'
import { foldersIn, removeProject } from '../helpers.ts'

const folders: string[] = []
afterAll(() => folders.forEach(removeProject))

/** A stand-in hookrun that answers `--version` as hookrun does, with this version. */
function fakeHookrun(file: string, version: string): string {
  writeFileSync(file, `#!/bin/sh\n[ "$1" = --version ] && echo 'hookrun ${version} (node 22.0.0, linux-x64)'\nexit 0\n`)
  chmodSync(file, 0o755)
  return file
}

/** A user (HOME) with a project, and a PATH that holds a `hookrun` (of this version) or not. */
function machine(withHookrun: boolean, version = '0.0.0') {
  const { root: home, project, bin } = foldersIn(folders, 'project', 'bin')
  if (withHookrun) fakeHookrun(join(bin, 'hookrun'), version)
  const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin` }
  return { home, project, bin, env, doctor: () => runDoctor({ cwd: project, env, version: '0.0.0' }) }
}

describe('hookrun doctor', () => {
  test('nothing wired: a gate is not in force (exit 1), with the command that wires one', () => {
    const { doctor } = machine(true)
    const { lines, exitCode } = doctor()
    expect(exitCode).toBe(1)
    expect(lines).toContainEqual({
      status: 'fail',
      what: 'no agent runs hookrun: no router entries, plugins or hook wrappers in any agent config',
      fix: 'hookrun install --agent claude   (or cursor, gemini, codex, copilot, opencode, …)',
    })
  })

  test('a project gate wired, trusted and hookrun on PATH: every gate is in force (exit 0)', () => {
    const { project, bin, env, doctor } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: join(bin, 'hookrun') }, false)
    // Gemini CLI reads a project's .gemini/ only where it is started: the user install is the one that holds.
    installAgents({ agents: ['gemini'], scope: 'user', cwd: project, env, self: join(bin, 'hookrun') }, false)
    const { lines, exitCode } = doctor()
    expect(
      lines.filter((line) => line.status !== 'ok'),
      JSON.stringify(lines),
    ).toEqual([])
    expect(exitCode).toBe(0)
    expect(lines.map((line) => line.what)).toContain(`project ${project}: trusted; its hooks run`)
  })

  test.each(['gemini', 'qwen'] as const)(
    '%s: a project install alone runs no hook from a subfolder; doctor says so, and the user install is the fix',
    (agent) => {
      const { project, bin, env } = machine(true)
      initProject({ cwd: project, templates: ['dangerous-commands'], env })
      trustProject({ cwd: project, env })
      const installed = installAgents({ agents: [agent], scope: 'project', cwd: project, env }, false)
      const label = agent === 'gemini' ? 'Gemini CLI' : 'Qwen Code'
      const file = join(project, `.${agent}`, 'settings.json')
      expect(installed.output).toContain(
        `  warning: ${label} reads ${file} only when it is started in ${project}; started in a subfolder it runs no hook at all. Install for your user instead: hookrun install --agent ${agent}`,
      )
      const sub = join(project, 'src')
      mkdirSync(sub)
      const fix = `hookrun install --agent ${agent}   (your user config: every folder, a no-op where no hooks are configured)`
      const here = runDoctor({ cwd: project, env, version: '0.0.0' })
      expect(here.lines).toContainEqual({
        status: 'warn',
        what: `${label}: ${file} runs hookrun only when ${label} is started in ${project}; started in a subfolder it runs no hook at all`,
        fix,
      })
      const below = runDoctor({ cwd: sub, env, version: '0.0.0' })
      expect(below.lines).toContainEqual({
        status: 'fail',
        what: `${label}: ${file} runs hookrun only when ${label} is started in ${project}; started here (${sub}) it runs no hook at all`,
        fix,
      })
      expect(below.exitCode).toBe(1)
      // With the user install the subfolders are covered: no line, and the project install says so.
      installAgents({ agents: [agent], scope: 'user', cwd: project, env, self: join(bin, 'hookrun') }, false)
      expect(runDoctor({ cwd: sub, env, version: '0.0.0' }).lines.filter((line) => line.what.includes('runs no hook'))).toEqual([])
      expect(installAgents({ agents: [agent], scope: 'project', cwd: project, env }, false).output).toContain(`and your user install (`)
    },
  )

  test("a router entry whose agent timeout is not above hookrun's chain budget is flagged; install raises it", () => {
    const { project, bin, env, doctor } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: join(bin, 'hookrun') }, false)
    const settingsFile = join(project, '.claude', 'settings.local.json')
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8'))
    settings.hooks.PreToolUse[0].hooks[0].timeout = 30
    delete settings.hooks.UserPromptSubmit[0].hooks[0].timeout
    writeFileSync(settingsFile, JSON.stringify(settings, null, 2))
    const flagged = doctor().lines.filter((line) => line.what.includes('budget'))
    expect(flagged).toEqual([
      {
        status: 'warn',
        what: `Claude Code: ${settingsFile}: hookrun's entry for PreToolUse, UserPromptSubmit has a timeout of 30 s, not above hookrun's 540 s budget for one fire: the agent may kill hookrun mid-gate and go ahead`,
        fix: 'hookrun install --agent claude --project   (writes 600 s)',
      },
    ])
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: join(bin, 'hookrun') }, false)
    const raised = JSON.parse(readFileSync(settingsFile, 'utf8'))
    expect(raised.hooks.PreToolUse[0].hooks[0].timeout).toBe(600)
    expect(raised.hooks.UserPromptSubmit[0].hooks[0]).toMatchObject({ type: 'command', timeout: 600 })
    expect(doctor().lines.filter((line) => line.what.includes('budget'))).toEqual([])
  })

  test('a --narrow install that hooks.json outgrew: the new hook is never asked, so doctor fails with --sync as the fix', () => {
    const { project, bin, env } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: join(bin, 'hookrun'), narrow: true }, false)
    expect(doctorCommand({ cwd: project, env, version: '0.0.0', json: false }).exitCode).toBe(0)
    // A gate on a new event, added after the narrow install: Claude Code has no entry for it.
    const hooksFile = join(project, '.hookrun', 'hooks.json')
    const config = JSON.parse(readFileSync(hooksFile, 'utf8'))
    config.hooks.push({ name: 'prompt-gate', event: 'user:prompt_submit', command: 'true' })
    writeFileSync(hooksFile, JSON.stringify(config))
    trustProject({ cwd: project, env, syncAgents: false }) // as a folder in trustedFolders is after an edit: hookrun trust would sync
    const result = doctorCommand({ cwd: project, env, version: '0.0.0', json: false })
    expect(result.exitCode).toBe(1)
    expect(result.output).toContain('UserPromptSubmit has no entry')
    expect(result.output).toContain('fix: hookrun install --project --sync')
    installAgents({ agents: [], scope: 'project', cwd: project, env, self: join(bin, 'hookrun'), sync: true }, false)
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
      {
        status: 'fail',
        what: `hookrun is not on PATH, but ${join(project, '.gemini', 'settings.json')} runs it from there`,
        fix: 'put it there: npm install -g hookrun, or the release installer (docs/install.md)',
      },
      {
        status: 'fail',
        what: `Claude Code: ${join(project, '.claude', 'settings.local.json')} runs /nowhere/hookrun fire --format claude, which is not there`,
        fix: 'hookrun install --agent claude --project',
      },
      {
        status: 'fail',
        what: `project ${project}: changed since trusted (.hookrun/scripts/dangerous-commands.sh edited): its hooks do not run and every gate event is blocked`,
        fix: `hookrun trust --diff, then hookrun trust ${project}`,
      },
    ])
  })

  test('hookrun on PATH of another version, or not hookrun at all: a line naming both versions and the fix', () => {
    const { project, bin, env, doctor } = machine(true, '0.0.9')
    const onPath = doctor().lines[0]!
    expect(onPath).toEqual({
      status: 'warn',
      what: `hookrun on PATH (${join(bin, 'hookrun')}) is version 0.0.9, this one is 0.0.0: agents that run \`hookrun\` get 0.0.9`,
      fix: 'npm install -g hookrun@0.0.0 (or the release installer with --version 0.0.0), or put this hookrun first on PATH',
    })
    writeFileSync(join(bin, 'hookrun'), '#!/bin/sh\necho "usage: something else"\n')
    expect(doctor().lines[0]).toMatchObject({
      status: 'warn',
      what: `hookrun on PATH (${join(bin, 'hookrun')}) does not answer --version as hookrun does (it printed: usage: something else)`,
    })
    // A committed file runs it from PATH: then the gate is not in force.
    installAgents({ agents: ['gemini'], scope: 'project', cwd: project, env }, false)
    expect(doctor().lines[0]).toMatchObject({ status: 'fail' })
  })

  test('an agent config that runs another version of hookrun: a line with the install that routes it here', () => {
    const { project, bin, env, doctor } = machine(true)
    const old = fakeHookrun(join(bin, 'hookrun-old'), '0.0.9')
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: old }, false)
    const file = join(project, '.claude', 'settings.local.json')
    expect(doctor().lines).toContainEqual({
      status: 'warn',
      what: `Claude Code: ${file} runs ${old}, version 0.0.9; this one is 0.0.0`,
      fix: 'hookrun install --agent claude --project   (routes it to this hookrun)',
    })
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: join(bin, 'hookrun') }, false)
    expect(doctor().lines).toContainEqual({
      status: 'ok',
      what: expect.stringMatching(`^Claude Code: ${file}: \\d+ events routed to hookrun$`),
    })
  })

  test("Codex: hookrun's entries never reviewed in /hooks fail (codex exec skips them silently) until ~/.codex/config.toml records their review", () => {
    const { home, project, bin, env, doctor } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    installAgents({ agents: ['codex'], scope: 'project', cwd: project, env, self: join(bin, 'hookrun') }, false)
    const file = join(project, '.codex', 'hooks.json')
    const unreviewed = doctor().lines.find((line) => line.what.startsWith('Codex: '))
    // 12 of the 13 entries: Codex 0.169 lists no StopFailure hook, so it asks no review for it.
    expect(doctor().lines).toContainEqual({
      status: 'fail',
      what: `Codex: 12 of hookrun's 12 entries in ${file} never reviewed in Codex's /hooks: Codex runs an entry only once trusted there (codex exec skips the rest without a word)`,
      fix: "open codex in the project, type /hooks and trust hookrun's entries (once: they stay the same when hooks.json changes)",
    })
    expect(unreviewed).toBeDefined()
    // What Codex's /hooks writes when the user trusts them (keys as `codex app-server` hooks/list names them).
    const events = [
      'PreToolUse',
      'PermissionRequest',
      'PostToolUse',
      'PreCompact',
      'PostCompact',
      'SessionStart',
      'SessionEnd',
      'UserPromptSubmit',
      'SubagentStart',
      'SubagentStop',
      'Stop',
      'Interrupt',
    ]
    const snake = (event: string) => event.replace(/(?<=[a-z])([A-Z])/g, '_$1').toLowerCase()
    const state = events.map((event) => `[hooks.state."${file}:${snake(event)}:0:0"]\ntrusted_hash = "sha256:00"\n`)
    mkdirSync(join(home, '.codex'), { recursive: true })
    writeFileSync(join(home, '.codex', 'config.toml'), state.slice(1).join('\n'))
    expect(doctor().lines).toContainEqual(
      expect.objectContaining({ status: 'fail', what: expect.stringMatching(/^Codex: 1 of hookrun's 12 entries/) }),
    )
    writeFileSync(join(home, '.codex', 'config.toml'), state.join('\n'))
    expect(doctor().lines.filter((line) => line.what.startsWith('Codex: '))).toEqual([
      { status: 'ok', what: `Codex: ${file}: 13 events routed to hookrun` },
    ])
  })

  test('other checks add their lines (the library function other issues extend)', () => {
    const { project, env } = machine(true)
    const stale: DoctorCheck = (context) => [{ status: 'warn', what: `checked ${context.cwd}`, fix: 'hookrun install --sync' }]
    expect(runDoctor({ cwd: project, env, version: '0.0.0', checks: [stale] })).toEqual({
      lines: [{ status: 'warn', what: `checked ${project}`, fix: 'hookrun install --sync' }],
      exitCode: 0,
    })
  })

  test('one screen: each line, its fix under it, and the verdict', () => {
    const { project, env } = machine(true)
    const { output, exitCode } = doctorCommand({ cwd: project, env, version: '0.0.0', json: false })
    expect(exitCode).toBe(1)
    expect(output).toContain(
      'FAIL  no agent runs hookrun: no router entries, plugins or hook wrappers in any agent config\n      fix: hookrun install --agent claude',
    )
    expect(output.endsWith('\n1 problem keeps gates from running (exit 1)\n')).toBe(true)
    rmSync(join(project), { recursive: true })
  })
})

describe("doctor's verdict is fire's", () => {
  const payload = { tool_name: 'Bash', tool_input: { command: 'ls' } }
  test('a trusted project whose hooks.json has a trailing comma: fire blocks every gate event, and doctor says so (no "every event is allowed", no init)', async () => {
    const { project, env, doctor } = machine(true)
    mkdirSync(join(project, '.hookrun'), { recursive: true })
    mkdirSync(join(env.HOME, '.config', 'hookrun'), { recursive: true })
    writeFileSync(join(env.HOME, '.config', 'hookrun', 'hooks.json'), JSON.stringify({ trustedFolders: [project] }))
    writeFileSync(join(project, '.hookrun', 'hooks.json'), '{"hooks":[{"name":"g","event":"tool:pre_execute","command":"true"},]}')
    const { fire } = await import('../../src/fire.ts')
    expect(await fire({ event: 'tool:pre_execute', payload, cwd: project, env })).toMatchObject({ blocked: true, decidedBy: 'hookrun' })
    const { lines, exitCode } = doctor()
    expect(exitCode).toBe(1)
    expect(lines.find((line) => line.what.startsWith('every gate event is blocked'))).toMatchObject({
      status: 'fail',
      what: expect.stringContaining('expected a value (JSON allows no trailing comma)'),
      fix: 'hookrun validate',
    })
    expect(lines.some((line) => line.what.includes('every event is allowed') || line.fix === 'hookrun init')).toBe(false)
  })
  test('edited after trust: doctor says the hooks do not run and every gate event is blocked, as fire does', async () => {
    const { project, env, doctor } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    writeFileSync(join(project, '.hookrun', 'scripts', 'dangerous-commands.sh'), '#!/bin/sh\nexit 0\n')
    const { fire } = await import('../../src/fire.ts')
    expect(await fire({ event: 'tool:pre_execute', payload, cwd: project, env })).toMatchObject({ blocked: true, decidedBy: 'hookrun' })
    expect(doctor().lines).toContainEqual({
      status: 'fail',
      what: `project ${project}: changed since trusted (.hookrun/scripts/dangerous-commands.sh edited): its hooks do not run and every gate event is blocked`,
      fix: `hookrun trust --diff, then hookrun trust ${project}`,
    })
  })
  test('never trusted: fire lets the call through without the hooks, and the fix is to read them and trust (trust --diff has nothing to compare)', async () => {
    const { project, env, doctor } = machine(true)
    mkdirSync(join(project, '.hookrun'), { recursive: true })
    writeFileSync(
      join(project, '.hookrun', 'hooks.json'),
      JSON.stringify({ hooks: [{ name: 'g', event: 'tool:pre_execute', command: 'exit 2' }] }),
    )
    const { fire } = await import('../../src/fire.ts')
    expect(await fire({ event: 'tool:pre_execute', payload, cwd: project, env })).toMatchObject({ blocked: false })
    expect(doctor().lines).toContainEqual({
      status: 'fail',
      what: `project ${project}: never trusted: 1 hook not running (its gates do not apply)`,
      fix: `read ${join(project, '.hookrun')}, then hookrun trust ${project}`,
    })
  })
})

describe('Cursor gates that hang on its third-party hooks setting', () => {
  test("Cursor wired, but an event answered only through Claude Code's entries: doctor warns, naming the setting and the fix", () => {
    const { project, bin, env, doctor } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    installAgents({ agents: ['claude'], scope: 'project', cwd: project, env, self: join(bin, 'hookrun') }, false)
    installAgents(
      { agents: ['cursor'], scope: 'project', cwd: project, env, self: join(bin, 'hookrun'), events: ['afterAgentThought'] },
      false,
    )
    const warned = doctor().lines.filter((line) => line.what.startsWith('Cursor answers'))
    expect(warned).toHaveLength(1)
    expect(warned[0]).toMatchObject({
      status: 'warn',
      what: expect.stringContaining('which it runs only with its third-party hooks setting on'),
      fix: 'hookrun install --agent cursor --project',
    })
    // Its own entries for every such event: the router answers once, nothing to say.
    installAgents({ agents: ['cursor'], scope: 'project', cwd: project, env, self: join(bin, 'hookrun') }, false)
    expect(doctor().lines.filter((line) => line.what.startsWith('Cursor answers'))).toEqual([])
  })

  test("Kiro: hookrun's agent file applies only while that agent is selected; install and doctor say so (issue 30)", () => {
    const { project, bin, env, doctor } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    // Kiro CLI 3's hooks file applies to every agent: doctor finds it, and warns of nothing.
    installAgents({ agents: ['kiro'], scope: 'user', cwd: project, env, self: join(bin, 'hookrun') }, false)
    expect(doctor().lines.filter((line) => line.what.startsWith('Kiro: '))).toEqual([
      { status: 'ok', what: `Kiro: ${join(env.HOME, '.kiro', 'hooks', 'hookrun.json')}: 10 events routed to hookrun` },
    ])
    const installed = installAgents(
      { agents: ['kiro'], scope: 'user', cwd: project, env, self: join(bin, 'hookrun'), agentFormat: 'legacy' },
      false,
    )
    expect(JSON.stringify(installed)).toContain("these hooks apply only while Kiro's `hookrun` agent is selected")
    expect(doctor().lines.filter((line) => line.what.startsWith('Kiro: '))).toContainEqual({
      status: 'warn',
      what: `Kiro: ${join(env.HOME, '.kiro', 'agents', 'hookrun.json')} applies only while Kiro's \`hookrun\` agent is selected (kiro-cli chat --agent hookrun, or chat.defaultAgent hookrun): Kiro's other agents, its default one included, run none of these hooks`,
      fix: 'kiro-cli chat --agent hookrun   (or for every session: kiro-cli settings chat.defaultAgent hookrun)',
    })
  })

  test("Factory Droid: hookrun's entries in settings.json stop running once a hooks.json is beside it; doctor fails and says where Droid reads (issue 30)", () => {
    const { project, bin, env, doctor } = machine(true)
    initProject({ cwd: project, templates: ['dangerous-commands'], env })
    installAgents({ agents: ['droid'], scope: 'user', cwd: project, env, self: join(bin, 'hookrun') }, false)
    const factory = join(env.HOME, '.factory')
    expect(doctor().lines.filter((line) => line.what.includes('do not run'))).toEqual([])
    // The user (or another tool) adds a hooks.json: Droid now reads only that.
    writeFileSync(join(factory, 'hooks.json'), '{ "Stop": [] }\n')
    const { lines, exitCode } = doctor()
    expect(exitCode).toBe(1)
    expect(lines).toContainEqual({
      status: 'fail',
      what: `Factory Droid: hookrun's entries in ${join(factory, 'settings.json')} do not run: Factory Droid reads its hooks from ${join(factory, 'hooks.json')} instead`,
      fix: `hookrun install --agent droid   (writes them there), then remove hookrun's entries from ${join(factory, 'settings.json')}`,
    })
  })
})
