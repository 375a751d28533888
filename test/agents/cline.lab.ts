/**
 * Cline CLI (`cline --json PROMPT`, npm `cline`) in the agent lab: the real CLI against a fake
 * chat-completions API on 127.0.0.1 (`cline auth -p openai -b …`), wired to hookrun the way a user
 * does it (`hookrun install --agent cline --project`: one wrapper file per event in .cline/hooks/),
 * run in a terminal of its own so that what hookrun writes there is what the person saw. Its shell
 * tool is `run_commands {commands: [...]}`. A cancel from PreToolUse ends Cline's whole run.
 * The scenarios run one after another: run together on a 2-core machine they took longer.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import { clineAuth, clineEvents, runCline } from './cline-cli.ts'
import { checkFixture, labResults, labRun, type LabRun, labVersion, type ModelServer, type Turn } from './lab.ts'
import { labMcpServer, MCP_GATE_REASON, MCP_RESULT_MARKER, mcpCalls, mcpHooks, mcpSeen } from './mcp.ts'
import { chatMessages, isChatTurn, startOpenAIChatModel } from './models/openai-chat.ts'
import { DONE, GATE_HOOKS, type Outcome, scenarioRunner } from './scenario.ts'

const results = labResults('cline')
const FIXTURES = join(ROOT, 'test', 'agents', 'fixtures', 'cline')
const REASON = 'lab gate: forbidden commands are not allowed'

const scenario = scenarioRunner({
  agent: 'cline',
  startModel: (turns) => startOpenAIChatModel(turns),
  configure: (run, server) => clineAuth(run, server),
  run: (run, _server, prompt, cwd) => runCline(run, prompt, cwd),
  debug: (server, result) => `${server.requests.length} requests\n${result.stdout}`,
})

const commands = (...list: string[]): Turn => ({ tool: 'run_commands', input: { commands: list } })
const chatTurns = (server: ModelServer) => server.requests.filter(isChatTurn)
const lastConversation = (server: ModelServer) => JSON.stringify(chatMessages(chatTurns(server).at(-1)!))

/** Cline ended the run on a cancel: `run_aborted` in its output, and no model request after the call. */
function expectAborted({ server, result }: Outcome): void {
  expect(clineEvents(result).some((event) => event.type === 'run_aborted')).toBe(true)
  expect(chatTurns(server)).toHaveLength(1)
}

describe(`Cline CLI ${labVersion('cline')} with hookrun`, () => {
  test('deny-shell', async () => {
    await scenario('deny-shell', { hooks: GATE_HOOKS, turns: [commands('touch forbidden-marker'), DONE] }, (outcome) => {
      expect(existsSync(join(outcome.run.project, 'forbidden-marker'))).toBe(false)
      expectAborted(outcome)
      // The model never sees errorMessage; the person sees hookrun's line on the terminal.
      expect(JSON.stringify(chatMessages(chatTurns(outcome.server)[0]!))).not.toContain(REASON)
      expect(outcome.result.stdout).toContain(`hookrun stopped Cline's run (PreToolUse run_commands): ${REASON}`)
      results.record(
        'deny-shell',
        'honoured',
        "the command did not run; Cline ended the whole run (run_aborted, 'aborted by another client') and the model never saw the reason; the person saw it on the terminal, where hookrun writes it",
      )
    })
  })

  test('allow-shell', async () => {
    await scenario('allow-shell', { hooks: GATE_HOOKS, turns: [commands('touch allowed-marker'), DONE] }, ({ run, server }) => {
      expect(existsSync(join(run.project, 'allowed-marker'))).toBe(true)
      expect(chatTurns(server)).toHaveLength(2)
      results.record('allow-shell', 'honoured', 'the command ran and the run went on')
    })
  })

  test('rewrite-input', async () => {
    // A hook rewrites only `command`, as a user's would: hookrun sends Cline `commands` in its place.
    const rewrite = `printf '%s' '{"updatedInput":{"command":"touch rewritten-marker"}}'`
    const hooks = { hooks: [{ name: 'lab-rewrite', event: 'tool:pre_execute:bash', command: rewrite }] }
    await scenario('rewrite-input', { hooks, turns: [commands('touch original-marker'), DONE] }, ({ run }) => {
      expect(existsSync(join(run.project, 'rewritten-marker'))).toBe(true)
      expect(existsSync(join(run.project, 'original-marker'))).toBe(false)
      results.record('rewrite-input', 'honoured', 'overrideInput {commands: [...]}: the rewritten command ran, the original did not')
    })
  })

  test('context', async () => {
    const say = (text: string) => `printf '%s' '{"additionalContext":"${text}"}'`
    const hooks = {
      hooks: [
        { name: 'lab-start', event: 'session:start', command: say('LAB-CONTEXT-SESSION') },
        { name: 'lab-pre', event: 'tool:pre_execute:bash', command: say('LAB-CONTEXT-PRE') },
        { name: 'lab-post', event: 'tool:post_execute:bash', command: say('LAB-CONTEXT-POST') },
      ],
    }
    await scenario('context', { hooks, turns: [commands('true'), DONE] }, ({ run, server }) => {
      const next = lastConversation(server)
      expect(next).toContain('LAB-CONTEXT-PRE')
      expect(next).toContain('LAB-CONTEXT-POST')
      // TaskStart runs detached: Cline reads none of it, and hookrun says so instead of claiming it.
      expect(server.requests.some((request) => JSON.stringify(request.body).includes('LAB-CONTEXT-SESSION'))).toBe(false)
      const taskStart = { clineVersion: '', hookName: 'agent_start', taskId: 'lab', workspaceRoots: [run.project], taskStart: {} }
      const start = run.hookrun(['fire', '--format', 'cline'], { input: JSON.stringify(taskStart) })
      expect(start.stdout.trim()).toBe('{}')
      expect(start.stderr).toContain('Cline cannot apply additionalContext on TaskStart; Cline does not act on this')
      results.record(
        'context',
        'honoured',
        "PreToolUse and PostToolUse contextModification reached the model's next request; TaskStart's did not (detached), and hookrun warns that Cline does not act on it",
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
    await scenario('post-tool-output', { hooks, turns: [commands('echo lab-output-42'), DONE] }, ({ run }) => {
      expect(readFileSync(join(run.project, 'post-output.txt'), 'utf8')).toContain('lab-output-42')
      results.record('post-tool-output', 'honoured', 'tool_result.output held the output; hooks get it as HOOKRUN_TOOL_OUTPUT')
    })
  })

  test('untrusted-notice', async () => {
    await scenario(
      'untrusted-notice',
      { hooks: GATE_HOOKS, trust: false, turns: [commands('touch forbidden-marker'), DONE] },
      ({ run, server, result }) => {
        expect(existsSync(join(run.project, 'forbidden-marker'))).toBe(true)
        const notice = /not trusted[^"]*hookrun trust/
        const shown = notice.test(result.stdout)
        const toModel = notice.test(lastConversation(server))
        expect(shown || toModel, 'the untrusted-project notice reached neither the person nor the model').toBe(true)
        results.record(
          'untrusted-notice',
          'honoured',
          `the hooks did not run; the notice reached ${[shown && 'the terminal', toModel && 'the model (contextModification)'].filter(Boolean).join(' and ')}`,
        )
      },
    )
  })

  test('timeout-blocks', async () => {
    const hooks = { hooks: [{ name: 'lab-slow', event: 'tool:pre_execute:bash', command: 'sleep 30', timeout: 1 }] }
    await scenario('timeout-blocks', { hooks, turns: [commands('touch slow-marker'), DONE] }, (outcome) => {
      expect(existsSync(join(outcome.run.project, 'slow-marker'))).toBe(false)
      expectAborted(outcome)
      expect(outcome.result.stdout).toMatch(/hookrun stopped Cline's run .*hook 'lab-slow' timed out/)
      results.record('timeout-blocks', 'honoured', 'a gate past its timeout: the command did not run, the run ended, the terminal said why')
    })
  })

  test('crash-blocks', async () => {
    const crash = (name: string, command: string) => ({ hooks: [{ name, event: 'tool:pre_execute:bash', command }] })
    await scenario('crash-blocks', { hooks: crash('lab-crash', 'exit 1'), turns: [commands('touch first-marker'), DONE] }, (outcome) => {
      expect(existsSync(join(outcome.run.project, 'first-marker'))).toBe(false)
      expectAborted(outcome)
      expect(outcome.result.stdout).toMatch(/hook 'lab-crash' failed with exit 1/)
    })
    await scenario(
      'crash-blocks',
      { hooks: crash('lab-killed', 'kill -9 $$'), turns: [commands('touch second-marker'), DONE] },
      (outcome) => {
        expect(existsSync(join(outcome.run.project, 'second-marker'))).toBe(false)
        expectAborted(outcome)
        expect(outcome.result.stdout).toMatch(/hook 'lab-killed' was killed by SIGKILL/)
      },
    )
    results.record('crash-blocks', 'honoured', 'a gate that exits 1 and one killed by a signal: neither command ran')
  })

  test('cd-elsewhere', async () => {
    let out = ''
    await scenario(
      'cd-elsewhere',
      {
        hooks: GATE_HOOKS,
        turns: [commands('cd ../../elsewhere && touch forbidden-cd'), DONE],
        before: (run) => {
          out = join(run.root, 'elsewhere')
          mkdirSync(out)
        },
      },
      (outcome) => {
        expect(existsSync(join(out, 'forbidden-cd'))).toBe(false)
        expectAborted(outcome)
        results.record(
          'cd-elsewhere',
          'honoured',
          'cd out of the project inside the command: denied (Cline runs hooks in the workspace root)',
        )
      },
    )
  })

  test('subfolder-start', async () => {
    await scenario('subfolder-start', { hooks: GATE_HOOKS, cwd: 'sub', turns: [commands('touch forbidden-marker'), DONE] }, (outcome) => {
      expect(existsSync(join(outcome.run.project, 'sub', 'forbidden-marker'))).toBe(false)
      expectAborted(outcome)
      results.record('subfolder-start', 'honoured', 'started in project/sub: the gate held')
    })
  })

  test('unknown-event', () => {
    // Cline runs only its ten named hook files; hookrun names the nine it fires (PreCompact never fires).
    results.record(
      'unknown-event',
      'not applicable',
      'Cline runs only files named after its own events, all of which hookrun names; an unknown hookName passes with {} (unit test)',
    )
  })

  test('mcp-gate', async () => {
    // The lab's server in Cline's MCP settings (~/.cline/data/settings/cline_mcp_settings.json);
    // Cline offers its tools to the model as <server>__<tool>.
    const addServer = (run: LabRun) => {
      const server = labMcpServer(run)
      const dir = join(run.home, '.cline', 'data', 'settings')
      mkdirSync(dir, { recursive: true })
      const settings = { mcpServers: { labmcp: { command: server.command, args: server.args, env: {}, disabled: false } } }
      writeFileSync(join(dir, 'cline_mcp_settings.json'), JSON.stringify(settings, null, 2))
    }
    const offered = (server: ModelServer) =>
      ((chatTurns(server)[0]!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name)
    const wipe = { tool: 'labmcp__lab_wipe', input: {} }
    const read = { tool: 'labmcp__lab_read', input: {} }
    // A cancel ends Cline's whole run, so lab_read after the denied lab_wipe never comes: a second run calls it alone.
    await scenario('mcp-gate', { hooks: mcpHooks, turns: [wipe, read, DONE], before: addServer }, (outcome) => {
      expect(offered(outcome.server)).toEqual(expect.arrayContaining(['labmcp__lab_wipe', 'labmcp__lab_read']))
      expect(mcpCalls(outcome.run)).toEqual([])
      expect(mcpSeen(outcome.run)).toEqual(['labmcp lab_wipe labmcp__lab_wipe'])
      expectAborted(outcome)
      expect(JSON.stringify(chatMessages(chatTurns(outcome.server)[0]!))).not.toContain(MCP_GATE_REASON)
      expect(outcome.result.stdout).toContain(`hookrun stopped Cline's run (PreToolUse labmcp__lab_wipe): ${MCP_GATE_REASON}`)
    })
    await scenario('mcp-gate', { hooks: mcpHooks, turns: [read, DONE], before: addServer }, ({ run, server }) => {
      expect(mcpCalls(run)).toEqual(['lab_read'])
      expect(mcpSeen(run)).toEqual(['labmcp lab_read labmcp__lab_read'])
      expect(lastConversation(server)).toContain(MCP_RESULT_MARKER)
    })
    results.record(
      'mcp-gate',
      'honoured',
      'PreToolUse fired for the MCP calls (tool_call.name / preToolUse.toolName labmcp__lab_wipe, labmcp__lab_read); the gate stopped lab_wipe (the server never got it) and Cline ended the whole run (run_aborted), so the model never saw the reason, the person saw it on the terminal; in a run of its own lab_read ran and its result reached the model',
    )
  })

  test('fixtures: the first payload of every event Cline sent', async () => {
    // Plain logging hook files, one per event: what Cline sends, untouched by hookrun. Two runs:
    // one that finishes, and one whose PreToolUse cancels the call (CLINE_HOOK_AGENT_RESUME=1,
    // which the SDK's source reads for TaskResume). Cline 3.0.65 sent no TaskResume, TaskCancel,
    // TaskError or UserPromptSubmit in either: test/unit/cline.test.ts builds those from its source.
    const run = labRun()
    const server = await startOpenAIChatModel([commands('echo lab-fixture'), DONE])
    const cancelling = await startOpenAIChatModel([commands('touch cancel-me'), DONE])
    try {
      const log = join(run.root, 'log')
      mkdirSync(log)
      const hooksDir = join(run.project, '.cline', 'hooks')
      mkdirSync(hooksDir, { recursive: true })
      const events = [
        'TaskStart',
        'TaskResume',
        'TaskCancel',
        'TaskComplete',
        'TaskError',
        'PostToolUse',
        'UserPromptSubmit',
        'SessionShutdown',
      ]
      for (const event of events) writeHook(hooksDir, event, `[ -e ${log}/${event}.json ] || cat > ${log}/${event}.json`)
      writeHook(
        hooksDir,
        'PreToolUse',
        `payload=$(cat); [ -e ${log}/PreToolUse.json ] || printf '%s' "$payload" > ${log}/PreToolUse.json
case "$payload" in *cancel-me*) printf '{"cancel":true,"errorMessage":"lab cancel"}';; *) printf '{}';; esac`,
      )
      clineAuth(run, server)
      const finished = await runCline(run, 'lab fixtures')
      expect(finished.status, finished.stdout).toBe(0)
      clineAuth(run, cancelling)
      const resumed = await runCline(run, 'lab fixtures', run.project, { CLINE_HOOK_AGENT_RESUME: '1' })
      expect(resumed.status, resumed.stdout).toBe(0)
      // Detached hooks may still be writing.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      const seen = readdirSync(log).sort()
      console.log(`cline fixtures: ${seen.join(', ')}`)
      expect(seen).toEqual(['PostToolUse.json', 'PreToolUse.json', 'SessionShutdown.json', 'TaskComplete.json', 'TaskStart.json'])
      for (const file of seen) {
        const payload = JSON.parse(readFileSync(join(log, file), 'utf8')) as Record<string, unknown>
        await checkFixture(stableFixture(payload, run), join(FIXTURES, file))
      }
    } finally {
      await server.close()
      await cancelling.close()
      run.remove()
    }
  })

  test('ms per tool call: hookrun vs a plain shell hook file', async () => {
    // Ten calls each; Cline's --json output stamps the PreToolUse hook_event and the tool's
    // content_start, and the PostToolUse hook_event and content_end: the hooks' time per call.
    const gate = `case "$(cat)" in *forbidden*) printf '{"cancel":true,"errorMessage":"no"}';; *) printf '{}';; esac`
    const measure = async (wire: (run: LabRun) => void) => {
      const run = labRun()
      const server = await startOpenAIChatModel([...Array.from({ length: 10 }, (_, index) => commands(`echo call-${index}`)), DONE])
      try {
        clineAuth(run, server)
        wire(run)
        const result = await runCline(run, 'lab timing')
        expect(result.status, result.stdout).toBe(0)
        return hookMs(clineEvents(result))
      } finally {
        await server.close()
        run.remove()
      }
    }
    const plain = await measure((run) => {
      const dir = join(run.project, '.cline', 'hooks')
      mkdirSync(dir, { recursive: true })
      writeHook(dir, 'PreToolUse', gate)
      writeHook(dir, 'PostToolUse', `cat > /dev/null; printf '{}'`)
    })
    const viaHookrun = await measure((run) => {
      mkdirSync(join(run.project, '.hookrun'))
      writeFileSync(
        join(run.project, '.hookrun', 'hooks.json'),
        JSON.stringify({
          hooks: [...GATE_HOOKS.hooks, { name: 'lab-post', event: 'tool:post_execute:bash', command: 'true' }],
        }),
      )
      expect(run.hookrun(['install', '--agent', 'cline', '--project']).status).toBe(0)
      expect(run.hookrun(['trust']).status).toBe(0)
    })
    console.log(
      `cline ms per tool call (median of ${plain.pre.length}): plain shell hook files PreToolUse ${median(plain.pre)} ms + PostToolUse ${median(plain.post)} ms; hookrun PreToolUse ${median(viaHookrun.pre)} ms + PostToolUse ${median(viaHookrun.post)} ms`,
    )
    expect(viaHookrun.pre).toHaveLength(10)
  })

  test('results', async () => {
    await results.check()
  })
})

function writeHook(dir: string, event: string, body: string): void {
  writeFileSync(join(dir, event), `#!/bin/sh\n${body}\n`)
  chmodSync(join(dir, event), 0o755)
}

/** The hooks' time per call: PreToolUse (hook_event tool_call → content_start), PostToolUse (hook_event tool_result → content_end). */
function hookMs(events: Record<string, unknown>[]): { pre: number[]; post: number[] } {
  const at = (event: Record<string, unknown>) => Date.parse(String(event.ts))
  const pre: number[] = []
  const post: number[] = []
  events.forEach((event, index) => {
    const next = (type: string) =>
      events.slice(index + 1).find((later) => (later.event as { type?: string } | undefined)?.type === type && later.type === 'agent_event')
    if (event.type !== 'hook_event') return
    if (event.hookEventName === 'tool_call') {
      const start = next('content_start')
      if (start) pre.push(at(start) - at(event))
    }
    if (event.hookEventName === 'tool_result') {
      const end = next('content_end')
      if (end) post.push(at(end) - at(event))
    }
  })
  return { pre, post }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** The payload with the run's folders, ids and times replaced by stable placeholders, pretty-printed. */
function stableFixture(payload: Record<string, unknown>, run: LabRun): string {
  const text = JSON.stringify(payload, null, 2)
    .replaceAll(run.project, '/home/lab/project')
    .replaceAll(run.home, '/home/lab')
    .replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g, '"2026-01-01T00:00:00.000Z"')
    .replace(/"(conv|agent)_\d+_[a-z0-9]+"/g, '"$1_0_lab"')
    .replace(/"\d{13}_[a-z0-9]+"/g, '"0_lab"')
    .replace(/"[0-9a-f]{40}"/g, '"0000000000000000000000000000000000000000"')
    .replace(/"(durationMs|executionTimeMs)": \d+/g, '"$1": 1')
    .replace(/"userId": "[^"]*"/, '"userId": "lab"')
  return `${text}\n`
}
