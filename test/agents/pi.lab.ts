/**
 * Pi (@earendil-works/pi-coding-agent) in the agent lab: `pi -p` (print mode) headless against a
 * fake chat-completions API on 127.0.0.1 (a provider of its own in ~/.pi/agent/models.json), run
 * with the lab's Node 24 (Pi needs ≥ 22.19), hookrun's extension installed as a user would
 * (`hookrun install --agent pi --project`: .pi/extensions/hookrun.js). Pi loads a project's
 * extensions only once the project is trusted; print mode cannot ask, so the runs pass
 * `--approve` (Pi's one-run trust), and one scenario shows what happens without it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import {
  type AgentRun,
  checkFixture,
  installAgent,
  labNodeBin,
  labResults,
  labRun,
  type LabRun,
  labVersion,
  type ModelRequest,
  type ModelServer,
  runAgent,
  type Turn,
} from './lab.ts'
import { chatText, isChatTurn, startOpenAIChatModel } from './models/openai-chat.ts'
import { contextHooks, DONE, GATE } from './scenario.ts'

const bash = (command: string): Turn => ({ tool: 'bash', input: { command } })
const REWRITE = `case "$HOOKRUN_BASH_COMMAND" in *original-marker*) printf '%s' '{"updatedInput":{"command":"touch rewritten-marker"}}';; esac`
const GATE_HOOK = { name: 'lab-gate', event: 'tool:pre_execute:bash', command: GATE, timeout: 10 }

interface Session {
  readonly run: LabRun
  readonly server: ModelServer
  readonly result: AgentRun
  /** The conversation requests (the ones that offered tools), in order. */
  readonly turns: ModelRequest[]
  /** The payloads hookrun's `*` logging hook saw, in order. */
  readonly logged: Record<string, unknown>[]
  has(file: string): boolean
}

/** What the model got back for the call with this id (Pi's tool message), as text. */
function toolResult(s: Session, callId: string): string {
  for (const turn of s.turns) {
    const messages = (turn.body as { messages?: { role?: string; tool_call_id?: string; content?: unknown }[] }).messages ?? []
    const found = messages.find((message) => message.role === 'tool' && message.tool_call_id === callId)
    if (found !== undefined) return typeof found.content === 'string' ? found.content : JSON.stringify(found.content)
  }
  return ''
}

/** One `pi -p` run: hooks.json, the extension installed for the project, trusted (unless told), a logging hook on every event. */
async function session(
  name: string,
  setup: {
    hooks: { hooks: unknown[] }
    turns: readonly Turn[]
    /** `hookrun trust` (default yes). */
    trust?: boolean
    /** `pi --approve` (default yes): Pi's own trust of the project, which its extensions folder needs. */
    approve?: boolean
    env?: (run: LabRun) => Record<string, string>
  },
  check: (session: Session) => void,
): Promise<void> {
  const run = labRun()
  const server = await startOpenAIChatModel(setup.turns)
  try {
    const agentDir = join(run.home, '.pi', 'agent')
    mkdirSync(agentDir, { recursive: true })
    const models = {
      providers: { lab: { baseUrl: `${server.url}/v1`, api: 'openai-completions', apiKey: 'lab', models: [{ id: 'fake-model' }] } },
    }
    writeFileSync(join(agentDir, 'models.json'), `${JSON.stringify(models, null, 2)}\n`)
    const log = join(run.root, 'log')
    mkdirSync(log)
    const logHook = { name: 'lab-log', event: '*', command: `cat > "${log}/$(date +%s%N).json"` }
    mkdirSync(join(run.project, '.hookrun'), { recursive: true })
    writeFileSync(join(run.project, '.hookrun', 'hooks.json'), `${JSON.stringify({ hooks: [...setup.hooks.hooks, logHook] }, null, 2)}\n`)
    const install = run.hookrun(['install', '--agent', 'pi', '--project'])
    expect(install.status, install.stderr).toBe(0)
    if (setup.trust !== false) expect(run.hookrun(['trust']).status).toBe(0)
    // hookrun's folder first (the lab's), then the lab's Node, then the rest.
    const [bin, ...rest] = run.env.PATH!.split(':')
    const env = { ...run.env, PATH: [bin, labNodeBin(), ...rest].join(':'), PI_OFFLINE: '1', ...setup.env?.(run) }
    const args = ['-p', ...(setup.approve === false ? [] : ['--approve']), '--model', 'lab/fake-model', `lab session ${name}`]
    const result = await runAgent(installAgent('pi'), args, { cwd: run.project, env, timeoutMs: 180_000 })
    console.log(`pi ${name}: ${Math.round(result.ms)} ms`)
    if (process.env.LAB_DEBUG) console.log(result.stdout, result.stderr)
    const logged = readdirSync(log)
      .sort()
      .map((file) => JSON.parse(readFileSync(join(log, file), 'utf8')) as Record<string, unknown>)
    const turns = server.requests.filter(isChatTurn)
    check({ run, server, result, turns, logged, has: (file) => existsSync(join(run.project, file)) })
  } finally {
    await server.close()
    run.remove()
  }
}

const results = labResults('pi')
const version = labVersion('pi')
let gateLogged: { logged: Record<string, unknown>[]; run: LabRun } | undefined

describe.concurrent(`Pi ${version} with hookrun`, () => {
  test('gate session: allow, deny, rewrite, context, post-tool output', { timeout: 300_000 }, async () => {
    const post = {
      name: 'lab-post-output',
      event: 'tool:post_execute:bash',
      command: 'cat >> "$HOOKRUN_PROJECT_DIR/post.jsonl"; echo >> "$HOOKRUN_PROJECT_DIR/post.jsonl"',
    }
    const hooks = {
      hooks: [
        GATE_HOOK,
        { name: 'lab-rewrite', event: 'tool:pre_execute:bash', command: REWRITE },
        ...(contextHooks() as { hooks: unknown[] }).hooks,
        post,
      ],
    }
    const turns = [
      bash('touch allowed-marker'),
      bash('touch forbidden-marker'),
      bash('touch original-marker'),
      bash('echo LAB-OUTPUT-42'),
      DONE,
    ]
    await session('gate', { hooks, turns }, (s) => {
      gateLogged = { logged: s.logged, run: s.run }
      expect(s.result.status, s.result.stderr).toBe(0)
      // allow-shell
      expect(s.has('allowed-marker')).toBe(true)
      results.record('allow-shell', 'honoured', 'the command ran')
      // deny-shell (the fake model numbers its calls call_<n>: the second call is call_1)
      expect(s.has('forbidden-marker')).toBe(false)
      expect(toolResult(s, 'call_1')).toContain('lab gate: forbidden commands are not allowed')
      results.record(
        'deny-shell',
        'honoured',
        `tool_call returned {block: true, reason}: the command did not run, the model got ${JSON.stringify(toolResult(s, 'call_1'))}`,
      )
      // rewrite-input
      expect(s.has('rewritten-marker')).toBe(true)
      expect(s.has('original-marker')).toBe(false)
      results.record(
        'rewrite-input',
        'honoured',
        "the extension replaced event.input's keys in place: the rewritten command ran, the original did not",
      )
      // context: session start and prompt before the first request, post-tool under the result
      const first = chatText(s.turns[0]!.body)
      expect(first).toContain('LAB-CONTEXT-SESSION')
      expect(first).toContain('LAB-CONTEXT-PROMPT')
      expect(toolResult(s, 'call_0')).toContain('LAB-CONTEXT-POST')
      results.record(
        'context',
        'honoured',
        'session_start and input context reached the first request (a before_agent_start message); post-tool context came under the tool result (tool_result content)',
      )
      // post-tool-output
      expect(readFileSync(join(s.run.project, 'post.jsonl'), 'utf8')).toContain('LAB-OUTPUT-42')
      results.record('post-tool-output', 'honoured', "tool_result's content reached the hook as tool_response")
    })
  })

  test('untrusted-notice', { timeout: 300_000 }, async () => {
    await session('untrusted', { hooks: { hooks: [GATE_HOOK] }, turns: [bash('touch forbidden-marker'), DONE], trust: false }, (s) => {
      expect(s.result.status, s.result.stderr).toBe(0)
      expect(s.has('forbidden-marker'), "an untrusted project's gate must not run").toBe(true)
      expect(s.logged, 'no project hook ran').toEqual([])
      expect(s.result.stderr).toMatch(/not trusted/)
      expect(s.result.stderr.match(/are not trusted/g), s.result.stderr).toHaveLength(1)
      expect(s.result.stderr).not.toContain('hookrun: hookrun:')
      const toModel = s.turns.some((turn) => /not trusted|hookrun trust/.test(chatText(turn.body)))
      results.record(
        'untrusted-notice',
        'honoured',
        `the hooks did not run; the notice went to stderr (the extension prints hookrun's stderr), which pi -p shows${toModel ? ', and to the model as context' : ''}`,
      )
    })
  })

  test("Pi's own project trust: without --approve the project's extension does not load", { timeout: 300_000 }, async () => {
    await session('pi-untrusted', { hooks: { hooks: [GATE_HOOK] }, turns: [bash('touch forbidden-marker'), DONE], approve: false }, (s) => {
      expect(s.result.status, s.result.stderr).toBe(0)
      expect(s.logged, 'the extension did not load: hookrun was never asked').toEqual([])
      expect(s.has('forbidden-marker')).toBe(true)
      results.record(
        'pi-project-trust',
        'not applicable',
        'pi -p without --approve (nothing saved in trust.json, defaultProjectTrust "ask") skips .pi/extensions/: hookrun is never asked and the forbidden call ran; headless runs need --approve, a saved /trust, or the user install',
      )
    })
  })

  test('timeout-blocks and crash-blocks', { timeout: 300_000 }, async () => {
    const hooks = {
      hooks: [
        {
          name: 'lab-slow',
          event: 'tool:pre_execute:bash',
          command: 'case "$HOOKRUN_BASH_COMMAND" in *slow*) sleep 30;; esac',
          timeout: 2,
        },
        { name: 'lab-crash', event: 'tool:pre_execute:bash', command: 'case "$HOOKRUN_BASH_COMMAND" in *crash*) exit 1;; esac' },
      ],
    }
    await session(
      'failures',
      { hooks, turns: [bash('touch slow-marker'), bash('touch crash-marker'), bash('touch fine-marker'), DONE] },
      (s) => {
        expect(s.result.status, s.result.stderr).toBe(0)
        expect(s.has('slow-marker')).toBe(false)
        expect(toolResult(s, 'call_0')).toMatch(/lab-slow/)
        results.record('timeout-blocks', 'honoured', `the call did not run; the model got: ${toolResult(s, 'call_0').split('\n')[0]}`)
        expect(s.has('crash-marker')).toBe(false)
        expect(toolResult(s, 'call_1')).toMatch(/lab-crash/)
        results.record('crash-blocks', 'honoured', `the call did not run; the model got: ${toolResult(s, 'call_1').split('\n')[0]}`)
        expect(s.has('fine-marker')).toBe(true)
      },
    )
  })

  test('the extension fails closed: with no hookrun on PATH the prompt is refused', { timeout: 300_000 }, async () => {
    const noHookrun = (run: LabRun) => ({ PATH: [labNodeBin(), ...run.env.PATH!.split(':').slice(1)].join(':') })
    await session('no-hookrun', { hooks: { hooks: [GATE_HOOK] }, turns: [bash('touch marker'), DONE], env: noHookrun }, (s) => {
      expect(s.has('marker')).toBe(false)
      expect(s.turns).toEqual([])
      expect(s.result.stderr).toMatch(/hookrun: prompt refused: hookrun could not check this, so it is refused/)
      results.record(
        'hookrun-missing',
        'honoured',
        `input could not ask hookrun, so the extension handled (dropped) the prompt: no model request, the reason on stderr, pi exits ${s.result.status}`,
      )
    })
  })

  test('unknown-event', () => {
    results.record(
      'unknown-event',
      'not applicable',
      'the extension forwards only the events hookrun has names for; the rest never reach hookrun',
    )
  })
})

test('fixtures: the first payload of each event the extension sent in the gate session', async () => {
  expect(gateLogged, 'the gate session ran').toBeDefined()
  const first = new Map<string, Record<string, unknown>>()
  for (const payload of gateLogged!.logged) {
    const event = String(payload.pi_event)
    const { pi_event, event: piEvent, cwd, session_id, last_assistant_message } = payload
    if (!first.has(event)) first.set(event, { pi_event, event: piEvent, cwd, session_id, last_assistant_message })
  }
  const { run } = gateLogged!
  for (const [event, payload] of first) {
    const text = JSON.stringify(payload, null, 2)
      .replaceAll(run.project, '/home/lab/project')
      .replaceAll(run.home, '/home/lab')
      .replace(/"session_id": "[^"]*"/g, '"session_id": "lab-session"')
      .replace(/"(sessionId|previousSessionFile|sessionFile)": "[^"]*"/g, '"$1": "lab"')
      .replace(/"(timestamp|durationMs|wall_time_seconds)": [\d.]+/g, '"$1": 0')
    await checkFixture(`${text}\n`, join(ROOT, 'test', 'agents', 'fixtures', 'pi', `${event}.json`))
  }
})

test('results', async () => {
  await results.check()
})
