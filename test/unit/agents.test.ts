import { describe, expect, test } from 'vitest'
import { agentRows, formatAgents, honouredFields } from '../../src/commands/agents.ts'
import { DIALECTS } from '../../src/agents/registry.ts'
import { resolveDialect } from '../../src/dialect.ts'
import { namesOf } from '../../src/event/events.ts'
import { AGENTS } from '../../src/install/agents.ts'
import { folderAgent } from '../../src/install/hook-folder.ts'

/** `hookrun agents`: the matrix comes from the dialect, alias and install tables. */
const dialect = (name: string) => resolveDialect(name, {})!

describe('the capability matrix', () => {
  test('one row per dialect, with every event the alias table gives it and the install target', () => {
    const rows = agentRows()
    expect(rows.map((row) => row.agent)).toEqual(DIALECTS.map((entry) => entry.name))
    for (const row of rows) {
      expect(row.events.map((event) => event.name)).toEqual([...namesOf(DIALECTS.find((entry) => entry.name === row.agent)!.source)])
      // Cline's hooks are files in a folder (src/install/hook-folder.ts); OpenCode gets hookrun's plugin, which fires every one of its events.
      const target = AGENTS.find((agent) => agent.name === row.agent) ?? folderAgent(row.agent)
      expect(row.installs?.events).toEqual(target?.events ?? row.events.map((event) => event.name))
    }
  })

  test("the OpenCode row: hookrun's plugin files, Kilo Code runs the same plugin, an ask is never honoured", () => {
    const opencode = agentRows().find((row) => row.agent === 'opencode')!
    expect(opencode.config).toEqual({ user: '~/.config/opencode/plugins/hookrun.js', project: '.opencode/plugins/hookrun.js' })
    expect(opencode.alsoAnswers).toMatch(/Kilo Code.*\.kilo\/plugins/)
    for (const event of opencode.events) expect(event.honours).not.toContain('ask')
    expect(opencode.events.find((event) => event.name === 'tool.execute.before')!.honours).toEqual([
      'block',
      'updatedInput',
      'additionalContext',
      'systemMessage',
    ])
  })

  test('honoured fields are what the dialect sends: exit-code agents honour little, Claude Code much', () => {
    expect(honouredFields(dialect('kiro'), 'preToolUse')).toEqual(['block'])
    expect(honouredFields(dialect('kiro'), 'agentSpawn')).toEqual(['additionalContext'])
    expect(honouredFields(dialect('windsurf'), 'pre_run_command')).toEqual(['block', 'systemMessage'])
    expect(honouredFields(dialect('windsurf'), 'post_write_code')).toEqual(['systemMessage'])
    expect(honouredFields(dialect('claude'), 'PreToolUse')).toEqual([
      'block',
      'ask',
      'allow',
      'updatedInput',
      'additionalContext',
      'continue',
      'systemMessage',
      'suppressOutput',
    ])
    // Codex refuses a bare allow and an ask; its rewrite goes with an allow.
    expect(honouredFields(dialect('codex'), 'PreToolUse')).toEqual(['block', 'updatedInput', 'additionalContext', 'systemMessage'])
    expect(honouredFields(dialect('crush'), 'PreToolUse')).toEqual(['block', 'allow', 'updatedInput', 'additionalContext', 'continue'])
  })

  test('a field the agent was seen to ignore is not honoured, and the matrix says it is ignored (issue 27 §4.1)', () => {
    expect(honouredFields(dialect('qwen'), 'PreToolUse')).not.toContain('updatedInput')
    expect(honouredFields(dialect('qwen'), 'PermissionRequest')).toContain('updatedInput')
    expect(honouredFields(dialect('qwen'), 'SessionStart')).not.toContain('systemMessage')
    const qwen = agentRows().find((row) => row.agent === 'qwen')!
    expect(qwen.events.find((event) => event.name === 'PreToolUse')?.ignores).toEqual(['updatedInput'])
    expect(formatAgents(false)).toMatch(
      /\n {2}PreToolUse +tool:pre_execute +block, ask, allow, additionalContext, continue, systemMessage, suppressOutput {2}\(ignores updatedInput\)\n/,
    )
  })

  test("the Copilot row says VS Code's own agent hooks run its files and get their own answer, from VS Code's docs (issue 30 §3)", () => {
    const copilot = agentRows().find((row) => row.agent === 'copilot')!
    expect(copilot.alsoAnswers).toMatch(/VS Code's own agent hooks .*not lab-verified/)
    expect(
      agentRows()
        .filter((row) => row.alsoAnswers !== undefined)
        .map((row) => row.agent),
    ).toEqual(['opencode', 'copilot'])
    expect(formatAgents(false)).toMatch(
      /Copilot \(--format copilot\)\n {2}verified .*\n {2}with --serve {6}1\.0\.102 in the agent lab: .*crash-blocks.*\n {2}also answers {6}VS Code's own agent hooks/,
    )
  })

  test("Crush's only event is PreToolUse: no PreCompact row (issue 27 §4.4)", () => {
    expect(
      agentRows()
        .find((row) => row.agent === 'crush')!
        .events.map((event) => event.name),
    ).toEqual(['PreToolUse'])
  })

  test('the text names the files, the command and the left-out events once per reason', () => {
    const text = formatAgents(false)
    expect(text).toContain(
      'Kiro (--format kiro)\n  verified          not in the agent lab: from its docs and source\n  reads hooks from  ~/.kiro/hooks/hookrun.json (user), .kiro/hooks/hookrun.json (project)',
    )
    expect(text).toContain('hookrun installs  `hookrun fire --format windsurf` on 11 of 11 events')
    expect(text).toMatch(
      /not beforeShellExecution, afterShellExecution, beforeMCPExecution, afterMCPExecution, beforeReadFile, afterFileEdit: /,
    )
    expect(JSON.parse(formatAgents(true))).toHaveLength(DIALECTS.length)
  })
})

describe('hookrun agents says what the agent lab verified', () => {
  test('each agent the lab runs shows the pinned version and its verdicts; the others say they are known from docs and source', async () => {
    const { agentRows, formatAgents } = await import('../../src/commands/agents.ts')
    const { LAB_AGENTS } = await import('../agents/lab.ts')
    const rows = agentRows()
    for (const [agent, pinned] of Object.entries(LAB_AGENTS)) {
      const row = rows.find((one) => one.agent === agent)
      // An agent the lab pins but has no results for yet has no verified row: the lab must have run it.
      if (row?.verified === undefined) continue
      expect(row.verified).toMatchObject({ package: pinned.package, version: pinned.version })
      expect(Object.keys(row.verified.scenarios).length).toBeGreaterThan(5)
    }
    expect(rows.filter((row) => row.verified !== undefined).map((row) => row.agent)).toEqual(
      expect.arrayContaining(['claude', 'codex', 'copilot', 'gemini', 'qwen']),
    )
    expect(rows.find((row) => row.agent === 'windsurf')?.verified).toBeUndefined()
    const text = formatAgents(false)
    expect(text).toContain('verified          @anthropic-ai/claude-code 2.1.332 in the agent lab: ')
    expect(text).toContain('verified          not in the agent lab: from its docs and source')
  })

  test("the Claude Code row names every other agent that runs its entries, and the Agent SDK's in-process hooks with the lab's verdicts (issue 30 §5)", () => {
    const claude = agentRows().find((row) => row.agent === 'claude')!
    expect(claude.alsoRunBy?.map((caller) => caller.split(' (')[0])).toEqual([
      'Cursor',
      'Grok Build',
      'VS Code',
      'Copilot CLI',
      'Devin CLI',
      'Claude Agent SDK apps',
    ])
    expect(claude.inProcess?.how).toContain('hookrunHooks()')
    expect(claude.inProcess?.verified).toMatchObject({ package: '@anthropic-ai/claude-agent-sdk', version: '0.3.332' })
    expect(claude.inProcess?.verified?.scenarios['deny-shell']).toBe('honoured')
    expect(formatAgents(false)).toContain('  also run by       VS Code (chat.useClaudeHooks on, off by default)')
    expect(agentRows().find((row) => row.agent === 'cursor')?.inProcess).toBeUndefined()
  })
})
