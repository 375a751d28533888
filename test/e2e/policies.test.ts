/**
 * The policy library end to end, on the compiled binary: every policy turned on one command at a
 * time (`hookrun init --template NAME` adds its entries to the project's hooks.json), its own
 * `hookrun test` cases passing with all of them on; turning one on again changes nothing; turning
 * one off (`--remove`) gives hooks.json back byte for byte and keeps a script the user changed;
 * a trusted project stays trusted. notify's and git-commit's cases (they decide nothing) run too,
 * and really notify and commit. The Node bundle, Bun and Deno carry the same library.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { ALL_RUNTIMES, makeProject, removeProject, runCli } from '../helpers.ts'
import { policyNames } from '../../scripts/policies.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))
const project = (files = {}) => {
  const dir = makeProject(files)
  dirs.push(dir)
  return dir
}

/** What a detached hook wrote to `file`, once every one of `lines` is there (or 5 s have passed). */
async function whenWritten(file: string, lines: readonly string[]): Promise<string> {
  for (let waited = 0; ; waited += 100) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
    if (waited >= 5000 || lines.every((line) => text.includes(line))) return text
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
const GATES = policyNames().filter((name) => !['audit-log', 'notify', 'git-commit'].includes(name))
const sudo = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'sh -c "rm -rf ~/"' } })

describe('policies', () => {
  test('each turned on with one command; all their hookrun test cases pass together', async () => {
    const dir = project()
    for (const name of GATES) {
      const on = await runCli(['init', '--template', name], { cwd: dir })
      expect(on.exitCode, on.stderr).toBe(0)
      expect(on.stdout).toMatch(/trusted/)
    }
    const hooks = JSON.parse(readFileSync(join(dir, '.hookrun', 'hooks.json'), 'utf8')) as { hooks: Array<{ name: string }> }
    expect(hooks.hooks.map((hook) => hook.name)).toEqual(GATES)
    const run = await runCli(['test'], { cwd: dir, timeoutMs: 120_000 })
    expect(run.stdout).toMatch(/\n(\d+) passed, 0 failed/)
    expect(run.exitCode, run.stdout).toBe(0)
  }, 180_000)

  test('notify and git-commit: their cases pass, and they really notify and commit (and commit only the file a case names)', async () => {
    const dir = project()
    const git = (...args: string[]) => spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8' })
    expect(git('init', '-q').status).toBe(0)
    git('config', 'user.email', 'test@example.com')
    git('config', 'user.name', 'Test')
    for (const name of ['notify', 'git-commit']) expect((await runCli(['init', '--template', name], { cwd: dir })).exitCode).toBe(0)
    // A notify-send of our own, first on PATH, writes down what it was asked to show.
    const bin = project()
    const shown = join(bin, 'shown.txt')
    writeFileSync(join(bin, 'notify-send'), `#!/bin/sh\nprintf '%s: %s\\n' "$1" "$2" >> '${shown}'\n`)
    chmodSync(join(bin, 'notify-send'), 0o755)
    // The files git-commit's cases name, as the agent left them; anything else the agent did is not committed.
    writeFileSync(join(dir, 'hookrun-git-commit-test.txt'), 'written by the agent\n')
    writeFileSync(join(dir, 'hookrun-git-commit-test-edit.txt'), 'edited by the agent\n')
    writeFileSync(join(dir, 'unrelated.txt'), 'not the agent’s\n')

    const run = await runCli(['test'], { cwd: dir, env: { PATH: `${bin}:${process.env.PATH}` }, timeoutMs: 60_000 })
    expect(run.stdout).toMatch(/\n(\d+) passed, 0 failed/)
    expect(run.stdout).toContain('.hookrun/tests/notify.json')
    expect(run.stdout).toContain('.hookrun/tests/git-commit.json')
    expect(run.exitCode, run.stdout).toBe(0)
    expect(git('log', '--format=%s').stdout.trim().split('\n').sort()).toEqual([
      'agent: Write hookrun-git-commit-test.txt',
      'agent: edit hookrun-git-commit-test-edit.txt',
    ])
    expect(git('status', '--porcelain', '--', 'unrelated.txt').stdout).toMatch(/^\?\? unrelated\.txt/)
    // notify runs detached (blocking: false): wait for it.
    const expected = [
      'Coding agent: The agent has finished.',
      'Coding agent: Claude needs your permission to use Bash',
      'Coding agent: The agent needs your attention.',
    ]
    const text = await whenWritten(shown, expected)
    for (const line of expected) expect(text).toContain(line)
  }, 120_000)

  test('on again: already on, nothing changed; off: entries and unchanged files gone, the user’s file back byte for byte', async () => {
    const mine = '{\n  "hooks": [ {"name":"mine","event":"agent:stop","command":"true"} ]\n}\n'
    const dir = project({ '.hookrun/hooks.json': mine })
    // The user trusts their own project first; turning a policy on keeps it trusted.
    expect((await runCli(['trust'], { cwd: dir })).exitCode).toBe(0)
    const on = await runCli(['init', '--template', 'dangerous-commands'], { cwd: dir })
    expect(on.stdout).toContain('edited .hookrun/hooks.json (added dangerous-commands)')
    expect(on.stdout).toContain('still trusted')
    const edited = readFileSync(join(dir, '.hookrun', 'hooks.json'), 'utf8')
    expect(edited.startsWith('{\n  "hooks": [ {"name":"mine","event":"agent:stop","command":"true"}')).toBe(true)
    const fired = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], { cwd: dir, input: sudo })
    expect(fired.exitCode).toBe(2)
    expect(fired.json().decidedBy).toBe('dangerous-commands')

    const again = await runCli(['init', '--template', 'dangerous-commands'], { cwd: dir })
    expect(again.stdout).toContain('kept   .hookrun/hooks.json (it has these hooks already: the policy is on)')
    expect(readFileSync(join(dir, '.hookrun', 'hooks.json'), 'utf8')).toBe(edited)

    const off = await runCli(['init', '--template', 'dangerous-commands', '--remove'], { cwd: dir })
    expect(off.exitCode, off.stderr).toBe(0)
    expect(off.stdout).toContain('edited .hookrun/hooks.json (took out dangerous-commands)')
    expect(off.stdout).toContain('removed .hookrun/scripts/dangerous-commands.sh')
    expect(readFileSync(join(dir, '.hookrun', 'hooks.json'), 'utf8')).toBe(mine)
    const allowed = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], { cwd: dir, input: sudo })
    expect(allowed.exitCode, allowed.stdout).toBe(0)
  }, 60_000)

  test('off keeps a script the user changed, and says so', async () => {
    const dir = project()
    await runCli(['init', '--template', 'secrets'], { cwd: dir })
    writeFileSync(join(dir, '.hookrun', 'scripts', 'secrets.sh'), '#!/bin/sh\n# my own now\n')
    const off = await runCli(['init', '--template', 'secrets', '--remove'], { cwd: dir })
    expect(off.stdout).toContain('kept   .hookrun/scripts/secrets.sh (you changed it')
    expect(readFileSync(join(dir, '.hookrun', 'scripts', 'secrets.sh'), 'utf8')).toBe('#!/bin/sh\n# my own now\n')
    expect((await runCli(['init', '--remove'], { cwd: dir })).stderr).toContain('--remove needs --template NAME')
  }, 60_000)

  test('a policy written switched off by init is switched on by naming it', async () => {
    const dir = project()
    await runCli(['init'], { cwd: dir })
    const before = JSON.parse(readFileSync(join(dir, '.hookrun', 'hooks.json'), 'utf8')) as {
      hooks: Array<{ name: string; enabled?: boolean }>
    }
    expect(before.hooks.find((hook) => hook.name === 'package-installs')?.enabled).toBe(false)
    const on = await runCli(['init', '--template', 'package-installs'], { cwd: dir })
    expect(on.stdout).toContain('(switched on package-installs)')
    const after = JSON.parse(readFileSync(join(dir, '.hookrun', 'hooks.json'), 'utf8')) as {
      hooks: Array<{ name: string; enabled?: boolean }>
    }
    expect(after.hooks.find((hook) => hook.name === 'package-installs')?.enabled).toBeUndefined()
    expect((await runCli(['test'], { cwd: dir, timeoutMs: 120_000 })).stdout).toMatch(/ passed, 0 failed/)
  }, 180_000)

  for (const runtime of ALL_RUNTIMES.filter((candidate) => candidate.name !== 'binary')) {
    test(`${runtime.name} carries the same library`, async () => {
      const list = await runCli(['init', '--list'], { cwd: project(), runtime: runtime.name, timeoutMs: 60_000 })
      expect(list.exitCode, list.stderr).toBe(0)
      expect(
        list.stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(' ')[0]),
      ).toEqual(policyNames())
    }, 60_000)
  }
})
