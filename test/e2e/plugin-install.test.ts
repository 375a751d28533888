/**
 * `hookrun install --agent opencode|kilo`: agents that run plugins, not commands, get hookrun's
 * plugin file in their own plugin folder; uninstall removes exactly that file (a user's plugin of
 * the same name, or beside it, is left alone); doctor reports it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

function project(): string {
  const dir = makeProject({ '.git/HEAD': 'ref: refs/heads/main\n' })
  projects.push(dir)
  return dir
}

describe('install --agent opencode / kilo', () => {
  test('a project install writes .opencode/plugins/hookrun.js running hookrun from PATH; again changes nothing; uninstall removes only it', async () => {
    const dir = project()
    const file = join(dir, '.opencode', 'plugins', 'hookrun.js')
    const mine = join(dir, '.opencode', 'plugins', 'mine.js')
    const first = await runCli(['install', '--agent', 'opencode', '--project'], { cwd: dir })
    expect(first.exitCode, first.stderr).toBe(0)
    expect(first.stdout).toContain(`opencode: created ${file}`)
    const text = readFileSync(file, 'utf8')
    expect(text.startsWith("// hookrun's plugin for OpenCode")).toBe(true)
    expect(text).toContain('const HOOKRUN = ["hookrun"]')
    expect(text).toContain("'fire', hook, '--format', 'opencode'")
    writeFileSync(mine, 'export const Mine = async () => ({})\n')
    const again = await runCli(['install', '--agent', 'opencode', '--project'], { cwd: dir })
    expect(again.stdout).toContain('already installed')
    const json = await runCli(['uninstall', '--agent', 'opencode', '--project', '--json'], { cwd: dir })
    expect(json.exitCode, json.stderr).toBe(0)
    expect(existsSync(file)).toBe(false)
    expect(existsSync(mine)).toBe(true)
  })

  test("a user install puts Kilo's plugin in ~/.config/kilo/plugins with this hookrun's absolute path", async () => {
    const dir = project()
    const result = await runCli(['install', '--agent', 'kilo'], { cwd: dir })
    expect(result.exitCode, result.stderr).toBe(0)
    const file = join(dir, '.xdg-config', 'kilo', 'plugins', 'hookrun.js')
    const command = /^const HOOKRUN = (.*)$/m.exec(readFileSync(file, 'utf8'))?.[1]
    expect((JSON.parse(command!) as string[])[0]).toMatch(/^\//)
    expect(readFileSync(file, 'utf8')).toContain("HOOKRUN_AGENT: 'kilo'")
    const doctor = await runCli(['doctor'], { cwd: dir })
    expect(doctor.stdout).toMatch(/ok +Kilo Code: .*kilo\/plugins\/hookrun\.js: hookrun's plugin/)
    const removed = await runCli(['uninstall', '--agent', 'kilo'], { cwd: dir })
    expect(removed.stdout).toContain(`kilo: removed ${file}`)
    expect(existsSync(join(dir, '.xdg-config', 'kilo'))).toBe(false)
  })

  test("a plugin of the user's own named hookrun.js is neither overwritten nor removed", async () => {
    const dir = project()
    const file = join(dir, '.kilo', 'plugins', 'hookrun.js')
    mkdirSync(join(dir, '.kilo', 'plugins'), { recursive: true })
    writeFileSync(file, 'export const Other = async () => ({})\n')
    const install = await runCli(['install', '--agent', 'kilo', '--project'], { cwd: dir })
    expect(install.exitCode).toBe(1)
    expect(install.stdout).toContain("is not hookrun's plugin; left untouched")
    const uninstall = await runCli(['uninstall', '--agent', 'kilo', '--project'], { cwd: dir })
    expect(uninstall.stdout).toContain("is not hookrun's plugin; left untouched")
    expect(readFileSync(file, 'utf8')).toBe('export const Other = async () => ({})\n')
  })

  test('doctor fails when a project plugin runs hookrun from PATH and PATH has none (every call would be refused)', async () => {
    const dir = project()
    await runCli(['install', '--agent', 'opencode', '--project'], { cwd: dir })
    const doctor = await runCli(['doctor'], { cwd: dir, env: { PATH: '/nonexistent' } })
    expect(doctor.exitCode).toBe(1)
    expect(doctor.stdout).toMatch(/FAIL +OpenCode: .*runs hookrun from PATH, which has none: OpenCode refuses every tool call/)
  })
})
