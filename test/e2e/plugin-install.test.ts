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

describe('install --agent pi / openclaw', () => {
  test("a Pi project install writes .pi/extensions/hookrun.js, Pi's own extension (default export), running hookrun from PATH", async () => {
    const dir = project()
    const file = join(dir, '.pi', 'extensions', 'hookrun.js')
    const result = await runCli(['install', '--agent', 'pi', '--project'], { cwd: dir })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain(`pi: created ${file}`)
    expect(result.stdout).toMatch(/once the project is trusted/)
    const text = readFileSync(file, 'utf8')
    expect(text.startsWith("// hookrun's plugin for Pi")).toBe(true)
    expect(text).toContain('const HOOKRUN = ["hookrun"]')
    expect(text).toContain("'fire', hook, '--format', 'pi'")
    expect(text).toContain('export default function hookrun(pi)')
    const scan = await runCli(['scan', '--json'], { cwd: dir })
    expect(scan.stdout).toContain("hookrun.js: hookrun's plugin")
    const removed = await runCli(['uninstall', '--agent', 'pi', '--project'], { cwd: dir })
    expect(removed.stdout).toContain(`pi: removed ${file}`)
    expect(existsSync(file)).toBe(false)
  })

  test('an OpenClaw install writes the plugin folder (entry, manifest, package.json) in ~/.openclaw/extensions and lets it in in openclaw.json; uninstall removes it all; --project refuses', async () => {
    const dir = project()
    const folder = join(dir, '.openclaw', 'extensions', 'hookrun')
    // The user's own config, with a comment and another plugin allowed: kept as it is around hookrun's settings.
    const config = join(dir, '.openclaw', 'openclaw.json')
    const mine = '{\n  // mine\n  "plugins": { "allow": ["other"] },\n  "agents": { "defaults": { "workspace": "/w" } }\n}\n'
    mkdirSync(join(dir, '.openclaw'), { recursive: true })
    writeFileSync(config, mine)
    const result = await runCli(['install', '--agent', 'openclaw'], { cwd: dir, env: { HOME: dir } })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain(`let it in: ${config}`)
    const enabled = readFileSync(config, 'utf8')
    expect(enabled).toContain('// mine')
    expect(JSON.parse(enabled.replace('// mine', ''))).toEqual({
      plugins: { allow: ['other', 'hookrun'], entries: { hookrun: { enabled: true, hooks: { allowConversationAccess: true } } } },
      agents: { defaults: { workspace: '/w' } },
    })
    expect(readFileSync(join(folder, 'index.js'), 'utf8')).toContain("'fire', hook, '--format', 'openclaw'")
    expect(JSON.parse(readFileSync(join(folder, 'openclaw.plugin.json'), 'utf8'))).toMatchObject({
      id: 'hookrun',
      configSchema: { type: 'object' },
    })
    expect(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))).toMatchObject({ openclaw: { extensions: ['./index.js'] } })
    const again = await runCli(['install', '--agent', 'openclaw'], { cwd: dir, env: { HOME: dir } })
    expect(again.stdout).toContain('already installed')
    const doctor = await runCli(['doctor'], { cwd: dir, env: { HOME: dir } })
    expect(doctor.stdout.match(/OpenClaw: .*hookrun's plugin/g), doctor.stdout).toHaveLength(1)
    // Without the settings OpenClaw never loads the plugin: doctor fails.
    writeFileSync(config, mine)
    const off = await runCli(['doctor'], { cwd: dir, env: { HOME: dir } })
    expect(off.stdout).toMatch(/FAIL +OpenClaw: \S+index\.js is never loaded: \S+openclaw\.json lacks "hookrun" in plugins\.allow/)
    expect((await runCli(['install', '--agent', 'openclaw'], { cwd: dir, env: { HOME: dir } })).exitCode).toBe(0)
    const removed = await runCli(['uninstall', '--agent', 'openclaw'], { cwd: dir, env: { HOME: dir } })
    expect(removed.exitCode, removed.stderr).toBe(0)
    expect(existsSync(folder)).toBe(false)
    expect(JSON.parse(readFileSync(config, 'utf8').replace('// mine', ''))).toEqual({
      plugins: { allow: ['other'], entries: {} },
      agents: { defaults: { workspace: '/w' } },
    })
    const project_ = await runCli(['install', '--agent', 'openclaw', '--project'], { cwd: dir, env: { HOME: dir } })
    expect(project_.exitCode).not.toBe(0)
    expect(project_.stderr).toMatch(/OpenClaw has no project plugin hookrun can install: .*; install it without --project/)
  })
})
