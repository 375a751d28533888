/**
 * Claude Code 2.1.332 in the lab: the real CLI, headless, against a fake Anthropic Messages API
 * (models/anthropic.ts), wired to this build's hookrun the way the README's quick start tells a
 * user (`hookrun init`, `hookrun install --agent claude --project`). Each scenario observes what
 * really happened: marker files, the next model request, Claude's stream-json output.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import { labResults, type LabRun, labRun, labVersion } from './lab.ts'
import {
  bash,
  type ClaudeSession,
  installClaude,
  loadedSkillText,
  runClaude,
  skillText,
  type StreamEvent,
  writeFileIn,
  writeHooks,
} from './claude-session.ts'
import { conversationRequests, requestText, toolResultsOf, toolResultText } from './models/anthropic.ts'
import { expectMcpGateHeld, labMcpServer, mcpHooks } from './mcp.ts'

const results = labResults('claude')
const runs: LabRun[] = []
const DONE = { text: 'All done.' }

function freshRun(): LabRun {
  const run = labRun()
  runs.push(run)
  return run
}

afterAll(() => {
  if (process.env.HOOKRUN_LAB_KEEP) return
  for (const run of runs) run.remove()
})

/** The text of each tool result the model got, in order (from the last conversation request, which holds them all). */
function toolResultTexts(session: ClaudeSession): { text: string; isError: boolean }[] {
  const requests = conversationRequests(session.model)
  const last = requests.at(-1)
  if (last === undefined) return []
  return toolResultsOf(last).map((block) => ({ text: toolResultText(block), isError: block.is_error === true }))
}

/** Claude ran to its end: a result line, exit 0. */
function expectCompleted(session: ClaudeSession, scenario: string): void {
  console.log(`claude ${scenario}: ${Math.round(session.agent.ms)} ms`)
  const result = session.events.find((event) => event.type === 'result')
  expect(result, `no result line; stderr: ${session.agent.stderr}`).toBeDefined()
  expect(session.agent.status, session.agent.stderr).toBe(0)
}

/** The hook events Claude reported (`--include-hook-events`), by event name. */
function hookResponses(session: ClaudeSession, event?: string): StreamEvent[] {
  return session.events.filter(
    (line) => line.type === 'system' && line.subtype === 'hook_response' && (event === undefined || line.hook_event === event),
  )
}

/** The loaded skill's or command's text as the model got it, its shell commands' output in place. */
function skillShellText(session: ClaudeSession): string {
  const text = loadedSkillText(conversationRequests(session.model).at(-1))
  expect(text, 'the model never got the skill').toBeDefined()
  return text!
}

/** skill-shell's checks, for either way in: the denied command did not run, the allowed one did, the model got both. */
function expectSkillShellGated(run: LabRun, session: ClaudeSession): string {
  expect(existsSync(join(run.project, 'SKILL_DENIED_RAN'))).toBe(false)
  expect(existsSync(join(run.project, 'SKILL_ALLOWED_RAN'))).toBe(true)
  const answers = hookResponses(session, 'PreSkillShellCommand')
  expect(answers.map((line) => line.exit_code)).toEqual([0, 0])
  expect(answers.some((line) => String(line.stdout).includes('"permissionDecision":"deny"'))).toBe(true)
  expect(hookResponses(session, 'PreToolUse')).toEqual([])
  const text = skillShellText(session)
  expect(text).toContain('allowed-output-7731')
  expect(text).toContain(`[not run: blocked by hook: ${FORCE_PUSH_REASON}`)
  return text
}

/** A command the dangerous-commands template denies, that leaves a marker if it ever runs. */
function deniedCommand(marker: string): string {
  return `touch ${marker} && git push --force origin main`
}
const FORCE_PUSH_REASON = 'force-pushing rewrites shared history'

/** The README's quick start: the dangerous-commands gate, routed from Claude's project settings. */
function quickStart(run: LabRun, cwd = run.project): void {
  const init = run.hookrun(['init', '--template', 'dangerous-commands'], { cwd })
  expect(init.status, init.stderr).toBe(0)
  installClaude(run, [], cwd)
}

describe(`Claude Code ${labVersion('claude')}`, () => {
  test('deny-shell: the dangerous-commands gate keeps a force-push from running; the model gets the reason', async () => {
    const run = freshRun()
    quickStart(run)
    const session = await runClaude(run, [bash(deniedCommand('DENIED_RAN')), DONE])
    expectCompleted(session, 'deny-shell')
    expect(existsSync(join(run.project, 'DENIED_RAN'))).toBe(false)
    const [result] = toolResultTexts(session)
    expect(result?.text).toContain(FORCE_PUSH_REASON)
    expect(result?.isError).toBe(true)
    results.record(
      'deny-shell',
      'honoured',
      `the command did not run; the next request's tool_result (is_error) held the reason: ${JSON.stringify(result?.text)}`,
    )
  })

  test('allow-shell: an allowed command runs through the same gate', async () => {
    const run = freshRun()
    quickStart(run)
    const session = await runClaude(run, [bash('touch ALLOWED_RAN && echo ran-ok'), DONE])
    expectCompleted(session, 'allow-shell')
    expect(existsSync(join(run.project, 'ALLOWED_RAN'))).toBe(true)
    const [result] = toolResultTexts(session)
    expect(result).toEqual({ text: 'ran-ok', isError: false })
    expect(hookResponses(session, 'PreToolUse').map((line) => line.exit_code)).toEqual([0])
    results.record(
      'allow-shell',
      'honoured',
      'the command ran (marker made) and its output reached the model; the PreToolUse router exited 0',
    )
  })

  test('deny-shell with `install --narrow`: the one compiled PreToolUse entry (matcher Bash) still denies', async () => {
    const run = freshRun()
    expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)
    expect(installClaude(run, ['--narrow'])).toContain('PreToolUse (^(Bash|Shell|exec)$)')
    const session = await runClaude(run, [bash('touch NARROW_ALLOWED_RAN'), bash(deniedCommand('NARROW_DENIED_RAN')), DONE])
    expectCompleted(session, 'deny-shell (--narrow)')
    expect(existsSync(join(run.project, 'NARROW_ALLOWED_RAN'))).toBe(true)
    expect(existsSync(join(run.project, 'NARROW_DENIED_RAN'))).toBe(false)
    expect(toolResultTexts(session)[1]?.text).toContain(FORCE_PUSH_REASON)
    // Only the Bash calls start hookrun: nothing on the session's other events.
    expect(new Set(hookResponses(session).map((line) => line.hook_event))).toEqual(new Set(['PreToolUse']))
  })

  test('deny-shell with `install --narrow`: a gate added to hooks.json later holds from the next session (a fire re-narrows the config)', async () => {
    const run = freshRun()
    expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)
    installClaude(run, ['--narrow'])
    const hooksFile = join(run.project, '.hookrun', 'hooks.json')
    const config = JSON.parse(readFileSync(hooksFile, 'utf8')) as { hooks: object[] }
    config.hooks.push({ name: 'no-write', event: 'tool:pre_execute:write', command: 'echo "no writes in this project" >&2; exit 2' })
    writeFileSync(hooksFile, `${JSON.stringify(config, null, 2)}\n`)
    expect(run.hookrun(['trust']).status).toBe(0)
    // The session still narrowed to Bash: its Bash call's fire starts the sync in the background.
    const first = await runClaude(run, [bash('true'), DONE])
    expectCompleted(first, 'narrow sync (session 1)')
    const settingsFile = join(run.project, '.claude', 'settings.local.json')
    for (let waited = 0; waited < 10_000 && !readFileSync(settingsFile, 'utf8').includes('Write'); waited += 200)
      await new Promise((resolve) => setTimeout(resolve, 200))
    expect(readFileSync(settingsFile, 'utf8')).toContain('^(Bash|Shell|Write|exec)$')
    const written = join(run.project, 'NARROW_WRITE_RAN.txt')
    const second = await runClaude(run, [{ tool: 'Write', input: { file_path: written, content: 'x\n' } }, DONE])
    expectCompleted(second, 'narrow sync (session 2)')
    expect(existsSync(written)).toBe(false)
    expect(toolResultTexts(second)[0]?.text).toContain('no writes in this project')
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
    installClaude(run)
    const session = await runClaude(run, [bash('touch ORIGINAL_RAN'), DONE])
    expectCompleted(session, 'rewrite-input')
    expect(existsSync(join(run.project, 'ORIGINAL_RAN'))).toBe(false)
    expect(existsSync(join(run.project, 'REWRITTEN_RAN'))).toBe(true)
    results.record('rewrite-input', 'honoured', 'allow + updatedInput from PreToolUse: the rewritten command ran, the original did not')
  })

  test('context: SessionStart and UserPromptSubmit additionalContext reach the first model request', async () => {
    const run = freshRun()
    writeHooks(run, [
      { name: 'session-context', event: 'session:start', script: `echo '{"additionalContext":"LAB-SESSION-CONTEXT-5821"}'` },
      { name: 'prompt-context', event: 'user:prompt_submit', script: `echo '{"additionalContext":"LAB-PROMPT-CONTEXT-9374"}'` },
      { name: 'post-context', event: 'tool:post_execute:bash', script: `echo '{"additionalContext":"LAB-POST-CONTEXT-1166"}'` },
    ])
    installClaude(run)
    const session = await runClaude(run, [bash('true'), DONE])
    expectCompleted(session, 'context')
    const [first, second] = conversationRequests(session.model)
    expect(requestText(first!)).toContain('LAB-SESSION-CONTEXT-5821')
    expect(requestText(first!)).toContain('LAB-PROMPT-CONTEXT-9374')
    expect(requestText(second!)).toContain('LAB-POST-CONTEXT-1166')
    results.record(
      'context',
      'honoured',
      'SessionStart and UserPromptSubmit additionalContext were in the first model request, PostToolUse context in the next one',
    )
  })

  test('mcp-gate: one gate on mcp__labmcp__lab_wipe stops that MCP tool and lets lab_read run', async () => {
    const run = freshRun()
    writeHooks(run, (mcpHooks(run) as { hooks: { name: string }[] }).hooks)
    installClaude(run)
    const server = labMcpServer(run)
    const config = writeFileIn(
      run.root,
      'mcp.json',
      JSON.stringify({ mcpServers: { labmcp: { command: server.command, args: server.args } } }),
    )
    const session = await runClaude(
      run,
      [{ tool: 'mcp__labmcp__lab_wipe', input: {} }, { tool: 'mcp__labmcp__lab_read', input: {} }, DONE],
      { args: ['--mcp-config', config, '--strict-mcp-config'] },
    )
    expectCompleted(session, 'mcp-gate')
    const [wiped, read] = toolResultTexts(session)
    expect(wiped?.isError).toBe(true)
    expectMcpGateHeld(run, ['mcp__labmcp__lab_wipe', 'mcp__labmcp__lab_read'], { wiped: wiped?.text, read: read?.text })
    results.record(
      'mcp-gate',
      'honoured',
      `PreToolUse fired for both MCP calls (tool_name mcp__labmcp__lab_wipe / lab_read); the gate stopped lab_wipe (the server never got it, the model got ${JSON.stringify(wiped?.text)}) and lab_read ran`,
    )
  })

  test('post-tool-output: a PostToolUse hook sees the Bash output', async () => {
    const run = freshRun()
    writeHooks(run, [
      {
        name: 'see-output',
        event: 'tool:post_execute:bash',
        script: 'cat > post-stdin.json\nprintf %s "$HOOKRUN_TOOL_OUTPUT" > post-env.txt',
      },
    ])
    installClaude(run)
    const session = await runClaude(run, [bash('echo LAB-OUTPUT-4417'), DONE])
    expectCompleted(session, 'post-tool-output')
    const stdin = JSON.parse(readFileSync(join(run.project, 'post-stdin.json'), 'utf8')) as { tool_response?: { stdout?: string } }
    expect(stdin.tool_response?.stdout).toBe('LAB-OUTPUT-4417')
    expect(readFileSync(join(run.project, 'post-env.txt'), 'utf8')).toContain('LAB-OUTPUT-4417')
    results.record('post-tool-output', 'honoured', 'the PostToolUse hook got tool_response.stdout on stdin and in HOOKRUN_TOOL_OUTPUT')
  })

  test("untrusted-notice: a never-trusted project's gate does not run; the notice reaches Claude's systemMessage", async () => {
    const run = freshRun()
    writeHooks(run, [{ name: 'gate', event: 'tool:pre_execute:bash', script: 'echo "untrusted gate ran" >&2; exit 2' }], { trust: false })
    installClaude(run)
    const session = await runClaude(run, [bash('touch UNTRUSTED_RAN'), DONE])
    expectCompleted(session, 'untrusted-notice')
    expect(existsSync(join(run.project, 'UNTRUSTED_RAN'))).toBe(true)
    // Where the person sees it: the hook's systemMessage, shown by Claude (in stream-json: the hook_response's stdout).
    const notices = hookResponses(session).filter((line) => String(line.stdout).includes('not trusted'))
    expect(notices.length).toBeGreaterThan(0)
    const first = notices[0]!
    const answer = JSON.parse(String(first.stdout)) as { systemMessage?: string }
    expect(answer.systemMessage).toContain('not trusted')
    // Once per session, not on every event.
    expect(notices).toHaveLength(1)
    const shown = session.events
      .filter((line) => line.type !== 'system' || line.subtype !== 'hook_response')
      .filter((line) => JSON.stringify(line).includes('not trusted'))
    expect(shown).toEqual([])
    expect(session.agent.stderr).not.toContain('not trusted')
    expect(conversationRequests(session.model).some((request) => requestText(request).includes('not trusted'))).toBe(false)
    // With plain text output (`claude -p` as most scripts run it), a new session shows the person nothing.
    const text = await runClaude(run, [bash('true'), DONE], { format: 'text' })
    expect(text.agent.stdout).toBe('All done.\n')
    expect(text.agent.stderr).not.toContain('not trusted')
    results.record(
      'untrusted-notice',
      'honoured',
      `the gate did not run (the command ran); hookrun's notice came once, as systemMessage in the ${first.hook_event} answer, which \`claude -p\` shows only in stream-json --verbose (a hook_response line); with text or json output, on stderr and to the model: nothing`,
    )
  })

  test('timeout-blocks: a gate that sleeps past its timeout blocks the call', async () => {
    const run = freshRun()
    writeHooks(run, [{ name: 'slow-gate', event: 'tool:pre_execute:bash', timeout: 1, script: 'sleep 30' }])
    installClaude(run)
    const session = await runClaude(run, [bash('touch TIMEOUT_RAN'), DONE])
    expectCompleted(session, 'timeout-blocks')
    expect(existsSync(join(run.project, 'TIMEOUT_RAN'))).toBe(false)
    const [result] = toolResultTexts(session)
    expect(result?.isError).toBe(true)
    expect(result?.text).toMatch(/slow-gate/)
    results.record('timeout-blocks', 'honoured', `the command did not run; the model got: ${JSON.stringify(result?.text)}`)
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
    installClaude(run)
    const session = await runClaude(run, [bash('touch CRASH_RAN'), bash('touch KILLED_RAN'), DONE])
    expectCompleted(session, 'crash-blocks')
    expect(existsSync(join(run.project, 'CRASH_RAN'))).toBe(false)
    expect(existsSync(join(run.project, 'KILLED_RAN'))).toBe(false)
    const [crashed, killed] = toolResultTexts(session)
    expect(crashed?.text).toMatch(/crashing-gate/)
    expect(killed?.text).toMatch(/killed-gate/)
    results.record(
      'crash-blocks',
      'honoured',
      `neither command ran; the model got: ${JSON.stringify(crashed?.text)} / ${JSON.stringify(killed?.text)}`,
    )
  })

  test("cd-elsewhere: Claude resets its shell's cwd when a `cd` leaves the project, and the gate holds there", async () => {
    const run = freshRun()
    quickStart(run)
    const outside = join(run.home, 'outside')
    mkdirSync(outside)
    const session = await runClaude(run, [
      bash(`cd ${outside} && ${deniedCommand('CD_SAME_CALL_RAN')}`),
      bash(`cd ${outside}`),
      bash('pwd'),
      bash(deniedCommand('CD_NEXT_CALL_RAN')),
      DONE,
    ])
    expectCompleted(session, 'cd-elsewhere (no --add-dir)')
    const [sameCall, cd, pwd, nextCall] = toolResultTexts(session)
    expect(cd?.text).toBe(`Shell cwd was reset to ${run.project}`)
    expect(pwd?.text).toBe(run.project)
    for (const marker of ['CD_SAME_CALL_RAN', 'CD_NEXT_CALL_RAN'])
      expect(existsSync(join(outside, marker)) || existsSync(join(run.project, marker)), marker).toBe(false)
    expect(sameCall?.text).toContain(FORCE_PUSH_REASON)
    expect(nextCall?.text).toContain(FORCE_PUSH_REASON)
  })

  test('cd-elsewhere: in a folder added with --add-dir (where Claude keeps the cwd), the project gate still holds', async () => {
    const run = freshRun()
    quickStart(run)
    const outside = join(run.home, 'outside')
    mkdirSync(outside)
    const session = await runClaude(
      run,
      [
        bash(`cd ${outside} && ${deniedCommand('CD_SAME_CALL_RAN')}`),
        bash(`cd ${outside}`),
        bash('pwd'),
        bash(deniedCommand('CD_NEXT_CALL_RAN')),
        DONE,
      ],
      { args: ['--add-dir', outside] },
    )
    expectCompleted(session, 'cd-elsewhere (--add-dir)')
    const [sameCall, , pwd, nextCall] = toolResultTexts(session)
    console.log('cd-elsewhere --add-dir tool results:', JSON.stringify([sameCall, pwd, nextCall]))
    // Claude's shell stayed outside the project (else the second denial proves nothing).
    expect(pwd?.text).toBe(outside)
    for (const marker of ['CD_SAME_CALL_RAN', 'CD_NEXT_CALL_RAN']) expect(existsSync(join(outside, marker)), marker).toBe(false)
    expect(sameCall?.text).toContain(FORCE_PUSH_REASON)
    expect(nextCall?.text).toContain(FORCE_PUSH_REASON)
    results.record(
      'cd-elsewhere',
      'honoured',
      "denied in `cd OUTSIDE && …` and in the call after `cd OUTSIDE`; Claude resets its shell to the project after a `cd` out of it ('Shell cwd was reset to …') unless the folder was added with --add-dir, where the cwd stays outside and CLAUDE_PROJECT_DIR still names the project",
    )
  })

  test('cd-elsewhere: a nested sub/.hookrun/ with an empty hooks/ folder (made by the model) does not make sub a project that escapes the gate', async () => {
    const run = freshRun()
    quickStart(run)
    const session = await runClaude(run, [
      bash('mkdir -p sub/.hookrun/hooks && cd sub'),
      bash('pwd'),
      bash(deniedCommand('NESTED_RAN')),
      DONE,
    ])
    expectCompleted(session, 'cd-elsewhere (nested .hookrun)')
    const [, pwd, denied] = toolResultTexts(session)
    expect(pwd?.text).toBe(join(run.project, 'sub'))
    expect(existsSync(join(run.project, 'sub', 'NESTED_RAN'))).toBe(false)
    expect(denied?.text).toContain(FORCE_PUSH_REASON)
  })

  test('subfolder-start: Claude started in project/sub still runs the project gate', async () => {
    const run = freshRun()
    quickStart(run)
    const sub = join(run.project, 'sub')
    mkdirSync(sub)
    const session = await runClaude(run, [bash(deniedCommand('SUB_RAN')), DONE], { cwd: sub })
    expectCompleted(session, 'subfolder-start')
    expect(existsSync(join(sub, 'SUB_RAN'))).toBe(false)
    const [result] = toolResultTexts(session)
    expect(result?.text).toContain(FORCE_PUSH_REASON)
    results.record(
      'subfolder-start',
      'honoured',
      'started in project/sub, Claude read the project settings and the gate denied the command',
    )
  })

  test('subfolder-start: Claude started in a `git worktree add` of the trusted project still runs the gate', async () => {
    const run = freshRun()
    quickStart(run)
    const git = (...args: string[]) =>
      spawnSync('git', args, {
        cwd: run.project,
        env: {
          ...run.env,
          GIT_AUTHOR_NAME: 'lab',
          GIT_AUTHOR_EMAIL: 'lab@example.invalid',
          GIT_COMMITTER_NAME: 'lab',
          GIT_COMMITTER_EMAIL: 'lab@example.invalid',
        },
        encoding: 'utf8',
      })
    // The team commits hooks.json and its scripts (settings.local.json stays this machine's).
    git('add', '.hookrun')
    git('commit', '-qm', 'hooks')
    const worktree = join(run.home, 'project-wt')
    expect(git('worktree', 'add', '-q', worktree).status).toBe(0)
    const session = await runClaude(run, [bash(deniedCommand('WORKTREE_RAN')), DONE], { cwd: worktree })
    expectCompleted(session, 'subfolder-start (git worktree)')
    console.log(
      'worktree has .claude/:',
      existsSync(join(worktree, '.claude')),
      'hook answers:',
      JSON.stringify(hookResponses(session).map((line) => [line.hook_event, line.exit_code, String(line.stdout).slice(0, 200)])),
    )
    expect(existsSync(join(worktree, 'WORKTREE_RAN'))).toBe(false)
    expect(toolResultTexts(session)[0]?.text).toContain(FORCE_PUSH_REASON)
  })

  test("skill-shell: a command's or skill's embedded shell command (PreSkillShellCommand) goes through the gate: the force-push does not run, the allowed one does", async () => {
    const run = freshRun()
    quickStart(run)
    const settings = JSON.parse(readFileSync(join(run.project, '.claude', 'settings.local.json'), 'utf8')) as {
      hooks: Record<string, unknown>
    }
    expect(Object.keys(settings.hooks)).toContain('PreSkillShellCommand')
    const lines = ['!`touch SKILL_ALLOWED_RAN && echo allowed-output-7731`', `!\`${deniedCommand('SKILL_DENIED_RAN')}\``]
    // Typed by the person: a project command, `/shipit` as the prompt of `claude -p`.
    writeFileIn(run.project, '.claude/commands/shipit.md', skillText('shipit', lines))
    const typed = await runClaude(run, [DONE], { prompt: '/shipit' })
    expectCompleted(typed, 'skill-shell (/command)')
    expectSkillShellGated(run, typed)
    rmSync(join(run.project, 'SKILL_ALLOWED_RAN'))
    // Loaded by the model: a project skill, through the Skill tool.
    writeFileIn(run.project, '.claude/skills/release/SKILL.md', skillText('release', lines))
    const loaded = await runClaude(run, [{ tool: 'Skill', input: { skill: 'release' } }, DONE])
    expectCompleted(loaded, 'skill-shell (Skill tool)')
    expect(toolResultTexts(loaded)[0]?.text).toBe('Launching skill: release')
    const text = expectSkillShellGated(run, loaded)
    results.record(
      'skill-shell',
      'honoured',
      `a project command typed as /shipit and a project skill loaded with the Skill tool, each holding two !\`…\` lines: PreSkillShellCommand fired for each (no PreToolUse: no tool call runs them), the gate's deny kept the force-push from running (no marker) and the allowed one ran; the model got the skill's text with the output and, for the denied one, ${JSON.stringify(text.match(/\[not run: [^\]]*\]/)?.[0])}`,
    )
  })

  test("skill-shell: a rewrite or an ask keeps a skill's shell command from running; hookrun says why", async () => {
    const run = freshRun()
    writeHooks(run, [
      {
        name: 'rewrite',
        event: 'tool:pre_execute:bash',
        script: `case $HOOKRUN_BASH_COMMAND in *REWRITE_ME*) echo '{"decision":"allow","updatedInput":{"command":"touch REWRITTEN_RAN"}}' ;; esac`,
      },
      {
        name: 'ask',
        event: 'tool:pre_execute:bash',
        script: `case $HOOKRUN_BASH_COMMAND in *ASK_ME*) echo '{"decision":"ask","reason":"a person should look at this"}' ;; esac`,
      },
    ])
    installClaude(run)
    writeFileIn(
      run.project,
      '.claude/commands/shipit.md',
      skillText('shipit', ['!`touch REWRITE_ME`', '!`touch ASK_ME`', '!`touch PLAIN_RAN`']),
    )
    const session = await runClaude(run, [DONE], { prompt: '/shipit' })
    expectCompleted(session, 'skill-shell (rewrite, ask)')
    for (const marker of ['REWRITE_ME', 'REWRITTEN_RAN', 'ASK_ME']) expect(existsSync(join(run.project, marker)), marker).toBe(false)
    expect(existsSync(join(run.project, 'PLAIN_RAN'))).toBe(true)
    const text = skillShellText(session)
    const notRun = text.match(/\[not run: [^\]]*\]/g) ?? []
    expect(notRun, text).toHaveLength(2)
    const rewritten = notRun.find((line) => line.includes('rewrite'))
    const asked = notRun.find((line) => line.includes('a person should look at this'))
    expect(rewritten, text).toContain('ignores a rewrite on PreSkillShellCommand')
    expect(asked, text).toBeDefined()
    results.record(
      'skill-shell-rewrite',
      'ignored, hookrun warns',
      `Claude Code never applies updatedInput to a skill's shell command: hookrun turns a rewrite into a deny that says so, and the model got ${JSON.stringify(rewritten)} (neither command ran); an ask kept its command from running too: ${JSON.stringify(asked)}`,
    )
  })

  test('unknown-event: every event Claude fires is one hookrun knows; the fixtures of each payload are saved', async () => {
    const run = freshRun()
    quickStart(run)
    // A raw logger beside hookrun's router on every event Claude has (from its binary's list), so the
    // fixtures are what Claude sent, not what hookrun passed on.
    const dump = join(run.root, 'payloads')
    mkdirSync(dump)
    const logger = writeFileIn(run.root, 'bin/log-payload', `#!/bin/sh\nf=$(mktemp "${dump}/$(date +%s%N)-XXXX")\ncat > "$f"\n`)
    const settingsFile = join(run.project, '.claude', 'settings.json')
    const settings = {
      hooks: Object.fromEntries(
        CLAUDE_EVENT_NAMES.filter((name) => name !== 'WorktreeCreate').map((name) => [
          name,
          [{ hooks: [{ type: 'command', command: logger }] }],
        ]),
      ),
    }
    writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`)
    writeFileIn(run.project, 'CLAUDE.md', '# lab project\nBe brief.\n')
    // A skill with an embedded shell command, loaded by the model: PreSkillShellCommand (2.1.332).
    writeFileIn(run.project, '.claude/skills/lab-notes/SKILL.md', skillText('lab-notes', ['!`echo lab-notes-shell`']))
    mkdirSync(join(run.project, 'sub'))
    const session = await runClaude(run, [
      bash('cd sub && echo in-sub'),
      bash('false'),
      { tool: 'Write', input: { file_path: join(run.project, 'notes.txt'), content: 'lab\n' } },
      { tool: 'Skill', input: { skill: 'lab-notes' } },
      DONE,
    ])
    expectCompleted(session, 'unknown-event')
    const payloads = readdirSync(dump)
      .sort()
      .map((file) => JSON.parse(readFileSync(join(dump, file), 'utf8')) as Record<string, unknown>)
    const fired = [...new Set(payloads.map((payload) => String(payload.hook_event_name)))]
    console.log('Claude fired:', fired.join(', '))
    saveFixtures(run, payloads)
    // Each event it fired is one hookrun has a name for (as Claude spells it) …
    for (const event of fired) {
      const explained = run.hookrun(['explain', '--format', 'claude', '--json', '--dry-run', '--payload', '-'], {
        input: JSON.stringify(payloads.find((payload) => payload.hook_event_name === event)),
      })
      expect(explained.status, `${event}: ${explained.stderr}`).toBe(0)
      expect((JSON.parse(explained.stdout) as { event: string }).event, event).not.toMatch(/^unknown|^$/)
    }
    // … and hookrun's router answered every one of them without an error.
    const routed = hookResponses(session).filter((line) => String(line.hook_name ?? '').length > 0 && line.outcome !== 'success')
    expect(routed, JSON.stringify(routed)).toEqual([])
    const known = JSON.parse(run.hookrun(['events', '--json']).stdout) as { aliases: { alias: string; from: string[] }[] }[]
    const claudeNames = new Set(
      known.flatMap((event) => event.aliases.filter((alias) => alias.from.includes('claude')).map((alias) => alias.alias)),
    )
    const missing = CLAUDE_EVENT_NAMES.filter((name) => !claudeNames.has(name))
    expect(missing).toEqual([])
    results.record(
      'unknown-event',
      'not applicable',
      `every event name in Claude ${labVersion('claude')} (${CLAUDE_EVENT_NAMES.length}) is one hookrun knows; this session fired ${[...fired].sort().join(', ')}, all answered with exit 0`,
    )
  })

  test('results', async () => {
    await results.check()
  })
})

/** Claude Code 2.1.332's hook event names (the list in its binary). */
const CLAUDE_EVENT_NAMES = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
]

/**
 * test/agents/fixtures/claude/<Event>.json: the first payload of each event, with the run's
 * folders and ids replaced by stable placeholders.
 */
function saveFixtures(run: LabRun, payloads: readonly Record<string, unknown>[]): void {
  const dir = join(ROOT, 'test', 'agents', 'fixtures', 'claude')
  mkdirSync(dir, { recursive: true })
  const seen = new Set<string>()
  for (const payload of payloads) {
    const event = String(payload.hook_event_name)
    if (seen.has(event)) continue
    seen.add(event)
    // The run's folder (also inside the transcript path's slug) and every id: stable placeholders.
    let text = JSON.stringify(payload, null, 2)
      .split(run.root.replace(/[^a-zA-Z0-9]/g, '-'))
      .join('-lab-run')
      .split(run.root)
      .join('/lab/run')
    const ids = new Map<string, string>([[String(payloads[0]?.session_id), '00000000-0000-4000-8000-000000000000']])
    text = text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      if (!ids.has(id)) ids.set(id, `00000000-0000-4000-8000-${String(ids.size).padStart(12, '0')}`)
      return ids.get(id)!
    })
    text = text.replace(/toolu_lab\d+/g, 'toolu_lab').replace(/"duration_ms": \d+/g, '"duration_ms": 0')
    writeFileSync(join(dir, `${event}.json`), `${text}\n`)
  }
}
