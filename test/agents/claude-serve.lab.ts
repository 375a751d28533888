/**
 * Claude Code 2.1.332 with `hookrun install --agent claude --serve`: the real CLI's http hook
 * handlers POST each event to `hookrun serve` on 127.0.0.1, started by the SessionStart command
 * hook. The same scenarios as claude.lab.ts where serving changes something (every gate now goes
 * through the server), and the one only serving has: the server killed mid-session.
 * Results: src/agents/lab/claude-serve.json.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { freePort } from '../helpers.ts'
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

const results = labResults('claude', 'claude-serve')
const runs: LabRun[] = []
const DONE = { text: 'All done.' }

afterAll(() => {
  for (const run of runs) run.hookrun(['serve', '--stop'])
  if (process.env.HOOKRUN_LAB_KEEP) return
  for (const run of runs) run.remove()
})

/** A lab run wired with `install --project --serve` on a port of its own (each run has its own HOME, so its own server). */
async function servedRun(setup: (run: LabRun) => void): Promise<{ run: LabRun; port: number }> {
  const run = labRun()
  runs.push(run)
  setup(run)
  const port = await freePort()
  const installed = installClaude(run, ['--serve', '--port', String(port)])
  expect(installed).toContain(`served:  http handlers to http://127.0.0.1:${port}/claude?if-down=run-hookrun-serve`)
  return { run, port }
}

function toolResultTexts(session: ClaudeSession): { text: string; isError: boolean }[] {
  const last = conversationRequests(session.model).at(-1)
  return last === undefined ? [] : toolResultsOf(last).map((block) => ({ text: toolResultText(block), isError: block.is_error === true }))
}

function expectCompleted(session: ClaudeSession, scenario: string): void {
  console.log(`claude --serve ${scenario}: ${Math.round(session.agent.ms)} ms`)
  expect(
    session.events.find((event) => event.type === 'result'),
    `no result line; stderr: ${session.agent.stderr}`,
  ).toBeDefined()
  expect(session.agent.status, session.agent.stderr).toBe(0)
}

function hookResponses(session: ClaudeSession, event: string): StreamEvent[] {
  return session.events.filter((line) => line.type === 'system' && line.subtype === 'hook_response' && line.hook_event === event)
}

/** The server's own record: it ran (SessionStart started it) and which process it is. */
function serverPid(run: LabRun): number | undefined {
  const file = join(run.home, '.local', 'state', 'hookrun', 'serve', 'serve.pid')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid : undefined
}

const FORCE_PUSH_REASON = 'force-pushing rewrites shared history'
const deniedCommand = (marker: string) => `touch ${marker} && git push --force origin main`
const dangerousCommands = (run: LabRun) => expect(run.hookrun(['init', '--template', 'dangerous-commands']).status).toBe(0)

describe(`Claude Code ${labVersion('claude')} with install --serve`, () => {
  test.concurrent('deny-shell and allow-shell: the gate answered by hookrun serve holds, and an allowed call runs', async () => {
    const { run } = await servedRun(dangerousCommands)
    const session = await runClaude(run, [bash('touch ALLOWED_RAN && echo ran-ok'), bash(deniedCommand('DENIED_RAN')), DONE])
    expectCompleted(session, 'deny-shell / allow-shell')
    expect(serverPid(run)).toBeDefined()
    expect(existsSync(join(run.project, 'ALLOWED_RAN'))).toBe(true)
    expect(existsSync(join(run.project, 'DENIED_RAN'))).toBe(false)
    const [allowed, denied] = toolResultTexts(session)
    expect(allowed).toEqual({ text: 'ran-ok', isError: false })
    expect(denied?.isError).toBe(true)
    expect(denied?.text).toContain(FORCE_PUSH_REASON)
    // The Bash calls' PreToolUse went over http: Claude reports the HTTP status where a command's exit code would be.
    expect(hookResponses(session, 'PreToolUse').map((line) => line.exit_code)).toEqual([200, 200])
    results.record(
      'deny-shell',
      'honoured',
      `over http: the command did not run; the model's tool_result (is_error) held the reason: ${JSON.stringify(denied?.text)}`,
    )
    results.record('allow-shell', 'honoured', 'over http: the allowed command ran (marker made) and its output reached the model')
  })

  test.concurrent('context: SessionStart, UserPromptSubmit (serve --start) and PostToolUse (http) context reach the model', async () => {
    const { run } = await servedRun((lab) =>
      writeHooks(lab, [
        { name: 'session-context', event: 'session:start', script: `echo '{"additionalContext":"LAB-SESSION-CONTEXT-5821"}'` },
        { name: 'prompt-context', event: 'user:prompt_submit', script: `echo '{"additionalContext":"LAB-PROMPT-CONTEXT-9374"}'` },
        { name: 'post-context', event: 'tool:post_execute:bash', script: `echo '{"additionalContext":"LAB-POST-CONTEXT-1166"}'` },
      ]),
    )
    const session = await runClaude(run, [bash('true'), DONE])
    expectCompleted(session, 'context')
    const [first, second] = conversationRequests(session.model)
    expect(requestText(first!)).toContain('LAB-SESSION-CONTEXT-5821')
    expect(requestText(first!)).toContain('LAB-PROMPT-CONTEXT-9374')
    expect(requestText(second!)).toContain('LAB-POST-CONTEXT-1166')
    results.record(
      'context',
      'honoured',
      'SessionStart and UserPromptSubmit context (their `serve --start` command) in the first model request, PostToolUse context (http) in the next',
    )
  })

  test.concurrent('server gone mid-session: the next gate blocks (onFailure "block"); the call does not run', async () => {
    const { run } = await servedRun(dangerousCommands)
    const session = await runClaude(run, [bash('hookrun serve --stop && sleep 1'), bash('touch AFTER_STOP_RAN'), DONE])
    expectCompleted(session, 'server gone')
    expect(existsSync(join(run.project, 'AFTER_STOP_RAN'))).toBe(false)
    const [stopped, blocked] = toolResultTexts(session)
    console.log('server gone: tool results', JSON.stringify([stopped, blocked]))
    expect(stopped?.text).toMatch(/told to stop/)
    expect(blocked?.isError).toBe(true)
    // Claude's block message names the url, which says how to recover.
    expect(blocked?.text).toContain('if-down=run-hookrun-serve')
    results.record(
      'crash-blocks',
      'honoured',
      `hookrun serve stopped mid-session: the next call did not run; the model got: ${JSON.stringify(blocked?.text?.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT'))}`,
    )
  })

  test.concurrent('cd-elsewhere: in an --add-dir folder (where the payload cwd stays outside) the project gate holds', async () => {
    let outside = ''
    const { run } = await servedRun((lab) => {
      dangerousCommands(lab)
      outside = join(lab.home, 'outside')
      mkdirSync(outside)
    })
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
    expectCompleted(session, 'cd-elsewhere')
    const [sameCall, , pwd, nextCall] = toolResultTexts(session)
    expect(pwd?.text).toBe(outside)
    for (const marker of ['CD_SAME_CALL_RAN', 'CD_NEXT_CALL_RAN']) expect(existsSync(join(outside, marker)), marker).toBe(false)
    expect(sameCall?.text).toContain(FORCE_PUSH_REASON)
    expect(nextCall?.text).toContain(FORCE_PUSH_REASON)
    results.record(
      'cd-elsewhere',
      'honoured',
      "over http: denied in `cd OUTSIDE && …` and after `cd OUTSIDE` (--add-dir, so Claude's cwd stays outside): the server holds the session to the project SessionStart recorded from CLAUDE_PROJECT_DIR",
    )
  })

  test.concurrent('timeout-blocks: a gate hook past its timeout, run by the server, blocks the call', async () => {
    const { run } = await servedRun((lab) =>
      writeHooks(lab, [{ name: 'slow-gate', event: 'tool:pre_execute:bash', timeout: 1, script: 'sleep 30' }]),
    )
    const session = await runClaude(run, [bash('touch TIMEOUT_RAN'), DONE])
    expectCompleted(session, 'timeout-blocks')
    expect(existsSync(join(run.project, 'TIMEOUT_RAN'))).toBe(false)
    const [result] = toolResultTexts(session)
    expect(result?.isError).toBe(true)
    expect(result?.text).toMatch(/slow-gate/)
    expect(hookResponses(session, 'PreToolUse').map((line) => line.exit_code)).toEqual([200])
    results.record('timeout-blocks', 'honoured', `over http: the command did not run; the model got: ${JSON.stringify(result?.text)}`)
  })

  test.concurrent('subfolder-start: Claude started in project/sub still runs the project gate through the server', async () => {
    const { run } = await servedRun(dangerousCommands)
    const sub = join(run.project, 'sub')
    mkdirSync(sub)
    // The install is the project's (.claude/settings.local.json), which Claude reads from a subfolder too.
    const session = await runClaude(run, [bash(deniedCommand('SUB_RAN')), DONE], { cwd: sub })
    expectCompleted(session, 'subfolder-start')
    expect(existsSync(join(sub, 'SUB_RAN'))).toBe(false)
    expect(toolResultTexts(session)[0]?.text).toContain(FORCE_PUSH_REASON)
    expect(hookResponses(session, 'PreToolUse').map((line) => line.exit_code)).toEqual([200])
    results.record(
      'subfolder-start',
      'honoured',
      'started in project/sub: the http gate denied the command (the session recorded sub, the fire found the project above it)',
    )
  })

  test.concurrent("skill-shell: a command's or skill's embedded shell command (PreSkillShellCommand over http) is gated by the server", async () => {
    const { run } = await servedRun(dangerousCommands)
    const lines = ['!`touch SKILL_ALLOWED_RAN && echo allowed-output-7731`', `!\`${deniedCommand('SKILL_DENIED_RAN')}\``]
    writeFileIn(run.project, '.claude/commands/shipit.md', skillText('shipit', lines))
    writeFileIn(run.project, '.claude/skills/release/SKILL.md', skillText('release', lines))
    // Typed as the first prompt (its commands run right after SessionStart started the server), then loaded by the model.
    for (const [how, turns, prompt] of [
      ['/command', [DONE], '/shipit'],
      ['Skill tool', [{ tool: 'Skill', input: { skill: 'release' } }, DONE], undefined],
    ] as const) {
      rmSync(join(run.project, 'SKILL_ALLOWED_RAN'), { force: true })
      const session = await runClaude(run, turns, { prompt })
      expectCompleted(session, `skill-shell (${how})`)
      expect(existsSync(join(run.project, 'SKILL_DENIED_RAN')), how).toBe(false)
      expect(existsSync(join(run.project, 'SKILL_ALLOWED_RAN')), how).toBe(true)
      expect(hookResponses(session, 'PreSkillShellCommand').map((line) => line.exit_code)).toEqual([200, 200])
      const text = loadedSkillText(conversationRequests(session.model).at(-1))
      expect(text).toContain('allowed-output-7731')
      expect(text).toContain(`[not run: blocked by hook: ${FORCE_PUSH_REASON}`)
    }
    results.record(
      'skill-shell',
      'honoured',
      `over http (PreSkillShellCommand answered by the server): in a project command typed as /shipit (its commands run right after SessionStart) and in a skill loaded with the Skill tool, the force-push did not run and the allowed command did; the model got "[not run: blocked by hook: ${FORCE_PUSH_REASON}; …]" in the skill's text`,
    )
  })

  test('the results table matches what this run saw', async () => {
    await results.check()
  })
})
