/**
 * The remote policy as an organisation runs it: the managed config names an HTTPS URL and pins an
 * Ed25519 key; `hookrun policy sign` makes the file to serve; fires use the cached copy and refresh
 * it in the background; ETag/max-age are honoured; a bad signature is refused and the last good
 * copy kept; a copy edited in the cache is not used; a slow server never holds a fire up.
 */
import { generateKeyPairSync } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { policyFiles } from '../../src/config/policy.ts'
import { cliEnvironment, makeProject, removeProject, runCli, RUNTIMES } from '../helpers.ts'
import { type Loopback, selfSignedCertificate, startServer } from '../loopback.ts'

let certificate: ReturnType<typeof selfSignedCertificate>
let server: Loopback
/** What the policy server answers right now. */
let serve: { body: string; etag: string; maxAge: number; delayMs: number }
/** How many requests the policy server has answered: what a fire did not wait for, it had not answered yet. */
let answered = 0
const projects: string[] = []

const keys = generateKeyPairSync('ed25519')
const publicKey = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString()
const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

beforeAll(async () => {
  certificate = selfSignedCertificate()
  server = await startServer((request, res) => {
    const answer = () => {
      answered += 1
      if (request.headers['if-none-match'] === serve.etag)
        return void res.writeHead(304, { etag: serve.etag, 'cache-control': `max-age=${serve.maxAge}` }).end()
      res
        .writeHead(200, { 'content-type': 'application/json', etag: serve.etag, 'cache-control': `max-age=${serve.maxAge}` })
        .end(serve.body)
    }
    if (serve.delayMs > 0) setTimeout(answer, serve.delayMs).unref()
    else answer()
  }, certificate)
})
afterAll(async () => {
  await server.close()
  certificate.remove()
  projects.forEach(removeProject)
})

const REMOTE = {
  hooks: [
    {
      name: 'org-remote',
      event: 'tool:pre_execute:bash',
      command: 'grep -q curl && { echo "remote policy: no curl" >&2; exit 2; }; exit 0',
      locked: true,
    },
  ],
}
const payload = (command: string) => JSON.stringify({ tool_name: 'Bash', tool_input: { command } })

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`)
    await new Promise((resolveWait) => setTimeout(resolveWait, 100))
  }
}

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('signed, cached, refreshed in the background; a bad signature keeps the last good copy', { timeout: 60_000 }, async () => {
      const dir = makeProject({
        'managed/hooks.json': { policy: { url: `${server.origin}/policy.json`, publicKey } },
        'policy.json': REMOTE,
        'policy-key.pem': privateKey,
        // A user hook that tries to replace the remote policy's locked one.
        '.xdg-config/hookrun/hooks.json': { hooks: [{ name: 'org-remote', event: 'tool:pre_execute', command: 'true' }] },
      })
      projects.push(dir)
      const env = { HOOKRUN_MANAGED_DIR: join(dir, 'managed'), NODE_EXTRA_CA_CERTS: certificate.file, DENO_CERT: certificate.file }
      const cli = (args: string[], input?: string) =>
        runCli(args, { runtime: runtime.name, cwd: dir, env, ...(input !== undefined && { input }) })

      const signed = await cli(['policy', 'sign', '--key', 'policy-key.pem', 'policy.json'])
      expect(signed.exitCode).toBe(0)
      serve = { body: signed.stdout, etag: '"v1"', maxAge: 60, delayMs: 0 }

      // No copy yet: the fire goes on without it, says so, and starts the refresh in the background.
      const first = await cli(['fire', 'tool:pre_execute', '--payload', '-'], payload('curl x'))
      expect(first.exitCode).toBe(0)
      expect(first.json().warnings).toContainEqual(
        expect.stringContaining(`remote policy ${server.origin}/policy.json has no good copy yet`),
      )
      await waitFor(async () => (await cli(['policy', 'status'])).exitCode === 0, 15_000)
      const status = await cli(['policy', 'status'])
      expect(status.stdout).toMatch(/^policy {6}https:\/\/127\.0\.0\.1:\d+\/policy\.json$/m)
      expect(status.stdout).toMatch(/^key {9}ed25519 [0-9a-f]{16}$/m)
      expect(status.stdout).toContain('ETag "v1"')
      expect(status.stdout).toContain('hooks       1 entry')

      // Now the remote policy's locked gate runs, and the user's same-named hook cannot replace it.
      const blocked = await cli(['fire', 'tool:pre_execute', '--payload', '-'], payload('curl x'))
      expect(blocked.exitCode).toBe(2)
      expect(blocked.json()).toMatchObject({ reason: 'remote policy: no curl', hooks: [{ name: 'org-remote', source: 'policy' }] })
      expect(blocked.json().warnings).toContainEqual(
        expect.stringContaining("cannot replace 'org-remote': it is locked by the managed config"),
      )

      // ETag: the server says 304 and the copy is kept.
      const requests = server.requests.length
      const unchanged = await cli(['policy', 'pull'])
      expect([unchanged.exitCode, unchanged.stdout]).toEqual([0, `${server.origin}/policy.json: not modified (ETag "v1"); fresh for 60s\n`])
      expect(server.requests.at(-1)!.headers['if-none-match']).toBe('"v1"')
      expect(server.requests.length).toBe(requests + 1)

      // A new document whose signature does not match: refused, the last good copy stays.
      serve = {
        body: JSON.stringify({ document: JSON.stringify({ hooks: [] }), signature: JSON.parse(signed.stdout).signature }),
        etag: '"v2"',
        maxAge: 0,
        delayMs: 0,
      }
      const refused = await cli(['policy', 'pull'])
      expect(refused.exitCode).toBe(1)
      expect(refused.stdout).toBe(
        `${server.origin}/policy.json: the signature does not match the pinned publicKey: refused; the last good copy stays in use\n`,
      )
      const still = await cli(['fire', 'tool:pre_execute', '--payload', '-'], payload('curl x'))
      expect(still.exitCode).toBe(2)
      expect(still.json().warnings).toContainEqual(
        expect.stringContaining('the last refresh failed (the signature does not match the pinned publicKey: refused)'),
      )
    })

    test('a stale copy is used at once while a slow server is asked in the background; an edited copy is not used', {
      timeout: 60_000,
    }, async () => {
      const dir = makeProject({
        'managed/hooks.json': { policy: { url: `${server.origin}/policy.json`, publicKey } },
        'policy.json': REMOTE,
        'policy-key.pem': privateKey,
      })
      projects.push(dir)
      const env = { HOOKRUN_MANAGED_DIR: join(dir, 'managed'), NODE_EXTRA_CA_CERTS: certificate.file, DENO_CERT: certificate.file }
      const cli = (args: string[], input?: string) =>
        runCli(args, { runtime: runtime.name, cwd: dir, env, ...(input !== undefined && { input }) })
      serve = {
        body: (await cli(['policy', 'sign', '--key', 'policy-key.pem', 'policy.json'])).stdout,
        etag: '"s1"',
        maxAge: 0,
        delayMs: 0,
      }
      expect((await cli(['policy', 'pull'])).exitCode).toBe(0)

      // max-age=0: every fire finds the copy stale; the server now takes 5 s to answer.
      serve = { ...serve, etag: '"s2"', delayMs: 5000 }
      const before = answered
      const fired = await cli(['fire', 'tool:pre_execute', '--payload', '-'], payload('curl x'))
      // The fire answered before the server did: it did not wait for the refresh.
      expect(answered).toBe(before)
      expect(fired.exitCode).toBe(2)

      // Someone edits the cached copy to drop the gate: it no longer matches its signature.
      const { document } = policyFiles(`${server.origin}/policy.json`, cliEnvironment(dir, env))
      writeFileSync(document, JSON.stringify({ hooks: [] }))
      const edited = await cli(['fire', 'tool:pre_execute', '--payload', '-'], payload('curl x'))
      expect(edited.json().warnings).toContainEqual(
        expect.stringContaining('the cached copy does not match its signature (edited?); not used'),
      )
      expect(readFileSync(join(dir, 'managed/hooks.json'), 'utf8')).toContain('publicKey')
    })
  })
}
