import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { installAgents } from '../../src/commands/install.ts'
import { AGENTS } from '../../src/install/agents.ts'
import { isRouterCommand } from '../../src/install/agent-target.ts'
import { selfCommand, shellWords } from '../../src/install/self.ts'
import { homeAndProject, removeProject } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const place = () => homeAndProject(dirs)

const SELF = '/opt/hookrun/bin/hookrun'
// A project file teams commit runs hookrun from PATH: no machine's path in it.
const PORTABLE = 'hookrun'
const run = (where: ReturnType<typeof place>, agent: string, remove = false, scope: 'user' | 'project' = 'user', self = SELF) =>
  installAgents({ agents: [agent], scope, cwd: where.project, env: where.env, self }, remove)

function put(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  return text
}

/** A user's own settings, with formatting and values JSON.stringify would not reproduce. */
const CLAUDE_SETTINGS = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test)"] },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [ { "type": "command", "command": "./guard.sh", "timeout": 1.50 } ]
            }
        ],
        "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]
    },
    "env": { "GREETING": "gr\\u00fc\\u00df dich" }
}
`
const USER_ENTRIES = [
  '{ "type": "command", "command": "./guard.sh", "timeout": 1.50 }',
  '{ "hooks": [ { "type": "command", "command": "say done" } ] }',
  '"permissions": { "allow": ["Bash(npm test)"] }',
  '"env": { "GREETING": "gr\\u00fc\\u00df dich" }',
]

describe('install / uninstall --agent claude', () => {
  test("adds one router entry per event, keeps the user's entries byte for byte, and uninstall restores the file", () => {
    const where = place()
    const file = join(where.home, '.claude', 'settings.json')
    const original = put(file, CLAUDE_SETTINGS)
    expect(run(where, 'claude').exitCode).toBe(0)
    const installed = readFileSync(file, 'utf8')
    for (const entry of USER_ENTRIES) expect(installed).toContain(entry)
    const settings = JSON.parse(installed)
    const claude = AGENTS.find((agent) => agent.name === 'claude')!
    expect(Object.keys(settings.hooks).sort()).toEqual([...claude.events].sort())
    expect(settings.hooks.PreToolUse).toHaveLength(2)
    expect(settings.hooks.PreToolUse[1]).toEqual({ hooks: [{ type: 'command', command: `${SELF} fire --format claude`, timeout: 600 }] })
    expect(settings.hooks.WorktreeCreate).toBeUndefined()
    expect(settings.hooks.PreModelSwitch).toHaveLength(1)

    expect(run(where, 'claude').output).toMatch(/already installed/)
    expect(readFileSync(file, 'utf8')).toBe(installed)

    expect(run(where, 'claude', true).output).toMatch(/removed 32 entr/)
    expect(readFileSync(file, 'utf8')).toBe(original)
  })

  test('a moved hookrun gets its entries updated, not doubled', () => {
    const where = place()
    run(where, 'claude')
    run(where, 'claude', false, 'user', '/new/place/hookrun')
    const settings = JSON.parse(readFileSync(join(where.home, '.claude', 'settings.json'), 'utf8'))
    expect(settings.hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: '/new/place/hookrun fire --format claude', timeout: 600 }] },
    ])
  })

  test("a group the user wrote around hookrun's handler keeps the user's handler on uninstall", () => {
    const where = place()
    const file = join(where.home, '.claude', 'settings.json')
    put(
      file,
      JSON.stringify(
        {
          hooks: {
            Stop: [
              {
                matcher: '',
                hooks: [
                  { type: 'command', command: 'mine' },
                  { type: 'command', command: '/old/hookrun fire --format claude' },
                ],
              },
            ],
          },
        },
        null,
        2,
      ),
    )
    run(where, 'claude', true)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'mine' }] }] },
    })
  })

  test('a malformed file is reported and left untouched; so is a hooks list of the wrong shape', () => {
    const where = place()
    const file = join(where.home, '.claude', 'settings.json')
    const broken = put(file, '{ "hooks": { "Stop": [ }\n')
    const result = run(where, 'claude')
    expect(result.exitCode).toBe(1)
    expect(result.output).toMatch(
      /settings\.json: is not valid JSON \(line 1, column 24: expected a value \(JSON allows no trailing comma\)\); left untouched/,
    )
    expect(readFileSync(file, 'utf8')).toBe(broken)

    const wrong = put(file, '{ "hooks": [ { "event": "PreToolUse", "command": "x" } ] }\n')
    expect(run(where, 'claude').output).toMatch(/"hooks" is an array, but Claude Code expects an object of events; left untouched/)
    expect(readFileSync(file, 'utf8')).toBe(wrong)
    expect(run(where, 'claude', true).exitCode).toBe(1)
  })

  test("--project writes the project's local settings (this machine's, uncommitted) and keeps the file's mode", () => {
    const where = place()
    const file = join(where.project, '.claude', 'settings.local.json')
    put(file, '{}\n')
    chmodSync(file, 0o600)
    expect(run(where, 'claude', false, 'project').output).toMatch(
      /settings.local.json is this machine's own settings \(keep it out of git\); teammates run the same install/,
    )
    expect(readFileSync(file, 'utf8')).toContain(`"command": "${SELF} fire --format claude"`)
    expect(existsSync(join(where.project, '.claude', 'settings.json'))).toBe(false)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(existsSync(join(where.home, '.claude'))).toBe(false)
  })

  test("uninstall --project also clears the committed settings.json earlier versions wrote to, keeping the user's bytes", () => {
    const where = place()
    const committed = join(where.project, '.claude', 'settings.json')
    // What an earlier hookrun's `install --project` left in the committed file: the user's
    // settings with router entries added (made here by a user-level install of the same text).
    const users = put(join(where.home, '.claude', 'settings.json'), CLAUDE_SETTINGS)
    run(where, 'claude', false, 'user')
    put(committed, readFileSync(join(where.home, '.claude', 'settings.json'), 'utf8'))
    const output = run(where, 'claude', true, 'project').output
    expect(output).toMatch(/removed \d+ entries from .*\.claude\/settings\.json/)
    expect(readFileSync(committed, 'utf8')).toBe(users)
  })
})

describe('the other agents', () => {
  test('Cursor: flat entries with version 1; a new file goes again on uninstall', () => {
    const where = place()
    const file = join(where.home, '.cursor', 'hooks.json')
    run(where, 'cursor')
    const config = JSON.parse(readFileSync(file, 'utf8'))
    expect(config.version).toBe(1)
    expect(config.hooks.preToolUse).toEqual([{ command: `${SELF} fire --format cursor`, timeout: 600 }])
    expect(config.hooks.beforeShellExecution).toBeUndefined()
    run(where, 'cursor', true)
    expect(existsSync(file)).toBe(false)
  })

  test('Gemini CLI: groups with a millisecond timeout; comments and hooks.disabled stay', () => {
    const where = place()
    const file = join(where.project, '.gemini', 'settings.json')
    const original = put(file, '{\n  // my settings\n  "tools": { "enableHooks": true },\n  "hooks": { "disabled": ["old-hook"] }\n}\n')
    expect(run(where, 'gemini', false, 'project').exitCode).toBe(0)
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('// my settings')
    expect(text).toContain('"disabled": ["old-hook"]')
    // The user's hooks object is on one line: hookrun's entries follow it there, compactly.
    expect(text).toContain(
      `"hooks": { "disabled": ["old-hook"], "Notification": [{"hooks":[{"type":"command","name":"hookrun","command":"${PORTABLE} fire --format gemini","timeout":600000}]}]`,
    )
    expect(text).not.toContain('"AfterModel"')
    run(where, 'gemini', true, 'project')
    expect(readFileSync(file, 'utf8')).toBe(original)
  })

  test('Codex: hooks.json in CODEX_HOME', () => {
    const where = place()
    const codexHome = join(where.home, 'codex-home')
    installAgents({ agents: ['codex'], scope: 'user', cwd: where.project, env: { ...where.env, CODEX_HOME: codexHome }, self: SELF }, false)
    const config = JSON.parse(readFileSync(join(codexHome, 'hooks.json'), 'utf8'))
    expect(config.hooks.PreToolUse).toEqual([{ hooks: [{ type: 'command', command: `${SELF} fire --format codex` }] }])
  })

  test('Copilot: a file of its own, each entry naming its event; other files in the folder untouched', () => {
    const where = place()
    const mine = put(
      join(where.project, '.github', 'hooks', 'mine.json'),
      '{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./check.sh"}]}}',
    )
    run(where, 'copilot', false, 'project')
    const config = JSON.parse(readFileSync(join(where.project, '.github', 'hooks', 'hookrun.json'), 'utf8'))
    expect(config.hooks.preToolUse).toEqual([{ type: 'command', bash: `${PORTABLE} fire preToolUse --format copilot`, timeoutSec: 600 }])
    expect(config.hooks.agentStop[0].bash).toBe(`${PORTABLE} fire agentStop --format copilot`)
    run(where, 'copilot', true, 'project')
    expect(existsSync(join(where.project, '.github', 'hooks', 'hookrun.json'))).toBe(false)
    expect(readFileSync(join(where.project, '.github', 'hooks', 'mine.json'), 'utf8')).toBe(mine)
  })

  test('an unknown agent is a usage error', () => {
    expect(() => installAgents({ agents: ['vim'], scope: 'user', cwd: '/', env: {} }, false)).toThrow(
      /--agent vim is not known; use one of: claude, cursor, gemini, codex, copilot/,
    )
  })
})

describe('the router command', () => {
  test('is recognised for its agent only, wherever hookrun lives', () => {
    expect(isRouterCommand('/a b/hookrun fire --format claude', 'claude')).toBe(true)
    expect(isRouterCommand("'/usr/bin/node' /x/dist/hookrun.mjs fire --format cursor", 'cursor')).toBe(true)
    expect(isRouterCommand('/x/hookrun fire preToolUse --format copilot', 'copilot')).toBe(true)
    expect(isRouterCommand('/x/hookrun fire --format claude', 'codex')).toBe(false)
    expect(isRouterCommand('./my-guard.sh --format claude', 'claude')).toBe(false)
  })
  test('is the binary itself when compiled, else the runtime and the script; quoted only where needed', () => {
    expect(selfCommand(['bun', '/$bunfs/root/hookrun'], '/usr/local/bin/hookrun')).toEqual(['/usr/local/bin/hookrun'])
    expect(selfCommand(['/usr/bin/node', '/opt/hookrun/dist/hookrun.mjs'], '/usr/bin/node')).toEqual([
      '/usr/bin/node',
      '/opt/hookrun/dist/hookrun.mjs',
    ])
    expect(shellWords(['/usr/bin/node', "/my tools/it's/hookrun.mjs"])).toBe(`/usr/bin/node '/my tools/it'\\''s/hookrun.mjs'`)
  })
})

describe('uninstall removes only files install created', () => {
  test('a file the user had, even an empty one, stays; one install created goes', () => {
    const where = place()
    const had = join(where.home, '.codex', 'hooks.json')
    put(had, '{}\n')
    run(where, 'codex')
    expect(readFileSync(had, 'utf8')).not.toBe('{}\n')
    run(where, 'codex', true)
    expect(existsSync(had)).toBe(true)
    expect(readFileSync(had, 'utf8')).toBe('{}\n')

    const created = join(where.home, '.cursor', 'hooks.json')
    run(where, 'cursor')
    expect(existsSync(created)).toBe(true)
    run(where, 'cursor', true)
    expect(existsSync(created)).toBe(false)
  })
})

describe('an agent file with a comment the agent would not read', () => {
  test("is left untouched, with the place and what is wrong in words, not the parser's token", async () => {
    const { readAgentFile } = await import('../../src/install/import.ts')
    expect(() => readAgentFile('claude', 'f', '{\n  // mine\n  "model": "x"\n}', 'user')).toThrow(
      'is not valid JSON (line 2, column 3: JSON allows no comments)',
    )
  })
})

describe('uninstall leaves the project as install found it', () => {
  test('the folders install made for a file it created go with it while empty; a folder holding something else stays', async () => {
    const { existsSync: exists, readdirSync: list, writeFileSync: put } = await import('node:fs')
    const dirs: string[] = []
    const { project, env } = homeAndProject(dirs)
    try {
      for (const agent of ['claude', 'copilot', 'kiro'] as const)
        installAgents({ agents: [agent], scope: 'project', cwd: project, env }, false)
      put(join(project, '.github', 'CODEOWNERS'), '* @me\n')
      for (const agent of ['claude', 'copilot', 'kiro'] as const) {
        const removed = installAgents({ agents: [agent], scope: 'project', cwd: project, env }, true)
        if (agent === 'kiro')
          expect(removed.output).toContain(`(and the empty ${join(project, '.kiro', 'hooks')}, ${join(project, '.kiro')} install made)`)
      }
      expect(exists(join(project, '.claude'))).toBe(false)
      expect(exists(join(project, '.kiro'))).toBe(false)
      // .github held a file of the user's: it stays, only the hooks folder install made goes.
      expect(list(join(project, '.github'))).toEqual(['CODEOWNERS'])
    } finally {
      for (const dir of dirs) removeProject(dir)
    }
  })
})
