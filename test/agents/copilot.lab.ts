/**
 * GitHub Copilot CLI (`copilot -p`) in the agent lab: the real CLI against a fake chat-completions
 * API on 127.0.0.1 (COPILOT_OFFLINE, a provider of our own), wired to hookrun the way a user does
 * it (`hookrun install --agent copilot --project`: .github/hooks/hookrun.json), the project a
 * trusted folder in ~/.copilot/config.json (else Copilot loads no repository hooks). Its shell
 * tool is `bash {command, description}`, a shell session that keeps its cwd between calls.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import { contextHooks, DONE, GATE_HOOKS, scenarioRunner, shownOn } from './scenario.ts'
import { copilotConfig, runCopilot } from './copilot-cli.ts'
import { checkFixture, labResults, labRun, type LabRun, labVersion, type ModelServer, type Turn } from './lab.ts'
import { expectMcpGateHeld, labMcpServer, mcpHooks } from './mcp.ts'
import { chatMessages, isChatTurn, startOpenAIChatModel, toolMessages } from './models/openai-chat.ts'

const results = labResults('copilot')
const FIXTURES = join(ROOT, 'test', 'agents', 'fixtures', 'copilot')

/** What the model got back for each of its tool calls, in order (from the last request). */
function toolOutputs(server: ModelServer): string[] {
  const last = server.requests.filter((request) => request.url.endsWith('/chat/completions')).at(-1)
  return last === undefined
    ? []
    : toolMessages(last).map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
}

const conversation = (server: ModelServer, index: number) =>
  JSON.stringify(chatMessages(server.requests.filter((request) => request.url.endsWith('/chat/completions'))[index]!))

const scenario = scenarioRunner({
  agent: 'copilot',
  startModel: (turns) => startOpenAIChatModel(turns),
  configure: (run) => copilotConfig(run),
  run: (run, server, prompt, cwd) => runCopilot(run, server, prompt, cwd),
  debug: (server, result) => `${JSON.stringify(toolOutputs(server), null, 1)}${result.stderr}`,
})

const gateHooks = GATE_HOOKS
const bashCall = (command: string): Turn => ({ tool: 'bash', input: { command, description: 'lab step' } })
const done = DONE

describe(`Copilot CLI ${labVersion('copilot')} with hookrun`, () => {
  test('deny-shell', async () => {
    await scenario('deny-shell', { hooks: gateHooks, turns: [bashCall('touch forbidden-marker'), done] }, ({ run, server, result }) => {
      expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(false)
      expect(toolOutputs(server)[0]).toContain('Denied by preToolUse hook: lab gate: forbidden commands are not allowed')
      const where = shownOn(result, 'lab gate')
      results.record(
        'deny-shell',
        'honoured',
        `the command did not run; the model got "Denied by preToolUse hook: <reason>"; the person saw the reason on ${where}`,
      )
    })
  })

  test('allow-shell', async () => {
    await scenario('allow-shell', { hooks: gateHooks, turns: [bashCall('touch allowed-marker'), done] }, ({ run }) => {
      expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
      results.record('allow-shell', 'honoured', 'the command ran')
    })
  })

  test('rewrite-input', async () => {
    // A hook rewrites only `command`, as a user's would: the rest of the call's arguments stay.
    const rewrite = `printf '%s' '{"updatedInput":{"command":"touch rewritten-marker"}}'`
    const hooks = { hooks: [{ name: 'lab-rewrite', event: 'tool:pre_execute:bash', command: rewrite }] }
    await scenario('rewrite-input', { hooks, turns: [bashCall('touch original-marker'), done] }, ({ run }) => {
      expect(existsSync(join(run.project, 'rewritten-marker'))).toBe(true)
      expect(existsSync(join(run.project, 'original-marker'))).toBe(false)
      results.record('rewrite-input', 'honoured', 'modifiedArgs: the rewritten command ran, the original did not')
    })
  })

  test('context', async () => {
    const hooks = contextHooks()
    await scenario('context', { hooks, turns: [bashCall('true'), done] }, ({ server }) => {
      const first = conversation(server, 0)
      expect(first).toContain('LAB-CONTEXT-SESSION')
      expect(first).toContain('LAB-CONTEXT-PROMPT')
      expect(conversation(server, -1 + server.requests.filter((request) => request.url.endsWith('/chat/completions')).length)).toContain(
        'LAB-CONTEXT-POST',
      )
      results.record('context', 'honoured', 'sessionStart, userPromptSubmitted and postToolUse context reached the model')
    })
  })

  test('post-tool-output', async () => {
    const hooks = {
      hooks: [
        {
          name: 'lab-post',
          event: 'tool:post_execute:bash',
          command:
            'cat > "$HOOKRUN_PROJECT_DIR/post-payload.json"; printf %s "$HOOKRUN_TOOL_OUTPUT" > "$HOOKRUN_PROJECT_DIR/post-output.txt"',
        },
      ],
    }
    await scenario('post-tool-output', { hooks, turns: [bashCall('echo lab-output-42'), done] }, ({ run }) => {
      const payload = readFileSync(join(run.project, 'post-payload.json'), 'utf8')
      expect(payload).toContain('lab-output-42')
      expect(readFileSync(join(run.project, 'post-output.txt'), 'utf8')).toContain('lab-output-42')
      results.record(
        'post-tool-output',
        'honoured',
        'postToolUse toolResult.textResultForLlm held the output; hooks get it as HOOKRUN_TOOL_OUTPUT',
      )
    })
  })

  test('untrusted-notice', async () => {
    // Never trusted by hookrun (Copilot trusts the folder): the gate does not run, and the notice
    // must reach a channel Copilot shows. With --output-format json a progress line is not printed.
    await scenario(
      'untrusted-notice',
      { hooks: gateHooks, trust: false, turns: [bashCall('touch forbidden-marker'), done] },
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
    await scenario('timeout-blocks', { hooks, turns: [bashCall('touch slow-marker'), done] }, ({ run, server }) => {
      expect(existsSync(join(run.project, 'slow-marker'))).toBe(false)
      expect(toolOutputs(server)[0]).toMatch(/Denied by preToolUse hook: hook 'lab-slow' timed out/)
      results.record('timeout-blocks', 'honoured', 'a gate past its timeout: the command did not run; the model got why')
    })
  })

  test('crash-blocks', async () => {
    const hooks = {
      hooks: [
        { name: 'lab-crash', event: 'tool:pre_execute:bash', command: 'case "$HOOKRUN_BASH_COMMAND" in *first*) exit 1;; esac' },
        { name: 'lab-killed', event: 'tool:pre_execute:bash', command: 'case "$HOOKRUN_BASH_COMMAND" in *second*) kill -9 $$;; esac' },
      ],
    }
    await scenario(
      'crash-blocks',
      { hooks, turns: [bashCall('touch first-marker'), bashCall('touch second-marker'), done] },
      ({ run, server }) => {
        expect(existsSync(join(run.project, 'first-marker'))).toBe(false)
        expect(existsSync(join(run.project, 'second-marker'))).toBe(false)
        const [first, second] = toolOutputs(server)
        expect(first).toMatch(/Denied by preToolUse hook: hook 'lab-crash' failed with exit 1/)
        expect(second).toMatch(/Denied by preToolUse hook: hook 'lab-killed' was killed by SIGKILL/)
        results.record('crash-blocks', 'honoured', 'a gate that exits 1 and one killed by a signal: neither command ran')
      },
    )
  })

  test('cd-elsewhere', async () => {
    // Copilot's bash is one shell session: after `cd`, later calls run outside the project.
    let out = ''
    await scenario(
      'cd-elsewhere',
      {
        hooks: gateHooks,
        turns: [bashCall('cd ../../elsewhere && touch forbidden-cd'), bashCall('touch forbidden-after-cd'), done],
        before: (run) => {
          out = join(run.root, 'elsewhere')
          mkdirSync(out)
        },
      },
      ({ server }) => {
        expect(toolOutputs(server).filter((output) => output.includes('lab gate: forbidden commands are not allowed'))).toHaveLength(2)
        expect(existsSync(join(out, 'forbidden-cd'))).toBe(false)
        expect(existsSync(join(out, 'forbidden-after-cd'))).toBe(false)
        results.record('cd-elsewhere', 'honoured', 'cd out of the project (the shell session keeps it): both commands denied')
      },
    )
  })

  test('subfolder-start', async () => {
    await scenario(
      'subfolder-start',
      { hooks: gateHooks, cwd: 'sub', turns: [bashCall('touch forbidden-marker'), done] },
      ({ run, server }) => {
        expect(existsSync(join(run.project, 'sub', 'forbidden-marker'))).toBe(false)
        expect(toolOutputs(server)[0]).toContain('lab gate: forbidden commands are not allowed')
        results.record('subfolder-start', 'honoured', 'started in project/sub: Copilot finds .github/hooks above it, the gate held')
      },
    )
  })

  test('unknown-event', async () => {
    // Copilot 1.0.102 has hook events hookrun has no name for (userPromptTransformed, postResult,
    // preMcpToolCall, prePRDescription). Wired to the router by hand, they must pass.
    await scenario(
      'unknown-event',
      {
        hooks: gateHooks,
        turns: [bashCall('touch forbidden-marker'), bashCall('touch allowed-marker'), done],
        before: (run) => {
          const file = join(run.project, '.github', 'hooks', 'hookrun.json')
          const config = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown> }
          for (const event of ['userPromptTransformed', 'postResult']) {
            config.hooks[event] = [
              {
                type: 'command',
                bash: `hookrun fire ${event} --format copilot 2>>"$HOME/unknown.log"; echo "${event} $?" >> "$HOME/unknown.exit"`,
              },
            ]
          }
          writeFileSync(file, JSON.stringify(config, null, 2))
        },
      },
      ({ run, server }) => {
        expect(toolOutputs(server)[0]).toContain('lab gate: forbidden commands are not allowed')
        expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(false)
        expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
        const exits = existsSync(join(run.home, 'unknown.exit'))
          ? readFileSync(join(run.home, 'unknown.exit'), 'utf8').trim().split('\n')
          : []
        expect(exits.length, 'no unknown event fired').toBeGreaterThan(0)
        expect(
          exits.filter((line) => !line.endsWith(' 0')),
          readFileSync(join(run.home, 'unknown.log'), 'utf8'),
        ).toEqual([])
        const fired = [...new Set(exits.map((line) => line.split(' ')[0]))].join(', ')
        results.record(
          'unknown-event',
          'honoured',
          `${fired} (no hookrun name) routed to hookrun: exit 0 on all ${exits.length} fires, the session went on`,
        )
      },
    )
  })

  test('claude-entries-alone', async () => {
    // Only `install --agent claude --project`: Copilot runs .claude/settings.local.json itself.
    const counter = 'echo ran >> "$HOOKRUN_PROJECT_DIR/gate-runs.txt"'
    const hooks = {
      hooks: [
        ...(contextHooks() as { hooks: object[] }).hooks,
        { name: 'lab-count', event: 'tool:pre_execute:bash', command: counter },
        ...gateHooks.hooks,
      ],
    }
    await scenario(
      'claude-entries-alone',
      {
        hooks,
        turns: [bashCall('touch forbidden-marker'), bashCall('touch allowed-marker'), done],
        before: (run) => {
          expect(run.hookrun(['uninstall', '--agent', 'copilot', '--project']).status).toBe(0)
          expect(run.hookrun(['install', '--agent', 'claude', '--project']).status).toBe(0)
        },
      },
      ({ run, server }) => {
        expect(existsSync(join(run.project, '.github', 'hooks', 'hookrun.json'))).toBe(false)
        expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(false)
        expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
        expect(toolOutputs(server)[0]).toContain('lab gate: forbidden commands are not allowed')
        expect(readFileSync(join(run.project, 'gate-runs.txt'), 'utf8').trim().split('\n')).toHaveLength(2)
        const first = conversation(server, 0)
        expect(first).toContain('LAB-CONTEXT-SESSION')
        expect(first).toContain('LAB-CONTEXT-PROMPT')
        results.record(
          'claude-entries-alone',
          'honoured',
          "Claude Code's entries alone: the gate denied, each call ran the hooks once, and session-start and prompt context (a top-level additionalContext) reached the model",
        )
      },
    )
  })

  test('claude-and-copilot-entries', async () => {
    // Both installs in one project: Copilot runs .github/hooks, then .claude; the hooks run once.
    const counter = 'echo ran >> "$HOOKRUN_PROJECT_DIR/gate-runs.txt"'
    const starts = 'echo start >> "$HOOKRUN_PROJECT_DIR/session-runs.txt"'
    const hooks = {
      hooks: [
        ...(contextHooks() as { hooks: object[] }).hooks,
        { name: 'lab-count', event: 'tool:pre_execute:bash', command: counter },
        { name: 'lab-starts', event: 'session:start', command: starts },
      ],
    }
    await scenario(
      'claude-and-copilot-entries',
      {
        hooks,
        turns: [bashCall('touch allowed-marker'), done],
        before: (run) => expect(run.hookrun(['install', '--agent', 'claude', '--project']).status).toBe(0),
      },
      ({ run, server }) => {
        expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
        expect(readFileSync(join(run.project, 'gate-runs.txt'), 'utf8').trim().split('\n')).toEqual(['ran'])
        expect(readFileSync(join(run.project, 'session-runs.txt'), 'utf8').trim().split('\n')).toEqual(['start'])
        const first = conversation(server, 0)
        expect(first.split('LAB-CONTEXT-SESSION')).toHaveLength(2)
        expect(first).toContain('LAB-CONTEXT-PROMPT')
        results.record(
          'claude-and-copilot-entries',
          'honoured',
          "with hookrun's Copilot and Claude Code entries both installed: one shell call ran the gate once, one session start ran its hook once, and its context reached the model once",
        )
      },
    )
  })

  test('mcp-gate', async () => {
    // labmcp in ~/.copilot/mcp-config.json as a user adds it; --allow-all-tools approves its calls.
    // Copilot offers the model MCP tools as `<server>-<tool>` and its preToolUse payload names no
    // server (toolName `labmcp-lab_wipe`): hookrun reads the server and the tool from the name.
    const mcpTool = (name: string): Turn => ({ tool: name, input: {} })
    await scenario(
      'mcp-gate',
      {
        hooks: mcpHooks,
        turns: [mcpTool('labmcp-lab_wipe'), mcpTool('labmcp-lab_read'), done],
        before: (run) => {
          const server = labMcpServer(run)
          const labmcp = { type: 'local', command: server.command, args: server.args, tools: ['*'] }
          writeFileSync(join(run.home, '.copilot', 'mcp-config.json'), `${JSON.stringify({ mcpServers: { labmcp } }, null, 2)}\n`)
        },
      },
      ({ run, server }) => {
        const offered = (server.requests.find(isChatTurn)!.body as { tools: { function?: { name?: string } }[] }).tools
        expect(offered.map((tool) => tool.function?.name).filter((name) => name?.startsWith('labmcp'))).toEqual([
          'labmcp-lab_read',
          'labmcp-lab_wipe',
        ])
        const [wiped, read] = toolOutputs(server)
        expectMcpGateHeld(run, ['labmcp-lab_wipe', 'labmcp-lab_read'], { wiped, read })
        results.record(
          'mcp-gate',
          'honoured',
          `the model got labmcp's tools as labmcp-lab_read / labmcp-lab_wipe; preToolUse fired for both calls with toolName labmcp-lab_wipe / labmcp-lab_read (no server field), read as server labmcp; the gate stopped lab_wipe (the server never got it, the model got ${JSON.stringify(wiped)}) and lab_read ran`,
        )
      },
    )
  })

  test('Copilot itself fails closed: a preToolUse hook that exits 1 or is not found denies the call', async () => {
    for (const bash of ['exit 1', 'no-such-hookrun fire preToolUse --format copilot']) {
      const run = labRun()
      const server = await startOpenAIChatModel([bashCall('touch marker'), done])
      try {
        copilotConfig(run)
        mkdirSync(join(run.project, '.github', 'hooks'), { recursive: true })
        writeFileSync(
          join(run.project, '.github', 'hooks', 'failing.json'),
          JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash }] } }),
        )
        const result = await runCopilot(run, server, 'lab failing hook')
        expect(result.status, result.stderr).toBe(0)
        expect(existsSync(join(run.project, 'marker')), bash).toBe(false)
        console.log(`copilot, a preToolUse hook \`${bash}\`: the model got ${JSON.stringify(toolOutputs(server)[0])}`)
      } finally {
        await server.close()
        run.remove()
      }
    }
  })

  test('fixtures: the first payload of every event Copilot sent', async () => {
    // A plain logging hook per event in a hooks file of its own: what Copilot sends, untouched by hookrun.
    const run = labRun()
    const server = await startOpenAIChatModel([bashCall('echo lab-fixture'), bashCall('exit 3'), done])
    try {
      copilotConfig(run)
      const log = join(run.root, 'log')
      mkdirSync(log)
      const events = [
        'sessionStart',
        'userPromptSubmitted',
        'userPromptTransformed',
        'preToolUse',
        'preMcpToolCall',
        'permissionRequest',
        'postToolUse',
        'postToolUseFailure',
        'postResult',
        'prePRDescription',
        'agentStop',
        'subagentStart',
        'subagentStop',
        'preCompact',
        'errorOccurred',
        'notification',
        'sessionEnd',
      ]
      const hooks = Object.fromEntries(
        events.map((event) => [event, [{ type: 'command', bash: `[ -e ${log}/${event}.json ] || cat > ${log}/${event}.json` }]]),
      )
      mkdirSync(join(run.project, '.github', 'hooks'), { recursive: true })
      writeFileSync(join(run.project, '.github', 'hooks', 'log.json'), JSON.stringify({ version: 1, hooks }, null, 2))
      const result = await runCopilot(run, server, 'lab fixtures')
      expect(result.status, result.stderr).toBe(0)
      const seen = readdirSync(log).sort()
      expect(seen).toEqual([
        'agentStop.json',
        'permissionRequest.json',
        'postToolUse.json',
        'preToolUse.json',
        'sessionEnd.json',
        'sessionStart.json',
        'userPromptSubmitted.json',
        'userPromptTransformed.json',
      ])
      for (const file of seen) {
        const payload = JSON.parse(readFileSync(join(log, file), 'utf8')) as Record<string, unknown>
        await checkFixture(stableFixture(payload, run), join(FIXTURES, file))
      }
    } finally {
      await server.close()
      run.remove()
    }
  })

  test('results', async () => {
    await results.check()
  })
})

/** The payload with the run's folders, ids and times replaced by stable placeholders, pretty-printed. */
function stableFixture(payload: Record<string, unknown>, run: LabRun): string {
  const stable = { ...payload, ...(typeof payload.timestamp === 'number' && { timestamp: 1767225600000 }) }
  const text = JSON.stringify(stable, null, 2)
    .replaceAll(run.project, '/home/lab/project')
    .replaceAll(run.home, '/home/lab')
    .replace(/<current_datetime>[^<]*<\/current_datetime>/g, '<current_datetime>2026-01-01T00:00:00.000+00:00</current_datetime>')
  const ids = new Map<string, string>()
  return `${text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    if (!ids.has(id)) ids.set(id, `00000000-0000-0000-0000-00000000000${ids.size}`)
    return ids.get(id)!
  })}\n`
}
