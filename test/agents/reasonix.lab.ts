/**
 * Reasonix in the agent lab: npm `reasonix` 1.38.11 (its Go binary from @reasonix/cli-linux-x64),
 * run headless (`reasonix run --permission-mode danger-full-access`: the lab has no bubblewrap, and
 * the default sandbox refuses to run a shell unconfined) against a fake chat-completions API on
 * 127.0.0.1, a provider of the lab's own in ~/.reasonix/config.toml with its key in ~/.reasonix/.env
 * (Reasonix reads provider keys only there), wired to hookrun as a user does it (`hookrun install
 * --agent reasonix --project`: .reasonix/settings.json). Its shell tool is `bash {command}`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { installAgent, labResults, labVersion, type LabRun, type ModelServer, runAgent, type Turn } from './lab.ts'
import { chatMessages, isChatTurn, startOpenAIChatModel, toolMessages } from './models/openai-chat.ts'
import { contextHooks, DONE, GATE_HOOKS, scenarioRunner, shownOn } from './scenario.ts'

const REASONIX = installAgent('reasonix')
const results = labResults('reasonix')

/** ~/.reasonix/config.toml with the lab's model as the default, its key in ~/.reasonix/.env (docs/CONFIG_PATHS.md). */
function configure(run: LabRun, server: ModelServer): void {
  const home = join(run.home, '.reasonix')
  mkdirSync(home, { recursive: true })
  const provider = ['[[providers]]', 'name = "lab"', 'kind = "openai"', `base_url = "${server.url}/v1"`]
  const models = ['models = ["fake-model"]', 'default = "fake-model"', 'api_key_env = "LAB_API_KEY"']
  writeFileSync(
    join(home, 'config.toml'),
    ['config_version = 1', 'default_model = "lab/fake-model"', '', ...provider, ...models, ''].join('\n'),
  )
  writeFileSync(join(home, '.env'), 'LAB_API_KEY=lab\n')
}

function runReasonix(run: LabRun, _server: ModelServer, prompt: string, cwd: string) {
  return runAgent(REASONIX, ['run', '--permission-mode', 'danger-full-access', prompt], { cwd, env: run.env, timeoutMs: 120_000 })
}

/** What the model got back for each of its tool calls, in order (from the last conversation request). */
function toolOutputs(server: ModelServer): string[] {
  const last = server.requests.filter(isChatTurn).at(-1)
  return last === undefined ? [] : toolMessages(last).map((message) => String(message.content))
}

const conversation = (server: ModelServer, index: number) => JSON.stringify(chatMessages(server.requests.filter(isChatTurn).at(index)!))

const scenario = scenarioRunner({
  agent: 'reasonix',
  startModel: (turns) => startOpenAIChatModel(turns),
  configure,
  run: runReasonix,
  debug: (server, result) => `${JSON.stringify(toolOutputs(server), null, 1)}\n${result.stdout}\n${result.stderr}`,
})

const bash = (command: string): Turn => ({ tool: 'bash', input: { command } })
const GATE_REASON = 'lab gate: forbidden commands are not allowed'

describe(`Reasonix ${labVersion('reasonix')} with hookrun`, () => {
  test('deny-shell', async () => {
    await scenario('deny-shell', { hooks: GATE_HOOKS, turns: [bash('touch forbidden-marker'), DONE] }, ({ run, server, result }) => {
      expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(false)
      const told = toolOutputs(server)[0]
      expect(told).toContain(GATE_REASON)
      results.record(
        'deny-shell',
        'honoured',
        `hookrun's exit 2: the command did not run; the model got "${told?.replace(/\[project\/PreToolUse\] .*? — /, '[project/PreToolUse] <command> — ')}"; the person saw the reason on ${shownOn(result, GATE_REASON)}`,
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
    await scenario('rewrite-input', { hooks, turns: [bash('touch original-marker'), DONE] }, ({ run, server }) => {
      expect(existsSync(join(run.project, 'original-marker'))).toBe(false)
      expect(existsSync(join(run.project, 'rewritten-marker'))).toBe(false)
      expect(toolOutputs(server)[0]).toContain('Reasonix ignores a rewrite on PreToolUse')
      results.record(
        'rewrite-input',
        'ignored, hookrun warns',
        'Reasonix reads no answer but the exit code, so hookrun refuses the call (neither the original nor the rewrite ran) and the model is told why',
      )
    })
  })

  test('context', async () => {
    await scenario('context', { hooks: contextHooks(), turns: [bash('true'), DONE] }, ({ server }) => {
      const first = conversation(server, 0)
      const last = conversation(server, -1)
      expect(first).toContain('LAB-CONTEXT-SESSION')
      // Reasonix reads no stdout of a passing hook there: hookrun warns.
      expect(first).not.toContain('LAB-CONTEXT-PROMPT')
      expect(last).not.toContain('LAB-CONTEXT-POST')
      results.record(
        'context',
        'honoured',
        "SessionStart context (hookrun's plain stdout) reached the model; UserPromptSubmit and PostToolUse context cannot (Reasonix reads no stdout there): hookrun warns",
      )
    })
  })

  test('post-tool-output', async () => {
    const hooks = {
      hooks: [
        {
          name: 'lab-post',
          event: 'tool:post_execute:bash',
          command: 'printf %s "$HOOKRUN_TOOL_OUTPUT" > "$HOOKRUN_PROJECT_DIR/post-output.txt"',
        },
      ],
    }
    await scenario('post-tool-output', { hooks, turns: [bash('echo lab-output-42'), DONE] }, ({ run }) => {
      expect(readFileSync(join(run.project, 'post-output.txt'), 'utf8')).toContain('lab-output-42')
      results.record('post-tool-output', 'honoured', "PostToolUse's toolResult held the output; hooks get it as HOOKRUN_TOOL_OUTPUT")
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
          `the hooks did not run; the notice reached ${[shown && 'the output', toModel && 'the model (SessionStart context)'].filter(Boolean).join(' and ')}`,
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

  test('the router past its Reasonix timeout blocks the call (Reasonix: a timed-out PreToolUse hook blocks)', async () => {
    // The router entry's timeout cut to 1 s and a gate that takes 20: Reasonix kills hookrun mid-gate.
    await scenario(
      'router-timeout',
      {
        hooks: { hooks: [{ name: 'lab-slow', event: 'tool:pre_execute:bash', command: 'sleep 20', timeout: 30 }] },
        turns: [bash('touch late-marker'), DONE],
        before: (run) => {
          const file = join(run.project, '.reasonix', 'settings.json')
          writeFileSync(file, readFileSync(file, 'utf8').replaceAll('600000', '1000'))
        },
      },
      ({ run, server }) => {
        expect(existsSync(join(run.project, 'late-marker'))).toBe(false)
        const told = toolOutputs(server)[0] ?? ''
        expect(told).toContain('timed out')
        results.record(
          'router-timeout',
          'honoured',
          `Reasonix killed hookrun past the entry's timeout and blocked the call; the model got "${told.replace(/\[project\/PreToolUse\] .*? — /, '[project/PreToolUse] <command> — ')}"`,
        )
      },
    )
  })

  test('prompt-block: a gate on the prompt keeps the turn from reaching the model', async () => {
    const hooks = {
      hooks: [{ name: 'lab-prompt-gate', event: 'user:prompt_submit', command: 'echo "lab prompt gate: not this prompt" >&2; exit 2' }],
    }
    await scenario('prompt-block', { hooks, turns: [bash('touch prompt-marker'), DONE] }, ({ run, server, result }) => {
      expect(server.requests.filter(isChatTurn)).toEqual([])
      expect(existsSync(join(run.project, 'prompt-marker'))).toBe(false)
      results.record(
        'prompt-block',
        'honoured',
        `hookrun's exit 2 on UserPromptSubmit: no request reached the model; the person saw the reason on ${shownOn(result, 'lab prompt gate')}`,
      )
    })
  })

  test('subfolder-start', async () => {
    await scenario(
      'subfolder-start',
      { hooks: GATE_HOOKS, cwd: 'sub', turns: [bash('touch forbidden-marker'), DONE] },
      ({ run, server }) => {
        const held = !existsSync(join(run.project, 'sub', 'forbidden-marker'))
        console.log('reasonix subfolder-start: gate held =', held, toolOutputs(server)[0])
        expect(held).toBe(true)
        results.record('subfolder-start', 'honoured', 'started in project/sub: Reasonix found .reasonix/ above it, the gate held')
      },
    )
  })
})

test('results', async () => {
  await results.check()
})
