// OpenCode (`opencode run`) and Kilo Code (`kilo run`, OpenCode's engine) headless against the lab's
// fake chat-completions API: their config, their command line, what their JSON output says.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type AgentRun, installAgent, type LabRun, type ModelServer, runAgent } from './lab.ts'

export type FamilyAgent = 'opencode' | 'kilo'

/** What differs between the two: the config file, its schema, the prefix of their variables. */
const FAMILY = {
  opencode: { label: 'OpenCode', config: 'opencode.json', schema: 'https://opencode.ai/config.json', prefix: 'OPENCODE' },
  kilo: { label: 'Kilo Code', config: 'kilo.json', schema: 'https://kilo.ai/config.json', prefix: 'KILO' },
} as const

export const familyLabel = (agent: FamilyAgent) => FAMILY[agent].label

/**
 * The project's config: a provider of our own (`@ai-sdk/openai-compatible` is bundled, so nothing
 * is fetched) at the fake model, for the conversation and for titles.
 */
export function familyConfig(agent: FamilyAgent, run: LabRun, server: ModelServer, extra: Record<string, unknown> = {}): void {
  const config = {
    $schema: FAMILY[agent].schema,
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
  writeFileSync(join(run.project, FAMILY[agent].config), `${JSON.stringify(config, null, 2)}\n`)
}

/** Nothing fetched, nothing shared, no Claude Code files read: only the fake model is asked. */
function quiet(agent: FamilyAgent): Record<string, string> {
  const names = ['AUTOUPDATE', 'MODELS_FETCH', 'DEFAULT_PLUGINS', 'LSP_DOWNLOAD', 'SHARE', 'CLAUDE_CODE']
  return Object.fromEntries(names.map((name) => [`${FAMILY[agent].prefix}_DISABLE_${name}`, '1']))
}

/**
 * `opencode run --format json PROMPT` (stdin closed; `kilo run` the same). Its first start in a
 * fresh HOME installs the plugin package into each config folder: slow on a busy machine.
 */
export function runFamily(
  agent: FamilyAgent,
  run: LabRun,
  prompt: string,
  cwd: string,
  env: Record<string, string> = {},
): Promise<AgentRun> {
  return runAgent(installAgent(agent), ['run', '--format', 'json', prompt], {
    cwd,
    env: { ...run.env, ...quiet(agent), ...env },
    timeoutMs: 400_000,
  })
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
