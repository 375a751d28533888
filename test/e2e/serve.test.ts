// `hookrun serve` against the compiled binary: the secret, loopback, the same answer as a fire,
// config edits seen at once, bounded concurrency, idle exit, SIGTERM, one server per user, and the
// session's project holding when the model's tool is in another folder.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { cliEnvironment, freePort, makeProject, removeProject, runCli, startCli, trustProjectFor } from '../helpers.ts'

const dirs: string[] = []
const stops: Array<() => void> = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  for (const dir of dirs.splice(0)) removeProject(dir)
})

const GATE = {
  hooks: [
    {
      name: 'no-rm',
      event: 'tool:pre_execute:bash',
      command: 'if grep -q "rm -rf"; then echo "rm -rf is not allowed here" >&2; exit 2; fi',
    },
  ],
}

/** A home that is also the project (trusted), and a server on a free port. */
async function serving(files: Record<string, string | object>, flags: string[] = []) {
  const home = makeProject(files)
  dirs.push(home)
  trustProjectFor(home)
  const port = await freePort()
  const started = startCli(['serve', '--port', String(port), ...flags], { cwd: home, timeoutMs: 60_000 })
  stops.push(() => started.child.kill('SIGKILL'))
  await waitFor(() => existsSync(join(home, '.xdg-state', 'hookrun', 'serve', 'serve.pid')))
  const secret = readFileSync(join(home, '.xdg-state', 'hookrun', 'serve', 'secret'), 'utf8').trim()
  return { home, port, secret, started }
}

/** Waits until `check` holds; a check that throws (a file between its removal and its next write) has not held yet. */
async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  const holds = () => {
    try {
      return check()
    } catch {
      return false
    }
  }
  while (!holds()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((done) => setTimeout(done, 25))
  }
}

function post(port: number, body: object, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolvePost, reject) => {
    const text = JSON.stringify(body)
    const sent = httpRequest(
      { host: '127.0.0.1', port, path: '/claude', method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let answer = ''
        response.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
        response.on('end', () => resolvePost({ status: response.statusCode ?? 0, body: answer }))
      },
    )
    sent.on('error', reject)
    sent.end(text)
  })
}

const bash = (cwd: string, command: string, session = 'session-1') => ({
  session_id: session,
  transcript_path: '',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'toolu_1',
})

describe('hookrun serve', () => {
  test('answers exactly what hookrun fire --format claude prints; without the secret nothing runs (401)', async () => {
    const marker = 'ran.txt'
    const { home, port, secret } = await serving({
      '.hookrun/hooks.json': {
        hooks: [...GATE.hooks, { name: 'mark', event: 'tool:pre_execute:bash', command: `touch ${marker}` }],
      },
    })
    const denied = await post(port, bash(home, 'rm -rf build'), { 'x-hookrun-secret': secret })
    const fired = await runCli(['fire', '--format', 'claude'], { cwd: home, input: JSON.stringify(bash(home, 'rm -rf build')) })
    expect(denied.status).toBe(200)
    expect(denied.body).toBe(fired.stdout)
    expect(JSON.parse(denied.body).hookSpecificOutput.permissionDecision).toBe('deny')

    const { rmSync } = await import('node:fs')
    rmSync(join(home, marker), { force: true })
    for (const headers of [{}, { 'x-hookrun-secret': 'f'.repeat(64) }, { 'x-hookrun-secret': `${secret}0` }] as Record<string, string>[]) {
      const refused = await post(port, bash(home, 'ls'), headers)
      expect(refused.status).toBe(401)
    }
    expect(existsSync(join(home, marker))).toBe(false)
    // The secret file is the user's alone.
    expect(statSync(join(home, '.xdg-state', 'hookrun', 'serve', 'secret')).mode & 0o777).toBe(0o600)
    // A name other than loopback (a DNS-rebound host) is refused before the secret is looked at.
    const rebound = await post(port, bash(home, 'ls'), { 'x-hookrun-secret': secret, host: `evil.example:${port}` })
    expect(rebound.status).toBe(403)
    expect(existsSync(join(home, marker))).toBe(false)
  })

  test('listens on 127.0.0.1 only', async () => {
    const { port } = await serving({ '.hookrun/hooks.json': GATE })
    const listening = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .filter((line) => line.includes(`:${port.toString(16).toUpperCase().padStart(4, '0')} `) && / 0A /.test(line))
    expect(listening).toHaveLength(1)
    expect(listening[0]).toContain(`0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`)
  })

  test('an edit to hooks.json between two requests is seen by the second', async () => {
    const { home, port, secret } = await serving({ '.xdg-config/hookrun/hooks.json': { hooks: [] } })
    const before = await post(port, bash(home, 'rm -rf build'), { 'x-hookrun-secret': secret })
    expect(JSON.parse(before.body).hookSpecificOutput?.permissionDecision).not.toBe('deny')
    writeFileSync(join(home, '.xdg-config', 'hookrun', 'hooks.json'), JSON.stringify(GATE))
    const after = await post(port, bash(home, 'rm -rf build'), { 'x-hookrun-secret': secret })
    expect(JSON.parse(after.body).hookSpecificOutput.permissionDecision).toBe('deny')
    // And back: the hook removed, the call goes ahead again.
    writeFileSync(join(home, '.xdg-config', 'hookrun', 'hooks.json'), JSON.stringify({ hooks: [] }))
    const again = await post(port, bash(home, 'rm -rf build'), { 'x-hookrun-secret': secret })
    expect(JSON.parse(again.body).hookSpecificOutput?.permissionDecision).not.toBe('deny')
  })

  test('an edited project hooks.json is no longer trusted: the gate blocks at once', async () => {
    const { home, port, secret } = await serving({ '.hookrun/hooks.json': { hooks: [] } })
    const before = await post(port, bash(home, 'rm -rf build'), { 'x-hookrun-secret': secret })
    expect(JSON.parse(before.body).hookSpecificOutput?.permissionDecision).not.toBe('deny')
    writeFileSync(join(home, '.hookrun', 'hooks.json'), JSON.stringify(GATE))
    const after = await post(port, bash(home, 'rm -rf build'), { 'x-hookrun-secret': secret })
    expect(after.status).toBe(200)
    const { permissionDecision, permissionDecisionReason } = JSON.parse(after.body).hookSpecificOutput
    expect(permissionDecision).toBe('deny')
    expect(permissionDecisionReason).toMatch(/changed since you trusted them/)
  })

  test('--max-concurrent bounds the events run at once; the rest wait their turn', async () => {
    const { home, port, secret } = await serving(
      {
        '.xdg-config/hookrun/hooks.json': {
          hooks: [
            { name: 'slow', event: 'tool:pre_execute:bash', command: 'echo start >> "$HOME/log"; sleep 0.4; echo end >> "$HOME/log"' },
          ],
        },
      },
      ['--max-concurrent', '1'],
    )
    const answers = await Promise.all([1, 2, 3].map((n) => post(port, bash(home, `echo ${n}`), { 'x-hookrun-secret': secret })))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    // One at a time: every start is followed by its end before the next start.
    expect(readFileSync(join(home, 'log'), 'utf8').trim().split('\n')).toEqual(['start', 'end', 'start', 'end', 'start', 'end'])
  })

  test('exits by itself after --idle-minutes without a request (and not while one runs)', async () => {
    const { home, port, secret, started } = await serving(
      {
        '.xdg-config/hookrun/hooks.json': {
          hooks: [{ name: 'slow', event: 'tool:pre_execute:bash', command: 'sleep 1.5' }],
        },
      },
      ['--idle-minutes', '0.02'],
    )
    const running = await post(port, bash(home, 'ls'), { 'x-hookrun-secret': secret })
    expect(running.status).toBe(200)
    const result = await started.result
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toMatch(/no request for 0\.02 min; exiting/)
    expect(existsSync(join(home, '.xdg-state', 'hookrun', 'serve', 'serve.pid'))).toBe(false)
  })

  test('SIGTERM: the running event finishes with its hook, then the server exits 0', async () => {
    const { home, port, secret, started } = await serving({
      '.xdg-config/hookrun/hooks.json': {
        hooks: [
          {
            name: 'slow-gate',
            event: 'tool:pre_execute:bash',
            command: 'sleep 1; touch "$HOME/finished"; echo "slow gate says no" >&2; exit 2',
          },
        ],
      },
    })
    const answer = post(port, bash(home, 'ls'), { 'x-hookrun-secret': secret })
    await new Promise((done) => setTimeout(done, 300))
    started.child.kill('SIGTERM')
    const answered = await answer
    expect(answered.status).toBe(200)
    expect(JSON.parse(answered.body).hookSpecificOutput.permissionDecision).toBe('deny')
    expect(existsSync(join(home, 'finished'))).toBe(true)
    const stopping = performance.now()
    const result = await started.result
    // The agent's keep-alive connection does not hold the exit up.
    expect(performance.now() - stopping).toBeLessThan(2000)
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toMatch(/SIGTERM: finishing running events/)
  })

  test('a hook past its timeout is killed with its process group and the gate blocks, as in a fire', async () => {
    const { home, port, secret } = await serving({
      '.xdg-config/hookrun/hooks.json': {
        hooks: [{ name: 'hangs', event: 'tool:pre_execute:bash', timeout: 1, command: '(sleep 2; touch "$HOME/escaped") & sleep 30' }],
      },
    })
    // Not killed, the hook would sleep 30 s and then allow: a deny naming it means the timeout ended it.
    const answer = await post(port, bash(home, 'ls'), { 'x-hookrun-secret': secret })
    const { permissionDecision, permissionDecisionReason } = JSON.parse(answer.body).hookSpecificOutput
    expect(permissionDecision).toBe('deny')
    expect(permissionDecisionReason).toMatch(/hangs/)
    // Its whole process group went with it: the background child never wrote its file.
    await new Promise((done) => setTimeout(done, 2500))
    expect(existsSync(join(home, 'escaped'))).toBe(false)
  })

  test('a second SIGTERM kills running hooks; their gate answers a block, never an allow', async () => {
    const { home, port, secret, started } = await serving({
      '.xdg-config/hookrun/hooks.json': {
        hooks: [{ name: 'slow', event: 'tool:pre_execute:bash', timeout: 30, command: 'sleep 20; touch "$HOME/finished"' }],
      },
    })
    const answer = post(port, bash(home, 'ls'), { 'x-hookrun-secret': secret })
    await new Promise((done) => setTimeout(done, 500))
    started.child.kill('SIGTERM')
    await new Promise((done) => setTimeout(done, 200))
    started.child.kill('SIGTERM')
    const answered = await answer
    expect(JSON.parse(answered.body).hookSpecificOutput.permissionDecision).toBe('deny')
    expect((await started.result).stderr).toMatch(/stopping now, running hooks killed/)
    expect(existsSync(join(home, 'finished'))).toBe(false)
  })

  test('one server per user: a second serve says one is running and exits 0', async () => {
    const { home, port } = await serving({ '.hookrun/hooks.json': GATE })
    const second = await runCli(['serve', '--port', String(port)], { cwd: home })
    expect(second.exitCode).toBe(0)
    expect(second.stdout).toMatch(/already running \(pid \d+, port \d+\)/)
    const status = await runCli(['serve', '--status'], { cwd: home })
    expect(status.exitCode).toBe(0)
    expect(status.stdout).toMatch(/is running/)
  })

  test('a serve on another port (install moved to --port) replaces the running one: still one per user', async () => {
    const { home, started } = await serving({ '.hookrun/hooks.json': GATE })
    const other = await freePort()
    const second = startCli(['serve', '--port', String(other)], { cwd: home, timeoutMs: 60_000 })
    stops.push(() => second.child.kill('SIGKILL'))
    expect((await started.result).exitCode).toBe(0)
    await waitFor(() => JSON.parse(readFileSync(join(home, '.xdg-state', 'hookrun', 'serve', 'serve.pid'), 'utf8')).port === other)
    const status = await runCli(['serve', '--status'], { cwd: home })
    expect(status.stdout).toMatch(new RegExp(`is running \\(pid \\d+, port ${other},`))
  })

  test('a payload hookrun cannot read answers 500, which onFailure "block" turns into a block', async () => {
    const { port, secret } = await serving({ '.hookrun/hooks.json': GATE })
    const broken = await post(port, { not: 'an event' }, { 'x-hookrun-secret': secret })
    expect(broken.status).toBe(500)
    expect(broken.body).toMatch(/^hookrun: no event/)
  })

  test("the session's project holds when the tool's folder is elsewhere (cd out of the project)", async () => {
    const { home, port, secret } = await serving({ 'work/.hookrun/hooks.json': GATE })
    const project = join(home, 'work')
    const outside = join(home, 'outside')
    mkdirSync(outside)
    trustProjectFor(project, { HOME: home, ...xdg(home) })
    const session = { session_id: 'session-cd', cwd: project, hook_event_name: 'SessionStart', source: 'startup' }
    // What Claude Code runs on SessionStart: it records the session's project and finds the server running.
    const start = await runCli(['serve', '--start', '--port', String(port)], {
      cwd: project,
      input: JSON.stringify(session),
      env: { CLAUDE_PROJECT_DIR: project, HOME: home, ...xdg(home) },
    })
    expect(start.exitCode).toBe(0)
    const denied = await post(port, bash(outside, 'rm -rf build', 'session-cd'), { 'x-hookrun-secret': secret })
    expect(JSON.parse(denied.body).hookSpecificOutput.permissionDecision).toBe('deny')
    // A session never recorded is held to the folder of its first request.
    await post(port, bash(project, 'ls', 'session-unrecorded'), { 'x-hookrun-secret': secret })
    const later = await post(port, bash(outside, 'rm -rf build', 'session-unrecorded'), { 'x-hookrun-secret': secret })
    expect(JSON.parse(later.body).hookSpecificOutput.permissionDecision).toBe('deny')
  })

  test('doctor says whether hookrun serve answers the port install --serve wrote', async () => {
    const { home, port, started } = await serving({ '.hookrun/hooks.json': GATE })
    const installed = await runCli(['install', '--agent', 'claude', '--serve', '--port', String(port)], { cwd: home })
    expect(installed.exitCode, installed.stderr).toBe(0)
    const up = await runCli(['doctor'], { cwd: home })
    expect(up.stdout).toMatch(new RegExp(`ok +hookrun serve answers Claude Code's http handlers on port ${port} \\(pid \\d+\\)`))
    started.child.kill('SIGTERM')
    await started.result
    const down = await runCli(['doctor'], { cwd: home })
    expect(down.stdout).toMatch(new RegExp(`warn +hookrun serve is not running on port ${port}: Claude Code's gates block until it does`))
    expect(down.stdout).toMatch(/fix: start it with hookrun serve --port \d+/)
    expect(down.stdout).not.toMatch(/another secret/)
    // A settings file with another secret (copied from elsewhere): every event would get 401.
    const settings = join(home, '.claude', 'settings.json')
    writeFileSync(
      settings,
      readFileSync(settings, 'utf8').replaceAll(/"x-hookrun-secret": "[0-9a-f]+"/g, `"x-hookrun-secret": "${'0'.repeat(64)}"`),
    )
    const copied = await runCli(['doctor'], { cwd: home })
    expect(copied.exitCode).toBe(1)
    expect(copied.stdout).toMatch(/FAIL +.*settings\.json sends hookrun serve another secret than this user's/)
  })

  test('serve --start starts a server in the background when none answers, and returns at once', async () => {
    const home = makeProject({ '.hookrun/hooks.json': GATE })
    dirs.push(home)
    trustProjectFor(home)
    const port = await freePort()
    // The server runs until idle (120 min): --start answering at all means it did not wait for it.
    const start = await runCli(['serve', '--start', '--port', String(port)], {
      cwd: home,
      input: JSON.stringify({ session_id: 's', cwd: home, hook_event_name: 'SessionStart', source: 'startup' }),
      env: { CLAUDE_PROJECT_DIR: home },
    })
    expect(start.exitCode).toBe(0)
    const pidFile = join(home, '.xdg-state', 'hookrun', 'serve', 'serve.pid')
    await waitFor(() => existsSync(pidFile))
    const { pid } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }
    stops.push(() => process.kill(pid, 'SIGKILL'))
    const secret = readFileSync(join(home, '.xdg-state', 'hookrun', 'serve', 'secret'), 'utf8').trim()
    const denied = await post(port, bash(home, 'rm -rf x', 's'), { 'x-hookrun-secret': secret })
    expect(JSON.parse(denied.body).hookSpecificOutput.permissionDecision).toBe('deny')
  })

  test("serve --start on SessionStart tells the person when the running server was started with other config variables (Claude Code's handlers cannot say theirs)", async () => {
    const home = makeProject({ '.hookrun/hooks.json': GATE, 'empty.json': { hooks: [] } })
    dirs.push(home)
    trustProjectFor(home)
    const port = await freePort()
    const sessionStart = (env: Record<string, string>) =>
      runCli(['serve', '--start', '--port', String(port)], {
        cwd: home,
        input: JSON.stringify({ session_id: 's', cwd: home, hook_event_name: 'SessionStart', source: 'startup' }),
        env: { CLAUDE_PROJECT_DIR: home, ...env },
      })
    const lenient = { HOOKRUN_CONFIG: join(home, 'empty.json') }
    expect((await sessionStart(lenient)).exitCode).toBe(0)
    const pidFile = join(home, '.xdg-state', 'hookrun', 'serve', 'serve.pid')
    await waitFor(() => existsSync(pidFile))
    const { pid } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }
    stops.push(() => process.kill(pid, 'SIGKILL'))
    await waitFor(() => (JSON.parse(readFileSync(pidFile, 'utf8')) as { config?: string }).config !== undefined)
    expect((await sessionStart(lenient)).stdout).not.toContain('from what hookrun serve')
    const other = await sessionStart({})
    expect(other.exitCode).toBe(0)
    expect(JSON.parse(other.stdout).systemMessage).toContain(
      `this session's HOOKRUN_CONFIG differs from what hookrun serve (pid ${pid}) was started with`,
    )
  })

  test('serve --start on SessionStart tells the person when another program answers on the port', async () => {
    const home = makeProject({ '.hookrun/hooks.json': GATE })
    dirs.push(home)
    trustProjectFor(home)
    const squatter = createServer((_request, response) => response.end('{"ok":true}'))
    await new Promise<void>((done) => squatter.listen(0, '127.0.0.1', done))
    stops.push(() => squatter.close())
    const { port } = squatter.address() as { port: number }
    const start = await runCli(['serve', '--start', '--port', String(port)], {
      cwd: home,
      input: JSON.stringify({ session_id: 's', cwd: home, hook_event_name: 'SessionStart', source: 'startup' }),
      env: { CLAUDE_PROJECT_DIR: home },
    })
    expect(start.exitCode).toBe(0)
    expect(JSON.parse(start.stdout).systemMessage).toMatch(new RegExp(`port ${port} is answered by another program`))
  })
})

function xdg(home: string): Record<string, string> {
  const env = cliEnvironment(home)
  return { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME!, XDG_CACHE_HOME: env.XDG_CACHE_HOME!, XDG_STATE_HOME: env.XDG_STATE_HOME! }
}
