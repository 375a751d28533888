/**
 * Copilot CLI 1.0.102 with `hookrun install --agent copilot --serve`: its http handlers fail open
 * (and reach loopback only with COPILOT_HOOK_ALLOW_LOCALHOST=1 in its environment), so every event
 * gets a bash client to `hookrun serve` (with nothing listening it starts the server and answers
 * itself; a gate's exits 2 on any other failure, which denies a preToolUse), and sessionStart /
 * userPromptSubmitted start the server. The user install (~/.copilot/hooks/hookrun.json), the
 * project a trusted folder. Two sessions: deny, allow, the server stopped mid-session and then its
 * port broken; context. Results: src/agents/lab/copilot-serve.json.
 */
import { describe, expect, test } from 'vitest'
import { copilotConfig, runCopilot } from './copilot-cli.ts'
import { labResults, type LabRun, labVersion, type ModelServer, type Turn } from './lab.ts'
import { chatMessages, startOpenAIChatModel, toolMessages } from './models/openai-chat.ts'
import { contextHooks, DONE, expectServeFailures, GATE_HOOKS, recordServeFailures, serveFailureTurns, servedSessions } from './scenario.ts'
import { freePort } from '../helpers.ts'

const results = labResults('copilot', 'copilot-serve')
const bashCall = (command: string): Turn => ({ tool: 'bash', input: { command, description: 'lab step' } })

const completions = (server: ModelServer) => server.requests.filter((request) => request.url.endsWith('/chat/completions'))

/** What the model got back for each of its tool calls, in order (from the last request). */
function toolOutputs(server: ModelServer): string[] {
  const last = completions(server).at(-1)
  return last === undefined
    ? []
    : toolMessages(last).map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
}

/** One session: the user install (~/.copilot/hooks/hookrun.json), the project a trusted folder, `copilot -p` to its end. */
const served = servedSessions({
  agent: 'copilot',
  startModel: startOpenAIChatModel,
  configure: copilotConfig,
  wrote: (port) => `served:  bash clients to http://127.0.0.1:${port}/copilot/<event>`,
  run: (run, server) => runCopilot(run, server, 'lab scenario serve'),
})

describe(`Copilot CLI ${labVersion('copilot')} with install --serve`, () => {
  test.concurrent('deny, allow; the server stopped mid-session: the next preToolUse starts it; the port broken: the next one is denied', async () => {
    const port = await freePort()
    const turns = (run: LabRun) => serveFailureTurns(bashCall, port, run)
    const { run, server, result } = await served(GATE_HOOKS, turns, port)
    const outputs = toolOutputs(server)
    console.log('copilot --serve tool outputs', JSON.stringify(outputs))
    // Copilot 1.0.102 passes on no stderr of a failing preToolUse command ("hook exited with code 2"):
    // the client prints the deny on stdout too, which it reads with the exit code.
    expectServeFailures(
      run,
      outputs,
      'Denied by preToolUse hook: lab gate: forbidden commands are not allowed',
      /^Denied by preToolUse hook: hookrun serve did not answer on 127\.0\.0\.1:\d+, so this Copilot gate blocks/,
    )
    recordServeFailures(
      results,
      { result, outputs },
      {
        allowed: 'through the bash client: the command ran',
        client: 'preToolUse client',
        exits: 'the client exits 2 with a deny on stdout',
        blocked: outputs[6],
      },
    )
  })

  test.concurrent('context: sessionStart, userPromptSubmitted (serve --start) and postToolUse (bash client) context reach the model', async () => {
    const { server } = await served(contextHooks(), [bashCall('true'), DONE], await freePort())
    const all = completions(server)
    const first = JSON.stringify(chatMessages(all[0]!))
    expect(first).toContain('LAB-CONTEXT-SESSION')
    expect(first).toContain('LAB-CONTEXT-PROMPT')
    expect(JSON.stringify(chatMessages(all.at(-1)!))).toContain('LAB-CONTEXT-POST')
    results.record(
      'context',
      'honoured',
      'sessionStart and userPromptSubmitted context (their serve --start command) and postToolUse context (bash client) reached the model',
    )
  })

  test('the results table matches what this run saw', async () => {
    await results.check()
  })
})
