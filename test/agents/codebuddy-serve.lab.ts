/**
 * CodeBuddy Code (2.117.0, in npm `@tencent-ai/agent-sdk` 0.3.201) with `hookrun install --agent
 * codebuddy --serve --project`: its http handlers let a call through on any failure, so gates go
 * through the bash client to `hookrun serve` (with nothing listening it starts the server and
 * answers itself; on any other failure it exits 2, which blocks), the other events through http
 * handlers, and SessionStart starts the server. Its command handlers run in `$SHELL -c`, else
 * `/bin/sh` (the lab sets no SHELL): the client starts its own bash. Two sessions: deny, allow, the
 * server stopped mid-session and then its port broken; context. Results: src/agents/lab/codebuddy-serve.json.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCodebuddy, toolOutputs } from './codebuddy-cli.ts'
import { labResults, type LabRun, labVersion, type Turn } from './lab.ts'
import { chatMessages, isChatTurn, startOpenAIChatModel } from './models/openai-chat.ts'
import { contextHooks, DONE, expectServeFailures, GATE_HOOKS, recordServeFailures, serveFailureTurns, servedSessions } from './scenario.ts'
import { freePort } from '../helpers.ts'

const results = labResults('codebuddy', 'codebuddy-serve')
const bash = (command: string): Turn => ({ tool: 'Bash', input: { command, description: 'lab step' } })
const GATE_REASON = 'lab gate: forbidden commands are not allowed'

/** One session: `install --agent codebuddy --serve --project` (the local file), `codebuddy -p` to its end. */
const served = servedSessions({
  agent: 'codebuddy',
  startModel: startOpenAIChatModel,
  installFlags: ['--project'],
  wrote: (port) => `served:  http handlers to http://127.0.0.1:${port}/codebuddy?if-down=run-hookrun-serve, bash clients on gates`,
  run: (run, server) => runCodebuddy(run, server, 'lab scenario serve', run.project),
})

describe(`CodeBuddy Code ${labVersion('codebuddy')} with install --serve`, () => {
  test.concurrent('deny, allow; the server stopped mid-session: the next gate starts it; the port broken: the next gate blocks', async () => {
    const port = await freePort()
    // Its Bash tool runs with a PATH of its own (no lab bin folder): hookrun by its path.
    const turns = (run: LabRun) => serveFailureTurns(bash, port, run, `${run.root}/bin/hookrun`)
    const { run, server, result } = await served(GATE_HOOKS, turns, port)
    const outputs = toolOutputs(server)
    console.log('codebuddy --serve tool outputs', JSON.stringify(outputs))
    expectServeFailures(run, outputs, GATE_REASON, 'hookrun serve did not answer on 127.0.0.1:')
    recordServeFailures(
      results,
      { result, outputs },
      {
        allowed: 'through the bash client (started by /bin/sh): the command ran',
        client: "gate's client",
        exits: 'the client exits 2',
        blocked: /hookrun serve did not answer[^"\\]*/.exec(outputs[6]!)?.[0],
      },
    )
  })

  test.concurrent('context: SessionStart (serve --start), UserPromptSubmit (bash client) and PostToolUse (http handler) reach the model', async () => {
    const { run, server } = await served(contextHooks(), [bash('true'), DONE], await freePort())
    const turns = server.requests.filter(isChatTurn)
    const first = JSON.stringify(chatMessages(turns[0]!))
    expect(first).toContain('LAB-CONTEXT-SESSION')
    expect(first).toContain('LAB-CONTEXT-PROMPT')
    expect(JSON.stringify(chatMessages(turns.at(-1)!))).toContain('LAB-CONTEXT-POST')
    const settings = readFileSync(join(run.project, '.codebuddy', 'settings.local.json'), 'utf8')
    expect(settings).toContain('"type": "http"')
    results.record(
      'context',
      'honoured',
      'SessionStart context (its serve --start command) and UserPromptSubmit context (bash client) in the first model request, PostToolUse context (http handler) in the next',
    )
  })

  test('the results table matches what this run saw', async () => {
    await results.check()
  })
})
