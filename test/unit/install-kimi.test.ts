/**
 * `hookrun install --agent kimi`: `[[hooks]]` tables appended to Kimi Code CLI's config.toml as
 * lines, the user's file otherwise untouched to the byte (src/install/toml-hooks.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { routedEvents } from '../../src/install/overlaps.ts'
import { hookTables } from '../../src/install/toml-hooks.ts'
import { homeAndProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const SELF = '/opt/hookrun/bin/hookrun'
const USER_CONFIG = `# my Kimi settings
default_model = "kimi-k2"   # the fast one

[models.kimi-k2]
provider = 'moonshot'
max_context_size = 262144

[[hooks]]
event = "PostToolUse"
matcher = "WriteFile|StrReplaceFile"
command = "ruff format ."
`

function kimiHome(text?: string) {
  const where = homeAndProject(dirs)
  const file = join(where.home, '.kimi', 'config.toml')
  if (text !== undefined) {
    mkdirSync(join(where.home, '.kimi'), { recursive: true })
    writeFileSync(file, text)
  }
  const run = (remove = false, self = SELF, scope: 'user' | 'project' = 'user') =>
    installAgents({ agents: ['kimi'], scope, cwd: where.project, env: where.env, self }, remove)
  return { ...where, file, run }
}

describe('install --agent kimi', () => {
  test("appends one [[hooks]] table per event after the user's file, which keeps every byte; uninstall gives it back", () => {
    const { file, run } = kimiHome(USER_CONFIG)
    expect(run().exitCode).toBe(0)
    const written = readFileSync(file, 'utf8')
    expect(
      written.startsWith(
        `${USER_CONFIG}\n[[hooks]]\nevent = "PreToolUse"\ncommand = "/opt/hookrun/bin/hookrun fire --format kimi"\ntimeout = 600\n`,
      ),
    ).toBe(true)
    const ours = hookTables(written).filter((table) => String(table.fields.command).endsWith('--format kimi'))
    expect(ours.map((table) => table.fields.event).sort()).toEqual(
      [
        'PreToolUse',
        'PostToolUse',
        'PostToolUseFailure',
        'UserPromptSubmit',
        'Stop',
        'StopFailure',
        'SessionStart',
        'SessionEnd',
        'SubagentStart',
        'SubagentStop',
        'PreCompact',
        'PostCompact',
        'Notification',
      ].sort(),
    )
    expect(routedEvents(file, 'kimi')).toHaveLength(13)
    // Twice: nothing changes. A moved hookrun: only the command values change.
    expect(run().output).toContain('kimi: already installed in')
    run(false, '/usr/local/bin/hookrun')
    expect(readFileSync(file, 'utf8')).toBe(written.replaceAll('/opt/hookrun/bin/hookrun', '/usr/local/bin/hookrun'))
    expect(run(true).exitCode).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(USER_CONFIG)
  })

  test('a config.toml install created goes again on uninstall; KIMI_SHARE_DIR moves it', () => {
    const { run, file } = kimiHome()
    run()
    expect(existsSync(file)).toBe(true)
    expect(run(true).output).toContain("and the file, which held only hookrun's entries")
    expect(existsSync(file)).toBe(false)
    const where = homeAndProject(dirs)
    const share = join(where.home, 'kimi-share')
    installAgents({ agents: ['kimi'], scope: 'user', cwd: where.project, env: { ...where.env, KIMI_SHARE_DIR: share }, self: SELF }, false)
    expect(existsSync(join(share, 'config.toml'))).toBe(true)
  })

  test('--project is refused (Kimi reads one file for every project); an inline hooks array is left untouched', () => {
    const { run, file } = kimiHome('hooks = []\n')
    expect(() => run(false, SELF, 'project')).toThrow('Kimi Code CLI reads hooks only from')
    const result = run()
    expect(result.exitCode).toBe(1)
    expect(result.output).toContain('"hooks" is set inline; hookrun adds [[hooks]] tables')
    expect(readFileSync(file, 'utf8')).toBe('hooks = []\n')
  })
})
