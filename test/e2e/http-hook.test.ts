/**
 * http hooks as users run them: the compiled binary, Node, Bun and Deno POST to an HTTPS policy
 * service on 127.0.0.1 (a self-signed certificate the runtime is told to trust), and a pasted
 * Claude Code settings file with a `type: "http"` handler answers Claude in Claude's shape.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { join } from 'node:path'
import { makeProject, removeProject, runCli, RUNTIMES, writeFiles } from '../helpers.ts'
import { json, type Loopback, selfSignedCertificate, startServer } from '../loopback.ts'

let certificate: ReturnType<typeof selfSignedCertificate>
let policy: Loopback
const projects: string[] = []

beforeAll(async () => {
  certificate = selfSignedCertificate()
  policy = await startServer((request, res) => {
    const { tool_input: input } = JSON.parse(request.body) as { tool_input: { command: string } }
    if (input.command.includes('sudo'))
      return json(res, {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: `denied by policy for ${request.headers['x-team']}`,
        },
      })
    json(res, {})
  }, certificate)
})
afterAll(async () => {
  await policy.close()
  certificate.remove()
  projects.forEach(removeProject)
})

function claudeSettings(): string {
  const dir = makeProject({
    'settings.json': {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'http', url: `${policy.origin}/check`, headers: { 'X-Team': '$TEAM' }, allowedEnvVars: ['TEAM'], timeout: 5 }],
          },
        ],
      },
    },
  })
  projects.push(dir)
  return dir
}

const payload = (command: string) =>
  JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } })

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('a Claude Code http handler over HTTPS denies in Claude’s shape and allows with no opinion', async () => {
      const dir = claudeSettings()
      const env = { TEAM: 'payments', NODE_EXTRA_CA_CERTS: certificate.file, DENO_CERT: certificate.file }
      const run = (command: string) =>
        runCli(['fire', '--format', 'claude', '--config', `${dir}/settings.json`], {
          runtime: runtime.name,
          cwd: dir,
          input: payload(command),
          env,
        })
      const denied = await run('sudo rm -rf /')
      expect(denied.stderr).toBe('')
      expect(denied.exitCode).toBe(0)
      expect(denied.json()).toMatchObject({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'denied by policy for payments',
        },
      })
      const allowed = await run('ls')
      expect(allowed.exitCode).toBe(0)
      expect(allowed.stdout).not.toContain('deny')
    })

    test("the organisation's limits: a URL it does not allow blocks the gate unsent; a header variable it leaves out is sent empty, said on stderr", async () => {
      const dir = claudeSettings()
      writeFiles(dir, {
        'managed/hooks.json': { allowedHttpHookUrls: ['https://hooks.example.com/*'] },
        'managed-vars/hooks.json': { httpHookAllowedEnvVars: ['OTHER'] },
      })
      const env = { TEAM: 'payments', NODE_EXTRA_CA_CERTS: certificate.file, DENO_CERT: certificate.file }
      const run = (managed: string) =>
        runCli(['fire', '--format', 'claude', '--config', `${dir}/settings.json`], {
          runtime: runtime.name,
          cwd: dir,
          input: payload('sudo ls'),
          env: { ...env, HOOKRUN_MANAGED_DIR: join(dir, managed) },
        })
      const before = policy.requests.length
      const refused = await run('managed')
      expect(refused.json()).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } })
      expect(refused.json().hookSpecificOutput.permissionDecisionReason).toContain(
        `which allowedHttpHookUrls in ${join(dir, 'managed/hooks.json')} does not allow (https://hooks.example.com/*); nothing was sent`,
      )
      expect(policy.requests.length).toBe(before)
      const emptied = await run('managed-vars')
      expect(emptied.json().hookSpecificOutput.permissionDecisionReason).toBe('denied by policy for ')
      expect(emptied.stderr).toContain(
        `header 'X-Team' uses $TEAM, which httpHookAllowedEnvVars in ${join(dir, 'managed-vars/hooks.json')} does not allow: it is sent empty`,
      )
    })
  })
}
