/**
 * OpenCode and Kilo Code (OpenCode's engine) in the agent lab: the real CLI (`opencode run`,
 * `kilo run`), headless, against a fake chat-completions API on 127.0.0.1, with hookrun's plugin
 * installed as a user would (`hookrun install --agent opencode --project`:
 * .opencode/plugins/hookrun.js; Kilo's: .kilo/plugins/hookrun.js). Both are slow to start on a
 * busy machine (a fresh HOME installs their plugin package first), so one session serves several
 * scenarios: its script walks through them, and each is checked on what really happened (files
 * the shell made, what the model got next, what the CLI printed). opencode.lab.ts and
 * kilo.lab.ts run the same scenarios.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ROOT } from '../helpers.ts'
import {
  type AgentRun,
  checkFixture,
  labResults,
  labVersion,
  labRun,
  type LabRun,
  type ModelRequest,
  type ModelServer,
  type Turn,
} from './lab.ts'
import { chatMessages, chatText, isChatTurn, startOpenAIChatModel } from './models/openai-chat.ts'
import { familyConfig, type FamilyAgent, familyLabel, runFamily, toolParts } from './opencode-cli.ts'
import { labMcpServer, MCP_GATE_REASON, MCP_RESULT_MARKER, mcpCalls, mcpHooks, mcpSeen } from './mcp.ts'
import { contextHooks, DONE, GATE } from './scenario.ts'

const bash = (command: string): Turn => ({ tool: 'bash', input: { command, description: 'lab step' } })
const REWRITE = `case "$HOOKRUN_BASH_COMMAND" in *original-marker*) printf '%s' '{"updatedInput":{"command":"touch rewritten-marker","description":"rewritten"}}';; esac`

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

/**
 * One run of the agent: hooks.json written, hookrun's plugin installed for the project, the project
 * trusted (unless told), a logging hook on every event, then `opencode run` in `cwd`.
 */
async function session(
  agent: FamilyAgent,
  name: string,
  setup: {
    /** The project's hooks, or what makes them from the run (hooks that write in the run's folders). */
    hooks: { hooks: unknown[] } | ((run: LabRun) => { hooks: unknown[] })
    turns: readonly Turn[] | ((request: ModelRequest) => readonly Turn[])
    trust?: boolean
    cwd?: string
    env?: (run: LabRun) => Record<string, string>
    /** More of the agent's config, or what makes it from the run. */
    config?: Record<string, unknown> | ((run: LabRun) => Record<string, unknown>)
  },
  check: (session: Session) => void,
): Promise<void> {
  const run = labRun()
  const server = await startOpenAIChatModel(setup.turns)
  try {
    familyConfig(agent, run, server, typeof setup.config === 'function' ? setup.config(run) : setup.config)
    const log = join(run.root, 'log')
    mkdirSync(log)
    const logHook = { name: 'lab-log', event: '*', command: `cat > "${log}/$(date +%s%N).json"` }
    mkdirSync(join(run.project, '.hookrun'), { recursive: true })
    const own = typeof setup.hooks === 'function' ? setup.hooks(run) : setup.hooks
    const hooks = { hooks: [...own.hooks, logHook] }
    writeFileSync(join(run.project, '.hookrun', 'hooks.json'), `${JSON.stringify(hooks, null, 2)}\n`)
    const install = run.hookrun(['install', '--agent', agent, '--project'])
    expect(install.status, install.stderr).toBe(0)
    if (setup.trust !== false) expect(run.hookrun(['trust']).status).toBe(0)
    const cwd = join(run.project, setup.cwd ?? '')
    mkdirSync(cwd, { recursive: true })
    const result = await runFamily(agent, run, `lab session ${name}`, cwd, setup.env?.(run))
    console.log(`${agent} ${name}: ${Math.round(result.ms)} ms`)
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

/** What the model got back for the call whose command was `command` (the tool message, or the error OpenCode sent). */
function toolResult(s: Session, command: string): string {
  const part = toolParts(s.result).find((each) => each.input.command === command)
  return part?.text ?? ''
}

/** Gates that fail: one sleeps past its timeout on a "slow" command, one exits 1 on a "crash" one. */
const FAILING_HOOKS = [
  { name: 'lab-slow', event: 'tool:pre_execute:bash', command: 'case "$HOOKRUN_BASH_COMMAND" in *slow*) sleep 30;; esac', timeout: 2 },
  { name: 'lab-crash', event: 'tool:pre_execute:bash', command: 'case "$HOOKRUN_BASH_COMMAND" in *crash*) exit 1;; esac' },
]

/** The lab's MCP server in the project's config (`mcp`, a local server); the agent names its tools <server>_<tool>. */
function mcpConfig(run: LabRun): Record<string, unknown> {
  const server = labMcpServer(run)
  return { mcp: { labmcp: { type: 'local', command: [server.command, ...server.args], environment: {}, enabled: true } } }
}

/** Every scenario, for one of the two agents; the file's results and fixtures last. */
export function familyLab(agent: FamilyAgent): void {
  const results = labResults(agent)
  const label = familyLabel(agent)
  const version = labVersion(agent)
  /** The gate session's payloads, for the fixtures (written once the concurrent sessions are done). */
  let gateLogged: { logged: Record<string, unknown>[]; run: LabRun } | undefined

  /** timeout-blocks and crash-blocks: the slow and the crashing gate each kept their call from running; the next call ran. */
  const expectFailuresBlock = (s: Session) => {
    expect(s.has('slow-marker')).toBe(false)
    expect(toolResult(s, 'touch slow-marker')).toMatch(/lab-slow/)
    results.record(
      'timeout-blocks',
      'honoured',
      `the call did not run; the model got: ${toolResult(s, 'touch slow-marker').split('\n')[0]}`,
    )
    expect(s.has('crash-marker')).toBe(false)
    expect(toolResult(s, 'touch crash-marker')).toMatch(/lab-crash/)
    results.record('crash-blocks', 'honoured', `the call did not run; the model got: ${toolResult(s, 'touch crash-marker').split('\n')[0]}`)
    expect(s.has('fine-marker')).toBe(true)
  }

  /** mcp-gate: lab_wipe stopped by its gate, lab_read run; `after` is the model's request after lab_wipe. */
  const expectMcpGate = (s: Session, after: number) => {
    expect(mcpCalls(s.run)).toEqual(['lab_read'])
    expect(mcpSeen(s.run)).toEqual(['labmcp lab_wipe labmcp_lab_wipe', 'labmcp lab_read labmcp_lab_read'])
    const wiped = toolParts(s.result).find((part) => part.tool === 'labmcp_lab_wipe')
    const read = toolParts(s.result).find((part) => part.tool === 'labmcp_lab_read')
    expect(wiped).toMatchObject({ tool: 'labmcp_lab_wipe', status: 'error' })
    expect(wiped?.text).toContain(MCP_GATE_REASON)
    expect(chatText(s.turns[after]!.body)).toContain(MCP_GATE_REASON)
    expect(read).toMatchObject({ tool: 'labmcp_lab_read', status: 'completed' })
    expect(chatText(s.turns[after + 1]!.body)).toContain(MCP_RESULT_MARKER)
    results.record(
      'mcp-gate',
      'honoured',
      `tool.execute.before fired for both MCP calls (input.tool labmcp_lab_wipe / labmcp_lab_read, no server field; hookrun read labmcp + lab_wipe first, labmcp_lab + wipe also); the plugin threw for lab_wipe: the server never got it, the model got ${JSON.stringify(wiped?.text)} as the tool's error; lab_read ran and its result reached the model`,
    )
  }

  describe.concurrent(`${label} ${version} with hookrun`, () => {
    test('gate session: allow, deny, rewrite, context, post-tool output, cd elsewhere, timeout, crash, MCP', {
      timeout: 500_000,
    }, async () => {
      const post = {
        name: 'lab-post-output',
        event: 'tool:post_execute:bash',
        command: 'cat >> "$HOOKRUN_PROJECT_DIR/post.jsonl"; echo >> "$HOOKRUN_PROJECT_DIR/post.jsonl"',
      }
      const hooks = {
        hooks: [
          { name: 'lab-gate', event: 'tool:pre_execute:bash', command: GATE, timeout: 10 },
          { name: 'lab-rewrite', event: 'tool:pre_execute:bash', command: REWRITE },
          ...(contextHooks() as { hooks: unknown[] }).hooks,
          post,
          ...FAILING_HOOKS,
        ],
      }
      await session(
        agent,
        'gate',
        {
          hooks: (run) => ({ hooks: [...hooks.hooks, ...(mcpHooks(run) as { hooks: unknown[] }).hooks] }),
          // Headless, the agent rejects a call outside the project unless allowed (and ends the run).
          config: (run) => ({ permission: { external_directory: 'allow' }, ...mcpConfig(run) }),
          turns: (request) => {
            // The run's folders, from the working directory OpenCode tells its model.
            const project = /(\/[^\s"\\]*\/home\/project)/.exec(chatText(request.body))?.[1] ?? '/nonexistent/home/project'
            const outside = join(project, '..', '..', 'outside')
            return [
              bash('touch allowed-marker'),
              bash('touch forbidden-marker'),
              bash('touch original-marker'),
              bash(`mkdir -p ${outside} && cd ${outside} && touch outside-marker`),
              { tool: 'bash', input: { command: 'touch forbidden-outside', workdir: outside, description: 'lab step' } },
              bash('echo LAB-OUTPUT-42'),
              bash('touch slow-marker'),
              bash('touch crash-marker'),
              bash('touch fine-marker'),
              { tool: 'labmcp_lab_wipe', input: {} },
              { tool: 'labmcp_lab_read', input: {} },
              DONE,
            ]
          },
        },
        (s) => {
          gateLogged = { logged: s.logged, run: s.run }
          expect(s.result.status, s.result.stderr).toBe(0)
          // allow-shell
          expect(s.has('allowed-marker')).toBe(true)
          results.record('allow-shell', 'honoured', 'the command ran')
          // deny-shell
          expect(s.has('forbidden-marker')).toBe(false)
          const denied = toolResult(s, 'touch forbidden-marker')
          expect(denied).toContain('lab gate: forbidden commands are not allowed')
          expect(chatText(s.turns[2]!.body)).toContain('lab gate: forbidden commands are not allowed')
          results.record(
            'deny-shell',
            'honoured',
            'the plugin threw: the command did not run, the model got the reason as the tool result, --format json shows the call as an error with it',
          )
          // rewrite-input
          expect(s.has('rewritten-marker')).toBe(true)
          expect(s.has('original-marker')).toBe(false)
          results.record(
            'rewrite-input',
            'honoured',
            "the plugin replaced output.args's keys in place: the rewritten command ran, the original did not",
          )
          // context
          const first = chatText(s.turns[0]!.body)
          expect(first).toContain('LAB-CONTEXT-SESSION')
          expect(first).toContain('LAB-CONTEXT-PROMPT')
          expect(chatText(s.turns[1]!.body)).toContain('LAB-CONTEXT-POST')
          const system = JSON.stringify(chatMessages(s.turns[0]!).filter((message) => message.role === 'system'))
          expect(system).toContain('LAB-CONTEXT-PROMPT')
          results.record(
            'context',
            'honoured',
            'session.created and chat.message context reached the first request as system prompt (experimental.chat.system.transform); post-tool context came under the tool result',
          )
          // post-tool-output
          const seen = readFileSync(join(s.run.project, 'post.jsonl'), 'utf8')
          expect(seen).toContain('LAB-OUTPUT-42')
          results.record('post-tool-output', 'honoured', "tool.execute.after's output.output reached the hook as tool_response")
          // cd-elsewhere: the shell left the project (OpenCode's bash starts each call afresh, so
          // the next call names its folder in `workdir`); the gate still held there.
          expect(existsSync(join(s.run.root, 'outside', 'outside-marker'))).toBe(true)
          expect(existsSync(join(s.run.root, 'outside', 'forbidden-outside'))).toBe(false)
          expect(toolResult(s, 'touch forbidden-outside')).toContain('lab gate: forbidden commands are not allowed')
          results.record(
            'cd-elsewhere',
            'honoured',
            "after a call that cd-ed out of the project, a forbidden call run there (bash's workdir) was denied: the plugin fires from the session's folder",
          )
          expectFailuresBlock(s)
          // The MCP calls, the last two: the model's request after each is the turn after it.
          expectMcpGate(s, s.turns.length - 2)
        },
      )
    })

    test('untrusted-notice', { timeout: 500_000 }, async () => {
      const hooks = { hooks: [{ name: 'lab-gate', event: 'tool:pre_execute:bash', command: GATE, timeout: 10 }] }
      await session(agent, 'untrusted', { hooks, turns: [bash('touch forbidden-marker'), DONE], trust: false }, (s) => {
        expect(s.result.status, s.result.stderr).toBe(0)
        expect(s.has('forbidden-marker'), "an untrusted project's gate must not run").toBe(true)
        expect(s.logged, 'no project hook ran').toEqual([])
        const notice = /not trusted|hookrun trust/
        expect(s.result.stderr).toMatch(notice)
        // Once a session (docs/trust.md), with hookrun's name once before it.
        expect(s.result.stderr.match(/are not trusted/g), s.result.stderr).toHaveLength(1)
        expect(s.result.stderr).not.toContain('hookrun: hookrun:')
        const toModel = s.turns.some((turn) => notice.test(chatText(turn.body)))
        results.record(
          'untrusted-notice',
          'honoured',
          `the hooks did not run; the notice went to stderr (the plugin prints hookrun's message), which the CLI's run shows${toModel ? ', and to the model as system prompt' : ''}`,
        )
      })
    })

    test('subfolder-start, a subagent (task) and no batch tool', { timeout: 500_000 }, async () => {
      const hooks = { hooks: [{ name: 'lab-gate', event: 'tool:pre_execute:bash', command: GATE, timeout: 10 }] }
      const subagent = (request: ModelRequest) =>
        chatMessages(request).some((message) => message.role === 'user' && String(JSON.stringify(message.content)).includes('LAB-SUBAGENT'))
      await session(
        agent,
        'subfolder',
        {
          hooks,
          cwd: 'sub',
          // Asked for, the agent still offers no batch tool (the setting outlived the tool).
          config: { experimental: { batch_tool: true } },
          turns: (request) =>
            subagent(request)
              ? [bash('touch forbidden-by-subagent'), bash('touch subagent-marker'), { text: 'subagent done' }]
              : [
                  bash('touch forbidden-marker'),
                  { tool: 'task', input: { description: 'lab subagent', prompt: 'LAB-SUBAGENT: do the steps', subagent_type: 'general' } },
                  DONE,
                ],
        },
        (s) => {
          expect(s.result.status, s.result.stderr).toBe(0)
          // subfolder-start
          expect(existsSync(join(s.run.project, 'sub', 'forbidden-marker'))).toBe(false)
          expect(toolResult(s, 'touch forbidden-marker')).toContain('lab gate: forbidden commands are not allowed')
          results.record(
            'subfolder-start',
            'honoured',
            "started in project/sub, the project's gate denied the call (the agent finds its config folder up to the worktree)",
          )
          // the subagent's own calls went through the plugin too
          const subTurns = s.turns.filter(subagent)
          expect(subTurns.length, 'the subagent asked the model').toBeGreaterThan(0)
          expect(existsSync(join(s.run.project, 'sub', 'subagent-marker'))).toBe(true)
          expect(existsSync(join(s.run.project, 'sub', 'forbidden-by-subagent'))).toBe(false)
          expect(JSON.stringify(subTurns.at(-1)!.body)).toContain('lab gate: forbidden commands are not allowed')
          const tools = s.logged
            .filter((payload) => payload.hook === 'tool.execute.before')
            .map((payload) => (payload.input as { tool: string }).tool)
          expect(tools).toContain('task')
          results.record(
            'subagent-task',
            'honoured',
            `the task tool call and the subagent's own calls each fired tool.execute.before (${tools.join(', ')}); the subagent's forbidden call was denied and it got the reason`,
          )
          const offered = ((s.turns[0]!.body as { tools?: { function?: { name?: string } }[] }).tools ?? []).map(
            (tool) => tool.function?.name,
          )
          expect(offered).not.toContain('batch')
          results.record(
            'batch-tool',
            'not applicable',
            `${label} ${version} offers no batch tool, even with experimental.batch_tool: its tools are ${offered.join(', ')}`,
          )
        },
      )
    })

    test('the plugin fails closed: with no hookrun on PATH the prompt is refused', { timeout: 500_000 }, async () => {
      const hooks = { hooks: [{ name: 'lab-gate', event: 'tool:pre_execute:bash', command: GATE, timeout: 10 }] }
      const noHookrun = (run: LabRun) => ({ PATH: run.env.PATH!.split(':').slice(1).join(':') })
      await session(agent, 'no-hookrun', { hooks, turns: [bash('touch marker'), DONE], env: noHookrun }, (s) => {
        // chat.message is a gate (user:prompt_submit): hookrun cannot answer, so the prompt goes nowhere.
        expect(s.has('marker')).toBe(false)
        expect(s.turns).toEqual([])
        expect(s.result.stderr).toMatch(/hookrun: prompt refused: hookrun could not check this, so it is refused/)
        results.record(
          'hookrun-missing',
          'honoured',
          'chat.message could not ask hookrun, so the plugin refused the prompt: no model request, the reason on stderr, the run exits 1',
        )
      })
    })

    test('unknown-event', () => {
      // The plugin sends OpenCode's hooks and the bus events hookrun has names for, nothing else
      // (src/install/opencode-plugin.ts EVENTS); an unknown name passes (test/unit/opencode.test.ts).
      results.record(
        'unknown-event',
        'not applicable',
        'the plugin forwards only the hooks and bus events hookrun has names for; the rest never reach hookrun',
      )
    })
  })

  test('fixtures: the first payload of each hook the plugin sent in the gate session', async () => {
    expect(gateLogged, 'the gate session ran').toBeDefined()
    await saveFixtures(join(ROOT, 'test', 'agents', 'fixtures', agent), gateLogged!.logged, gateLogged!.run)
  })

  test('results', async () => {
    await results.check()
  })
}

/** The first payload of each hook the plugin sent, as OpenCode passed it (hookrun's added fields left out). */
async function saveFixtures(folder: string, logged: readonly Record<string, unknown>[], run: LabRun): Promise<void> {
  const first = new Map<string, Record<string, unknown>>()
  for (const payload of logged) {
    const hook = String(payload.hook)
    if (!first.has(hook))
      first.set(hook, { hook, input: payload.input, output: payload.output, directory: payload.directory, worktree: payload.worktree })
  }
  for (const [hook, payload] of first) await checkFixture(stableFixture(payload, run), join(folder, `${hook}.json`))
}

/** The payload with the run's folders, ids and times replaced by stable placeholders, pretty-printed. */
function stableFixture(payload: Record<string, unknown>, run: LabRun): string {
  const text = JSON.stringify(payload, null, 2)
    .replaceAll(run.project, '/home/lab/project')
    .replaceAll(run.home.slice(1), 'home/lab')
    .replaceAll(run.home, '/home/lab')
    .replace(/\b(ses|msg|prt|evt)_[0-9A-Za-z]+/g, '$1_lab')
    .replace(/"(created|updated|start|end)": \d+/g, '"$1": 1767225600000')
    .replace(/"slug": "[^"]*"/g, '"slug": "lab-slug"')
    .replace(/"projectID": "[0-9a-f]+"/g, '"projectID": "lab-project-id"')
    .replace(/"title": "New session - [^"]*"/g, '"title": "New session - 2026-01-01T00:00:00.000Z"')
  return `${text}\n`
}
