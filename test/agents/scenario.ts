/**
 * One lab scenario as the Codex and Copilot lab files run it: hooks.json written as a user would,
 * hookrun wired into the agent with `hookrun install --agent X --project`, the project trusted,
 * the real CLI run once against its fake model, then the file's own checks on what happened.
 * What differs per agent (its model API, its config, its command line) is the driver's.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect } from 'vitest'
import { type AgentRun, type LabAgent, type labResults, labRun, type LabRun, type ModelServer, type Turn } from './lab.ts'

export interface AgentDriver {
  readonly agent: LabAgent
  startModel(turns: readonly Turn[]): Promise<ModelServer>
  configure(run: LabRun, server: ModelServer): void
  run(run: LabRun, server: ModelServer, prompt: string, cwd: string): Promise<AgentRun>
  /** What LAB_DEBUG prints after a run. */
  debug?(server: ModelServer, result: AgentRun): string
}

export interface Setup {
  /** The project's .hookrun/hooks.json, or what makes it from the run (hooks that write in the run's folders). */
  readonly hooks: unknown | ((run: LabRun) => unknown)
  readonly turns: readonly Turn[]
  /** Run `hookrun trust` (default: yes). */
  readonly trust?: boolean
  /** Where the agent starts, relative to the project. */
  readonly cwd?: string
  /** Extra steps before the agent runs (more config, folders). */
  readonly before?: (run: LabRun) => void
}

export interface Outcome {
  readonly run: LabRun
  readonly server: ModelServer
  readonly result: AgentRun
}

/** The scenario runner for one agent. */
export function scenarioRunner(driver: AgentDriver): (name: string, setup: Setup, check: (outcome: Outcome) => void) => Promise<void> {
  return async (name, setup, check) => {
    const run = labRun()
    const server = await driver.startModel(setup.turns)
    try {
      driver.configure(run, server)
      mkdirSync(join(run.project, '.hookrun'), { recursive: true })
      const hooks = typeof setup.hooks === 'function' ? setup.hooks(run) : setup.hooks
      writeFileSync(join(run.project, '.hookrun', 'hooks.json'), `${JSON.stringify(hooks, null, 2)}\n`)
      const install = run.hookrun(['install', '--agent', driver.agent, '--project'])
      expect(install.status, install.stderr).toBe(0)
      if (setup.trust !== false) expect(run.hookrun(['trust']).status).toBe(0)
      setup.before?.(run)
      const cwd = join(run.project, setup.cwd ?? '')
      mkdirSync(cwd, { recursive: true })
      const result = await driver.run(run, server, `lab scenario ${name}`, cwd)
      console.log(`${driver.agent} ${name}: ${Math.round(result.ms)} ms`)
      if (process.env.LAB_DEBUG && driver.debug) console.log(driver.debug(server, result))
      expect(result.status, result.stderr).toBe(0)
      check({ run, server, result })
    } finally {
      await server.close()
      run.remove()
    }
  }
}

/** The lab's gate: any shell command that mentions "forbidden" is denied, with a reason on stderr (exit 2). */
export const GATE = `case "$HOOKRUN_BASH_COMMAND" in *forbidden*) echo "lab gate: forbidden commands are not allowed" >&2; exit 2;; esac`
export const GATE_HOOKS = { hooks: [{ name: 'lab-gate', event: 'tool:pre_execute:bash', command: GATE, timeout: 10 }] }
export const DONE: Turn = { text: 'done' }

/** Hooks that add context on session start, prompt and after a shell call, each with its own marker. */
export function contextHooks(): unknown {
  const say = (text: string) => `printf '%s' '{"additionalContext":"${text}"}'`
  return {
    hooks: [
      { name: 'lab-start', event: 'session:start', command: say('LAB-CONTEXT-SESSION') },
      { name: 'lab-prompt', event: 'user:prompt_submit', command: say('LAB-CONTEXT-PROMPT') },
      { name: 'lab-post', event: 'tool:post_execute:bash', command: say('LAB-CONTEXT-POST') },
    ],
  }
}

/** Which of the agent's output streams held `text`, as a phrase ("stdout and stderr", "neither …"). */
export function shownOn(result: AgentRun, text: string): string {
  return (
    [result.stdout.includes(text) && 'stdout', result.stderr.includes(text) && 'stderr'].filter(Boolean).join(' and ') ||
    'neither stdout nor stderr'
  )
}

/**
 * A shell command (for a model's turn) that holds 127.0.0.1:port with a program that closes every
 * connection without answering, for 30 seconds, in the background: a hookrun serve gone wrong, as
 * a served agent's command client meets it (connected, no answer). It waits for the port (a
 * server told to stop may take a while on a loaded machine) and returns once the program listens.
 * The program is a script in `given` (Copilot CLI asks a person to approve a command that reaches
 * outside its folders), else in a folder of its own, removed when the program exits.
 */
export function brokenPort(port: number, given?: string): string {
  const dir = given ?? mkdtempSync(join(tmpdir(), 'hookrun-lab-port-'))
  const script = join(dir, 'break-port.sh')
  const program = [
    "const net = require('net')",
    `const hold = () => net.createServer((c) => c.destroy()).once('error', () => setTimeout(hold, 100)).listen(${port}, '127.0.0.1', () => console.log('listening'))`,
    'hold()',
    'setTimeout(() => process.exit(0), 30000)',
  ].join('; ')
  const log = join(dir, 'break-port.log')
  writeFileSync(
    script,
    // A folder of its own goes once the program has exited (its 30 seconds).
    `nohup sh -c '"$0" -e "$1"${given === undefined ? `; rm -rf "$2"` : ''}' '${process.execPath}' "${program}" '${dir}' > '${log}' 2>&1 &\nfor i in $(seq 200); do grep -q listening '${log}' && exit 0; sleep 0.1; done; exit 1\n`,
  )
  return `sh ${script}`
}

/**
 * A served agent's session through every failure (test/agents/*-serve.lab.ts): a call allowed, one
 * denied; the server stopped (the next gate's client starts it): again; then its port held by a
 * program that closes every connection, so the next call must not run. `hookrun` as the agent's
 * shell tool finds it.
 */
export function serveFailureTurns(shell: (command: string) => Turn, port: number, run: LabRun, hookrun = 'hookrun'): Turn[] {
  return [
    shell('touch allowed-marker'),
    shell('touch forbidden-marker'),
    shell(`${hookrun} serve --stop && sleep 1`),
    shell('touch after-stop-marker'),
    shell('touch forbidden-after-stop'),
    shell(`${hookrun} serve --stop && sleep 1 && ${brokenPort(port, run.project)} && sleep 1`),
    shell('touch after-break-marker'),
    DONE,
  ]
}

/** What that session must show: the markers, and the model's tool outputs (by turn) with `denied` and `blocked`. */
export function expectServeFailures(run: LabRun, outputs: readonly string[], denied: string, blocked: RegExp | string): void {
  const has = (name: string) => existsSync(join(run.project, name))
  expect(has('allowed-marker')).toBe(true)
  expect(has('forbidden-marker')).toBe(false)
  expect(outputs[1]).toContain(denied)
  expect(outputs[2]).toMatch(/told to stop/)
  // No server: the gate's client started it and answered with a hookrun of its own.
  expect(has('after-stop-marker')).toBe(true)
  expect(has('forbidden-after-stop')).toBe(false)
  expect(outputs[4]).toContain(denied)
  expect(outputs[5]).toMatch(/told to stop/)
  // The port answered by a program that closes every connection: the client connected, got no answer, and blocked.
  expect(has('after-break-marker')).toBe(false)
  expect(outputs[6]).toMatch(blocked)
}

/** How a serve lab file runs its agent: its model, the install flags besides `--serve --port`, what install says it wrote, its CLI. */
export interface ServedDriver {
  readonly agent: LabAgent
  startModel(turns: readonly Turn[]): Promise<ModelServer>
  readonly installFlags?: readonly string[]
  wrote(port: number): string
  configure?(run: LabRun): void
  run(run: LabRun, server: ModelServer): Promise<AgentRun>
}

/**
 * Sessions of an agent wired by `install --serve` (test/agents/*-serve.lab.ts): hooks.json trusted, the agent installed on a port
 * of the session's own, its CLI run to its end. The servers the sessions started are stopped after the file (and the runs removed).
 */
export function servedSessions(
  driver: ServedDriver,
): (hooks: unknown, turns: readonly Turn[] | ((run: LabRun) => readonly Turn[]), port: number) => Promise<Outcome> {
  const runs: LabRun[] = []
  afterAll(() => {
    for (const run of runs) run.hookrun(['serve', '--stop'])
    if (process.env.HOOKRUN_LAB_KEEP) return
    for (const run of runs) run.remove()
  })
  return async (hooks, turns, port) => {
    const run = labRun()
    runs.push(run)
    const server = await driver.startModel(typeof turns === 'function' ? turns(run) : turns)
    try {
      driver.configure?.(run)
      mkdirSync(join(run.project, '.hookrun'), { recursive: true })
      writeFileSync(join(run.project, '.hookrun', 'hooks.json'), `${JSON.stringify(hooks, null, 2)}\n`)
      expect(run.hookrun(['trust']).status).toBe(0)
      const install = run.hookrun(['install', '--agent', driver.agent, '--serve', ...(driver.installFlags ?? []), '--port', String(port)])
      expect(install.status, install.stderr).toBe(0)
      expect(install.stdout).toContain(driver.wrote(port))
      const result = await driver.run(run, server)
      console.log(`${driver.agent} --serve session: ${Math.round(result.ms)} ms`)
      expect(result.status, result.stderr).toBe(0)
      return { run, server, result }
    } finally {
      await server.close()
    }
  }
}

/**
 * The four results of that session, in each serve lab file's words: which client answered after the
 * restart (`client`), how it blocks (`exits`), and the model's line on the broken port (`blocked`).
 */
export function recordServeFailures(
  results: ReturnType<typeof labResults>,
  outcome: { readonly result: AgentRun; readonly outputs: readonly string[] },
  words: { readonly allowed: string; readonly client: string; readonly exits: string; readonly blocked: string | undefined },
): void {
  const port = (text: string | undefined) => text?.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT').replace(/--port \d+/g, '--port PORT')
  results.record('allow-shell', 'honoured', words.allowed)
  results.record(
    'deny-shell',
    'honoured',
    `through the bash client (the server's JSON deny, exit 0): the command did not run; the model got ${JSON.stringify(outcome.outputs[1])}`,
  )
  results.record(
    'serve-restart',
    'honoured',
    `hookrun serve stopped mid-session: the next ${words.client} started it again and answered with a hookrun of its own (the allowed command ran, the forbidden one was denied, and the server was running again)`,
  )
  results.record(
    'crash-blocks',
    'honoured',
    `the port answered by a program that closes every connection (a broken hookrun serve): the next call did not run (${words.exits}); the model got ${JSON.stringify(port(words.blocked))}; the person saw it on ${shownOn(outcome.result, 'hookrun serve did not answer')}`,
  )
}
