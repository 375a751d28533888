// `install --serve` for agents whose http handlers fail open (Qwen Code, Copilot), against the
// compiled binary: the bash client install writes answers a gate through `hookrun serve`; with no
// server it starts one and answers the event with a hookrun of its own; it blocks (exit 2) when
// that cannot run, or the server refuses its secret, fails the event, stays silent or cuts its
// answer short; doctor says whether it answers.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { cliEnvironment, freePort, makeProject, removeProject, runCli, trustProjectFor } from '../helpers.ts'

const dirs: string[] = []
const stops: Array<() => void> = []
afterEach(async () => {
  for (const stop of stops.splice(0)) stop()
  // The servers the clients started.
  for (const dir of dirs) await runCli(['serve', '--stop'], { cwd: dir })
  for (const dir of dirs.splice(0)) removeProject(dir)
})

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((done) => setTimeout(done, 25))
  }
}

const GATE = {
  hooks: [
    { name: 'locale', event: 'tool:pre_execute:bash', command: 'printf %s "${LC_ALL-unset}" > "$HOOKRUN_PROJECT_DIR/locale.txt"' },
    {
      name: 'no-rm',
      event: 'tool:pre_execute:bash',
      command: 'case "$HOOKRUN_BASH_COMMAND" in *"rm -rf"*) echo "rm -rf is not allowed here" >&2; exit 2;; esac',
    },
    { name: 'after', event: 'tool:post_execute:bash', command: 'true' },
  ],
}

/** A trusted home-project with the gate, the agent installed with --serve on a free port, and how to run its client commands. */
async function installed(agent: string) {
  const home = makeProject({ '.hookrun/hooks.json': GATE })
  dirs.push(home)
  trustProjectFor(home)
  const port = await freePort()
  const install = await runCli(['install', '--agent', agent, '--serve', '--port', String(port)], { cwd: home })
  expect(install.exitCode, install.stderr).toBe(0)
  const env = cliEnvironment(home)
  /**
   * Run an installed handler's command as the agents do (`bash -c`; CodeBuddy Code: `sh -c`, its `$SHELL` unset), the payload on
   * stdin: a socket from Node's spawn, or a pipe.
   */
  const client = (
    command: string,
    payload: object,
    stdin: 'socket' | 'pipe' = 'socket',
    extra: Record<string, string> = {},
    shell: 'bash' | 'sh' = 'bash',
  ) =>
    new Promise<{ exitCode: number | null; stdout: string; stderr: string }>((resolveRun) => {
      const args = stdin === 'socket' ? ['-c', command] : ['-c', `cat | ${shell} -c "$1"`, 'pipe', command]
      const child = spawn(shell, args, { cwd: home, env: { ...env, ...extra } })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
      child.on('close', (exitCode) => resolveRun({ exitCode, stdout, stderr }))
      child.stdin.on('error', () => {}) // a client that failed early reads no stdin
      child.stdin.end(JSON.stringify(payload))
    })
  return { home, port, client }
}

const pidFile = (home: string) => join(home, '.xdg-state', 'hookrun', 'serve', 'serve.pid')

/** A client whose hookrun (which starts the server when none listens) is gone: only the server can answer it. */
const withoutHookrun = (client: string) => {
  const gone = client.replace(/\| \S+ serve --start /, '| /nonexistent/hookrun serve --start ')
  expect(gone).not.toBe(client)
  return gone
}

/** The client Qwen Code runs for PreToolUse, as install wrote it. */
function qwenGate(home: string): string {
  const settings = JSON.parse(readFileSync(join(home, '.qwen', 'settings.json'), 'utf8')) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>
  }
  return settings.hooks.PreToolUse![0]!.hooks[0]!.command
}

const qwenCall = (home: string, session: string, command: string) => ({
  hook_event_name: 'PreToolUse',
  session_id: session,
  timestamp: '2026-11-28T00:00:00.000Z',
  cwd: home,
  tool_name: 'run_shell_command',
  tool_input: { command },
})

const copilotCall = (home: string, command: string) => ({
  sessionId: 's-1',
  timestamp: 1_760_000_000_000,
  cwd: home,
  toolName: 'bash',
  toolArgs: JSON.stringify({ command }),
})

describe('install --serve bash clients (compiled binary)', () => {
  test("Copilot's preToolUse client: with no server it starts one and answers itself; deny and allow through it; blocks when nothing can answer or on a wrong secret", async () => {
    const where = await installed('copilot')
    const file = JSON.parse(readFileSync(join(where.home, '.copilot', 'hooks', 'hookrun.json'), 'utf8')) as {
      hooks: Record<string, Array<{ bash: string }>>
    }
    const gate = file.hooks.preToolUse![0]!.bash
    const doctorDown = await runCli(['doctor'], { cwd: where.home })
    expect(doctorDown.stdout + doctorDown.stderr).toContain(
      `hookrun serve is not running on port ${where.port}: Copilot's next command client starts it, and answers its own event meanwhile`,
    )
    // No server, and the hookrun that would start one is gone: the gate blocks. Copilot passes on
    // no stderr of a failing preToolUse: the deny is on stdout too, in its shape.
    const gone = await where.client(withoutHookrun(gate), copilotCall(where.home, 'ls'))
    expect(gone.exitCode).toBe(2)
    expect(gone.stderr).toContain(`hookrun serve did not answer on 127.0.0.1:${where.port}, so this Copilot gate blocks`)
    expect(JSON.parse(gone.stdout)).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: gone.stderr.trim().split('\n').at(-1),
    })
    expect(existsSync(pidFile(where.home))).toBe(false)

    // No server: the client starts it and answers this call with a hookrun of its own, by the same hooks.
    const first = await where.client(gate, copilotCall(where.home, 'rm -rf build'))
    expect(first.exitCode, first.stderr).toBe(0)
    expect(JSON.parse(first.stdout)).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('rm -rf is not allowed here'),
    })
    await waitFor(() => existsSync(pidFile(where.home)))
    // Now the server answers: a client that could not start one still gets deny and allow.
    const denied = await where.client(withoutHookrun(gate), copilotCall(where.home, 'rm -rf build'))
    expect(denied.exitCode, denied.stderr).toBe(0)
    expect(JSON.parse(denied.stdout)).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('rm -rf is not allowed here'),
    })
    const allowed = await where.client(withoutHookrun(gate), copilotCall(where.home, 'ls'))
    expect(allowed.exitCode, allowed.stderr).toBe(0)
    expect(allowed.stdout).not.toContain('deny')
    const doctorUp = await runCli(['doctor'], { cwd: where.home })
    expect(doctorUp.stdout + doctorUp.stderr).toMatch(new RegExp(`hookrun serve answers Copilot on port ${where.port}`))

    // Another secret in the header file (copied from another user, or stale): the server runs nothing (401), the gate blocks.
    writeFileSync(join(where.home, '.xdg-state', 'hookrun', 'serve', 'secret-header'), `x-hookrun-secret: ${'0'.repeat(64)}\n`)
    const refused = await where.client(gate, copilotCall(where.home, 'ls'))
    expect(refused.exitCode).toBe(2)
    expect(refused.stderr).toMatch(/hookrun serve answered HTTP\/1\.1 401 Unauthorized: .*no or wrong secret/)
    const doctorStale = await runCli(['doctor'], { cwd: where.home })
    expect(doctorStale.stdout + doctorStale.stderr).toMatch(
      /secret-header does not hold this user's hookrun serve secret: Copilot's command clients are refused \(401\)/,
    )
    // A non-gate client lets its event go on when refused.
    const postClient = file.hooks.postToolUse![0]!.bash
    expect(postClient).toMatch(/\nexit 0$/)
    const post = await where.client(postClient, copilotCall(where.home, 'ls'))
    expect(post.exitCode).toBe(0)
  }, 60_000)

  test("Qwen Code's PreToolUse client answers through the server, and with none starts it and answers itself", async () => {
    const where = await installed('qwen')
    const gate = qwenGate(where.home)
    const call = (command: string) => qwenCall(where.home, 's-2', command)
    expect((await where.client(withoutHookrun(gate), call('ls'))).exitCode).toBe(2)
    // What answers when no server listens must answer (0) or block (2): a failure of another kind blocks.
    const failing = gate.replace(/\| \S+ serve --start [^;]*;/, "| sh -c 'cat >/dev/null; exit 1';")
    expect(failing).not.toBe(gate)
    const failed = await where.client(failing, call('ls'))
    expect(failed.exitCode).toBe(2)
    expect(failed.stderr).toContain('so this Qwen Code gate blocks')
    // The client's own variables start empty, whatever the environment holds: an answer in s, n, b
    // is not the server's; c=1 ("connected") does not keep it from answering the event itself.
    const inherited = await where.client(withoutHookrun(gate), call('ls'), 'socket', { s: 'HTTP/1.1 200 OK', n: '2', b: '{}' })
    expect(inherited.exitCode).toBe(2)
    // Shell options from the agent's environment (errexit ended the client with 1 at the failed
    // connection: a "go ahead" in Qwen Code) leave it as it is.
    writeFileSync(join(where.home, 'strict.sh'), 'set -euo pipefail\n')
    const strictShells: Array<Record<string, string>> = [
      { SHELLOPTS: 'errexit:nounset:pipefail' },
      { BASH_ENV: join(where.home, 'strict.sh') },
    ]
    for (const options of strictShells) {
      const strict = await where.client(withoutHookrun(gate), call('ls'), 'socket', options)
      expect(strict.exitCode, JSON.stringify(options)).toBe(2)
    }
    const first = await where.client(gate, call('rm -rf build'), 'socket', { LC_ALL: 'C.UTF-8', c: '1' })
    expect(first.exitCode, first.stderr).toBe(0)
    expect(JSON.parse(first.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
    // The client counts bytes in the C locale; the hooks it runs get the agent's own back.
    expect(readFileSync(join(where.home, 'locale.txt'), 'utf8')).toBe('C.UTF-8')
    await waitFor(() => existsSync(pidFile(where.home)))
    const denied = await where.client(withoutHookrun(gate), call('rm -rf build'))
    expect(denied.exitCode, denied.stderr).toBe(0)
    expect(JSON.parse(denied.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
    expect((await where.client(withoutHookrun(gate), call('ls'))).exitCode).toBe(0)
    // A payload of 1 MB, most of it two-byte characters (content-length counts bytes), larger than
    // a socket's buffers: the server reads all of it, so the gate sees the rm -rf at its end.
    // Read from a socket (Node's spawn, as Qwen Code's) and from a pipe (as Copilot CLI's).
    for (const stdin of ['socket', 'pipe'] as const) {
      const big = await where.client(withoutHookrun(gate), call(`echo ${'é'.repeat(500_000)} && rm -rf build`), stdin)
      expect(big.exitCode, big.stderr).toBe(0)
      expect(JSON.parse(big.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
    }
  }, 60_000)

  test("CodeBuddy Code's PreToolUse client runs in /bin/sh (its command handlers' shell without $SHELL) and starts its own bash", async () => {
    const where = await installed('codebuddy')
    const settings = JSON.parse(readFileSync(join(where.home, '.codebuddy', 'settings.json'), 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>
    }
    const gate = settings.hooks.PreToolUse![0]!.hooks[0]!.command
    expect(gate).toMatch(new RegExp(`^# hookrun serve client: POST to http://127\\.0\\.0\\.1:${where.port}/codebuddy\nexec bash -c '`))
    const call = (command: string) => ({
      hook_event_name: 'PreToolUse',
      session_id: 's-4',
      transcript_path: join(where.home, '.codebuddy', 'projects', 'p', 's-4.jsonl'),
      cwd: where.home,
      tool_name: 'Bash',
      tool_input: { command },
    })
    const sh = (command: string, payload: object) => where.client(command, payload, 'socket', {}, 'sh')
    const gone = await sh(withoutHookrun(gate), call('ls'))
    expect(gone.exitCode).toBe(2)
    expect(gone.stderr).toContain(`hookrun serve did not answer on 127.0.0.1:${where.port}, so this CodeBuddy Code gate blocks`)
    // No server: started, and this call answered by a hookrun of its own; then the server answers.
    const first = await sh(gate, call('rm -rf build'))
    expect(first.exitCode, first.stderr).toBe(0)
    expect(JSON.parse(first.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
    await waitFor(() => existsSync(pidFile(where.home)))
    const denied = await sh(withoutHookrun(gate), call('rm -rf build'))
    expect(denied.exitCode, denied.stderr).toBe(0)
    expect(JSON.parse(denied.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
    const allowed = await sh(withoutHookrun(gate), call('ls'))
    expect([allowed.exitCode, allowed.stdout]).toEqual([0, '{}\n'])
  }, 60_000)

  test("a session whose config variables differ from the server's is not answered with the server's config: its client runs the event itself", async () => {
    const where = await installed('qwen')
    const gate = qwenGate(where.home)
    const call = (command: string) => qwenCall(where.home, 's-3', command)
    // One session, started with a config of no hooks, starts the server (its fallback): the server
    // answers with that config.
    writeFileSync(join(where.home, 'empty.json'), '{"hooks":[]}')
    const lenient = { HOOKRUN_CONFIG: join(where.home, 'empty.json') }
    const first = await where.client(gate, call('rm -rf build'), 'socket', lenient)
    expect(first.exitCode, first.stderr).toBe(0)
    await waitFor(() => existsSync(pidFile(where.home)))
    const served = await where.client(withoutHookrun(gate), call('rm -rf build'), 'socket', lenient)
    expect([served.exitCode, served.stdout.trim()]).toEqual([0, '{}'])
    // Another session, with the project's hooks: the server refuses (409), and the client's own
    // hookrun answers with this session's config, which has the gate.
    const other = await where.client(gate, call('rm -rf build'))
    expect(other.exitCode, other.stderr).toBe(0)
    expect(JSON.parse(other.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' })
    // Where that hookrun cannot run, the gate blocks rather than take the server's answer, and the
    // server's refusal names the variable.
    const unanswered = await where.client(withoutHookrun(gate), call('rm -rf build'))
    expect(unanswered.exitCode).toBe(2)
    expect(unanswered.stderr).toContain('409 Conflict: {"error":"hookrun serve: this session\'s HOOKRUN_CONFIG differs from the server\'s')
  }, 60_000)

  test('a server that closes at once, stays silent, cuts its answer short or fails blocks the gate; a stopping one is answered here; a non-gate goes on', async () => {
    const where = await installed('copilot')
    const file = JSON.parse(readFileSync(join(where.home, '.copilot', 'hooks', 'hookrun.json'), 'utf8')) as {
      hooks: Record<string, Array<{ bash: string }>>
    }
    // The client's wait (590 s, inside the agent's 600) shortened for the test.
    const gate = file.hooks.preToolUse![0]!.bash.replaceAll('-t 590', '-t 1')
    const post = file.hooks.postToolUse![0]!.bash
    const sockets: Socket[] = []
    const listen = (answer: string | undefined) =>
      new Promise<Server>((resolveListen) => {
        const server = createServer((socket) => {
          sockets.push(socket)
          socket.on('error', () => {})
          socket.once('data', () => (answer === undefined ? undefined : socket.end(answer)))
        })
        stops.push(() => server.close())
        server.listen(where.port, '127.0.0.1', () => resolveListen(server))
      })

    // A peer that closes at once, before reading: the client's write fails (EPIPE, not a SIGPIPE
    // that would kill it: an exit by signal lets the call through in Qwen Code and Gemini CLI).
    const closing = createServer((socket) => socket.destroy())
    stops.push(() => closing.close())
    await new Promise<void>((listening) => closing.listen(where.port, '127.0.0.1', listening))
    const closed = await where.client(gate, copilotCall(where.home, `echo ${'x'.repeat(2_000_000)}`))
    expect(closed.exitCode).toBe(2)
    expect(JSON.parse(closed.stdout)).toMatchObject({ permissionDecision: 'deny' })
    await new Promise((done) => closing.close(done))

    const silent = await listen(undefined)
    const waited = await where.client(gate, copilotCall(where.home, 'ls'))
    expect(waited.exitCode).toBe(2)
    expect(JSON.parse(waited.stdout)).toMatchObject({ permissionDecision: 'deny' })
    for (const socket of sockets) socket.destroy()
    await new Promise((closed) => silent.close(closed))

    const cutServer = await listen(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 80\r\n\r\n{"permissionDecision":"al',
    )
    const cut = await where.client(gate, copilotCall(where.home, 'ls'))
    expect(cut.exitCode).toBe(2)
    expect(JSON.parse(cut.stdout)).toMatchObject({ permissionDecision: 'deny' })
    const cutPost = await where.client(post, copilotCall(where.home, 'ls'))
    expect(cutPost).toMatchObject({ exitCode: 0, stdout: '' })
    for (const socket of sockets) socket.destroy()
    await new Promise((closed) => cutServer.close(closed))

    // A fire that failed in the server answers 500: the person reads the server's line, then how to recover.
    const failing = await listen('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 31\r\n\r\nhookrun: the fire failed here\r\n')
    const failed = await where.client(gate, copilotCall(where.home, 'ls'))
    expect(failed.exitCode).toBe(2)
    expect(failed.stderr).toMatch(/^hookrun serve answered HTTP\/1\.1 500 Internal Server Error: hookrun: the fire failed here\r?\n/)
    expect(failed.stderr).toContain('so this Copilot gate blocks')
    for (const socket of sockets) socket.destroy()
    await new Promise((closed) => failing.close(closed))

    // A server that is stopping answers 503: the event is answered here, as with no server at all
    // (and where that cannot run, the gate blocks after the server's line).
    await listen('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 23\r\n\r\n{"error":"stopping"}\r\n\n')
    const stopping = await where.client(gate, copilotCall(where.home, 'rm -rf build'))
    expect(stopping.exitCode, stopping.stderr).toBe(0)
    expect(JSON.parse(stopping.stdout)).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('rm -rf'),
    })
    const stoppingGone = await where.client(withoutHookrun(gate), copilotCall(where.home, 'ls'))
    expect(stoppingGone.exitCode).toBe(2)
    expect(stoppingGone.stderr).toMatch(/^hookrun serve answered HTTP\/1\.1 503 Service Unavailable: /m)
  }, 60_000)
})
