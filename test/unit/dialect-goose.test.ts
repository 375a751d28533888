/**
 * Goose's dialect (src/agents/goose.ts): its payloads told from Crush's, its events and project
 * read, and answers only where Goose takes them; the payloads the agent lab recorded
 * (test/agents/fixtures/goose/) each recognised.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { noticeChannels, prepareDialect, renderFor, resolveDialect } from '../../src/dialect.ts'
import { agentProjectDir } from '../../src/config/project.ts'
import { fire } from '../../src/fire.ts'
import type { Payload } from '../../src/core/types.ts'
import { makeDecision, makeProject, removeProject, ROOT } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const goose = resolveDialect('goose', {})!
const preToolUse = (command: string, extra: Record<string, unknown> = {}): Payload => ({
  event: 'PreToolUse',
  session_id: '20260101_1',
  matcher_context: 'shell',
  tool_call_id: 'call_0',
  tool_name: 'shell',
  tool_input: { command },
  working_dir: '/home/lab/project',
  ...extra,
})
const sessionStart: Payload = { event: 'SessionStart', session_id: '20260101_1', matcher_context: null }

describe('Goose payloads', () => {
  test('are told from Crush by matcher_context, which Goose always sends (null when the event has none)', () => {
    expect(resolveDialect('auto', preToolUse('ls'))?.name).toBe('goose')
    expect(resolveDialect('auto', sessionStart)?.name).toBe('goose')
    const crush = { event: 'PreToolUse', session_id: 's', cwd: '/p', tool_name: 'bash', tool_input: { command: 'ls' } }
    expect(resolveDialect('auto', crush)?.name).toBe('crush')
  })

  test('name the event in `event`, the shell tool `shell` (bash), and the folder in working_dir, which hooks also get as cwd', () => {
    const prepared = prepareDialect('goose', undefined, preToolUse('ls'))!
    expect(prepared.event).toBe('PreToolUse')
    expect(prepared.agentEvent).toBe('PreToolUse')
    expect(prepared.payload.cwd).toBe('/home/lab/project')
    const dir = makeProject({})
    dirs.push(dir)
    expect(agentProjectDir(goose.project, {}, preToolUse('ls', { working_dir: dir }))).toBe(dir)
    // SessionStart, UserPromptSubmit and SessionEnd have no working_dir: the folder Goose runs hooks in.
    expect(agentProjectDir(goose.project, {}, sessionStart)).toBeUndefined()
  })
})

describe('answers in Goose protocol', () => {
  test('PreToolUse: a block is {"decision":"block","reason"}, an allow {"decision":"allow"}, no decision empty stdout', () => {
    const blocked = renderFor(goose, makeDecision({ decision: 'deny', blocked: true, reason: 'no', decidedBy: 'gate' }), preToolUse('rm'))
    expect(blocked).toMatchObject({ stdout: '{"decision":"block","reason":"no"}\n', exitCode: 0, warnings: [] })
    expect(renderFor(goose, makeDecision({ decision: 'allow', decidedBy: 'ok' }), preToolUse('ls')).stdout).toBe('{"decision":"allow"}\n')
    // Any other text on stdout is "no decision" to Goose, a failed hook: nothing at all is printed.
    expect(renderFor(goose, makeDecision({}), preToolUse('ls'))).toMatchObject({ stdout: '', exitCode: 0, warnings: [] })
  })

  test("'ask' blocks: Goose asks nobody", () => {
    const rendered = renderFor(goose, makeDecision({ decision: 'ask', decidedBy: 'careful', reason: 'sure?' }), preToolUse('rm'))
    expect(JSON.parse(rendered.stdout)).toEqual({
      decision: 'block',
      reason: "hook 'careful' wants a person to confirm this call, and Goose cannot ask: sure?",
    })
    expect(rendered.warnings[0]).toMatch(/^Goose cannot apply decision 'ask' on PreToolUse; answered block/)
  })

  test('a rewrite is refused out loud: the call is blocked, and the reason says Goose ignores it', () => {
    const decision = makeDecision({ decision: 'allow', decidedBy: 'rewrite', updatedInput: { command: 'ls -la' } })
    const rendered = renderFor(goose, decision, preToolUse('ls'))
    expect(JSON.parse(rendered.stdout).decision).toBe('block')
    expect(JSON.parse(rendered.stdout).reason).toContain("hook 'rewrite' rewrote this call, but Goose ignores a rewrite on PreToolUse")
    expect(rendered.warnings).toContain(
      'Goose ignores updatedInput on PreToolUse: Goose has no rewrite, so the tool would run with its original input',
    )
  })

  test('Stop takes a block; other events take none, and say so', () => {
    const block = makeDecision({ decision: 'deny', blocked: true, reason: 'keep going', decidedBy: 'stop' })
    const stop = { event: 'Stop', session_id: 's', matcher_context: null, last_assistant_message: 'done', working_dir: '/p' }
    expect(JSON.parse(renderFor(goose, block, stop).stdout)).toEqual({ decision: 'block', reason: 'keep going' })
    const prompt = { event: 'UserPromptSubmit', session_id: 's', matcher_context: 'hi', message: 'hi' }
    const rendered = renderFor(goose, block, prompt)
    expect(rendered.stdout).toBe('')
    expect(rendered.warnings).toEqual(['Goose cannot apply a block on UserPromptSubmit; the event proceeds'])
  })

  test('context reaches nobody: warned, and at SessionStart said in the banner goose session prints', () => {
    const withContext = makeDecision({ additionalContext: ['CTX'], systemMessage: 'hello' })
    const rendered = renderFor(goose, withContext, sessionStart)
    expect(JSON.parse(rendered.stdout)).toEqual({
      banner: 'hello\nhookrun: Goose cannot apply additionalContext on SessionStart; it was not sent',
    })
    const post = renderFor(goose, withContext, { ...preToolUse('ls'), event: 'PostToolUse' })
    expect(post.stdout).toBe('')
    expect(post.warnings).toEqual([
      'Goose cannot apply additionalContext on PostToolUse; it was not sent',
      'Goose cannot apply systemMessage on PostToolUse; it was not sent',
    ])
  })

  test("hookrun's notices go in the SessionStart banner, the one text Goose shows from a hook", () => {
    expect(noticeChannels(goose, 'SessionStart')).toEqual(['systemMessage'])
    for (const event of ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionEnd'])
      expect(noticeChannels(goose, event)).toEqual([])
  })
})

/** What a hook on `*` sees of each recorded event: qualified event | tool name | command | work dir is the payload's. */
const EXPECTED: Record<string, string> = {
  AfterShellExecution: 'tool:post_execute:bash|shell|echo lab-fixture|/home/lab/project',
  BeforeShellExecution: 'tool:pre_execute:bash|shell|echo lab-fixture|/home/lab/project',
  PostToolUse: 'tool:post_execute:bash|shell|echo lab-fixture|/home/lab/project',
  PostToolUseFailure: 'tool:error:bash|shell|exit 3|/home/lab/project',
  PreToolUse: 'tool:pre_execute:bash|shell|echo lab-fixture|/home/lab/project',
  // No hookrun name: fired as Goose names it (lowercased, as events are), with its tool
  PreToolUseResult: 'pretooluseresult:bash|shell|echo lab-fixture|/home/lab/project',
  SessionEnd: 'session:end|||',
  SessionStart: 'session:start|||',
  Stop: 'agent:stop|||/home/lab/project',
  UserPromptSubmit: 'user:prompt_submit|||',
}

describe('the payloads the agent lab recorded from Goose 1.50.0', () => {
  const fixtures = join(ROOT, 'test', 'agents', 'fixtures', 'goose')
  const files = readdirSync(fixtures).filter((file) => file.endsWith('.json'))

  test('every recorded event has an expectation here', () => {
    expect(files.map((file) => file.replace(/\.json$/, '')).sort()).toEqual(Object.keys(EXPECTED).sort())
  })

  for (const file of files) {
    const event = file.replace(/\.json$/, '')
    test(`${event}: recognised, and a hook sees ${EXPECTED[event]}`, async () => {
      const payload = JSON.parse(readFileSync(join(fixtures, file), 'utf8')) as Payload
      const dir = makeProject({
        'hooks.json': {
          hooks: [
            {
              name: 'see',
              event: '*',
              command:
                'printf "%s|%s|%s|%s" "$HOOKRUN_QUALIFIED_EVENT" "$HOOKRUN_TOOL_NAME" "$HOOKRUN_BASH_COMMAND" "$HOOKRUN_WORK_DIR" > seen.txt',
            },
          ],
        },
      })
      dirs.push(dir)
      mkdirSync(join(dir, '.state'), { recursive: true })
      const prepared = prepareDialect('auto', undefined, payload)!
      expect(prepared.dialect.name).toBe('goose')
      const env = { PATH: process.env.PATH, HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg'), XDG_STATE_HOME: join(dir, '.state') }
      const decision = await fire({
        event: prepared.event!,
        payload: prepared.payload,
        tool: prepared.tool,
        cwd: dir,
        configFiles: [join(dir, 'hooks.json')],
        env,
      })
      const seen = readFileSync(join(dir, 'seen.txt'), 'utf8')
      // Without working_dir the work dir is the hook's own folder (the folder Goose runs hooks in).
      expect(seen).toBe(EXPECTED[event]!.endsWith('|') ? `${EXPECTED[event]}${process.cwd()}` : EXPECTED[event])
      const rendered = renderFor(prepared.dialect, decision, prepared.payload, prepared.agentEvent)
      expect(rendered).toMatchObject({ stdout: '', exitCode: 0, warnings: [] })
    })
  }
})
