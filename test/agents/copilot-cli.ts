// GitHub Copilot CLI (`copilot -p`) headless against the lab's fake chat-completions API: its config and its command line.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { installAgent, runAgent, type AgentRun, type LabRun, type ModelServer } from './lab.ts'

const COPILOT = installAgent('copilot')

/** ~/.copilot/config.json: the project a trusted folder (repository hooks load only there). */
export function copilotConfig(run: LabRun, trusted: readonly string[] = [run.project]): void {
  mkdirSync(join(run.home, '.copilot'), { recursive: true })
  writeFileSync(join(run.home, '.copilot', 'config.json'), `${JSON.stringify({ trustedFolders: trusted }, null, 2)}\n`)
}

/**
 * `copilot -p` headless against the fake model. (The key is long on purpose: Copilot masks its
 * provider key's text wherever it appears in its output.)
 */
export function runCopilot(run: LabRun, server: ModelServer, prompt: string, cwd = run.project): Promise<AgentRun> {
  return runAgent(COPILOT, ['-p', prompt, '--allow-all-tools', '--output-format', 'json'], {
    cwd,
    env: {
      ...run.env,
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'lab-provider-key-0123456789',
      COPILOT_MODEL: 'fake-model',
    },
    timeoutMs: 90_000,
  })
}
