/**
 * Goose (`goose run`, and `goose session` where a banner must show) in the agent lab: the real CLI
 * from `@aaif/goose-acp` against a fake chat-completions API on 127.0.0.1, wired to hookrun the way
 * a user does it (`hookrun install --agent goose --project`: the plugin .agents/plugins/hookrun/).
 * Goose loads plugins with no trust step of its own. Its shell tool is `shell {command}`, each
 * call a fresh shell in the session folder.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import { contextHooks, DONE, GATE, GATE_HOOKS, scenarioRunner, shownOn } from './scenario.ts'
import { gooseConfig, runGoose, runGooseSession } from './goose-cli.ts'
import { checkFixture, labResults, labRun, type LabRun, labVersion, type ModelServer, type Turn } from './lab.ts'
import { labMcpServer, MCP_GATE_REASON, MCP_RESULT_MARKER, mcpCalls, mcpHooks, mcpSeen } from './mcp.ts'
import { chatMessages, startOpenAIChatModel, toolMessages } from './models/openai-chat.ts'

const results = labResults('goose')
const FIXTURES = join(ROOT, 'test', 'agents', 'fixtures', 'goose')

const chatRequests = (server: ModelServer) => server.requests.filter((request) => request.url.endsWith('/chat/completions'))

/** What the model got back for each of its tool calls, in order (from the last request). */
function toolOutputs(server: ModelServer): string[] {
  const last = chatRequests(server).at(-1)
  return last === undefined
    ? []
    : toolMessages(last).map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
}

const everything = (server: ModelServer) =>
  chatRequests(server)
    .map((request) => JSON.stringify(chatMessages(request)))
    .join('\n')

const driver = {
  agent: 'goose' as const,
  startModel: (turns: readonly Turn[]) => startOpenAIChatModel(turns),
  configure: (run: LabRun, server: ModelServer) => gooseConfig(run, server),
  debug: (server: ModelServer, result: { stdout: string; stderr: string }) =>
    `${JSON.stringify(toolOutputs(server), null, 1)}\n${result.stdout}\n${result.stderr}`,
}
const scenario = scenarioRunner({ ...driver, run: (run, _server, prompt, cwd) => runGoose(run, prompt, cwd) })
/** `goose session`: the CLI that prints SessionStart banners, where hookrun's notices go. */
const sessionScenario = scenarioRunner({ ...driver, run: (run, _server, prompt, cwd) => runGooseSession(run, prompt, cwd) })

const shell = (command: string): Turn => ({ tool: 'shell', input: { command } })
const DENIED = 'Tool call denied by policy hook `hookrun`'

describe(`Goose ${labVersion('goose')} with hookrun`, () => {
  test('deny-shell', async () => {
    await scenario('deny-shell', { hooks: GATE_HOOKS, turns: [shell('touch forbidden-marker'), DONE] }, ({ run, server, result }) => {
      expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(false)
      expect(toolOutputs(server)[0]).toContain(`${DENIED}: lab gate: forbidden commands are not allowed`)
      const where = shownOn(result, 'lab gate: forbidden')
      expect(where).toBe('stdout')
      results.record(
        'deny-shell',
        'honoured',
        `the command did not run; the model got "${DENIED}: <reason>. Do not retry"; the person saw it on ${where}`,
      )
    })
  })

  test('allow-shell', async () => {
    await scenario('allow-shell', { hooks: GATE_HOOKS, turns: [shell('touch allowed-marker'), DONE] }, ({ run }) => {
      expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
      results.record('allow-shell', 'honoured', 'the command ran')
    })
  })

  test('rewrite-input', async () => {
    const rewrite = `printf '%s' '{"updatedInput":{"command":"touch rewritten-marker"}}'`
    const hooks = { hooks: [{ name: 'lab-rewrite', event: 'tool:pre_execute:bash', command: rewrite }] }
    await scenario('rewrite-input', { hooks, turns: [shell('touch original-marker'), DONE] }, ({ run, server, result }) => {
      // Goose has no rewrite: hookrun refuses the call rather than run the input the hook replaced.
      expect(existsSync(join(run.project, 'original-marker'))).toBe(false)
      expect(existsSync(join(run.project, 'rewritten-marker'))).toBe(false)
      const warning = "hook 'lab-rewrite' rewrote this call, but Goose ignores a rewrite on PreToolUse"
      expect(toolOutputs(server)[0]).toContain(warning)
      expect(result.stdout).toContain(warning)
      results.record(
        'rewrite-input',
        'ignored, hookrun warns',
        'Goose has no rewrite: hookrun blocked the call, and the reason the model and the person saw says Goose ignores the rewrite',
      )
    })
  })

  test('context', async () => {
    await sessionScenario('context', { hooks: contextHooks(), turns: [shell('true'), DONE] }, ({ server, result, run }) => {
      for (const marker of ['LAB-CONTEXT-SESSION', 'LAB-CONTEXT-PROMPT', 'LAB-CONTEXT-POST'])
        expect(everything(server)).not.toContain(marker)
      // The person hears it on the one text Goose shows from a hook: the SessionStart banner.
      expect(result.stdout).toContain('hookrun: Goose cannot apply additionalContext on SessionStart')
      const explained = run.hookrun(['explain', '--format', 'goose'], {
        input: JSON.stringify({ event: 'UserPromptSubmit', session_id: 's', matcher_context: 'x', message: 'x' }),
      })
      expect(explained.stdout + explained.stderr).toContain('Goose cannot apply additionalContext on UserPromptSubmit')
      results.record(
        'context',
        'ignored, hookrun warns',
        'no context reached the model; goose session printed the SessionStart banner "hookrun: Goose cannot apply additionalContext…"; explain says it per event',
      )
    })
  })

  test('post-tool-output', async () => {
    const hooks = {
      hooks: [{ name: 'lab-post', event: 'tool:post_execute:bash', command: 'cat > "$HOOKRUN_PROJECT_DIR/post-payload.json"' }],
    }
    await scenario('post-tool-output', { hooks, turns: [shell('echo lab-output-42'), DONE] }, ({ run }) => {
      const payload = JSON.parse(readFileSync(join(run.project, 'post-payload.json'), 'utf8')) as Record<string, unknown>
      expect(payload.event).toBe('PostToolUse')
      // The command (in tool_input) says lab-output-42; what it printed is nowhere.
      expect(Object.keys(payload).filter((key) => /output|response|result/i.test(key))).toEqual([])
      results.record('post-tool-output', 'not applicable', "Goose's PostToolUse carries the tool input only, no output")
    })
  })

  test('untrusted-notice', async () => {
    await sessionScenario(
      'untrusted-notice',
      { hooks: GATE_HOOKS, trust: false, turns: [shell('touch forbidden-marker'), DONE] },
      ({ run, result }) => {
        expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(true)
        expect(result.stdout).toMatch(/not trusted[^\n]*hookrun trust/)
        results.record(
          'untrusted-notice',
          'honoured',
          'the hooks did not run; goose session printed the notice as a SessionStart banner (goose run prints no banners)',
        )
      },
    )
  })

  test('timeout-blocks', async () => {
    const hooks = { hooks: [{ name: 'lab-slow', event: 'tool:pre_execute:bash', command: 'sleep 30', timeout: 1 }] }
    await scenario('timeout-blocks', { hooks, turns: [shell('touch slow-marker'), DONE] }, ({ run, server }) => {
      expect(existsSync(join(run.project, 'slow-marker'))).toBe(false)
      expect(toolOutputs(server)[0]).toMatch(/policy hook `hookrun`: hook 'lab-slow' timed out/)
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
      { hooks, turns: [shell('touch first-marker'), shell('touch second-marker'), DONE] },
      ({ run, server }) => {
        expect(existsSync(join(run.project, 'first-marker'))).toBe(false)
        expect(existsSync(join(run.project, 'second-marker'))).toBe(false)
        const [first, second] = toolOutputs(server)
        expect(first).toMatch(/hook 'lab-crash' failed with exit 1/)
        expect(second).toMatch(/hook 'lab-killed' was killed by SIGKILL/)
        results.record('crash-blocks', 'honoured', 'a gate that exits 1 and one killed by a signal: neither command ran')
      },
    )
  })

  test('cd-elsewhere', async () => {
    let out = ''
    await scenario(
      'cd-elsewhere',
      {
        hooks: GATE_HOOKS,
        turns: [shell('cd ../../elsewhere && touch forbidden-cd'), shell('cd ../../elsewhere && touch allowed-cd'), DONE],
        before: (run) => {
          out = join(run.root, 'elsewhere')
          mkdirSync(out)
        },
      },
      ({ server }) => {
        expect(toolOutputs(server)[0]).toContain('lab gate: forbidden commands are not allowed')
        expect(existsSync(join(out, 'forbidden-cd'))).toBe(false)
        expect(existsSync(join(out, 'allowed-cd'))).toBe(true)
        results.record(
          'cd-elsewhere',
          'honoured',
          'a command that cd-s out of the project: the gate denied it (working_dir stays the project)',
        )
      },
    )
  })

  test('subfolder-start', async () => {
    // Goose reads project plugins only in the folder it starts in: the user install routes sub/.
    await scenario(
      'subfolder-start',
      {
        hooks: GATE_HOOKS,
        cwd: 'sub',
        turns: [shell('touch forbidden-marker'), DONE],
        before: (run) => {
          mkdirSync(join(run.project, 'sub'))
          const doctor = run.hookrun(['doctor'], { cwd: join(run.project, 'sub') })
          expect(doctor.stdout).toContain('started here')
          expect(run.hookrun(['install', '--agent', 'goose']).status).toBe(0)
        },
      },
      ({ run, server }) => {
        expect(existsSync(join(run.project, 'sub', 'forbidden-marker'))).toBe(false)
        expect(toolOutputs(server)[0]).toContain('lab gate: forbidden commands are not allowed')
        results.record(
          'subfolder-start',
          'honoured',
          'started in project/sub, where Goose reads no project plugin (doctor says so): the user install (~/.agents/plugins/hookrun) held the gate',
        )
      },
    )
  })

  test('unknown-event', async () => {
    // PreToolUseResult and BeforeShellExecution have no entry of hookrun's; wired by hand, they must pass silently.
    const events = ['PreToolUseResult', 'BeforeShellExecution']
    await scenario(
      'unknown-event',
      {
        hooks: GATE_HOOKS,
        turns: [shell('touch forbidden-marker'), shell('touch allowed-marker'), DONE],
        before: (run) => {
          const file = join(run.project, '.agents', 'plugins', 'hookrun', 'hooks', 'hooks.json')
          const config = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown> }
          for (const event of events) {
            const command = `out=$(hookrun fire --format goose 2>>"$HOME/unknown.log"); echo "${event} $? \${#out}" >> "$HOME/unknown.exit"; printf %s "$out"`
            config.hooks[event] = [{ matcher: '.*', hooks: [{ type: 'command', command }] }]
          }
          writeFileSync(file, JSON.stringify(config, null, 2))
        },
      },
      ({ run, server }) => {
        expect(toolOutputs(server)[0]).toContain('lab gate: forbidden commands are not allowed')
        expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
        const exits = readFileSync(join(run.home, 'unknown.exit'), 'utf8').trim().split('\n')
        expect(new Set(exits.map((line) => line.split(' ')[0]))).toEqual(new Set(events))
        // Exit 0 and nothing on stdout: Goose reads any stray text as a failed hook.
        expect(exits.filter((line) => !line.endsWith(' 0 0'))).toEqual([])
        results.record(
          'unknown-event',
          'honoured',
          `${events.join(', ')} routed to hookrun: exit 0, empty stdout on all ${exits.length} fires`,
        )
      },
    )
  })

  test('mcp-gate', async () => {
    // The lab's server as a stdio extension in config.yaml; Goose names its tools <extension>__<tool>.
    const addServer = (run: LabRun) => {
      const server = labMcpServer(run)
      const yaml = [
        '  labmcp:',
        '    enabled: true',
        '    name: labmcp',
        '    type: stdio',
        `    cmd: ${JSON.stringify(server.command)}`,
        `    args: [${server.args.map((arg) => JSON.stringify(arg)).join(', ')}]`,
        '    envs: {}',
        '    timeout: 300',
        '',
      ].join('\n')
      appendFileSync(join(run.env.XDG_CONFIG_HOME!, 'goose', 'config.yaml'), yaml)
    }
    const turns = [{ tool: 'labmcp__lab_wipe', input: {} }, { tool: 'labmcp__lab_read', input: {} }, DONE]
    await scenario('mcp-gate', { hooks: mcpHooks, turns, before: addServer }, ({ run, server }) => {
      expect(mcpCalls(run)).toEqual(['lab_read'])
      expect(mcpSeen(run)).toEqual(['labmcp lab_wipe labmcp__lab_wipe', 'labmcp lab_read labmcp__lab_read'])
      const [wiped, read] = toolOutputs(server)
      expect(wiped).toContain(`${DENIED}: ${MCP_GATE_REASON}`)
      expect(read).toContain(MCP_RESULT_MARKER)
      results.record(
        'mcp-gate',
        'honoured',
        `PreToolUse fired for both MCP calls (tool_name labmcp__lab_wipe / labmcp__lab_read, no server field); the gate stopped lab_wipe (the server never got it, the model got ${JSON.stringify(wiped)}) and lab_read ran, its result reaching the model`,
      )
    })
  })

  test('Stop: a block makes Goose go on, with the reason as the next message', async () => {
    const stop = `[ -e "$HOOKRUN_PROJECT_DIR/stopped-once" ] || { touch "$HOOKRUN_PROJECT_DIR/stopped-once"; echo "lab stop: write the summary first" >&2; exit 2; }`
    const hooks = { hooks: [{ name: 'lab-stop', event: 'agent:stop', command: stop }] }
    await scenario('stop', { hooks, turns: [DONE] }, ({ server }) => {
      const requests = chatRequests(server).filter((request) => Array.isArray((request.body as { tools?: unknown }).tools))
      expect(requests.length).toBeGreaterThan(1)
      expect(JSON.stringify(chatMessages(requests.at(-1)!))).toContain('lab stop: write the summary first')
    })
  })

  test('ms per tool call: hookrun and a plain shell hook', async () => {
    // What one PreToolUse costs, timed inside the hook's own shell (the same sh Goose starts for
    // either): the plain hook is the lab's gate in sh, the hookrun one its router with that gate.
    const calls = 12
    const turns = [...Array.from({ length: calls }, (_, index) => shell(`echo call-${index}`)), DONE]
    const timing = (command: string) =>
      `t0=$(date +%s%N); out=$(${command}); rc=$?; echo $(( ($(date +%s%N) - t0) / 1000 )) >> "$HOME/times"; printf %s "$out"; exit $rc`
    const timed = async (name: string, wire: (run: LabRun) => string) => {
      const run = labRun()
      const server = await startOpenAIChatModel(turns)
      try {
        gooseConfig(run, server)
        const file = wire(run)
        const config = JSON.parse(readFileSync(file, 'utf8')) as { hooks: { PreToolUse: Array<{ hooks: Array<{ command: string }> }> } }
        for (const handler of config.hooks.PreToolUse[0]!.hooks) handler.command = timing(handler.command)
        writeFileSync(file, JSON.stringify(config))
        const result = await runGoose(run, 'lab timing')
        expect(result.status, result.stderr).toBe(0)
        expect(toolOutputs(server)).toHaveLength(calls)
        const micros = readFileSync(join(run.home, 'times'), 'utf8')
          .trim()
          .split('\n')
          .map(Number)
          .sort((a, b) => a - b)
        expect(micros).toHaveLength(calls)
        console.log(
          `goose ms per tool call, ${name}: median ${(micros[calls >> 1]! / 1000).toFixed(1)}, min ${(micros[0]! / 1000).toFixed(1)} (${calls} calls, run ${Math.round(result.ms)} ms)`,
        )
      } finally {
        await server.close()
        run.remove()
      }
    }
    await timed('plain shell hook', (run) => {
      const dir = join(run.project, '.agents', 'plugins', 'plain')
      mkdirSync(join(dir, 'hooks'), { recursive: true })
      writeFileSync(join(dir, 'plugin.json'), '{"name":"plain","version":"1.0.0"}\n')
      const gate = `HOOKRUN_BASH_COMMAND=$(cat); ${GATE}`
      writeFileSync(
        join(dir, 'hooks', 'hooks.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: '.*', hooks: [{ type: 'command', command: gate }] }] } }),
      )
      return join(dir, 'hooks', 'hooks.json')
    })
    await timed('hookrun', (run) => {
      mkdirSync(join(run.project, '.hookrun'))
      writeFileSync(join(run.project, '.hookrun', 'hooks.json'), JSON.stringify(GATE_HOOKS))
      expect(run.hookrun(['install', '--agent', 'goose', '--project']).status).toBe(0)
      expect(run.hookrun(['trust']).status).toBe(0)
      return join(run.project, '.agents', 'plugins', 'hookrun', 'hooks', 'hooks.json')
    })
  })

  test('fixtures: the first payload of every event Goose sent', async () => {
    const run = labRun()
    const server = await startOpenAIChatModel([shell('echo lab-fixture'), shell('exit 3'), DONE])
    try {
      gooseConfig(run, server)
      const log = join(run.root, 'log')
      mkdirSync(log)
      const events = [
        'SessionStart',
        'SessionEnd',
        'Stop',
        'UserPromptSubmit',
        'PreToolUse',
        'PreToolUseResult',
        'PostToolUse',
        'PostToolUseFailure',
        'BeforeReadFile',
        'AfterFileEdit',
        'BeforeShellExecution',
        'AfterShellExecution',
      ]
      const hooks = Object.fromEntries(
        events.map((event) => [
          event,
          [{ matcher: '.*', hooks: [{ type: 'command', command: `[ -e ${log}/${event}.json ] || cat > ${log}/${event}.json` }] }],
        ]),
      )
      const dir = join(run.project, '.agents', 'plugins', 'log', 'hooks')
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'hooks.json'), JSON.stringify({ hooks }, null, 2))
      const result = await runGoose(run, 'lab fixtures')
      expect(result.status, result.stderr).toBe(0)
      const seen = readdirSync(log).sort()
      expect(seen).toEqual([
        'AfterShellExecution.json',
        'BeforeShellExecution.json',
        'PostToolUse.json',
        'PostToolUseFailure.json',
        'PreToolUse.json',
        'PreToolUseResult.json',
        'SessionEnd.json',
        'SessionStart.json',
        'Stop.json',
        'UserPromptSubmit.json',
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

/** The payload with the run's folders and session id replaced by stable placeholders, pretty-printed. */
function stableFixture(payload: Record<string, unknown>, run: LabRun): string {
  const stable = { ...payload, ...(typeof payload.session_id === 'string' && { session_id: '20260101_1' }) }
  return `${JSON.stringify(stable, null, 2).replaceAll(run.project, '/home/lab/project').replaceAll(run.home, '/home/lab')}\n`
}
