/**
 * Codex (`codex exec`) in the agent lab: the real CLI against a fake Responses API on 127.0.0.1,
 * wired to hookrun the way a user does it (`hookrun install --agent codex --project`), each
 * scenario asserting what really happened: a marker file, what the model got next, what the
 * person saw. Codex's shell tool is `exec_command {cmd, workdir?}`; its hooks see it as `Bash
 * {command}`.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import { contextHooks, DONE, GATE_HOOKS, scenarioRunner, shownOn } from './scenario.ts'
import { codexConfig, reviewCodexHooks, runCodex } from './codex-cli.ts'
import { checkFixture, labResults, labRun, type LabRun, labVersion, type ModelServer, type Turn } from './lab.ts'
import { expectMcpGateHeld, labMcpServer, mcpHooks } from './mcp.ts'
import { inputItems, startOpenAIResponsesModel } from './models/openai-responses.ts'

const results = labResults('codex')
const FIXTURES = join(ROOT, 'test', 'agents', 'fixtures', 'codex')

/** Everything the model was sent in the last request: tool results, developer and user messages. */
function lastInputText(server: ModelServer): string {
  const last = server.requests.filter((request) => request.url.endsWith('/responses')).at(-1)
  return last === undefined ? '' : JSON.stringify(inputItems(last))
}

/** The output Codex gave the model for each of its tool calls, in order. */
function toolOutputs(server: ModelServer): string[] {
  const last = server.requests.at(-1)
  if (last === undefined) return []
  return inputItems(last)
    .filter((item) => item.type === 'function_call_output')
    .map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)))
}

const scenario = scenarioRunner({
  agent: 'codex',
  startModel: (turns) => startOpenAIResponsesModel(turns),
  configure: (run, server) => codexConfig(run, server),
  run: (run, _server, prompt, cwd) => runCodex(run, prompt, cwd),
  debug: (server, result) => `${JSON.stringify(toolOutputs(server), null, 1)}${result.stdout}STDERR:${result.stderr}`,
})

const gateHooks = GATE_HOOKS
const shell = (cmd: string, workdir?: string): Turn => ({ tool: 'exec_command', input: workdir === undefined ? { cmd } : { cmd, workdir } })
const done = DONE

describe(`Codex ${labVersion('codex')} with hookrun`, () => {
  test('deny-shell', async () => {
    await scenario('deny-shell', { hooks: gateHooks, turns: [shell('touch forbidden-marker'), done] }, ({ run, server, result }) => {
      expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(false)
      expect(toolOutputs(server).join('\n')).toContain('lab gate: forbidden commands are not allowed')
      const where = shownOn(result, 'lab gate')
      results.record(
        'deny-shell',
        'honoured',
        `the command did not run; the model got "Command blocked by PreToolUse hook: <reason>"; the person saw the reason on ${where}`,
      )
    })
  })

  test('allow-shell', async () => {
    await scenario('allow-shell', { hooks: gateHooks, turns: [shell('touch allowed-marker'), done] }, ({ run }) => {
      expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
      results.record('allow-shell', 'honoured', 'the command ran')
    })
  })

  test('rewrite-input', async () => {
    const rewrite = `printf '%s' '{"decision":"allow","updatedInput":{"command":"touch rewritten-marker"}}'`
    const hooks = { hooks: [{ name: 'lab-rewrite', event: 'tool:pre_execute:bash', command: rewrite }] }
    await scenario('rewrite-input', { hooks, turns: [shell('touch original-marker'), done] }, ({ run }) => {
      expect(existsSync(join(run.project, 'rewritten-marker'))).toBe(true)
      expect(existsSync(join(run.project, 'original-marker'))).toBe(false)
      results.record('rewrite-input', 'honoured', 'allow + updatedInput: the rewritten command ran, the original did not')
    })
  })

  test('context', async () => {
    const hooks = contextHooks()
    await scenario('context', { hooks, turns: [shell('true'), done] }, ({ server }) => {
      const first = JSON.stringify(inputItems(server.requests[0]!))
      expect(first).toContain('LAB-CONTEXT-SESSION')
      expect(first).toContain('LAB-CONTEXT-PROMPT')
      expect(lastInputText(server)).toContain('LAB-CONTEXT-POST')
      results.record(
        'context',
        'honoured',
        'SessionStart, UserPromptSubmit and PostToolUse context reached the model as developer messages',
      )
    })
  })

  test('post-tool-output', async () => {
    const hooks = {
      hooks: [{ name: 'lab-post', event: 'tool:post_execute:bash', command: 'cat > "$HOOKRUN_PROJECT_DIR/post-payload.json"' }],
    }
    await scenario('post-tool-output', { hooks, turns: [shell('echo lab-output-42'), done] }, ({ run }) => {
      const payload = JSON.parse(readFileSync(join(run.project, 'post-payload.json'), 'utf8')) as Record<string, unknown>
      expect(String(payload.tool_response)).toContain('lab-output-42')
      results.record('post-tool-output', 'honoured', 'PostToolUse tool_response held the command output')
    })
  })

  test('untrusted-notice', async () => {
    // Never trusted: the gate does not run (nothing blocks), and the notice must reach a channel
    // Codex shows. `codex exec` shows the person nothing a hook writes (no systemMessage, no
    // stderr), so the one channel left is the model's context.
    await scenario(
      'untrusted-notice',
      { hooks: gateHooks, trust: false, turns: [shell('touch forbidden-marker'), done] },
      ({ run, server, result }) => {
        expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(true)
        const notice = /not trusted[^"]*hookrun trust/
        const shown = notice.test(result.stdout) || notice.test(result.stderr)
        const toModel = server.requests.some((request) => notice.test(JSON.stringify(inputItems(request))))
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
    await scenario('timeout-blocks', { hooks, turns: [shell('touch slow-marker'), done] }, ({ run, server }) => {
      expect(existsSync(join(run.project, 'slow-marker'))).toBe(false)
      expect(toolOutputs(server).join('\n')).toMatch(/Command blocked by PreToolUse hook: hook 'lab-slow' timed out/)
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
      { hooks, turns: [shell('touch first-marker'), shell('touch second-marker'), done] },
      ({ run, server }) => {
        expect(existsSync(join(run.project, 'first-marker'))).toBe(false)
        expect(existsSync(join(run.project, 'second-marker'))).toBe(false)
        const [first, second] = toolOutputs(server)
        expect(first).toMatch(/blocked by PreToolUse hook: hook 'lab-crash' failed with exit 1/)
        expect(second).toMatch(/blocked by PreToolUse hook: hook 'lab-killed' was killed by SIGKILL/)
        results.record('crash-blocks', 'honoured', 'a gate that exits 1 and one killed by a signal: neither command ran')
      },
    )
  })

  test('cd-elsewhere', async () => {
    // Outside the project: `cd` in the command, and Codex's own `workdir` argument (the payload's cwd moves with it).
    const outside = (run: LabRun) => join(run.root, 'elsewhere')
    let out = ''
    await scenario(
      'cd-elsewhere',
      {
        hooks: gateHooks,
        turns: [
          shell(`cd ../../elsewhere && touch forbidden-cd`),
          { tool: 'exec_command', input: { cmd: 'touch forbidden-workdir', workdir: '../../elsewhere' } },
          done,
        ],
        before: (run) => {
          out = outside(run)
          mkdirSync(out)
        },
      },
      ({ server }) => {
        expect(toolOutputs(server).filter((output) => output.includes('lab gate: forbidden commands are not allowed'))).toHaveLength(2)
        expect(existsSync(join(out, 'forbidden-cd'))).toBe(false)
        expect(existsSync(join(out, 'forbidden-workdir'))).toBe(false)
        results.record('cd-elsewhere', 'honoured', 'cd out of the project and workdir outside it: both commands denied')
      },
    )
  })

  test('subfolder-start', async () => {
    await scenario(
      'subfolder-start',
      { hooks: gateHooks, cwd: 'sub', turns: [shell('touch forbidden-marker'), done] },
      ({ run, server }) => {
        expect(existsSync(join(run.project, 'sub', 'forbidden-marker'))).toBe(false)
        expect(toolOutputs(server)[0]).toContain('lab gate: forbidden commands are not allowed')
        results.record(
          'subfolder-start',
          'honoured',
          'started in project/sub: Codex loads .codex/ from the project root down, the gate held',
        )
      },
    )
  })

  test('unknown-event', async () => {
    // Codex 0.169 and 0.171 fire PreModelRequest before every model request; hookrun has no name for it.
    // Wired to the router by hand, it must pass (Codex goes on) and the gate must still hold.
    await scenario(
      'unknown-event',
      {
        hooks: gateHooks,
        turns: [shell('touch forbidden-marker'), shell('touch allowed-marker'), done],
        before: (run) => {
          const file = join(run.project, '.codex', 'hooks.json')
          const config = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown> }
          config.hooks.PreModelRequest = [
            {
              hooks: [{ type: 'command', command: 'hookrun fire --format codex 2>>"$HOME/unknown.log"; echo $? >> "$HOME/unknown.exit"' }],
            },
          ]
          writeFileSync(file, JSON.stringify(config, null, 2))
        },
      },
      ({ run, server }) => {
        expect(toolOutputs(server)[0]).toContain('lab gate: forbidden commands are not allowed')
        const exits = readFileSync(join(run.home, 'unknown.exit'), 'utf8').trim().split('\n')
        expect(exits.length).toBeGreaterThanOrEqual(3)
        expect(new Set(exits)).toEqual(new Set(['0']))
        expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(false)
        expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
        results.record(
          'unknown-event',
          'honoured',
          `PreModelRequest (no hookrun name) routed to hookrun: exit 0 on all ${exits.length} fires, the session went on`,
        )
      },
    )
  })

  test('mcp-gate', async () => {
    // labmcp in ~/.codex/config.toml as a user adds it; --dangerously-bypass-approvals-and-sandbox
    // approves its calls. Codex offers MCP tools to the model as a namespace (`mcp__labmcp`, its
    // functions `lab_read`, `lab_wipe`): the model calls a tool by namespace and name, and the
    // hook sees the joined `mcp__labmcp__lab_wipe`.
    const mcpTool = (tool: string): Turn => ({ namespace: 'mcp__labmcp', tool, input: {} })
    await scenario(
      'mcp-gate',
      {
        hooks: mcpHooks,
        turns: [mcpTool('lab_wipe'), mcpTool('lab_read'), done],
        before: (run) => {
          const server = labMcpServer(run)
          appendFileSync(
            join(run.home, '.codex', 'config.toml'),
            `\n[mcp_servers.labmcp]\ncommand = ${JSON.stringify(server.command)}\nargs = ${JSON.stringify(server.args)}\n`,
          )
        },
      },
      ({ run, server }) => {
        const offered = (server.requests[0]!.body as { tools?: { type?: string; name?: string; tools?: { name?: string }[] }[] }).tools
        const namespace = offered?.find((tool) => tool.type === 'namespace' && tool.name === 'mcp__labmcp')
        expect(namespace?.tools?.map((tool) => tool.name).sort()).toEqual(['lab_read', 'lab_wipe'])
        const [wiped, read] = toolOutputs(server)
        expectMcpGateHeld(run, ['mcp__labmcp__lab_wipe', 'mcp__labmcp__lab_read'], { wiped, read })
        results.record(
          'mcp-gate',
          'honoured',
          `the model got labmcp's tools as namespace mcp__labmcp (functions lab_read, lab_wipe); PreToolUse fired for both calls with tool_name mcp__labmcp__lab_wipe / lab_read; the gate stopped lab_wipe (the server never got it, the model got ${JSON.stringify(wiped)}) and lab_read ran`,
        )
      },
    )
  })

  test("Codex's own review step: unreviewed entries are skipped silently, doctor says so, and a review in /hooks makes the gate hold", async () => {
    const run = labRun()
    const server = await startOpenAIResponsesModel([shell('touch forbidden-marker'), done])
    try {
      codexConfig(run, server)
      mkdirSync(join(run.project, '.hookrun'))
      writeFileSync(join(run.project, '.hookrun', 'hooks.json'), JSON.stringify(gateHooks))
      // Every event, so each of the 12 routed entries waits for its review (a narrowed install has 1).
      const install = run.hookrun(['install', '--agent', 'codex', '--project', '--all-events'])
      expect(install.stdout).toContain('Codex runs a new or changed hook only after you review and trust it: open /hooks in Codex')
      expect(run.hookrun(['trust']).status).toBe(0)
      expect(run.hookrun(['doctor']).stdout).toMatch(/FAIL {2}Codex: 12 of hookrun's 12 entries in \S+ never reviewed in Codex's \/hooks/)
      // Not reviewed: codex exec runs the command, and says nothing about the skipped hooks.
      const listed = await reviewCodexHooks(run, run.project, false)
      expect(listed.filter((hook) => hook.trustStatus !== 'untrusted')).toEqual([])
      const skipped = await runCodex(run, 'lab review', run.project, { reviewed: true })
      expect(skipped.status, skipped.stderr).toBe(0)
      expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(true)
      expect(`${skipped.stdout}${skipped.stderr}`).not.toMatch(/hook/i)
      rmSync(join(run.project, 'forbidden-marker'))
      // Reviewed (what trusting them in /hooks writes): doctor is satisfied and the gate holds without the bypass flag.
      await reviewCodexHooks(run, run.project, true)
      expect(run.hookrun(['doctor']).stdout).not.toMatch(/never reviewed/)
      const reviewed = await runCodex(run, 'lab review', run.project, { reviewed: true })
      expect(reviewed.status, reviewed.stderr).toBe(0)
      expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(false)
      console.log(`codex review: ${listed.length} hooks listed (${[...new Set(listed.map((hook) => hook.eventName))].join(', ')})`)
    } finally {
      await server.close()
      run.remove()
    }
  })

  test('Codex itself fails open: a PreToolUse hook that exits 1, is not found, is killed or prints no JSON lets the call run', async () => {
    // What a missing or crashed router means under Codex (hookrun answers exit 0 with JSON itself,
    // even for a payload it cannot read): doctor's "hookrun on PATH" check is the guard.
    for (const command of ['exit 1', 'no-such-hookrun fire --format codex', 'kill -9 $$', 'echo not-json']) {
      const run = labRun()
      const server = await startOpenAIResponsesModel([shell('touch marker'), done])
      try {
        codexConfig(run, server)
        mkdirSync(join(run.project, '.codex'))
        writeFileSync(
          join(run.project, '.codex', 'hooks.json'),
          JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command }] }] } }),
        )
        const result = await runCodex(run, 'lab failing hook')
        expect(result.status, result.stderr).toBe(0)
        expect(existsSync(join(run.project, 'marker')), command).toBe(true)
      } finally {
        await server.close()
        run.remove()
      }
    }
  })

  test('fixtures: the first payload of every event Codex sent', async () => {
    // A plain logging hook per event in the user's ~/.codex/hooks.json: what Codex sends, untouched by hookrun.
    const run = labRun()
    const server = await startOpenAIResponsesModel([shell('echo lab-fixture'), done])
    try {
      codexConfig(run, server)
      const log = join(run.root, 'log')
      mkdirSync(log)
      const events = [
        'SessionStart',
        'UserPromptSubmit',
        'PreModelRequest',
        'PreToolUse',
        'PermissionRequest',
        'PostToolUse',
        'PreCompact',
        'PostCompact',
        'Stop',
        'StopFailure',
        'SubagentStart',
        'SubagentStop',
        'Interrupt',
        'SessionEnd',
      ]
      const hooks = Object.fromEntries(
        events.map((event) => [
          event,
          [{ hooks: [{ type: 'command', command: `[ -e ${log}/${event}.json ] || cat > ${log}/${event}.json` }] }],
        ]),
      )
      writeFileSync(join(run.home, '.codex', 'hooks.json'), JSON.stringify({ hooks }, null, 2))
      const result = await runCodex(run, 'lab fixtures')
      expect(result.status, result.stderr).toBe(0)
      const seen = readdirSync(log).sort()
      expect(seen).toEqual([
        'PostToolUse.json',
        'PreModelRequest.json',
        'PreToolUse.json',
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

/** The payload with the run's folders and ids replaced by stable placeholders, pretty-printed. */
function stableFixture(payload: Record<string, unknown>, run: LabRun): string {
  const text = JSON.stringify(payload, null, 2)
    .replaceAll(run.project, '/home/lab/project')
    .replaceAll(run.home, '/home/lab')
    .replace(/rollout-[0-9T-]+-[0-9a-f-]{36}\.jsonl/g, 'rollout-SESSION.jsonl')
    .replace(/sessions\/\d{4}\/\d{2}\/\d{2}/g, 'sessions/YYYY/MM/DD')
  const ids = new Map<string, string>()
  return `${text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    if (!ids.has(id)) ids.set(id, `00000000-0000-0000-0000-00000000000${ids.size}`)
    return ids.get(id)!
  })}\n`
}
