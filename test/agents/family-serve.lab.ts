/**
 * Gemini CLI 0.61 and Qwen Code 0.24.4 with `hookrun install --agent X --serve`. Qwen Code's http
 * handlers fail open, so its gates go through a bash client to `hookrun serve` and its other
 * events through http handlers; Gemini CLI has no http handlers, so every event goes through the
 * client. The client starts the server and answers itself when nothing listens, and exits 2 on
 * any other failure; SessionStart starts the server. Two sessions each: deny, allow, the server
 * stopped mid-session and then its port broken; context from the start command and from an
 * after-tool event. Results: src/agents/lab/qwen-serve.json, gemini-serve.json.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { DONE, denyGate, type FamilyAgent, GEMINI, QWEN, type Session, session, shell } from './gemini-family.ts'
import { labResults, labVersion } from './lab.ts'
import { brokenPort } from './scenario.ts'
import { freePort } from '../helpers.ts'

const REASON = 'lab gate: no DENIED files here'
const sessions: Session[] = []

// A failed scenario keeps its folders (to look at): its server is stopped here.
afterAll(() => {
  for (const s of sessions) s.run.hookrun(['serve', '--stop'])
})

/** What differs between the two: what install says it wrote, and how the after-tool event reaches the server. */
interface Served {
  readonly agent: FamilyAgent
  readonly label: string
  readonly wrote: (port: number) => string
  /** The after-tool event's handler in the settings file, and its words in the results. */
  readonly afterTool: { readonly handler: string; readonly seen: string }
}

const SERVED: readonly Served[] = [
  {
    agent: QWEN,
    label: 'Qwen Code',
    wrote: (port) => `served:  http handlers to http://127.0.0.1:${port}/qwen?if-down=run-hookrun-serve, bash clients on gates`,
    afterTool: { handler: '"type": "http"', seen: 'PostToolUse context (http handler)' },
  },
  {
    agent: GEMINI,
    label: 'Gemini CLI',
    wrote: (port) => `served:  bash clients to http://127.0.0.1:${port}/gemini (it has no http hook handlers;`,
    afterTool: { handler: '# hookrun serve client: POST to http://127.0.0.1:', seen: 'AfterTool context (bash client)' },
  },
]

describe.each(SERVED)('$label with install --serve', ({ agent, label, wrote, afterTool }) => {
  const results = labResults(agent.name, `${agent.name}-serve`)

  async function served(options: Omit<Parameters<typeof session>[1], 'install' | 'installArgs'>, port: number): Promise<Session> {
    const started = Date.now()
    const s = await session(agent, { ...options, install: 'user', installArgs: ['--serve', '--port', String(port)] })
    sessions.push(s)
    console.log(`${agent.name} ${labVersion(agent.name)} --serve session: ${Date.now() - started} ms`)
    expect(s.install).toContain(wrote(port))
    return s
  }

  test.concurrent('deny, allow; the server stopped mid-session: the next gate starts it; the port broken: the next gate blocks', async () => {
    const port = await freePort()
    const s = await served(
      {
        turns: [
          shell('touch ALLOWED'),
          shell('touch DENIED'),
          shell('hookrun serve --stop && sleep 1'),
          shell('touch AFTER_STOP'),
          shell('touch DENIED_AFTER_STOP'),
          shell(`hookrun serve --stop && sleep 1 && ${brokenPort(port)} && sleep 1`),
          shell('touch AFTER_BREAK'),
          DONE,
        ],
        hooks: [denyGate('DENIED', REASON)],
      },
      port,
    )
    expect(s.has('ALLOWED')).toBe(true)
    expect(s.has('DENIED')).toBe(false)
    expect(s.turns[2]).toContain(REASON)
    expect(s.turns[3]).toMatch(/told to stop/)
    // No server: the gate's client started it and answered with a hookrun of its own.
    expect(s.has('AFTER_STOP')).toBe(true)
    expect(s.has('DENIED_AFTER_STOP')).toBe(false)
    expect(s.turns[5]).toContain(REASON)
    expect(s.turns[6]).toMatch(/told to stop/)
    // The port answered by a program that closes every connection: the client connected, got no answer, and blocked.
    expect(s.has('AFTER_BREAK')).toBe(false)
    expect(s.turns[7]).toContain('hookrun serve did not answer on 127.0.0.1:')
    const said = /hookrun serve did not answer[^"\\]*/.exec(s.turns[7]!)?.[0]
    results.record('allow-shell', 'honoured', 'through the bash client: the command ran, its output reached the model')
    results.record(
      'deny-shell',
      'honoured',
      `through the bash client (the server's JSON deny, exit 0): the command did not run; the model got the reason`,
    )
    results.record(
      'serve-restart',
      'honoured',
      "hookrun serve stopped mid-session: the next gate's client started it again and answered with a hookrun of its own (the allowed command ran, the denied one did not, and the server was running again)",
    )
    results.record(
      'crash-blocks',
      'honoured',
      `the port answered by a program that closes every connection (a broken hookrun serve): the next call did not run (the client exits 2); the model got: ${JSON.stringify(said?.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT').replace(/--port \d+/g, '--port PORT'))}`,
    )
    // Its server first: the run's HOME holds the pid file and secret `serve --stop` reads.
    s.run.hookrun(['serve', '--stop'])
    s.remove()
  })

  test.concurrent(`context: SessionStart (serve --start) and ${afterTool.seen} reach the model`, async () => {
    const s = await served(
      {
        turns: [shell('true'), DONE],
        hooks: [
          { name: 'session-context', event: 'session:start', command: `echo '{"additionalContext":"LAB-SESSION-CONTEXT-5821"}'` },
          { name: 'post-context', event: 'tool:post_execute:bash', command: `echo '{"additionalContext":"LAB-POST-CONTEXT-1166"}'` },
        ],
      },
      await freePort(),
    )
    expect(s.turns[0]).toContain('LAB-SESSION-CONTEXT-5821')
    expect(s.turns[1]).toContain('LAB-POST-CONTEXT-1166')
    const settings = readFileSync(join(s.run.home, agent.settingsDir, 'settings.json'), 'utf8')
    expect(settings).toContain(afterTool.handler)
    results.record(
      'context',
      'honoured',
      `SessionStart context (its \`serve --start\` command) in the first model request, ${afterTool.seen} in the next`,
    )
    // Its server first: the run's HOME holds the pid file and secret `serve --stop` reads.
    s.run.hookrun(['serve', '--stop'])
    s.remove()
  })

  test(`the results table matches what this run saw (${label})`, async () => {
    await results.check()
  })
})
