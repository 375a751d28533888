// Goose (`goose run` / `goose session`) headless against the lab's fake chat-completions API: its config and its command line.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { installAgent, runAgent, type AgentRun, type LabRun, type ModelServer } from './lab.ts'

const GOOSE = installAgent('goose')

/**
 * ~/.config/goose/config.yaml (XDG_CONFIG_HOME): the OpenAI provider on the fake model (Goose adds
 * `v1/chat/completions` to OPENAI_HOST itself), auto mode (no approval prompts), and the builtin
 * developer extension, whose shell tool is `shell {command}`.
 */
export function gooseConfig(run: LabRun, server: ModelServer): void {
  const dir = join(run.env.XDG_CONFIG_HOME!, 'goose')
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      'GOOSE_PROVIDER: openai',
      'GOOSE_MODEL: fake-model',
      'GOOSE_MODE: auto',
      `OPENAI_HOST: ${server.url}`,
      'extensions:',
      '  developer:',
      '    enabled: true',
      '    name: developer',
      '    type: builtin',
      '    timeout: 300',
      '    bundled: true',
      '',
    ].join('\n'),
  )
}

const ENV = { OPENAI_API_KEY: 'lab-key', GOOSE_DISABLE_KEYRING: '1', GOOSE_TELEMETRY_OFF: '1' }

/** `goose run --no-session -t PROMPT`: one prompt, stdin closed. Prints no SessionStart banner. */
export function runGoose(run: LabRun, prompt: string, cwd = run.project): Promise<AgentRun> {
  return runAgent(GOOSE, ['run', '--no-session', '-t', prompt], { cwd, env: { ...run.env, ...ENV }, timeoutMs: 90_000 })
}

/** `goose session` with the prompt on stdin, then end of input: the interactive CLI, which prints SessionStart banners. */
export function runGooseSession(run: LabRun, prompt: string, cwd = run.project): Promise<AgentRun> {
  return runAgent(GOOSE, ['session'], { cwd, env: { ...run.env, ...ENV }, timeoutMs: 90_000, input: `${prompt}\n` })
}
