/**
 * `hookrun doctor` reads agents' files as the agents do and runs nothing they say (issue 34, items
 * 1, 5 and 9): a cloned repository's router command is never run through a shell, a file the
 * agent discards is a failure, and a plugin install is an agent that runs hookrun.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli, writeFiles } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

/** A fresh clone that is also HOME: nothing trusted, nothing installed by this user. */
function clone(files: Record<string, string | object> = {}): string {
  const dir = makeProject({ '.git/HEAD': 'ref: refs/heads/main\n', ...files })
  projects.push(dir)
  return dir
}

describe('doctor runs nothing an agent file says', () => {
  test("an untrusted clone's router commands with shell syntax: doctor neither runs them nor says the gates hold", async () => {
    const dir = clone()
    const made = (name: string) => join(dir, `made-by-${name}`)
    writeFileSync(join(dir, 'evil.sh'), `#!/bin/sh\ntouch ${made('script')}\n`, { mode: 0o755 })
    const files = {
      '.cursor/hooks.json': {
        version: 1,
        hooks: { preToolUse: [{ command: `/bin/touch ${made('cursor')}; /bin/true fire --format cursor` }] },
      },
      '.claude/settings.json': {
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `/bin/touch ${made('claude')}; /bin/true fire --format claude` }] }] },
      },
      '.claude/settings.local.json': {
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `$(/bin/touch ${made('local')}) fire --format claude` }] }] },
      },
      // Plain words, but a shell running a script of the clone's: doctor does not run that either.
      '.codex/hooks.json': {
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `/bin/sh ${join(dir, 'evil.sh')} fire --format codex` }] }] },
      },
    }
    writeFiles(dir, files)
    const doctor = await runCli(['doctor'], { cwd: dir })
    for (const name of ['cursor', 'claude', 'local', 'script']) expect(existsSync(made(name)), `${name}: ${doctor.stdout}`).toBe(false)
    expect(doctor.exitCode).toBe(1)
    expect(doctor.stdout).toMatch(/FAIL +Cursor: .*\.cursor\/hooks\.json runs \/bin\/touch .*; \/bin\/true, which is not a plain command/)
    expect(doctor.stdout).toMatch(/FAIL +Claude Code: .*settings\.local\.json runs \$\(\/bin\/touch .*\), which is not a plain command/)
    expect(doctor.stdout).not.toContain('every gate is in force')
  })
})

describe('doctor runs no program of the folder it looks at', () => {
  test("a relative PATH entry ('.') finds the clone's own hookrun: doctor does not start it", async () => {
    const dir = clone()
    writeFileSync(join(dir, 'hookrun'), `#!/bin/sh\ntouch ${join(dir, 'made-by-path')}\necho 'hookrun 9.9.9 (evil)'\n`, { mode: 0o755 })
    const doctor = await runCli(['doctor'], { cwd: dir, env: { PATH: `.:${process.env.PATH}` } })
    expect(existsSync(join(dir, 'made-by-path')), doctor.stdout).toBe(false)
    expect(doctor.stdout).not.toContain('9.9.9')
  })
})

describe('doctor reads a file as its agent does', () => {
  test('a // comment in .claude/settings.local.json: Claude Code ignores the whole file, so doctor fails naming where', async () => {
    const dir = clone({ 'hooks.json': '{"hooks": []}\n' })
    const installed = await runCli(['install', '--agent', 'claude', '--project'], { cwd: dir })
    expect(installed.exitCode, installed.stdout + installed.stderr).toBe(0)
    const file = join(dir, '.claude', 'settings.local.json')
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, text.replace('{', '{\n  // my note'))
    const doctor = await runCli(['doctor'], { cwd: dir })
    expect(doctor.exitCode).toBe(1)
    expect(doctor.stdout).toContain(
      `FAIL  Claude Code: ${file} is not valid JSON (line 2, column 3: JSON allows no comments): Claude Code ignores this whole file, so hookrun's entries in it never run`,
    )
    expect(doctor.stdout).toContain(`fix: remove the comments from ${file} (Claude Code reads strict JSON), then run hookrun doctor again`)
    expect(doctor.stdout).not.toMatch(/ok +Claude Code: .*routed to hookrun/)
  })

  test('a comment in Gemini CLI settings (it reads JSON with comments) is no finding', async () => {
    const dir = clone()
    const installed = await runCli(['install', '--agent', 'gemini'], { cwd: dir })
    expect(installed.exitCode, installed.stdout + installed.stderr).toBe(0)
    const file = join(dir, '.gemini', 'settings.json')
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, text.replace('{', '{\n  // my note'))
    const doctor = await runCli(['doctor'], { cwd: dir })
    expect(doctor.stdout).toMatch(/ok +Gemini CLI: .*settings\.json: \d+ events? routed to hookrun/)
    expect(doctor.stdout).not.toContain('is not valid JSON')
  })
})

describe('a plugin or hook-folder install is an agent that runs hookrun', () => {
  test.each([
    ['opencode', "OpenCode: .*hookrun's plugin"],
    ['kilo', "Kilo Code: .*hookrun's plugin"],
    ['cline', 'Cline: .*hookrun wrappers for PreToolUse'],
  ])('%s installed alone: doctor passes, with no "no agent runs hookrun" line', async (agent, said) => {
    const dir = clone()
    const installed = await runCli(['install', '--agent', agent, '--project'], { cwd: dir })
    expect(installed.exitCode, installed.stdout + installed.stderr).toBe(0)
    // The project plugin runs `hookrun` from PATH: the binary under test is put there.
    const doctor = await runCli(['doctor'], { cwd: dir, env: { PATH: `${join(import.meta.dirname, '..', '..', 'dist')}:/usr/bin:/bin` } })
    expect(doctor.stdout).not.toContain('no agent runs hookrun')
    expect(doctor.stdout).toMatch(new RegExp(`ok +${said}`))
    expect(doctor.exitCode, doctor.stdout).toBe(0)
  })
})

describe('doctor and MCP gates', () => {
  test('an MCP gate, with Cursor (names unknown to hookrun) and Claude Code installed: doctor warns for Cursor, names Claude Code as holding', async () => {
    const dir = clone({
      '.hookrun/hooks.json': { hooks: [{ name: 'no-deletes', event: 'tool:pre_execute:mcp__github__delete_*', command: 'exit 2' }] },
    })
    for (const agent of ['claude', 'cursor'])
      expect((await runCli(['install', '--agent', agent, '--project'], { cwd: dir, env: { HOME: dir } })).exitCode).toBe(0)
    const doctor = await runCli(['doctor'], { cwd: dir, env: { HOME: dir } })
    expect(doctor.stdout).toMatch(/ok +MCP gate 'no-deletes': read in Claude Code/i)
    expect(doctor.stdout).toMatch(
      /warn +Cursor: how it names MCP tools is not known to hookrun, so the MCP gate 'no-deletes' may not hold there/i,
    )
  })
})
