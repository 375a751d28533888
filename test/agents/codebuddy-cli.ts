// CodeBuddy Code (`codebuddy -p`) headless against the lab's fake chat-completions API: its command line, and what the model got back.
import { installAgent, runAgent, type AgentRun, type LabRun, type ModelServer } from './lab.ts'
import { isChatTurn, toolMessages } from './models/openai-chat.ts'

const CODEBUDDY = installAgent('codebuddy')

/** `codebuddy -p … -y` against the fake model (CODEBUDDY_BASE_URL, CODEBUDDY_API_KEY: no login). */
export function runCodebuddy(run: LabRun, server: ModelServer, prompt: string, cwd: string): Promise<AgentRun> {
  return runAgent(CODEBUDDY, ['-p', prompt, '-y', '--output-format', 'json'], {
    cwd,
    env: { ...run.env, CODEBUDDY_API_KEY: 'lab', CODEBUDDY_BASE_URL: `${server.url}/v1` },
    timeoutMs: 120_000,
  })
}

/** What the model got back for each of its tool calls, in order (from the last conversation request). */
export function toolOutputs(server: ModelServer): string[] {
  const last = server.requests.filter(isChatTurn).at(-1)
  return last === undefined
    ? []
    : toolMessages(last).map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
}
