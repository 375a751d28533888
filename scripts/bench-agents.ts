/**
 * What a user feels: the cost of hooks per tool call inside the real agents of the agent lab
 * (test/agents/lab.ts: the pinned CLIs against a fake instant model on 127.0.0.1). Every agent
 * runs sessions of N shell `true` calls in each mode of MODES, the modes interleaved round by
 * round (the order rotating) so load on the machine hits them alike. Two figures per mode:
 *
 *   ms per tool call  the time between one conversation request to the model and the next: the
 *                     hooks, the tool and building the next request (session start and end drop
 *                     out); the median over every call of every round, then against `none`
 *   starts per call   hookrun processes the agent started per tool call, counted in one more
 *                     session of N calls and one of none through a counting wrapper (not timed):
 *                     (starts with N − starts with none) / N; the second figure is per session
 *
 *   npm run bench                              (claude, gemini, qwen; 3 rounds of 10 calls)
 *   npm run bench -- agents --agents claude,gemini,qwen,codex,copilot --rounds 5 --calls 10
 *   npm run bench -- fire                      (one fire, timed against lefthook: scripts/bench-fire.ts)
 *
 * A mode is one entry of MODES (how the hooks are wired in), an agent one entry of AGENTS (how its
 * session runs and how hookrun is installed for it the way its docs tell a user).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeEnv } from '../test/agents/claude-session.ts'
import { codexConfig } from '../test/agents/codex-cli.ts'
import { copilotConfig } from '../test/agents/copilot-cli.ts'
import { GEMINI, QWEN, type FamilyAgent } from '../test/agents/gemini-family.ts'
import { installAgent, type LabRun, labRun, type ModelRequest, type ModelServer, runAgent, type Turn } from '../test/agents/lab.ts'
import { startAnthropicModel } from '../test/agents/models/anthropic.ts'
import { startOpenAIChatModel } from '../test/agents/models/openai-chat.ts'
import { startOpenAIResponsesModel } from '../test/agents/models/openai-responses.ts'
import { ROOT } from '../test/helpers.ts'
import { compileHello } from './bench-project.ts'

const flag = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? fallback : process.argv[index + 1]!
}
const ROUNDS = Number(flag('rounds', '3'))
const CALLS = Number(flag('calls', '10'))
const CHOSEN = flag('agents', 'claude,gemini,qwen').split(',')

/** The check every hooked mode makes on each shell call: refuse a command that mentions "forbidden". */
const GATE = {
  name: 'gate',
  event: 'tool:pre_execute:bash',
  command: 'case "$HOOKRUN_BASH_COMMAND" in *forbidden*) echo forbidden >&2; exit 2;; esac',
}
/** The same check as a hook of the agent's own: the payload on stdin, exit 2 with the reason on stderr. */
const PLAIN = 'grep -q forbidden && { echo forbidden >&2; exit 2; }; exit 0'

interface BenchAgent {
  readonly label: string
  /** `hookrun install` as the agent's docs tell a user (Gemini CLI and Qwen Code: the user install, which works from subfolders). */
  readonly install: readonly string[]
  /** `hookrun install` for the serve mode, when not `install` (`--serve` refuses a project file the project shares). */
  readonly serveInstall?: readonly string[]
  /** The file(s) holding the router entries, where the counting wrapper goes. */
  routerFiles(run: LabRun): string[]
  /** Once per run, before anything else: the agent's own settings a headless run against the fake model needs. */
  prepare(run: LabRun): void
  /** The same check as GATE, as a hook in the agent's own settings. */
  plainHook(run: LabRun, command: string): void
  shell(command: string, index: number): Turn
  startModel(turns: readonly Turn[]): Promise<ModelServer>
  /** A conversation request (not a side request: a title, a token count). */
  isTurn(request: ModelRequest): boolean
  /** How the CLI runs one headless session against `model`. */
  invoke(run: LabRun, model: ModelServer): Invocation
}

interface Invocation {
  readonly command: string
  readonly args: readonly string[]
  readonly env: Record<string, string>
  readonly timeoutMs?: number
}

const withTools = (request: ModelRequest) => Array.isArray((request.body as { tools?: unknown } | undefined)?.tools)

function writeJson(file: string, value: unknown): void {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)
}

/** Gemini CLI and Qwen Code share their settings' shape, tool and command line (test/agents/gemini-family.ts). */
function family(agent: FamilyAgent, label: string): BenchAgent {
  const settings = (dir: string) => join(dir, agent.settingsDir, 'settings.json')
  return {
    label,
    install: ['install', '--agent', agent.name],
    routerFiles: (run) => [settings(run.home)],
    prepare: (run) => writeJson(settings(run.home), agent.userSettings),
    plainHook(run, command) {
      const event = agent.name === 'gemini' ? 'BeforeTool' : 'PreToolUse'
      writeJson(settings(run.project), {
        hooks: { [event]: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', name: 'plain', command }] }] },
      })
    },
    // Each call another command: Gemini CLI stops a session that repeats one ("Loop detected").
    shell: (command, index) => ({ tool: 'run_shell_command', input: { command: `${command} call-${index}` } }),
    startModel: agent.startModel,
    isTurn: agent.isTurn,
    invoke: (run, model) => ({
      command: installAgent(agent.name),
      args: agent.args('Do as the lab says.'),
      env: { ...run.env, ...agent.env(model) },
    }),
  }
}

const AGENTS: Record<string, BenchAgent> = {
  claude: {
    label: 'Claude Code',
    install: ['install', '--agent', 'claude', '--project'],
    routerFiles: (run) => [join(run.project, '.claude', 'settings.local.json')],
    prepare: () => {},
    plainHook: (run, command) =>
      writeJson(join(run.project, '.claude', 'settings.json'), {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `sh -c '${command}'` }] }] },
      }),
    shell: (command) => ({ tool: 'Bash', input: { command } }),
    startModel: startAnthropicModel,
    isTurn: withTools,
    invoke: (run, model) => ({
      command: installAgent('claude'),
      args: ['-p', 'do the lab step', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions'],
      env: claudeEnv(run, model.url),
      timeoutMs: 120_000,
    }),
  },
  gemini: family(GEMINI, 'Gemini CLI'),
  qwen: family(QWEN, 'Qwen Code'),
  codex: {
    label: 'Codex',
    install: ['install', '--agent', 'codex', '--project'],
    routerFiles: () => [], // Codex stops running a changed entry: counted through PATH instead (its project file runs `hookrun`)
    prepare: () => {},
    plainHook: (run, command) =>
      writeJson(join(run.project, '.codex', 'hooks.json'), {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
      }),
    shell: (cmd) => ({ tool: 'exec_command', input: { cmd } }),
    startModel: startOpenAIResponsesModel,
    isTurn: withTools,
    invoke(run, model) {
      codexConfig(run, model)
      const args = ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust', 'bench']
      return { command: installAgent('codex'), args, env: { ...run.env, FAKE_API_KEY: 'lab-key' } }
    },
  },
  codebuddy: {
    label: 'CodeBuddy Code',
    install: ['install', '--agent', 'codebuddy', '--project'],
    routerFiles: (run) => [join(run.project, '.codebuddy', 'settings.local.json')],
    prepare: () => {},
    // It runs command hooks in $SHELL, else /bin/sh (the lab sets no SHELL).
    plainHook: (run, command) =>
      writeJson(join(run.project, '.codebuddy', 'settings.json'), {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
      }),
    shell: (command) => ({ tool: 'Bash', input: { command, description: 'bench step' } }),
    startModel: startOpenAIChatModel,
    isTurn: withTools,
    invoke: (run, model) => ({
      command: installAgent('codebuddy'),
      args: ['-p', 'bench', '-y', '--output-format', 'json'],
      env: { ...run.env, CODEBUDDY_API_KEY: 'lab', CODEBUDDY_BASE_URL: `${model.url}/v1` },
      timeoutMs: 120_000,
    }),
  },
  copilot: {
    label: 'Copilot CLI',
    install: ['install', '--agent', 'copilot', '--project'],
    serveInstall: ['install', '--agent', 'copilot'],
    routerFiles: () => [],
    prepare: (run) => copilotConfig(run),
    // Copilot CLI takes a deny as JSON on stdout, not exit 2: its own form of the same check.
    plainHook: (run) =>
      writeJson(join(run.project, '.github', 'hooks', 'plain.json'), {
        version: 1,
        hooks: {
          preToolUse: [
            {
              type: 'command',
              bash: `grep -q forbidden && echo '{"permissionDecision":"deny","permissionDecisionReason":"forbidden"}'; exit 0`,
            },
          ],
        },
      }),
    shell: (command) => ({ tool: 'bash', input: { command, description: 'bench step' } }),
    startModel: startOpenAIChatModel,
    isTurn: withTools,
    invoke: (run, model) => ({
      command: installAgent('copilot'),
      args: ['-p', 'bench', '--allow-all-tools', '--output-format', 'json'],
      env: {
        ...run.env,
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
        COPILOT_PROVIDER_API_KEY: 'lab-provider-key-0123456789',
        COPILOT_MODEL: 'fake-model',
      },
    }),
  },
}

/** One way of wiring the check in: a row of the table. `agents` limits it to some agents. */
interface Mode {
  readonly name: string
  readonly label: string
  readonly hookrun: boolean
  readonly agents?: readonly string[]
  setUp(agent: BenchAgent, run: LabRun): void | Promise<void>
}

/** A hello-world compiled exactly as hookrun is (build.ts): the floor of any hook runner on this runtime. */
let helloBinary: string | undefined
async function bunHello(): Promise<string> {
  if (helloBinary !== undefined) return helloBinary
  const dir = mkdtempSync(join(tmpdir(), 'hookrun-bench-hello-'))
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
  helloBinary = await compileHello(dir)
  return helloBinary
}

function hookrunWith(flags: readonly string[], serve = false) {
  return (agent: BenchAgent, run: LabRun) => {
    writeJson(join(run.project, '.hookrun', 'hooks.json'), { hooks: [GATE] })
    for (const args of [['trust'], [...((serve ? agent.serveInstall : undefined) ?? agent.install), ...flags]]) {
      const done = run.hookrun(args)
      if (done.status !== 0) throw new Error(`hookrun ${args.join(' ')}: ${done.stderr}`)
    }
  }
}

const MODES: readonly Mode[] = [
  { name: 'none', label: 'no hooks', hookrun: false, setUp: () => {} },
  { name: 'shell', label: 'plain shell hook', hookrun: false, setUp: (agent, run) => agent.plainHook(run, PLAIN) },
  {
    name: 'bun-hello',
    label: "a Bun hello-world as the hook (the runtime's floor)",
    hookrun: false,
    agents: ['claude'],
    setUp: async (agent, run) => agent.plainHook(run, `${await bunHello()} > /dev/null`),
  },
  { name: 'hookrun', label: 'hookrun, default install', hookrun: true, setUp: hookrunWith([]) },
  { name: 'all-events', label: 'hookrun --all-events', hookrun: true, setUp: hookrunWith(['--all-events']) },
  {
    // Each event POSTed to a warm `hookrun serve` (started by the session-start command hook): Claude
    // Code's http handlers; Qwen Code's and CodeBuddy Code's gates and every Copilot CLI and Gemini
    // CLI event through the bash client. On a port of this run's own; stopped with the run.
    name: 'serve',
    label: 'hookrun install --serve',
    hookrun: true,
    agents: ['claude', 'qwen', 'codebuddy', 'copilot', 'gemini'],
    setUp: hookrunWith(['--serve', '--port', String(40_000 + Math.floor(Math.random() * 20_000))], true),
  },
]

interface Row {
  readonly agent: string
  readonly mode: Mode
  readonly cycles: number[]
  /** The CPU ms of each timed session. */
  readonly cpu: number[]
  starts?: { perCall: number; perSession: number }
}

/**
 * One session of `calls` shell calls: the ms between its conversation requests, and the CPU ms
 * the agent and every process it waited for used (bash's `times`: steadier than wall time on a
 * loaded machine).
 */
async function session(agent: BenchAgent, run: LabRun, calls: number, what: string): Promise<{ cycles: number[]; cpu: number }> {
  const model = await agent.startModel([...Array.from({ length: calls }, (_, index) => agent.shell('true', index)), { text: 'All done.' }])
  try {
    const { command, args, env, timeoutMs } = agent.invoke(run, model)
    const script = '"$0" "$@"; status=$?; times >&2; exit $status'
    const result = await runAgent('bash', ['-c', script, command, ...args], { cwd: run.project, env, timeoutMs: timeoutMs ?? 90_000 })
    const turns = model.requests.filter(agent.isTurn)
    if (result.status !== 0 || turns.length !== calls + 1)
      throw new Error(
        `${what}: exit ${result.status}, ${turns.length - 1} of ${calls} calls\n${(result.stdout + result.stderr).slice(-2000)}`,
      )
    return { cycles: turns.slice(1).map((turn, index) => turn.at - turns[index]!.at), cpu: childrenCpuMs(result.stderr) }
  } finally {
    await model.close()
  }
}

/** The children's user + system ms from the last line of `times` ("0m5.123s 0m1.004s"). */
function childrenCpuMs(stderr: string): number {
  const last = stderr.trim().split('\n').at(-1) ?? ''
  const match = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(last)
  if (match === null) throw new Error(`no CPU times from bash: ${last}`)
  return (Number(match[1]) * 60 + Number(match[2]) + Number(match[3]) * 60 + Number(match[4])) * 1000
}

/** hookrun behind a wrapper that counts its starts: in the router entries' files, and first on PATH. */
function countStarts(agent: BenchAgent, run: LabRun): () => number {
  const log = join(run.root, 'starts')
  const wrapper = join(run.root, 'counting', 'hookrun')
  mkdirSync(join(wrapper, '..'), { recursive: true })
  writeFileSync(wrapper, `#!/bin/sh\necho . >> '${log}'\nexec '${join(ROOT, 'dist', 'hookrun')}' "$@"\n`)
  chmodSync(wrapper, 0o755)
  for (const file of agent.routerFiles(run))
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll(join(ROOT, 'dist', 'hookrun'), wrapper))
  run.env.PATH = `${join(run.root, 'counting')}:${run.env.PATH}`
  return () => {
    const count = readFileSync(log, { encoding: 'utf8', flag: 'a+' }).split('\n').filter(Boolean).length
    writeFileSync(log, '')
    return count
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

async function benchAgent(name: string): Promise<Row[]> {
  const agent = AGENTS[name]
  if (agent === undefined) throw new Error(`--agents ${name}: one of ${Object.keys(AGENTS).join(', ')}`)
  const modes = MODES.filter((mode) => mode.agents === undefined || mode.agents.includes(name))
  const runs: LabRun[] = []
  for (const mode of modes) {
    const run = labRun()
    agent.prepare(run)
    await mode.setUp(agent, run)
    runs.push(run)
  }
  const rows: Row[] = modes.map((mode) => ({ agent: name, mode, cycles: [], cpu: [] }))
  try {
    // One warm-up session each: an agent's first start in a fresh HOME writes its own files.
    for (const [index, mode] of modes.entries()) await session(agent, runs[index]!, 1, `${name} ${mode.name} warm-up`)
    for (let round = 0; round < ROUNDS; round++) {
      for (let step = 0; step < modes.length; step++) {
        const index = (step + round) % modes.length
        const timed = await session(agent, runs[index]!, CALLS, `${name} ${modes[index]!.name}`)
        rows[index]!.cycles.push(...timed.cycles)
        rows[index]!.cpu.push(timed.cpu)
      }
      process.stderr.write(`${name}: round ${round + 1}/${ROUNDS}\n`)
    }
    for (const [index, mode] of modes.entries()) {
      if (!mode.hookrun) continue
      const starts = countStarts(agent, runs[index]!)
      await session(agent, runs[index]!, 0, `${name} ${mode.name} counting`)
      const perSession = starts()
      await session(agent, runs[index]!, CALLS, `${name} ${mode.name} counting`)
      rows[index]!.starts = { perCall: (starts() - perSession) / CALLS, perSession }
    }
    return rows
  } finally {
    for (const run of runs) {
      run.hookrun(['serve', '--stop'])
      run.remove()
    }
  }
}

const started = { load: loadavg()[0]!, at: new Date() }
const rows: Row[] = []
const failed: string[] = []
for (const name of CHOSEN) {
  try {
    rows.push(...(await benchAgent(name)))
  } catch (error) {
    // One agent that cannot run here (a CLI that changed, say) leaves the others' figures.
    process.stderr.write(`${name}: ${(error as Error).message}\n`)
    failed.push(name)
  }
}

const lines = [
  `${CALLS} shell calls per session, ${ROUNDS} interleaved rounds per mode (${ROUNDS * CALLS} calls each); ${cpus().length} cores (${cpus()[0]?.model.trim()}), load average ${started.load.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end; ${started.at.toISOString().slice(0, 16)}Z`,
  '',
  "| agent | mode | ms per tool call | added | × no hooks | added ÷ plain shell's | CPU ms added per call | hookrun starts per call (per session) |",
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
]
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`
for (const name of CHOSEN.filter((agent) => !failed.includes(agent))) {
  const mine = rows.filter((row) => row.agent === name)
  const none = mine.find((row) => row.mode.name === 'none')!
  const shell = mine.find((row) => row.mode.name === 'shell')
  const base = median(none.cycles)
  const shellAdded = shell === undefined ? undefined : median(shell.cycles) - base
  for (const row of mine) {
    const ms = median(row.cycles)
    const added = ms - base
    const versusShell = row.mode.hookrun && shellAdded !== undefined && shellAdded > 0 ? `${(added / shellAdded).toFixed(1)}×` : '—'
    const cpu = (median(row.cpu) - median(none.cpu)) / CALLS
    const starts = row.starts === undefined ? '—' : `${row.starts.perCall.toFixed(1)} (${row.starts.perSession})`
    const isNone = row === none
    lines.push(
      `| ${AGENTS[name]!.label} | ${row.mode.label} | ${ms.toFixed(1)} | ${isNone ? '—' : signed(added)} | ${(ms / base).toFixed(2)}× | ${versusShell} | ${isNone ? '—' : signed(cpu)} | ${starts} |`,
    )
  }
}
if (failed.length > 0) lines.push('', `Not measured (see the errors above): ${failed.join(', ')}`)
console.log(lines.join('\n'))
if (process.env.BENCH_AGENTS_OUT) writeFileSync(process.env.BENCH_AGENTS_OUT, `${lines.join('\n')}\n`)
