// Codex (`codex exec`) headless against the lab's fake Responses API: its config and its command line.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { installAgent, runAgent, type AgentRun, type LabRun, type ModelServer } from './lab.ts'

const CODEX = installAgent('codex')

/** ~/.codex/config.toml: the fake model as a provider, the project trusted, nothing phoning home. */
export function codexConfig(run: LabRun, server: ModelServer, trusted: readonly string[] = [run.project]): void {
  mkdirSync(join(run.home, '.codex'), { recursive: true })
  const projects = trusted.map((dir) => `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`).join('')
  writeFileSync(
    join(run.home, '.codex', 'config.toml'),
    `model = "fake-model"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "${server.url}/v1"
env_key = "FAKE_API_KEY"
wire_api = "responses"

[analytics]
enabled = false

[feedback]
enabled = false

${projects}`,
  )
}

/**
 * `codex exec` headless, hook review bypassed (the lab cannot open the TUI's /hooks), unless the
 * hooks were `reviewed` (reviewCodexHooks).
 */
export function runCodex(run: LabRun, prompt: string, cwd = run.project, options: { reviewed?: boolean } = {}): Promise<AgentRun> {
  const bypass = options.reviewed ? [] : ['--dangerously-bypass-hook-trust']
  return runAgent(CODEX, ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', ...bypass, prompt], {
    cwd,
    env: { ...run.env, FAKE_API_KEY: 'lab-key' },
    timeoutMs: 60_000,
  })
}

/** A hook as `codex app-server` lists it (hooks/list). */
export interface CodexHook {
  readonly key: string
  readonly eventName: string
  readonly command: string
  readonly currentHash: string
  readonly trustStatus: string
}

/**
 * What the TUI's /hooks review does, through `codex app-server` (JSON-RPC over stdio): list the
 * hooks Codex sees from `cwd` and, with `trust`, record each one's current hash as trusted
 * (`hooks.state."<key>".trusted_hash` in ~/.codex/config.toml). Returns the hooks as listed first.
 */
export async function reviewCodexHooks(run: LabRun, cwd: string, trust: boolean): Promise<CodexHook[]> {
  const { spawn } = await import('node:child_process')
  const child = spawn(CODEX, ['app-server'], { cwd, env: run.env, stdio: ['pipe', 'pipe', 'ignore'] })
  const waiting = new Map<number, (result: unknown) => void>()
  let buffer = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + 1)
      const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown }
      if (message.id !== undefined && waiting.has(message.id))
        waiting.get(message.id)!(message.error === undefined ? message.result : Promise.reject(new Error(JSON.stringify(message.error))))
    }
  })
  let next = 0
  const call = (method: string, params: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = ++next
      waiting.set(id, resolve)
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`)
    })
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  try {
    await call('initialize', { clientInfo: { name: 'hookrun-lab', version: '1' } })
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`)
    const listed = (await call('hooks/list', { cwds: [cwd] })) as { data: { hooks: CodexHook[] }[] }
    const hooks = listed.data.flatMap((entry) => entry.hooks)
    if (trust && hooks.length > 0) {
      const edits = hooks.map((hook) => ({
        keyPath: `hooks.state.${JSON.stringify(hook.key)}.trusted_hash`,
        value: hook.currentHash,
        mergeStrategy: 'replace',
      }))
      await call('config/batchWrite', { edits })
    }
    return hooks
  } finally {
    clearTimeout(timer)
    child.kill()
  }
}
