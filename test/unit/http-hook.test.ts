/**
 * http hooks (`url` instead of `command`, and Claude Code's `type: "http"` handlers) against a real
 * server on 127.0.0.1: the answer protocol over HTTP, timeouts, failures that fail a gate closed,
 * the response size limit, redirects, and header variables only from allowedEnvVars.
 */
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { trustProject } from '../../src/commands/trust.ts'
import { fire } from '../../src/fire.ts'
import { cliEnvironment, makeProject, removeProject } from '../helpers.ts'
import { json, type Loopback, startServer } from '../loopback.ts'

const projects: string[] = []
const servers: Loopback[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})
afterAll(() => projects.forEach(removeProject))

async function server(handler: Parameters<typeof startServer>[0]): Promise<Loopback> {
  const started = await startServer(handler)
  servers.push(started)
  return started
}

/** Fire `event` with a config of these hooks (a --config file, so no trust is involved). */
async function fireWith(hooks: unknown, event = 'tool:pre_execute', env: Record<string, string> = {}) {
  const dir = makeProject({ 'hooks.json': { hooks } })
  projects.push(dir)
  return fire({
    event,
    payload: { session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' } },
    cwd: dir,
    configFiles: [`${dir}/hooks.json`],
    env: cliEnvironment(dir, env),
  })
}

const gate = (url: string, extra: object = {}) => [{ name: 'policy', event: 'tool:pre_execute', url, timeout: 2, ...extra }]

describe('http hooks', () => {
  test('the payload is POSTed as JSON; an allow answer decides', async () => {
    const policy = await server((_request, res) => json(res, { decision: 'allow', additionalContext: 'checked centrally' }))
    const decision = await fireWith(gate(`${policy.origin}/v1/check`))
    expect(decision).toMatchObject({ decision: 'allow', blocked: false, decidedBy: 'policy', additionalContext: ['checked centrally'] })
    expect(decision.hooks).toMatchObject([{ name: 'policy', outcome: 'allow', exitCode: null, httpStatus: 200, timedOut: false }])
    expect(policy.requests).toHaveLength(1)
    const [request] = policy.requests
    expect(request).toMatchObject({ method: 'POST', path: '/v1/check' })
    expect(request!.headers['content-type']).toBe('application/json')
    expect(request!.headers['user-agent']).toMatch(/^hookrun\//)
    expect(JSON.parse(request!.body)).toMatchObject({
      session_id: 's1',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      hook_event_name: 'tool:pre_execute',
    })
  })

  test('a deny answer blocks with its reason (Claude Code’s hookSpecificOutput form too)', async () => {
    const policy = await server((request, res) =>
      request.path === '/flat'
        ? json(res, { decision: 'deny', reason: 'ls is not allowed here' })
        : json(res, {
            hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'nested no' },
          }),
    )
    expect(await fireWith(gate(`${policy.origin}/flat`))).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'ls is not allowed here',
      decidedBy: 'policy',
    })
    expect(await fireWith(gate(`${policy.origin}/nested`))).toMatchObject({ decision: 'deny', blocked: true, reason: 'nested no' })
  })

  test('a 2xx with an empty body gives no opinion', async () => {
    const policy = await server((_request, res) => res.writeHead(204).end())
    const decision = await fireWith(gate(policy.origin))
    expect(decision).toMatchObject({ decision: 'allow', blocked: false, warnings: [] })
    expect(decision.decidedBy).toBeUndefined()
    expect(decision.hooks[0]).toMatchObject({ outcome: 'allow', httpStatus: 204 })
  })

  test('a slow endpoint times out: a gate fails closed, onError allow proceeds, a non-gate event proceeds', async () => {
    let replied = false
    const slow = await server((_request, res) =>
      setTimeout(() => {
        replied = true
        json(res, { decision: 'allow' })
      }, 3000).unref(),
    )
    const blocked = await fireWith(gate(slow.origin, { timeout: 0.5 }))
    // hookrun gave up before the endpoint answered, and said it timed out.
    expect(replied).toBe(false)
    expect(blocked).toMatchObject({ decision: 'deny', blocked: true, reason: `hook 'policy' did not answer within 0.5s (${slow.origin})` })
    expect(blocked.hooks[0]).toMatchObject({ outcome: 'error', timedOut: true })

    const allowed = await fireWith(gate(slow.origin, { timeout: 0.5, onError: 'allow' }))
    expect(allowed).toMatchObject({ decision: 'allow', blocked: false })
    expect(allowed.warnings).toEqual([`hook 'policy' did not answer within 0.5s (${slow.origin}); the event proceeds (onError: allow)`])

    const after = await fireWith([{ name: 'notify', event: 'tool:post_execute', url: slow.origin, timeout: 0.5 }], 'tool:post_execute')
    expect(after).toMatchObject({ decision: 'allow', blocked: false })
  })

  test('a 500, a garbage body and a body that is JSON but not an answer all fail the gate closed', async () => {
    const broken = await server((request, res) => {
      if (request.path === '/500') return void res.writeHead(500).end('database down')
      if (request.path === '/garbage') return void res.writeHead(200).end('<html>login</html>')
      if (request.path === '/bad-json') return void res.writeHead(200).end('{"decision": ')
      json(res, { decision: 'maybe' })
    })
    expect(await fireWith(gate(`${broken.origin}/500`))).toMatchObject({
      blocked: true,
      reason: "hook 'policy' answered HTTP 500: database down",
    })
    expect(await fireWith(gate(`${broken.origin}/garbage`))).toMatchObject({
      blocked: true,
      reason: "hook 'policy' answered HTTP 200 with a body that is not a JSON object: <html>login</html>",
    })
    expect((await fireWith(gate(`${broken.origin}/bad-json`))).reason).toMatch(
      /^hook 'policy' answered HTTP 200 with a body that is not JSON \(/,
    )
    expect((await fireWith(gate(`${broken.origin}/wrong`))).reason).toMatch(
      /^hook 'policy' answered a JSON object that does not fit: .*decision/,
    )
  })

  test('a body over the size limit is cut off and fails the gate', async () => {
    const huge = await server((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(`{"decision":"allow","pad":"${'x'.repeat(3 * 1024 * 1024)}"}`)
    })
    expect(await fireWith(gate(huge.origin))).toMatchObject({
      blocked: true,
      reason: "hook 'policy' answered with more than 1048576 bytes (maxResponseBytes)",
    })
    expect(await fireWith(gate(huge.origin, { maxResponseBytes: 8 * 1024 * 1024 }))).toMatchObject({ decision: 'allow', blocked: false })
  })

  test('a redirect to elsewhere is not followed unless allowed; headers never follow it', async () => {
    const elsewhere = await server((request, res) =>
      json(res, { decision: 'deny', reason: `elsewhere saw ${request.headers.authorization ?? 'no token'}` }),
    )
    const moved = await server((_request, res) => res.writeHead(307, { location: `${elsewhere.origin}/take` }).end())
    const hooks = (extra: object) =>
      gate(moved.origin, { headers: { Authorization: 'Bearer $TOKEN' }, allowedEnvVars: ['TOKEN'], ...extra })
    const refused = await fireWith(hooks({}), 'tool:pre_execute', { TOKEN: 'secret-token' })
    expect(refused).toMatchObject({
      blocked: true,
      reason: `hook 'policy' answered HTTP 307, a redirect to ${elsewhere.origin}/take, which is not followed (followRedirects: false)`,
    })
    expect(elsewhere.requests).toHaveLength(0)
    expect(moved.requests[0]!.headers.authorization).toBe('Bearer secret-token')

    const followed = await fireWith(hooks({ followRedirects: true }), 'tool:pre_execute', { TOKEN: 'secret-token' })
    expect(followed).toMatchObject({ blocked: true, reason: 'elsewhere saw no token', decidedBy: 'policy' })
    expect(JSON.parse(elsewhere.requests[0]!.body)).toMatchObject({ tool_name: 'Bash' })
  })

  test('header $VARS expand only from allowedEnvVars; the rest of the environment is never sent', async () => {
    const policy = await server((_request, res) => json(res, {}))
    const decision = await fireWith(
      gate(policy.origin, {
        headers: { Authorization: 'Bearer ${TOKEN}', 'X-Team': '$TEAM', 'X-Leak': '$HOME:$SECRET' },
        allowedEnvVars: ['TOKEN', 'TEAM'],
      }),
      'tool:pre_execute',
      { TOKEN: 'tok-1', TEAM: 'payments', SECRET: 'do-not-send' },
    )
    const { headers } = policy.requests[0]!
    expect([headers.authorization, headers['x-team'], headers['x-leak']]).toEqual(['Bearer tok-1', 'payments', ':'])
    expect(JSON.stringify(policy.requests[0])).not.toContain('do-not-send')
    // The config check says so, naming the header and the variable.
    expect(decision.warnings.filter((warning) => warning.includes('allowedEnvVars does not list'))).toEqual([
      expect.stringMatching(/hooks\[0\]\.headers\.X-Leak: uses \$HOME, which allowedEnvVars does not list: it is sent empty/),
      expect.stringMatching(/hooks\[0\]\.headers\.X-Leak: uses \$SECRET, which allowedEnvVars does not list/),
    ])
  })

  test('an endpoint that refuses connections fails the gate closed and names the URL', async () => {
    const gone = await server((_request, res) => json(res, {}))
    await gone.close()
    const decision = await fireWith(gate(`${gone.origin}/check`))
    expect(decision.blocked).toBe(true)
    expect(decision.reason).toMatch(new RegExp(`^hook 'policy' cannot reach ${gone.origin}/check: `))
  })

  test("a pasted Claude Code http handler keeps Claude's rule: a failure proceeds unless onFailure is block", async () => {
    const broken = await server((request, res) =>
      request.path === '/deny'
        ? json(res, {
            hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'central no' },
          })
        : res.writeHead(500).end(),
    )
    const claude = (url: string, extra: object = {}) => ({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url, timeout: 2, ...extra }] }],
    })
    const failing = await fireWith(claude(`${broken.origin}/500`))
    expect(failing).toMatchObject({ decision: 'allow', blocked: false })
    expect(failing.warnings.some((warning) => warning.includes('answered HTTP 500'))).toBe(true)
    expect(await fireWith(claude(`${broken.origin}/500`, { onFailure: 'block' }))).toMatchObject({ blocked: true })
    expect(await fireWith(claude(`${broken.origin}/deny`))).toMatchObject({ decision: 'deny', blocked: true, reason: 'central no' })
  })

  test('blocking: false sends the payload and gives no decision', async () => {
    const sink = await server((_request, res) => json(res, { decision: 'deny', reason: 'ignored' }))
    const decision = await fireWith([{ name: 'ship', event: 'tool:pre_execute', url: sink.origin, blocking: false }])
    expect(decision).toMatchObject({ decision: 'allow', blocked: false, hooks: [{ name: 'ship', outcome: 'background' }] })
    expect(sink.requests).toHaveLength(1)
  })
})

describe('managed limits on http hooks: allowedHttpHookUrls and httpHookAllowedEnvVars (issue 29 row 6)', () => {
  /** A user config with these hooks (and settings), under a managed config with these settings. */
  async function fireUnder(
    managed: object,
    user: object,
    options: { event?: string; env?: Record<string, string>; project?: object; trust?: boolean } = {},
  ) {
    const dir = makeProject({
      'managed/hooks.json': managed,
      '.xdg-config/hookrun/hooks.json': user,
      ...(options.project !== undefined && { 'repo/.hookrun/hooks.json': options.project }),
    })
    projects.push(dir)
    const cwd = options.project !== undefined ? join(dir, 'repo') : dir
    const env = cliEnvironment(dir, { HOOKRUN_MANAGED_DIR: join(dir, 'managed'), ...options.env })
    if (options.trust) trustProject({ cwd, env })
    const decision = await fire({
      event: options.event ?? 'tool:pre_execute',
      payload: { tool_name: 'Bash', tool_input: { command: 'ls' } },
      cwd,
      env,
    })
    return { decision, managedFile: join(dir, 'managed/hooks.json') }
  }

  test('a URL no pattern allows is not sent to; on a gate it blocks whatever onError says', async () => {
    const sink = await server((_request, res) => json(res, { decision: 'allow' }))
    const { decision, managedFile } = await fireUnder(
      { allowedHttpHookUrls: ['https://hooks.example.com/*'] },
      { hooks: gate(`${sink.origin}/check`, { onError: 'allow' }) },
    )
    expect(sink.requests).toHaveLength(0)
    expect(decision).toMatchObject({ decision: 'deny', blocked: true })
    expect(decision.reason).toBe(
      `hook 'policy' posts to ${sink.origin}/check, which allowedHttpHookUrls in ${managedFile} does not allow (https://hooks.example.com/*); nothing was sent`,
    )
  })

  test("Claude Code's own http handler on a gate blocks too; on another event the hook is skipped with a warning", async () => {
    const sink = await server((_request, res) => json(res, {}))
    const claude = {
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'http', url: `${sink.origin}/c` }] }],
        SessionStart: [{ hooks: [{ type: 'http', url: `${sink.origin}/s` }] }],
      },
    }
    expect((await fireUnder({ allowedHttpHookUrls: [] }, claude)).decision).toMatchObject({ blocked: true })
    const { decision } = await fireUnder({ allowedHttpHookUrls: [] }, claude, { event: 'session:start' })
    expect(decision).toMatchObject({ decision: 'allow', blocked: false })
    expect(
      decision.warnings.some(
        (warning) =>
          warning.includes('which allowedHttpHookUrls') && warning.includes('(none allowed); nothing was sent; the hook is skipped'),
      ),
    ).toBe(true)
    expect(sink.requests).toHaveLength(0)
  })

  test("'*' matches any characters; a URL a pattern allows is sent to", async () => {
    const sink = await server((_request, res) => json(res, { decision: 'deny', reason: 'central no' }))
    const port = new URL(sink.origin).port
    for (const pattern of [`${sink.origin}/*`, 'http://127.0.0.1:*', `http://*:${port}/v1/*`]) {
      const { decision } = await fireUnder(
        { allowedHttpHookUrls: ['https://other.example/*', pattern] },
        { hooks: gate(`${sink.origin}/v1/check`) },
      )
      expect(decision).toMatchObject({ blocked: true, reason: 'central no' })
    }
    expect(sink.requests).toHaveLength(3)
  })

  test('a redirect to a URL the patterns do not allow is not followed', async () => {
    const elsewhere = await server((_request, res) => json(res, {}))
    const moved = await server((_request, res) => res.writeHead(307, { location: `${elsewhere.origin}/take` }).end())
    const { decision } = await fireUnder(
      { allowedHttpHookUrls: [`${moved.origin}/*`] },
      { hooks: gate(`${moved.origin}/x`, { followRedirects: true }) },
    )
    expect(decision.blocked).toBe(true)
    expect(decision.reason).toContain(`was redirected to ${elsewhere.origin}/take, which allowedHttpHookUrls`)
    expect(elsewhere.requests).toHaveLength(0)
  })

  test('a header variable the managed list leaves out is sent empty, and stderr says so', async () => {
    const sink = await server((_request, res) => json(res, {}))
    const hooks = gate(sink.origin, {
      headers: { Authorization: 'Bearer $GITHUB_TOKEN', 'X-Team': '$TEAM' },
      allowedEnvVars: ['GITHUB_TOKEN', 'TEAM'],
    })
    const { decision, managedFile } = await fireUnder(
      { httpHookAllowedEnvVars: ['TEAM'] },
      { hooks },
      { env: { GITHUB_TOKEN: 'ghp_secret', TEAM: 'payments' } },
    )
    const { headers } = sink.requests[0]!
    expect([headers.authorization, headers['x-team']]).toEqual(['Bearer', 'payments'])
    expect(JSON.stringify(sink.requests[0])).not.toContain('ghp_secret')
    expect(decision.warnings).toContain(
      `hook 'policy' header 'Authorization' uses $GITHUB_TOKEN, which httpHookAllowedEnvVars in ${managedFile} does not allow: it is sent empty`,
    )
  })

  test('a trusted project narrows the limits and cannot widen them; an untrusted one changes nothing', async () => {
    const sink = await server((_request, res) => json(res, { decision: 'allow' }))
    const user = { hooks: gate(`${sink.origin}/check`) }
    // The project's list leaves the user's URL out: once trusted, the user's hook is refused.
    const narrowing = { allowedHttpHookUrls: ['https://hooks.example.com/*'], hooks: [] }
    expect((await fireUnder({}, user, { project: narrowing, trust: true })).decision).toMatchObject({ blocked: true })
    expect((await fireUnder({}, user, { project: narrowing })).decision).toMatchObject({ blocked: false })
    expect(sink.requests).toHaveLength(1)
    // The managed list leaves it out: a project that allows everything does not bring it back.
    const widening = { allowedHttpHookUrls: ['*'], httpHookAllowedEnvVars: ['GITHUB_TOKEN'], hooks: [] }
    expect(
      (await fireUnder({ allowedHttpHookUrls: ['https://hooks.example.com/*'] }, user, { project: widening, trust: true })).decision,
    ).toMatchObject({ blocked: true })
    expect(sink.requests).toHaveLength(1)
  })
})
