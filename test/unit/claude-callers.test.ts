/**
 * Which agent runs hookrun's Claude Code entry (src/install/callers.ts): Cursor, VS Code,
 * Devin CLI and Agent SDK apps all run `.claude/settings*.json`, each told by what it sends.
 */
import { describe, expect, test } from 'vitest'
import { answeredByCaller, CALLERS as CLAUDE_CALLERS, entryCaller as claudeCaller } from '../../src/install/callers.ts'
import { homeAndProject, makeDecision, writeFiles } from '../helpers.ts'
import { afterEach } from 'vitest'
import { rmSync } from 'node:fs'
import { spawn } from 'node:child_process'
import type { Decision } from '../../src/core/protocol.ts'
import { DIALECTS } from '../../src/agents/registry.ts'
import { mayBeAnsweredByCaller } from '../../src/dialect.ts'

const dirs: string[] = []
const after: Array<() => void> = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  for (const undo of after.splice(0)) undo()
})

const CLAUDE_PAYLOAD = {
  session_id: 's',
  transcript_path: '/t',
  cwd: '/p',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: {},
}
const CLAUDE_ENV = { CLAUDE_PROJECT_DIR: '/p', CLAUDE_CODE_ENTRYPOINT: 'cli' }

describe('claudeCaller', () => {
  test("Claude Code's own payload and environment: no other caller", () => {
    expect(claudeCaller(CLAUDE_PAYLOAD, CLAUDE_ENV)).toBeUndefined()
  })

  test('Cursor: cursor_version or conversation_id in the payload (not the CURSOR_VERSION variable Claude Code may inherit)', () => {
    expect(claudeCaller({ hook_event_name: 'preToolUse', cursor_version: '2.1' }, {})?.name).toBe('cursor')
    expect(claudeCaller({ hook_event_name: 'preToolUse', conversation_id: 'c' }, {})?.name).toBe('cursor')
    expect(claudeCaller(CLAUDE_PAYLOAD, { ...CLAUDE_ENV, CURSOR_VERSION: '2.1' })).toBeUndefined()
  })

  test('VS Code: camelCase hookEventName and sessionId, no hook_event_name', () => {
    const vscode = {
      timestamp: '2026-11-25T09:00:00Z',
      cwd: '/p',
      sessionId: 's',
      hookEventName: 'PreToolUse',
      tool_name: 'runTerminalCommand',
    }
    expect(claudeCaller(vscode, {})?.name).toBe('vscode')
  })

  test('Copilot CLI: COPILOT_CLI=1 with its own payload (an ISO timestamp, no transcript_path)', () => {
    const copilot = { hook_event_name: 'PreToolUse', session_id: 's', timestamp: '2026-11-25T09:00:00.000Z', cwd: '/p', tool_name: 'Bash' }
    const env = { CLAUDE_PROJECT_DIR: '/p', COPILOT_PROJECT_DIR: '/p', COPILOT_CLI: '1' }
    expect(claudeCaller(copilot, env)?.name).toBe('copilot')
    // Claude Code started from a Copilot shell inherits COPILOT_CLI, but its payload is its own.
    expect(claudeCaller(CLAUDE_PAYLOAD, { ...CLAUDE_ENV, COPILOT_CLI: '1' })).toBeUndefined()
    expect(claudeCaller(copilot, CLAUDE_ENV)).toBeUndefined()
  })

  test('Devin CLI: DEVIN_PROJECT_DIR without CLAUDE_PROJECT_DIR', () => {
    expect(claudeCaller({ ...CLAUDE_PAYLOAD, tool_name: 'exec' }, { DEVIN_PROJECT_DIR: '/p' })?.name).toBe('devin')
    // Claude Code started from a Devin shell: Claude Code's own variable wins.
    expect(claudeCaller(CLAUDE_PAYLOAD, { ...CLAUDE_ENV, DEVIN_PROJECT_DIR: '/p' })).toBeUndefined()
  })

  test('Agent SDK apps: CLAUDE_AGENT_SDK_VERSION, or an sdk-* CLAUDE_CODE_ENTRYPOINT', () => {
    expect(claudeCaller(CLAUDE_PAYLOAD, { ...CLAUDE_ENV, CLAUDE_AGENT_SDK_VERSION: '0.3.331' })?.name).toBe('agent-sdk')
    expect(claudeCaller(CLAUDE_PAYLOAD, { CLAUDE_PROJECT_DIR: '/p', CLAUDE_CODE_ENTRYPOINT: 'sdk-py' })?.name).toBe('agent-sdk')
  })

  test('every caller names its source and when it runs the entries', () => {
    for (const caller of CLAUDE_CALLERS) {
      expect(caller.source).toMatch(/\./)
      expect(caller.when).not.toBe('')
    }
  })
})

describe('answeredByCaller', () => {
  test("VS Code with hookrun's Copilot entry for the event: that one answers", () => {
    const { project, env } = homeAndProject(dirs)
    const vscode = { sessionId: 's', hookEventName: 'PreToolUse' }
    expect(answeredByCaller('PreToolUse', { project, env }, vscode)).toBeUndefined()
    writeFiles(project, {
      '.github/hooks/hookrun.json': {
        version: 1,
        hooks: { preToolUse: [{ type: 'command', bash: 'hookrun fire preToolUse --format copilot' }] },
      },
    })
    expect(answeredByCaller('PreToolUse', { project, env }, vscode)?.answer).toBe(`${project}/.github/hooks/hookrun.json`)
    // An event hookrun's Copilot entries do not answer: the Claude Code entry runs the hooks.
    expect(answeredByCaller('Stop', { project, env }, { ...vscode, hookEventName: 'Stop' })).toBeUndefined()
  })

  test("Copilot CLI with hookrun's Copilot entry for the event: that one answers, the Claude Code entry stands aside", () => {
    const { project, env } = homeAndProject(dirs)
    const copilot = { hook_event_name: 'PreToolUse', session_id: 's', timestamp: '2026-11-25T09:00:00.000Z', cwd: project }
    const copilotEnv = { ...env, CLAUDE_PROJECT_DIR: project, COPILOT_CLI: '1' }
    expect(answeredByCaller('PreToolUse', { project, env: copilotEnv }, copilot)).toBeUndefined()
    writeFiles(project, {
      '.github/hooks/hookrun.json': {
        version: 1,
        hooks: { preToolUse: [{ type: 'command', bash: 'hookrun fire preToolUse --format copilot' }] },
      },
    })
    const answered = answeredByCaller('PreToolUse', { project, env: copilotEnv }, copilot)
    expect([answered?.caller.name, answered?.answer]).toEqual(['copilot', `${project}/.github/hooks/hookrun.json`])
    // Claude Code itself in the same project runs its own entry.
    expect(answeredByCaller('PreToolUse', { project, env: { ...env, CLAUDE_PROJECT_DIR: project } }, CLAUDE_PAYLOAD)).toBeUndefined()
  })

  test("a repository's look-alike of hookrun's Copilot entry does not make the Claude Code entry stand aside", () => {
    const { project, env } = homeAndProject(dirs)
    const copilot = { hook_event_name: 'PreToolUse', session_id: 's', timestamp: '2026-11-25T09:00:00.000Z', cwd: project }
    const copilotEnv = { ...env, CLAUDE_PROJECT_DIR: project, COPILOT_CLI: '1' }
    const planted = (handler: object) =>
      writeFiles(project, { '.github/hooks/hookrun.json': { version: 1, hooks: { preToolUse: [{ type: 'command', ...handler }] } } })
    // Another program with hookrun's tail: it runs no hook, so the user's gate must still run here.
    planted({ bash: '/bin/true fire preToolUse --format copilot' })
    expect(answeredByCaller('PreToolUse', { project, env: copilotEnv }, copilot)).toBeUndefined()
    // hookrun itself, told to read no config.
    planted({ bash: 'hookrun fire preToolUse --format copilot', env: { HOOKRUN_CONFIG: '/dev/null' } })
    expect(answeredByCaller('PreToolUse', { project, env: copilotEnv }, copilot)).toBeUndefined()
    planted({ bash: 'hookrun fire preToolUse --format copilot', cwd: '/' })
    expect(answeredByCaller('PreToolUse', { project, env: copilotEnv }, copilot)).toBeUndefined()
    // hookrun itself under preToolUse, firing another event (whose hooks let every call through).
    planted({ bash: 'hookrun fire sessionStart --format copilot' })
    expect(answeredByCaller('PreToolUse', { project, env: copilotEnv }, copilot)).toBeUndefined()
    // The entry install writes.
    planted({ bash: 'hookrun fire preToolUse --format copilot', timeoutSec: 600 })
    expect(answeredByCaller('PreToolUse', { project, env: copilotEnv }, copilot)?.caller.name).toBe('copilot')
  })

  test('Cursor: a planted look-alike in .cursor/hooks.json does not make the Claude Code entry stand aside', () => {
    const { project, env } = homeAndProject(dirs)
    const cursor = { hook_event_name: 'preToolUse', cursor_version: '2.1', conversation_id: 'c', workspace_roots: [project] }
    writeFiles(project, { '.cursor/hooks.json': { version: 1, hooks: { preToolUse: [{ command: '/bin/true fire --format cursor' }] } } })
    expect(answeredByCaller('preToolUse', { project, env }, cursor)).toBeUndefined()
    writeFiles(project, {
      '.cursor/hooks.json': { version: 1, hooks: { preToolUse: [{ command: 'hookrun fire sessionStart --format cursor' }] } },
    })
    expect(answeredByCaller('preToolUse', { project, env }, cursor)).toBeUndefined()
    writeFiles(project, { '.cursor/hooks.json': { version: 1, hooks: { preToolUse: [{ command: 'hookrun fire --format cursor' }] } } })
    expect(answeredByCaller('preToolUse', { project, env }, cursor)?.caller.name).toBe('cursor')
  })

  test('an Agent SDK app: only for the events its hookrunHooks() names, in the Claude Code it started', () => {
    const { project, env } = homeAndProject(dirs)
    // This test process is the app; a child of it stands for the Claude Code the SDK starts.
    const claude = spawn('sleep', ['30'])
    try {
      const sdk = {
        ...env,
        CLAUDE_AGENT_SDK_VERSION: '0.3.331',
        HOOKRUN_AGENT_SDK_HOOKS: `${process.pid}:PreToolUse,Stop`,
        CLAUDE_PID: String(claude.pid),
      }
      expect(answeredByCaller('PreToolUse', { project, env: sdk }, CLAUDE_PAYLOAD)?.caller.name).toBe('agent-sdk')
      expect(answeredByCaller('PostToolUse', { project, env: sdk }, CLAUDE_PAYLOAD)).toBeUndefined()
      // A Claude Code started inside that one (`claude -p` from a Bash tool) inherits the
      // variables, but the app answers none of its events: its entries run the hooks.
      const nested = { ...sdk, CLAUDE_PID: String(process.pid) }
      expect(answeredByCaller('PreToolUse', { project, env: nested }, CLAUDE_PAYLOAD)).toBeUndefined()
      // Without the app's id (an older hookrun's variable) or Claude Code's, nothing is told: the hooks run.
      expect(
        answeredByCaller('PreToolUse', { project, env: { ...sdk, HOOKRUN_AGENT_SDK_HOOKS: 'PreToolUse' } }, CLAUDE_PAYLOAD),
      ).toBeUndefined()
      expect(answeredByCaller('PreToolUse', { project, env: { ...sdk, CLAUDE_PID: undefined } }, CLAUDE_PAYLOAD)).toBeUndefined()
      // The variable alone (no SDK started this Claude Code) changes nothing.
      const plain = { ...env, HOOKRUN_AGENT_SDK_HOOKS: sdk.HOOKRUN_AGENT_SDK_HOOKS, CLAUDE_PID: sdk.CLAUDE_PID }
      expect(answeredByCaller('PreToolUse', { project, env: plain }, CLAUDE_PAYLOAD)).toBeUndefined()
    } finally {
      claude.kill()
    }
  })

  test("the fire's look before install loads: an SDK app's listed answer is decided there, and never hides an answer", () => {
    const { project, env } = homeAndProject(dirs)
    const claude = DIALECTS.find((dialect) => dialect.name === 'claude')!
    // `claude -p` runs with CLAUDE_CODE_ENTRYPOINT=sdk-cli: an SDK app by its variables, with no
    // hookrunHooks() answering, so the fire goes on without loading install's readers.
    const printMode = { ...env, CLAUDE_PROJECT_DIR: project, CLAUDE_CODE_ENTRYPOINT: 'sdk-cli' }
    expect(mayBeAnsweredByCaller(claude, 'PreToolUse', CLAUDE_PAYLOAD, printMode)).toBe(false)
    const app = spawn('sleep', ['30'])
    after.push(() => app.kill())
    const listed = { ...printMode, HOOKRUN_AGENT_SDK_HOOKS: `${process.pid}:PreToolUse`, CLAUDE_PID: String(app.pid) }
    expect(mayBeAnsweredByCaller(claude, 'PreToolUse', CLAUDE_PAYLOAD, listed)).toBe(true)
    expect(mayBeAnsweredByCaller(claude, 'Stop', CLAUDE_PAYLOAD, listed)).toBe(false)
    expect(mayBeAnsweredByCaller(claude, 'PreToolUse', CLAUDE_PAYLOAD, { ...listed, CLAUDE_PID: String(process.pid) })).toBe(false)
    // Wherever the full look finds another answer, the quick one said to look.
    writeFiles(project, {
      '.github/hooks/hookrun.json': {
        version: 1,
        hooks: { preToolUse: [{ type: 'command', bash: 'hookrun fire preToolUse --format copilot' }] },
      },
    })
    const copilot = { hook_event_name: 'PreToolUse', session_id: 's', timestamp: '2026-11-25T09:00:00.000Z', cwd: project }
    const cases: Array<[string, Record<string, unknown>, Record<string, string>]> = [
      ['PreToolUse', CLAUDE_PAYLOAD, printMode],
      ['PreToolUse', CLAUDE_PAYLOAD, listed],
      ['Stop', CLAUDE_PAYLOAD, listed],
      ['PreToolUse', copilot, { ...env, CLAUDE_PROJECT_DIR: project, COPILOT_CLI: '1' }],
      ['PreToolUse', { sessionId: 's', hookEventName: 'PreToolUse' }, env],
    ]
    for (const [event, payload, where] of cases)
      if (answeredByCaller(event, { project, env: where }, payload) !== undefined)
        expect(mayBeAnsweredByCaller(claude, event, payload, where), `${event} ${JSON.stringify(payload)}`).toBe(true)
  })

  test('Devin CLI never: hookrun writes no Devin entries, so the Claude Code entries are its only ones', () => {
    const { project, env } = homeAndProject(dirs)
    expect(answeredByCaller('PreToolUse', { project, env: { ...env, DEVIN_PROJECT_DIR: project } }, CLAUDE_PAYLOAD)).toBeUndefined()
  })
})

describe('doctor', () => {
  test("lists every agent that runs hookrun's Claude Code entries, once there are any", async () => {
    const { runDoctor } = await import('../../src/install/doctor.ts')
    const { project, env } = homeAndProject(dirs)
    const callers = () =>
      runDoctor({ cwd: project, env, version: '0.0.0' }).lines.filter((line) => line.what.startsWith("Claude Code's entries in "))
    expect(callers()).toEqual([])
    writeFiles(project, {
      '.claude/settings.local.json': { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'hookrun fire --format claude' }] }] } },
    })
    const [line, ...more] = callers()
    expect(more).toEqual([])
    expect(line?.status).toBe('ok')
    expect(line?.what).toContain(
      `${project}/.claude/settings.local.json also run in Cursor (third-party hooks setting on), Grok Build (a project's .claude/settings.json and .cursor/hooks.json, in a trusted folder, beside .grok/hooks), VS Code (chat.useClaudeHooks on, off by default), Copilot CLI (always, in a trusted folder, beside .github/hooks), Devin CLI (always, beside .devin/hooks.v1.json), Claude Agent SDK apps (unless settingSources leaves the file out; all load by default)`,
    )
  })
})

describe("Copilot CLI's part of Claude Code's answer", () => {
  const copilot = { hook_event_name: 'SessionStart', session_id: 's', timestamp: '2026-11-25T09:00:00.000Z', cwd: '/p' }
  const decision = (fields: Partial<Decision>): Decision => makeDecision({ event: 'session:start', ...fields })

  test('context goes to a top-level additionalContext, the only one Copilot reads', async () => {
    const { renderFor } = await import('../../src/dialect.ts')
    const { DIALECTS } = await import('../../src/agents/registry.ts')
    const claude = DIALECTS.find((dialect) => dialect.name === 'claude')!
    const rendered = renderFor(claude, decision({ additionalContext: ['a', 'b'] }), copilot, 'SessionStart')
    expect(JSON.parse(rendered.stdout)).toEqual({ additionalContext: 'a\n\nb' })
    // Claude Code's own payload keeps Claude Code's answer.
    const own = renderFor(
      claude,
      decision({ additionalContext: ['a'] }),
      { ...copilot, timestamp: undefined, transcript_path: '/t' },
      'SessionStart',
    )
    expect(JSON.parse(own.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'a' } })
  })

  test("a deny stays Claude Code's, which Copilot honours; warnings name Copilot CLI", async () => {
    const { renderFor } = await import('../../src/dialect.ts')
    const { DIALECTS } = await import('../../src/agents/registry.ts')
    const claude = DIALECTS.find((dialect) => dialect.name === 'claude')!
    const pre = { ...copilot, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }
    const denied = renderFor(
      claude,
      decision({ event: 'tool:pre_execute:bash', decision: 'deny', blocked: true, reason: 'no', decidedBy: 'gate' }),
      pre,
      'PreToolUse',
    )
    expect(JSON.parse(denied.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'no' })
    const stop = renderFor(claude, decision({ event: 'agent:stop', updatedPrompt: 'x' }), { ...copilot, hook_event_name: 'Stop' }, 'Stop')
    expect(stop.warnings.join('\n')).toContain('Copilot CLI cannot apply updatedPrompt')
    expect(stop.warnings.join('\n')).not.toContain('Claude Code')
  })
})
