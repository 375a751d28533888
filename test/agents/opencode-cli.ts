// OpenCode (`opencode run`) headless against the lab's fake chat-completions API: its config, its command line.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type AgentRun, installAgent, type LabRun, type ModelServer, runAgent } from './lab.ts'

const OPENCODE = installAgent('opencode')

/**
 * The project's opencode.json: a provider of our own (`@ai-sdk/openai-compatible` is bundled, so
 * nothing is fetched) at the fake model, for the conversation and for titles.
 */
export function opencodeConfig(run: LabRun, server: ModelServer, extra: Record<string, unknown> = {}): void {
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        options: { baseURL: `${server.url}/v1`, apiKey: 'lab' },
        models: { 'fake-model': { tool_call: true } },
      },
    },
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    ...extra,
  }
  writeFileSync(join(run.project, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`)
}

/** Nothing fetched, nothing shared, no Claude Code files read: only the fake model is asked. */
const QUIET = {
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_SHARE: '1',
  OPENCODE_DISABLE_CLAUDE_CODE: '1',
}

/**
 * `opencode run --format json PROMPT` (stdin closed). Its first start in a fresh HOME installs
 * `@opencode-ai/plugin` into each `.opencode/` folder: slow on a busy machine, hence the timeout.
 */
export function runOpencode(run: LabRun, prompt: string, cwd = run.project, env: Record<string, string> = {}): Promise<AgentRun> {
  return runAgent(OPENCODE, ['run', '--format', 'json', prompt], { cwd, env: { ...run.env, ...QUIET, ...env }, timeoutMs: 240_000 })
}

/** The tool parts of `--format json` output: what each call's status and output (or error) was. */
export function toolParts(result: AgentRun): { tool: string; status: string; input: Record<string, unknown>; text: string }[] {
  return result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type?: string; part?: { tool?: string; state?: Record<string, unknown> } })
    .filter((event) => event.type === 'tool_use' && event.part?.state !== undefined)
    .map((event) => {
      const state = event.part!.state!
      return {
        tool: event.part!.tool ?? '',
        status: String(state.status),
        input: (state.input ?? {}) as Record<string, unknown>,
        text: String(state.status === 'error' ? state.error : state.output),
      }
    })
}
