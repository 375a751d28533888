// Agents' settings kept in a dotfiles repository as links: install and uninstall write through the
// link to its target (the link stays a link), and a link whose target is missing is refused.
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { homeAndProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

function linkedSettings(target: string, content?: string) {
  const { home, project, env } = homeAndProject(dirs)
  const dotfiles = join(home, 'dotfiles', 'claude')
  mkdirSync(dotfiles, { recursive: true })
  mkdirSync(join(home, '.claude'))
  const real = join(dotfiles, target)
  if (content !== undefined) writeFileSync(real, content, { mode: 0o600 })
  const link = join(home, '.claude', 'settings.json')
  symlinkSync(real, link)
  const run = (remove: boolean) => installAgents({ agents: ['claude'], scope: 'user', cwd: project, env, self: '/opt/hookrun' }, remove)
  return { link, real, run }
}

test('a settings file that is a link: install and uninstall write its target, and say so; the link stays a link', () => {
  const { link, real, run } = linkedSettings('settings.json', '{\n  "permissions": { "deny": ["Bash(rm:*)"] }\n}\n')
  const installed = run(false)
  expect(installed.exitCode, installed.output).toBe(0)
  expect(installed.output).toContain(`claude: updated ${link} (through the link to ${real}):`)
  expect(lstatSync(link).isSymbolicLink()).toBe(true)
  expect(readlinkSync(link)).toBe(real)
  const settings = JSON.parse(readFileSync(real, 'utf8'))
  expect(settings.permissions.deny).toEqual(['Bash(rm:*)'])
  expect(JSON.stringify(settings.hooks.PreToolUse)).toContain('/opt/hookrun fire --format claude')
  // The target keeps its mode: a private file stays private.
  expect(lstatSync(real).mode & 0o777).toBe(0o600)
  // A later edit in the dotfiles still reaches the agent: the link is what it reads.
  writeFileSync(real, readFileSync(real, 'utf8').replace('"Bash(rm:*)"', '"Bash(rm:*)", "Bash(curl:*)"'))
  const removed = run(true)
  expect(removed.exitCode, removed.output).toBe(0)
  expect(removed.output).toContain(`(through the link to ${real})`)
  expect(lstatSync(link).isSymbolicLink()).toBe(true)
  expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({ permissions: { deny: ['Bash(rm:*)', 'Bash(curl:*)'] } })
})

test('a link whose target is missing is refused with one line, and nothing is written', () => {
  const { link, real, run } = linkedSettings('gone.json')
  const installed = run(false)
  expect(installed.exitCode).toBe(1)
  expect(installed.output.trim()).toBe(
    `claude: ${link}: is a link to ${real}, which does not exist; hookrun writes through links, so create that file or remove the link; left untouched`,
  )
  expect(lstatSync(link).isSymbolicLink()).toBe(true)
  expect(() => lstatSync(real)).toThrow()
  expect(run(true).exitCode).toBe(1)
  expect(lstatSync(link).isSymbolicLink()).toBe(true)
})

// Root writes anywhere: the refusal shows only for a user whom permissions bind.
test.skipIf(process.getuid?.() === 0)('a target hookrun may not write is refused with one line, and the link stays', () => {
  const { link, real, run } = linkedSettings('settings.json', '{}\n')
  const folder = join(real, '..')
  chmodSync(folder, 0o500)
  try {
    const installed = run(false)
    expect(installed.exitCode).toBe(1)
    expect(installed.output).toMatch(
      new RegExp(
        `^claude: ${link}: hookrun cannot write the file its link points to, ${real}, \\(EACCES: permission denied\\); left untouched\\n$`,
      ),
    )
    expect(readFileSync(real, 'utf8')).toBe('{}\n')
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
  } finally {
    chmodSync(folder, 0o755)
  }
})
