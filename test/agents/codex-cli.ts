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

/** `codex exec` headless, hook review bypassed (the lab cannot open the TUI's /hooks). */
export function runCodex(run: LabRun, prompt: string, cwd = run.project): Promise<AgentRun> {
  return runAgent(CODEX, ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust', prompt], {
    cwd,
    env: { ...run.env, FAKE_API_KEY: 'lab-key' },
    timeoutMs: 60_000,
  })
}

