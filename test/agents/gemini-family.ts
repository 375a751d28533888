/**
 * Gemini CLI and Qwen Code in the lab. Qwen Code began as a fork of Gemini CLI: both keep their
 * settings in `~/.X/settings.json` and `<start folder>/.X/settings.json`, both call their shell
 * tool `run_shell_command {command}`, both run `-p PROMPT --output-format stream-json
 * --approval-mode yolo`. What differs (the model API, the settings they need, what their stream
 * looks like) is in each `FamilyAgent`; `session` runs one scripted session of either and keeps
 * what the lab looks at afterwards.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type AgentRun, installAgent, type LabRun, labRun, type ModelRequest, type ModelServer, runAgent, type Turn } from './lab.ts'
import { geminiText, isGeminiTurn, startGeminiModel } from './models/gemini.ts'
import { labMcpServer } from './mcp.ts'
import { chatText, isChatTurn, startOpenAIChatModel } from './models/openai-chat.ts'

export interface FamilyAgent {
  readonly name: 'gemini' | 'qwen'
  /** The folder of its settings, in HOME and in the start folder. */
  readonly settingsDir: '.gemini' | '.qwen'
  /** The user settings a headless run against the fake model needs (hooks on, nothing sent home). */
  readonly userSettings: Record<string, unknown>
  startModel(turns: readonly Turn[]): Promise<ModelServer>
  /** A conversation request (not a side request such as a token count or a title). */
  isTurn(request: ModelRequest): boolean
  /** The conversation a request carried, as text. */
  text(body: unknown): string
  args(prompt: string): string[]
  env(model: ModelServer): Record<string, string>
}

export const GEMINI: FamilyAgent = {
  name: 'gemini',
  settingsDir: '.gemini',
  userSettings: {
    security: { auth: { selectedType: 'gemini-api-key' } },
    // No hooksConfig: hooks are on by default in 0.61 (hooksConfig.enabled, default true); the lab checks it.
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
  },
  startModel: startGeminiModel,
  isTurn: isGeminiTurn,
  text: geminiText,
  // A pinned model keeps the model router's classifier request away.
  args: (prompt) => ['-p', prompt, '--output-format', 'stream-json', '-m', 'gemini-2.5-flash', '--approval-mode', 'yolo'],
  // An untrusted folder runs no hooks at all: the lab trusts every workspace, as a user would.
  env: (model) => ({ GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'lab', GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
}

export const QWEN: FamilyAgent = {
  name: 'qwen',
  settingsDir: '.qwen',
  userSettings: {
    security: { auth: { selectedType: 'openai' } },
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
    // Else a second, memory-keeping conversation follows each run.
    memory: { enableManagedAutoMemory: false },
  },
  startModel: startOpenAIChatModel,
  isTurn: isChatTurn,
  text: chatText,
  args: (prompt) => ['-p', prompt, '--output-format', 'stream-json', '--approval-mode', 'yolo'],
  env: (model) => ({
    OPENAI_BASE_URL: `${model.url}/v1`,
    OPENAI_API_KEY: 'lab',
    OPENAI_MODEL: 'fake-model',
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
  }),
}

/** The agents' shell tool (both). */
export const SHELL = 'run_shell_command'
export const shell = (command: string): Turn => ({ tool: SHELL, input: { command } })
export const DONE: Turn = { text: 'All done.' }

/**
 * The lab's MCP server (mcp.ts) added to the user's settings as a user adds one: `mcpServers` in
 * `~/.X/settings.json`, the same shape in both agents; `extra` is more of the server's entry.
 */
export function addLabMcpServer(agent: FamilyAgent, run: LabRun, extra: Record<string, unknown> = {}): void {
  const file = join(run.home, agent.settingsDir, 'settings.json')
  const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  const { command, args } = labMcpServer(run)
  settings.mcpServers = { labmcp: { command, args, ...extra } }
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`)
}

/** One hooks.json entry, as a user writes it. */
export type HookEntry = Record<string, unknown>

/** A gate a user would write: deny any shell command that mentions `word`, with the reason on stderr. */
export function denyGate(word: string, reason: string, extra: HookEntry = {}): HookEntry {
  return {
    name: 'deny-gate',
    event: 'tool:pre_execute:bash',
    command: `case "$HOOKRUN_BASH_COMMAND" in *${word}*) echo '${reason}' >&2; exit 2;; esac`,
    ...extra,
  }
}

export interface SessionOptions {
  readonly turns: readonly Turn[]
  /** The project's `.hookrun/hooks.json` entries (or made from the run, for hooks that name its folders). */
  readonly hooks?: readonly HookEntry[] | ((run: LabRun) => readonly HookEntry[])
  /** `hookrun trust` the project (default true). */
  readonly trust?: boolean
  /** How hookrun is wired in: `hookrun install --agent X --project`, the user-level install, or not at all. */
  readonly install?: 'project' | 'user' | 'none'
  /** More arguments for `hookrun install`. */
  readonly installArgs?: readonly string[]
  /** Start the agent in this folder under the project (created). */
  readonly startIn?: string
  /** A hook on `*` copies every payload into the run's log folder (`session.payloads()`). */
  readonly log?: boolean
  /** Anything else to do to the run before the agent starts (after the install). */
  readonly prepare?: (run: LabRun) => void
  readonly prompt?: string
  /** Run the agent through this instead (the bench wraps it to read its CPU time). */
  readonly wrap?: (command: string, args: string[]) => [string, string[]]
}

export interface Session {
  readonly run: LabRun
  readonly model: ModelServer
  readonly agent: AgentRun
  /** What `hookrun install` printed. */
  readonly install: string
  /** Everything the person saw: the CLI's stdout and stderr. */
  readonly shown: string
  /** The conversation requests, each as text: what the model was told, turn by turn. */
  readonly turns: string[]
  /** The payloads the log hook saw, in order. */
  payloads(): Record<string, unknown>[]
  /** Is this file (relative to the project) there? */
  has(path: string): boolean
  /** The root and payloads, for fixtures. */
  logged(): Logged
  /** Remove the run's folders (on success; a failing test leaves them to look at). */
  remove(): void
}

/** One scripted session: a fresh HOME and project, hooks.json, the install, the agent run to its end. */
export async function session(agent: FamilyAgent, options: SessionOptions): Promise<Session> {
  const command = installAgent(agent.name)
  const model = await agent.startModel(options.turns)
  const run = labRun()
  const settingsDir = join(run.home, agent.settingsDir)
  mkdirSync(settingsDir, { recursive: true })
  writeFileSync(join(settingsDir, 'settings.json'), `${JSON.stringify(agent.userSettings, null, 2)}\n`)

  const log = join(run.root, 'log')
  mkdirSync(log)
  const hooks = [...((typeof options.hooks === 'function' ? options.hooks(run) : options.hooks) ?? [])]
  // `$$` keeps two payloads of the same nanosecond apart.
  if (options.log) hooks.unshift({ name: 'lab-log', event: '*', command: 'cat > "$LAB_LOG/$(date +%s%N)-$$.json"', env: { LAB_LOG: log } })
  if (hooks.length > 0) {
    mkdirSync(join(run.project, '.hookrun'), { recursive: true })
    writeFileSync(join(run.project, '.hookrun', 'hooks.json'), `${JSON.stringify({ hooks }, null, 2)}\n`)
  }
  if (options.trust !== false && hooks.length > 0) {
    const trusted = run.hookrun(['trust'])
    if (trusted.status !== 0) throw new Error(`hookrun trust failed: ${trusted.stderr}`)
  }
  let install = ''
  if ((options.install ?? 'project') !== 'none') {
    const args = ['install', '--agent', agent.name, ...(options.install === 'user' ? [] : ['--project']), ...(options.installArgs ?? [])]
    const installed = run.hookrun(args)
    if (installed.status !== 0) throw new Error(`hookrun ${args.join(' ')} failed: ${installed.stderr}`)
    install = installed.stdout + installed.stderr
  }
  options.prepare?.(run)
  const cwd = options.startIn === undefined ? run.project : join(run.project, options.startIn)
  mkdirSync(cwd, { recursive: true })
  const args = agent.args(options.prompt ?? 'Do as the lab says.')
  const [program, programArgs] = options.wrap?.(command, args) ?? [command, args]
  const result = await runAgent(program, programArgs, { cwd, env: { ...run.env, ...agent.env(model) } })
  await model.close()
  console.log(`${agent.name}: ${Math.round(result.ms)} ms, exit ${result.status}, ${model.requests.length} model requests`)
  const payloads = () =>
    readdirSync(log)
      .sort()
      .map((file) => JSON.parse(readFileSync(join(log, file), 'utf8')) as Record<string, unknown>)
  return {
    run,
    model,
    agent: result,
    install,
    shown: `${result.stdout}\n${result.stderr}`,
    turns: model.requests.filter(agent.isTurn).map((request) => agent.text(request.body)),
    payloads,
    has: (path) => existsSync(join(run.project, path)),
    logged: () => ({ root: run.root, payloads: payloads() }),
    remove: () => run.remove(),
  }
}

/** The first payload of each event the agent sent (by its own event name), in the order they first came. */
export interface Logged {
  readonly root: string
  readonly payloads: readonly Record<string, unknown>[]
}

/** The first payload of each event (by the agent's name for it) over the sessions in this order, as fixture text. */
export function fixturesOf(sessions: readonly (Logged | undefined)[]): Map<string, string> {
  const first = new Map<string, string>()
  for (const logged of sessions) {
    for (const payload of logged?.payloads ?? []) {
      const name = String(payload.hook_event_name)
      if (!first.has(name)) first.set(name, fixture(payload, logged!.root))
    }
  }
  return first
}

/**
 * A payload as a fixture: the run's folders, ids and times replaced by stable placeholders, so a
 * new lab run writes the same file unless the agent sent something else.
 */
export function fixture(payload: Record<string, unknown>, root: string): string {
  // `event` is hookrun's (added on a hook's stdin when the agent sends none), not the agent's.
  const { event: _hookrunsOwn, ...sent } = payload
  const text = JSON.stringify(sent, null, 2)
    .replaceAll(root, '/lab')
    // Qwen keeps a project's chats under its path with / and . as dashes.
    .replaceAll(root.replace(/[/.]/g, '-'), '-lab')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '00000000-0000-0000-0000-000000000000')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '2026-01-01T00:00:00.000Z')
    .replace(/session-\d{4}-\d\d-\d\dT\d\d-\d\d-[0-9a-f]{8}/g, 'session-2026-01-01T00-00-00000000')
    .replace(/PGID: \d+/g, 'PGID: 12345')
    // Qwen's own call ids (toolu_<ms>_<random>) and how long a call took.
    .replace(/toolu_\d+_[a-z0-9]+/g, 'toolu_0_lab')
    .replace(/"duration_ms": \d+/g, '"duration_ms": 100')
    .replace(/Today's date is [^(\\]*/g, "Today's date is Thursday, January 1, 2026 ")
  return `${text}\n`
}

/** Where a text appeared: what the person saw (the CLI's output) and/or what the model was told. */
export function whereSeen(s: Session, text: string | RegExp): string[] {
  const found = (value: string) => (typeof text === 'string' ? value.includes(text) : text.test(value))
  return [
    ...(found(s.agent.stdout) ? ['stdout'] : []),
    ...(found(s.agent.stderr) ? ['stderr'] : []),
    ...(s.turns.some(found) ? ['the model'] : []),
  ]
}

/** How many times each event reached hookrun's hooks, by the agent's name for it. */
export function eventCounts(payloads: readonly Record<string, unknown>[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const payload of payloads) counts[String(payload.hook_event_name)] = (counts[String(payload.hook_event_name)] ?? 0) + 1
  // By name: the results file must not depend on which hook of an event wrote first.
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)))
}

/** The settings file of a project install, read and written as plain JSON (hookrun writes it so). */
export function editSettings(
  file: string,
  edit: (settings: { hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> }) => void,
): void {
  const settings = JSON.parse(readFileSync(file, 'utf8'))
  edit(settings)
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`)
}

/**
 * Where a `systemMessage` from each of hookrun's events reaches in a headless run: the hooks
 * answer `{"systemMessage": "LAB-SYS-<event>"}` on session start, prompt, pre- and post-tool and
 * stop; the result maps each event to where its text appeared (stdout, stderr, the model).
 */
export async function systemMessageChannels(agent: FamilyAgent): Promise<Record<string, string[]>> {
  const events = {
    start: 'session:start',
    prompt: 'user:prompt_submit',
    pre: 'tool:pre_execute',
    post: 'tool:post_execute',
    stop: 'agent:stop',
  }
  const hooks = Object.entries(events).map(([tag, event]) => ({
    name: `sys-${tag}`,
    event,
    command: `echo '{"systemMessage":"LAB-SYS-${tag.toUpperCase()}"}'`,
  }))
  const s = await session(agent, { turns: [shell('true'), DONE], hooks })
  const channels = Object.fromEntries(Object.keys(events).map((tag) => [tag, whereSeen(s, `LAB-SYS-${tag.toUpperCase()}`)]))
  s.remove()
  return channels
}
