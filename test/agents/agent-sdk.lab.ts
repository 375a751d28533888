/**
 * The Claude Agent SDK 0.3.332 in the lab: a small app (agent-sdk-app.ts, run with Bun) calls
 * `query()` with `hookrunHooks()` from this build's library (dist/index.mjs); the SDK runs the
 * Claude Code binary it bundles against the fake Anthropic model. Each scenario observes what
 * really happened: marker files, the next model request, the SDK's messages. Then the two ways in
 * together: the SDK loads `.claude/settings*.json` unless `settingSources` leaves them out, so a
 * project with `hookrun install --agent claude` and an app with `hookrunHooks()` must run each
 * hook once, not twice.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import { type AgentRun, installAgent, labResults, type LabRun, labRun, labVersion, runAgent, type Turn } from './lab.ts'
import { bash, claudeEnv, installClaude, loadedSkillText, skillText, writeFileIn, writeHooks } from './claude-session.ts'
import { conversationRequests, requestText, startAnthropicModel, toolResultsOf, toolResultText } from './models/anthropic.ts'
import { AGENT_SDK_EVENTS } from '../../src/library/agent-sdk.ts'
import { expectMcpGateHeld, labMcpServer, mcpHooks } from './mcp.ts'

const results = labResults('agent-sdk')
const runs: LabRun[] = []
const DONE = { text: 'All done.' }
const BUN = join(ROOT, 'node_modules', '.bin', 'bun')

function freshRun(): LabRun {
  const run = labRun()
  runs.push(run)
  return run
}

afterAll(() => {
  if (process.env.HOOKRUN_LAB_KEEP) return
  for (const run of runs) run.remove()
})

interface AppRun {
  readonly agent: AgentRun
  /** Every SDK message the app printed. */
  readonly messages: Array<Record<string, unknown>>
  /** The text of each tool result the model got, in order. */
  readonly toolResults: Array<{ text: string; isError: boolean }>
  readonly requests: ReturnType<typeof conversationRequests>
}

/** Runs the app once in the project against the fake model; `app` is its LAB_SDK_APP beyond the paths. */
async function runApp(
  run: LabRun,
  scenario: string,
  turns: readonly Turn[],
  app: Record<string, unknown> = {},
  cwd = run.project,
): Promise<AppRun> {
  const sdk = installAgent('agent-sdk')
  const model = await startAnthropicModel(turns)
  try {
    const config = { sdk, hookrun: join(ROOT, 'dist', 'index.mjs'), prompt: 'do the lab step', ...app }
    const agent = await runAgent(BUN, [join(ROOT, 'test', 'agents', 'agent-sdk-app.ts')], {
      cwd,
      env: claudeEnv(run, model.url, { LAB_SDK_APP: JSON.stringify(config) }),
      timeoutMs: 120_000,
    })
    console.log(`agent-sdk ${scenario}: ${Math.round(agent.ms)} ms`)
    const messages = agent.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(
      messages.find((message) => message.type === 'result'),
      `no result message; stderr: ${agent.stderr}`,
    ).toBeDefined()
    expect(agent.status, agent.stderr).toBe(0)
    const requests = conversationRequests(model)
    const last = requests.at(-1)
    const toolResults =
      last === undefined ? [] : toolResultsOf(last).map((block) => ({ text: toolResultText(block), isError: block.is_error === true }))
    return { agent, messages, toolResults, requests }
  } finally {
    await model.close()
  }
}

const FORCE_PUSH_REASON = 'force-pushing rewrites shared history'
/** skill-shell's checks: the denied command did not run, the allowed one did, the model got the text with both outcomes in it. */
function expectSkillShellGated(run: LabRun, app: AppRun): string {
  expect(existsSync(join(run.project, 'SKILL_DENIED_RAN'))).toBe(false)
  expect(existsSync(join(run.project, 'SKILL_ALLOWED_RAN'))).toBe(true)
  const text = loadedSkillText(app.requests.at(-1))
  expect(text, 'the model never got the skill').toBeDefined()
  expect(text).toContain('allowed-output-7731')
  expect(text).toContain(`[not run: blocked by hook: ${FORCE_PUSH_REASON}`)
  return text!
}

/** No filesystem settings: whatever the app's hooks answer comes from hookrunHooks() alone. */
const ISOLATED = { settingSources: [] }

describe(`Claude Agent SDK ${labVersion('agent-sdk')}`, () => {
  test("hookrun's list of the SDK's hook events is the SDK's own", async () => {
    const sdk = (await import(installAgent('agent-sdk'))) as { HOOK_EVENTS: readonly string[] }
    expect([...AGENT_SDK_EVENTS]).toEqual([...sdk.HOOK_EVENTS])
  })

  test('deny-shell: the dangerous-commands gate keeps a force-push from running; the model gets the reason', async () => {
    const run = freshRun()
    expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)
    const app = await runApp(run, 'deny-shell', [bash('touch DENIED_RAN && git push --force origin main'), DONE], ISOLATED)
    expect(existsSync(join(run.project, 'DENIED_RAN'))).toBe(false)
    const [result] = app.toolResults
    expect(result?.text).toContain(FORCE_PUSH_REASON)
    expect(result?.isError).toBe(true)
    results.record(
      'deny-shell',
      'honoured',
      `the command did not run; the model's next tool_result (is_error): ${JSON.stringify(result?.text)}`,
    )
  })

  test('allow-shell: an allowed command runs through the same gate', async () => {
    const run = freshRun()
    expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)
    const app = await runApp(run, 'allow-shell', [bash('touch ALLOWED_RAN && echo ran-ok'), DONE], ISOLATED)
    expect(existsSync(join(run.project, 'ALLOWED_RAN'))).toBe(true)
    expect(app.toolResults[0]).toEqual({ text: 'ran-ok', isError: false })
    results.record('allow-shell', 'honoured', 'the command ran (marker made) and its output reached the model')
  })

  test("rewrite-input: a PreToolUse hook's allow + updatedInput changes the command that runs", async () => {
    const run = freshRun()
    writeHooks(run, [
      {
        name: 'rewrite',
        event: 'tool:pre_execute:bash',
        script: `case $HOOKRUN_BASH_COMMAND in *ORIGINAL_RAN*) echo '{"decision":"allow","updatedInput":{"command":"touch REWRITTEN_RAN","description":"rewritten"}}' ;; esac`,
      },
    ])
    await runApp(run, 'rewrite-input', [bash('touch ORIGINAL_RAN'), DONE], ISOLATED)
    expect(existsSync(join(run.project, 'ORIGINAL_RAN'))).toBe(false)
    expect(existsSync(join(run.project, 'REWRITTEN_RAN'))).toBe(true)
    results.record(
      'rewrite-input',
      'honoured',
      'allow + updatedInput returned by the PreToolUse callback: the rewritten command ran, the original did not',
    )
  })

  test('context: SessionStart, UserPromptSubmit and PostToolUse additionalContext reach the model', async () => {
    const run = freshRun()
    writeHooks(run, [
      {
        name: 'session-context',
        event: 'session:start',
        script: `touch SESSION_START_RAN; echo '{"additionalContext":"LAB-SESSION-CONTEXT-5821"}'`,
      },
      { name: 'prompt-context', event: 'user:prompt_submit', script: `echo '{"additionalContext":"LAB-PROMPT-CONTEXT-9374"}'` },
      { name: 'post-context', event: 'tool:post_execute:bash', script: `echo '{"additionalContext":"LAB-POST-CONTEXT-1166"}'` },
    ])
    // SessionStart asked for explicitly (hookrunHooks() leaves it out by default): does the SDK call it?
    const app = await runApp(run, 'context', [bash('true'), DONE], { ...ISOLATED, events: [...AGENT_SDK_EVENTS] })
    const [first, second] = app.requests
    expect(requestText(first!)).toContain('LAB-PROMPT-CONTEXT-9374')
    expect(requestText(second!)).toContain('LAB-POST-CONTEXT-1166')
    expect(app.requests.some((request) => requestText(request).includes('LAB-SESSION-CONTEXT-5821'))).toBe(false)
    const sessionStartRan = existsSync(join(run.project, 'SESSION_START_RAN'))
    // Seen with 0.3.331 and 0.3.332: the SDK calls no SessionStart callback (the settings' SessionStart entry does run: 'settings' below).
    expect(sessionStartRan).toBe(false)
    results.record(
      'context',
      'honoured',
      `UserPromptSubmit additionalContext was in the first model request, PostToolUse context in the next one; a SessionStart callback ${sessionStartRan ? 'ran' : 'was never called (its hook did not run), so hookrunHooks() leaves SessionStart to the .claude/settings entry'}`,
    )
  })

  test('crash-blocks: a gate that exits 1, or is killed, blocks the call', async () => {
    const run = freshRun()
    writeHooks(run, [
      {
        name: 'crashing-gate',
        event: 'tool:pre_execute:bash',
        script: 'case $HOOKRUN_BASH_COMMAND in *CRASH_RAN*) echo boom >&2; exit 1 ;; esac',
      },
      { name: 'killed-gate', event: 'tool:pre_execute:bash', script: 'case $HOOKRUN_BASH_COMMAND in *KILLED_RAN*) kill -9 $$ ;; esac' },
    ])
    const app = await runApp(run, 'crash-blocks', [bash('touch CRASH_RAN'), bash('touch KILLED_RAN'), DONE], ISOLATED)
    expect(existsSync(join(run.project, 'CRASH_RAN'))).toBe(false)
    expect(existsSync(join(run.project, 'KILLED_RAN'))).toBe(false)
    const [crashed, killed] = app.toolResults
    expect(crashed?.text).toMatch(/crashing-gate/)
    expect(killed?.text).toMatch(/killed-gate/)
    results.record(
      'crash-blocks',
      'honoured',
      `neither command ran; the model got: ${JSON.stringify(crashed?.text)} / ${JSON.stringify(killed?.text)}`,
    )
  })

  test('crash-blocks: hookrun failing inside the gate callback (an unreadable config) denies', async () => {
    const run = freshRun()
    expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)
    const app = await runApp(run, 'crash-blocks (hookrun fails)', [bash('touch FAILED_RAN'), DONE], {
      ...ISOLATED,
      // Only the gate: a failing UserPromptSubmit callback would (rightly) refuse the prompt itself.
      events: ['PreToolUse'],
      configFiles: [join(run.project, 'missing', 'hooks.json')],
    })
    expect(existsSync(join(run.project, 'FAILED_RAN'))).toBe(false)
    expect(app.toolResults[0]?.text).toContain('hookrun could not decide')
  })

  test('mcp-gate: one gate on mcp__labmcp__lab_wipe stops that MCP tool and lets lab_read run', async () => {
    const run = freshRun()
    writeHooks(run, (mcpHooks(run) as { hooks: { name: string }[] }).hooks)
    // The app's own MCP server, in query()'s mcpServers option as an SDK app author adds one.
    const server = labMcpServer(run)
    // The SDK defers MCP tools (the system prompt lists them for ToolSearch "select:"), so the model loads them first.
    const app = await runApp(
      run,
      'mcp-gate',
      [
        { tool: 'ToolSearch', input: { query: 'select:mcp__labmcp__lab_wipe,mcp__labmcp__lab_read', max_results: 5 } },
        { tool: 'mcp__labmcp__lab_wipe', input: {} },
        { tool: 'mcp__labmcp__lab_read', input: {} },
        DONE,
      ],
      { ...ISOLATED, mcpServers: { labmcp: { type: 'stdio', command: server.command, args: server.args } } },
    )
    const offered = app.requests.map((request) => ((request.body as { tools: { name: string }[] }).tools ?? []).map((tool) => tool.name))
    expect(offered[0]).not.toContain('mcp__labmcp__lab_wipe')
    expect(offered[1]).toEqual(expect.arrayContaining(['mcp__labmcp__lab_wipe', 'mcp__labmcp__lab_read']))
    const [, wiped, read] = app.toolResults
    expect(wiped?.isError).toBe(true)
    expectMcpGateHeld(run, ['mcp__labmcp__lab_wipe', 'mcp__labmcp__lab_read'], { wiped: wiped?.text, read: read?.text })
    results.record(
      'mcp-gate',
      'honoured',
      `MCP tools are deferred (loaded with ToolSearch select:), then called as mcp__labmcp__lab_wipe / lab_read; the PreToolUse callback ran for both; the gate stopped lab_wipe (the server never got it, the model's tool_result (is_error) was ${JSON.stringify(wiped?.text)}) and lab_read ran`,
    )
  })

  test('post-tool-output: a PostToolUse hook sees the Bash output', async () => {
    const run = freshRun()
    writeHooks(run, [{ name: 'see-output', event: 'tool:post_execute:bash', script: 'printf %s "$HOOKRUN_TOOL_OUTPUT" > post-env.txt' }])
    await runApp(run, 'post-tool-output', [bash('echo LAB-OUTPUT-4417'), DONE], ISOLATED)
    expect(readFileSync(join(run.project, 'post-env.txt'), 'utf8')).toContain('LAB-OUTPUT-4417')
    results.record('post-tool-output', 'honoured', 'the PostToolUse callback ran the hook with the Bash output in HOOKRUN_TOOL_OUTPUT')
  })

  test('timeout-blocks: a gate that sleeps past its timeout blocks the call', async () => {
    const run = freshRun()
    writeHooks(run, [{ name: 'slow-gate', event: 'tool:pre_execute:bash', timeout: 1, script: 'sleep 30' }])
    const app = await runApp(run, 'timeout-blocks', [bash('touch TIMEOUT_RAN'), DONE], ISOLATED)
    expect(existsSync(join(run.project, 'TIMEOUT_RAN'))).toBe(false)
    expect(app.toolResults[0]?.text).toMatch(/slow-gate/)
    results.record('timeout-blocks', 'honoured', `the command did not run; the model got: ${JSON.stringify(app.toolResults[0]?.text)}`)
  })

  test("untrusted-notice: a never-trusted project's gate does not run; the notice reaches the app as the hook's systemMessage", async () => {
    const run = freshRun()
    writeHooks(run, [{ name: 'gate', event: 'tool:pre_execute:bash', script: 'echo "untrusted gate ran" >&2; exit 2' }], { trust: false })
    const app = await runApp(run, 'untrusted-notice', [bash('touch UNTRUSTED_RAN'), DONE], ISOLATED)
    expect(existsSync(join(run.project, 'UNTRUSTED_RAN'))).toBe(true)
    const shown = app.messages.filter((message) => JSON.stringify(message).includes('not trusted'))
    expect(shown.length, JSON.stringify(app.messages.map((message) => [message.type, message.subtype]))).toBeGreaterThan(0)
    const where = [...new Set(shown.map((message) => `${message.type}${message.subtype ? `/${message.subtype}` : ''}`))].join(', ')
    results.record(
      'untrusted-notice',
      'honoured',
      `the gate did not run (the command ran); hookrun's notice reached the app in SDK message(s): ${where}`,
    )
  })

  test('subfolder-start: the gate holds when the app runs in a subfolder of the project', async () => {
    const run = freshRun()
    expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)
    const sub = join(run.project, 'sub')
    mkdirSync(sub)
    const app = await runApp(run, 'subfolder-start', [bash('touch SUB_RAN && git push --force origin main'), DONE], ISOLATED, sub)
    expect(existsSync(join(sub, 'SUB_RAN'))).toBe(false)
    expect(app.toolResults[0]?.text).toContain(FORCE_PUSH_REASON)
    results.record('subfolder-start', 'honoured', "the app started in project/sub: the force-push was denied with the project's gate")
  })

  test('cd-elsewhere: the gate holds in `cd OUTSIDE && …`', async () => {
    const run = freshRun()
    expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)
    const outside = join(run.home, 'outside')
    mkdirSync(outside)
    const app = await runApp(run, 'cd-elsewhere', [bash(`cd ${outside} && touch CD_RAN && git push --force origin main`), DONE], ISOLATED)
    expect(existsSync(join(outside, 'CD_RAN'))).toBe(false)
    expect(app.toolResults[0]?.text).toContain(FORCE_PUSH_REASON)
    results.record('cd-elsewhere', 'honoured', 'denied in `cd OUTSIDE && …`: nothing was made outside, the model got the reason')
  })

  test('cd-elsewhere: in a folder of additionalDirectories (where the shell stays), the next call is still denied', async () => {
    const run = freshRun()
    expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)
    const outside = join(run.home, 'outside')
    mkdirSync(outside)
    const app = await runApp(
      run,
      'cd-elsewhere (additionalDirectories)',
      [bash(`cd ${outside}`), bash('pwd'), bash('touch ADD_DIR_RAN && git push --force origin main'), DONE],
      { ...ISOLATED, additionalDirectories: [outside] },
    )
    const [, pwd, denied] = app.toolResults
    // The shell stayed outside the project (else this proves nothing).
    expect(pwd?.text).toBe(outside)
    expect(existsSync(join(outside, 'ADD_DIR_RAN'))).toBe(false)
    expect(denied?.text).toContain(FORCE_PUSH_REASON)
    results.record(
      'cd-elsewhere',
      'honoured',
      "denied in `cd OUTSIDE && …`, and in the call after `cd OUTSIDE` into a folder of additionalDirectories, where the shell stayed (pwd printed it): hookrunHooks() keeps the session's first folder as its project",
    )
  })

  test("skill-shell: a command's or skill's embedded shell command goes through hookrunHooks()' PreSkillShellCommand callback: the force-push does not run, the allowed one does", async () => {
    const run = freshRun()
    expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)
    const lines = ['!`touch SKILL_ALLOWED_RAN && echo allowed-output-7731`', '!`touch SKILL_DENIED_RAN && git push --force origin main`']
    writeFileIn(run.project, '.claude/commands/shipit.md', skillText('shipit', lines))
    writeFileIn(run.project, '.claude/skills/release/SKILL.md', skillText('release', lines))
    // The SDK loads a project's commands and skills only with 'project' among settingSources (with [] it
    // answered "no command with that name"); the project has no .claude/settings*.json, so every
    // answer comes from hookrunHooks().
    const sources = { settingSources: ['project'] }
    expect(
      existsSync(join(run.project, '.claude', 'settings.json')) || existsSync(join(run.project, '.claude', 'settings.local.json')),
    ).toBe(false)
    const typed = await runApp(run, 'skill-shell (/command)', [DONE], { ...sources, prompt: '/shipit' })
    expectSkillShellGated(run, typed)
    rmSync(join(run.project, 'SKILL_ALLOWED_RAN'))
    const loaded = await runApp(run, 'skill-shell (Skill tool)', [{ tool: 'Skill', input: { skill: 'release' } }, DONE], sources)
    expect(loaded.toolResults[0]?.text).toBe('Launching skill: release')
    const text = expectSkillShellGated(run, loaded)
    results.record(
      'skill-shell',
      'honoured',
      `a project command sent as the prompt /shipit and a project skill loaded with the Skill tool (settingSources ['project'], no settings files): the PreSkillShellCommand callback denied the force-push (no marker) and let the other command run; the model got the output and ${JSON.stringify(text.match(/\[not run: [^\]]*\]/)?.[0])}`,
    )
  })

  /** A hook that logs each Bash call it sees, to count how often hooks run per call. */
  function countingHooks(run: LabRun): string {
    const log = join(run.project, 'fired.log')
    writeHooks(run, [
      { name: 'count', event: 'tool:pre_execute:bash', script: `echo "$HOOKRUN_BASH_COMMAND" >> '${log}'` },
      { name: 'session', event: 'session:start', script: `echo "$HOOKRUN_EVENT" >> '${log}.session'` },
    ])
    return log
  }
  const firedLines = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [])

  test("settings: without settingSources the SDK runs hookrun's .claude/settings entries; with settingSources: [] it does not", async () => {
    const run = freshRun()
    const log = countingHooks(run)
    installClaude(run)
    await runApp(run, 'settings (default sources)', [bash('echo by-default'), DONE], { withoutHookrun: true })
    expect(firedLines(log)).toEqual(['echo by-default'])
    // The SDK runs the settings' SessionStart entry (it calls no SessionStart callback: see the context scenario).
    expect(firedLines(`${log}.session`)).toEqual(['session:start'])
    await runApp(run, 'settings ([])', [bash('echo isolated'), DONE], { withoutHookrun: true, settingSources: [] })
    expect(firedLines(log)).toEqual(['echo by-default'])
  })

  test("runs once: hookrunHooks() and hookrun's .claude/settings entries in one app run each hook once per call", async () => {
    const run = freshRun()
    const log = countingHooks(run)
    installClaude(run)
    const app = await runApp(run, 'runs once', [bash('echo once'), DONE])
    expect(firedLines(log)).toEqual(['echo once'])
    // SessionStart, which hookrunHooks() leaves to the settings entry, ran there once.
    expect(firedLines(`${log}.session`)).toEqual(['session:start'])
    expect(app.agent.stderr).not.toContain('warning')
  })

  test("skill-shell runs once: hookrunHooks() and hookrun's .claude/settings entries in one app run a skill's shell command's hooks once", async () => {
    const run = freshRun()
    const log = countingHooks(run)
    installClaude(run)
    writeFileIn(run.project, '.claude/commands/shipit.md', skillText('shipit', ['!`echo once-from-a-skill`']))
    const app = await runApp(run, 'skill-shell runs once', [DONE], { prompt: '/shipit' })
    expect(firedLines(log)).toEqual(['echo once-from-a-skill'])
    expect(app.agent.stderr).not.toContain('warning')
  })

  test('results', async () => {
    await results.check()
  })
})
