/**
 * Tencent CodeBuddy Code in the agent lab: the CLI that npm `@tencent-ai/agent-sdk` 0.3.201 bundles
 * as `cli/` (2.117.0), run headless (`codebuddy -p … -y`) against a fake chat-completions API on
 * 127.0.0.1 (CODEBUDDY_BASE_URL, CODEBUDDY_API_KEY: no login), wired to hookrun as a user does it
 * (`hookrun install --agent codebuddy --project`: .codebuddy/settings.local.json). Its shell tool
 * is Claude Code's `Bash {command, description}`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCodebuddy, toolOutputs } from './codebuddy-cli.ts'
import { labResults, labRun, labVersion, type ModelServer, type Turn } from './lab.ts'
import { chatMessages, isChatTurn, startOpenAIChatModel } from './models/openai-chat.ts'
import { contextHooks, DONE, GATE_HOOKS, scenarioRunner, shownOn } from './scenario.ts'

const results = labResults('codebuddy')

/** The conversation of the n-th conversation request (negative: from the end), as text. */
function conversation(server: ModelServer, index: number): string {
  const turns = server.requests.filter(isChatTurn)
  return JSON.stringify(chatMessages(turns.at(index)!))
}

const scenario = scenarioRunner({
  agent: 'codebuddy',
  startModel: (turns) => startOpenAIChatModel(turns),
  configure: () => {},
  run: runCodebuddy,
  debug: (server, result) => `${JSON.stringify(toolOutputs(server), null, 1)}\n${result.stderr}`,
})

const bash = (command: string): Turn => ({ tool: 'Bash', input: { command, description: 'lab step' } })
const GATE_REASON = 'lab gate: forbidden commands are not allowed'

describe(`CodeBuddy Code (${labVersion('codebuddy')}) with hookrun`, () => {
  /**
   * Which rewrite key CodeBuddy Code applies: its docs name `modifiedInput`, its bundle's tool path
   * reads `updatedInput`. Two raw hooks (no hookrun), one key each, on two calls of one session.
   */
  test('rewrite-keys: CodeBuddy Code applies a PreToolUse rewrite from modifiedInput and from updatedInput', async () => {
    const run = labRun()
    const server = await startOpenAIChatModel([bash('touch first-original'), bash('touch second-original'), DONE])
    try {
      mkdirSync(join(run.project, '.codebuddy'), { recursive: true })
      const answer = (key: string, command: string) =>
        `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","${key}":{"command":"${command}"}}}'`
      const script = `case "$(cat)" in *first-original*) ${answer('modifiedInput', 'touch first-modified')};; *second-original*) ${answer('updatedInput', 'touch second-updated')};; esac`
      const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: script }] }] } }
      writeFileSync(join(run.project, '.codebuddy', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`)
      const result = await runCodebuddy(run, server, 'lab rewrite keys', run.project)
      expect(result.status, result.stderr).toBe(0)
      const has = (name: string) => existsSync(join(run.project, name))
      const seen = {
        modifiedInput: has('first-modified') && !has('first-original'),
        updatedInput: has('second-updated') && !has('second-original'),
      }
      console.log('codebuddy rewrite keys:', JSON.stringify(seen))
      results.record(
        'rewrite-keys',
        seen.updatedInput ? 'honoured' : 'ignored, hookrun warns',
        `raw hooks, one key each: hookSpecificOutput.modifiedInput (its docs' key) ${seen.modifiedInput ? 'applied' : 'not applied (the original command ran)'}; updatedInput ${seen.updatedInput ? 'applied' : 'not applied'}`,
      )
      // hookrun sends both keys: the scenario holds while either applies.
      expect(seen.modifiedInput || seen.updatedInput).toBe(true)
    } finally {
      await server.close()
      run.remove()
    }
  })

  test('deny-shell', async () => {
    await scenario('deny-shell', { hooks: GATE_HOOKS, turns: [bash('touch forbidden-marker'), DONE] }, ({ run, server, result }) => {
      expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(false)
      expect(toolOutputs(server)[0]).toContain(GATE_REASON)
      results.record(
        'deny-shell',
        'honoured',
        `the command did not run; the model got the reason; the person saw it on ${shownOn(result, GATE_REASON)}`,
      )
    })
  })

  test('allow-shell', async () => {
    await scenario('allow-shell', { hooks: GATE_HOOKS, turns: [bash('touch allowed-marker'), DONE] }, ({ run }) => {
      expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
      results.record('allow-shell', 'honoured', 'the command ran')
    })
  })

  test('rewrite-input', async () => {
    const rewrite = `printf '%s' '{"updatedInput":{"command":"touch rewritten-marker"}}'`
    const hooks = { hooks: [{ name: 'lab-rewrite', event: 'tool:pre_execute:bash', command: rewrite }] }
    await scenario('rewrite-input', { hooks, turns: [bash('touch original-marker'), DONE] }, ({ run }) => {
      expect(existsSync(join(run.project, 'rewritten-marker'))).toBe(true)
      expect(existsSync(join(run.project, 'original-marker'))).toBe(false)
      results.record(
        'rewrite-input',
        'honoured',
        'hookrun sends the rewrite as updatedInput and modifiedInput: the rewritten command ran, the original did not',
      )
    })
  })

  test('context', async () => {
    await scenario('context', { hooks: contextHooks(), turns: [bash('true'), DONE] }, ({ server }) => {
      const first = conversation(server, 0)
      const last = conversation(server, -1)
      const seen = {
        SessionStart: first.includes('LAB-CONTEXT-SESSION'),
        UserPromptSubmit: first.includes('LAB-CONTEXT-PROMPT'),
        PostToolUse: last.includes('LAB-CONTEXT-POST'),
      }
      expect(seen).toEqual({ SessionStart: true, UserPromptSubmit: true, PostToolUse: true })
      results.record(
        'context',
        'honoured',
        'SessionStart and UserPromptSubmit context reached the first request, PostToolUse context the next',
      )
    })
  })

  test('post-tool-output', async () => {
    const hooks = {
      hooks: [
        {
          name: 'lab-post',
          event: 'tool:post_execute:bash',
          command: 'cat >> "$HOOKRUN_PROJECT_DIR/post.jsonl"; echo >> "$HOOKRUN_PROJECT_DIR/post.jsonl"',
        },
      ],
    }
    const turns = [bash('echo lab-output-42'), bash('echo lab-failing-43; exit 3'), DONE]
    await scenario('post-tool-output', { hooks, turns }, ({ run }) => {
      const [ok, failed] = readFileSync(join(run.project, 'post.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { hook_event_name: string; tool_response: Record<string, unknown> })
      // 2.117.0 sends a successful Bash call's exit code, not its output; a failed one's output is in `error`.
      expect(ok!.hook_event_name).toBe('PostToolUse')
      expect(ok!.tool_response).toMatchObject({ exitCode: 0, interrupted: false })
      expect(JSON.stringify(ok!.tool_response)).not.toContain('lab-output-42')
      expect(failed!.hook_event_name).toBe('PostToolUse')
      expect(failed!.tool_response).toMatchObject({ exitCode: 3, is_error: true })
      expect(failed!.tool_response.error).toContain('lab-failing-43')
      results.record(
        'post-tool-output',
        'not applicable',
        "PostToolUse's tool_response for Bash holds no output when the command succeeds ({exitCode: 0, signal, interrupted, …}); a failed command fires PostToolUse (not PostToolUseFailure) with is_error: true and its output in `error`",
      )
    })
  })

  test('untrusted-notice', async () => {
    await scenario(
      'untrusted-notice',
      { hooks: GATE_HOOKS, trust: false, turns: [bash('touch forbidden-marker'), DONE] },
      ({ run, server, result }) => {
        expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(true)
        const notice = /not trusted[^"]*hookrun trust/
        const shown = notice.test(result.stdout) || notice.test(result.stderr)
        const toModel = server.requests.some((request) => notice.test(JSON.stringify(chatMessages(request))))
        expect(shown || toModel, 'the untrusted-project notice reached neither the person nor the model').toBe(true)
        results.record(
          'untrusted-notice',
          'honoured',
          `the hooks did not run; the notice reached ${[shown && 'the output', toModel && 'the model (context)'].filter(Boolean).join(' and ')}`,
        )
      },
    )
  })

  test('timeout-blocks', async () => {
    const hooks = { hooks: [{ name: 'lab-slow', event: 'tool:pre_execute:bash', command: 'sleep 30', timeout: 1 }] }
    await scenario('timeout-blocks', { hooks, turns: [bash('touch slow-marker'), DONE] }, ({ run, server }) => {
      expect(existsSync(join(run.project, 'slow-marker'))).toBe(false)
      expect(toolOutputs(server)[0]).toContain('lab-slow')
      results.record(
        'timeout-blocks',
        'honoured',
        'a gate past its timeout: the command did not run; the model was told which hook timed out',
      )
    })
  })

  test('crash-blocks', async () => {
    const hooks = {
      hooks: [
        { name: 'lab-crash', event: 'tool:pre_execute:bash', command: 'case "$HOOKRUN_BASH_COMMAND" in *first*) exit 1;; esac' },
        { name: 'lab-killed', event: 'tool:pre_execute:bash', command: 'case "$HOOKRUN_BASH_COMMAND" in *second*) kill -9 $$;; esac' },
      ],
    }
    await scenario('crash-blocks', { hooks, turns: [bash('touch first-marker'), bash('touch second-marker'), DONE] }, ({ run, server }) => {
      expect(existsSync(join(run.project, 'first-marker'))).toBe(false)
      expect(existsSync(join(run.project, 'second-marker'))).toBe(false)
      const [first, second] = toolOutputs(server)
      expect(first).toContain('lab-crash')
      expect(second).toContain('lab-killed')
      results.record(
        'crash-blocks',
        'honoured',
        'a gate that exits 1 and one killed by SIGKILL: neither command ran; the model was told why',
      )
    })
  })
  test('cd-elsewhere', async () => {
    let out = ''
    await scenario(
      'cd-elsewhere',
      {
        hooks: GATE_HOOKS,
        turns: [bash('cd ../../elsewhere && touch forbidden-cd'), bash('touch forbidden-after-cd'), DONE],
        before: (run) => {
          out = join(run.root, 'elsewhere')
          mkdirSync(out)
        },
      },
      ({ server }) => {
        expect(existsSync(join(out, 'forbidden-cd'))).toBe(false)
        expect(existsSync(join(out, 'forbidden-after-cd'))).toBe(false)
        expect(toolOutputs(server).filter((output) => output.includes(GATE_REASON))).toHaveLength(2)
        results.record('cd-elsewhere', 'honoured', 'cd out of the project inside a command, then a call after it: both denied')
      },
    )
  })

  test('subfolder-start', async () => {
    // The user-level install: one router in ~/.codebuddy/settings.json, the project found from the start folder.
    await scenario(
      'subfolder-start',
      {
        hooks: GATE_HOOKS,
        cwd: 'sub',
        turns: [bash('touch forbidden-marker'), DONE],
        before: (run) => expect(run.hookrun(['install', '--agent', 'codebuddy']).status).toBe(0),
      },
      ({ run, server }) => {
        expect(existsSync(join(run.project, 'sub', 'forbidden-marker'))).toBe(false)
        expect(toolOutputs(server)[0]).toContain(GATE_REASON)
        results.record(
          'subfolder-start',
          'honoured',
          'with the user-level install (hookrun install --agent codebuddy) the gate held in project/sub; a --project install runs no hook there (CodeBuddy reads .codebuddy/ only in the start folder)',
        )
      },
    )
  })

  test('subfolder-start with a --project install: CodeBuddy reads .codebuddy/ only in the start folder', async () => {
    await scenario(
      'project-install-in-subfolder',
      { hooks: GATE_HOOKS, cwd: 'sub', turns: [bash('touch forbidden-marker'), DONE] },
      ({ run }) => {
        // What the lab saw: the project's entries do not run, so the gate does not hold there.
        expect(existsSync(join(run.project, 'sub', 'forbidden-marker'))).toBe(true)
      },
    )
  })
})

test('results', async () => {
  await results.check()
})
