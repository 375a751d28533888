/**
 * OpenTelemetry as users get it: with `telemetry` in the config (or the OTEL_EXPORTER_OTLP_*
 * variables) every fire is a trace, shipped after the decision by a detached `hookrun telemetry
 * flush` to an OTLP/HTTP collector, here a real one on 127.0.0.1 that records what it receives.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { makeProject, processesMatching, removeProject, runCli, RUNTIMES, writeFiles } from '../helpers.ts'
import { json, type Loopback, startServer } from '../loopback.ts'

let collector: Loopback
const projects: string[] = []
beforeAll(async () => {
  collector = await startServer((_request, res) => json(res, {}))
})
afterAll(async () => {
  // A shipper lingers for more fires, and exits within a second once its cache folder is gone.
  projects.forEach(removeProject)
  await waitFor(() => processesMatching('telemetry flush').length === 0, 5000).catch(() => undefined)
  await collector.close()
})

const SECRET = 'ghp_0123456789abcdefghijABCDEFGHIJ012345'

function project(telemetry: object | undefined): string {
  const dir = makeProject({
    '.xdg-config/hookrun/hooks.json': {
      ...(telemetry && { telemetry }),
      hooks: [
        { name: 'note', event: 'tool:pre_execute', command: 'true' },
        {
          name: 'no-sudo',
          event: 'tool:pre_execute:bash',
          command: `grep -q sudo && { echo "no sudo (GITHUB_TOKEN=${SECRET})" >&2; exit 2; }; exit 0`,
        },
      ],
    },
  })
  projects.push(dir)
  return dir
}

interface Span {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  startTimeUnixNano: string
  endTimeUnixNano: string
  status?: { code?: number; message?: string }
  attributes: Record<string, unknown>
  resource: Record<string, unknown>
  headers: Record<string, unknown>
}

type KeyValue = { key: string; value: Record<string, unknown> }
const flat = (attributes: KeyValue[] = []) =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? value.boolValue ?? (value.intValue === undefined ? value.doubleValue : Number(value.intValue)),
    ]),
  )

/** Every span the collector has received from requests matching `marker` in a resource attribute. */
function spansFor(run: string): Span[] {
  return collector.requests.flatMap((request) =>
    (
      JSON.parse(request.body).resourceSpans as Array<{
        resource: { attributes: KeyValue[] }
        scopeSpans: Array<{ spans: Array<Span & { attributes: KeyValue[] }> }>
      }>
    ).flatMap((group) => {
      const resource = flat(group.resource.attributes)
      if (resource['test.run'] !== run) return []
      return group.scopeSpans.flatMap((scope) =>
        scope.spans.map((span) => ({ ...span, attributes: flat(span.attributes), resource, headers: request.headers })),
      )
    }),
  )
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`)
    await new Promise((resolveWait) => setTimeout(resolveWait, 50))
  }
}

const claude = (command: string) =>
  JSON.stringify({ session_id: 'sess-42', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } })

test('hookrun telemetry flush ships what is spooled, once, and says how much', async () => {
  const run = `flush-${Date.now()}`
  const dir = project(undefined)
  const record = {
    target: { url: `${collector.origin}/v1/traces`, headers: {}, resource: { 'service.name': 'hookrun', 'test.run': run } },
    fire: { name: 'fire session:start', start: Date.now() - 20, end: Date.now(), attributes: { 'hookrun.decision': 'allow' } },
    hooks: [],
  }
  writeFiles(dir, { '.xdg-cache/hookrun/telemetry/spool.jsonl': `${JSON.stringify(record)}\n` })
  const flushed = await runCli(['telemetry', 'flush'], { cwd: dir })
  expect([flushed.exitCode, flushed.stdout]).toEqual([0, '1 fire exported\n'])
  expect(spansFor(run).map((span) => span.name)).toEqual(['fire session:start'])
  expect((await runCli(['telemetry', 'flush'], { cwd: dir })).stdout).toBe('0 fires exported\n')
})

test.runIf(process.platform === 'linux')(
  'the shipper fires start runs at the lowest priority: it never competes with the agent for the cores',
  async () => {
    const dir = project(undefined)
    const shipper = runCli(['telemetry', 'flush', '--linger'], { cwd: dir, env: { HOOKRUN_TEST_MARK: dir } })
    // Its lock file is there once it has started shipping (and lowered its priority before).
    const lock = join(dir, '.xdg-cache/hookrun/telemetry/shipper.lock')
    await waitFor(() => existsSync(lock), 15_000)
    // Shippers of earlier tests may be exiting meanwhile: one gone before its environment is read is not this one.
    const environOf = (pid: string) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1')
      } catch {
        return ''
      }
    }
    const pid = processesMatching('telemetry flush --linger')
      .map((line) => line.trim().split(/\s+/)[0]!)
      .find((candidate) => environOf(candidate).includes(`HOOKRUN_TEST_MARK=${dir}`))
    expect(pid).toBeDefined()
    // Field 19 of /proc/PID/stat is the nice value.
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])).toBe(19)
    process.kill(Number(pid), 'SIGTERM')
    await shipper
  },
)

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('a denied tool call is a trace: the fire span and one child span per hook, fields by the conventions, secrets redacted', async () => {
      const run = `${runtime.name}-config-${Date.now()}`
      const dir = project({
        endpoint: collector.origin,
        headers: { 'x-api-key': 'collector-key' },
        attributes: { team: 'payments', 'test.run': run },
      })
      const result = await runCli(['fire', '--format', 'claude'], { runtime: runtime.name, cwd: dir, input: claude('sudo rm -rf /') })
      expect(result.exitCode).toBe(0)
      expect(result.json()).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } })
      await waitFor(() => spansFor(run).length >= 3, 15_000)

      const spans = spansFor(run)
      const fire = spans.find((span) => span.name === 'fire tool:pre_execute')!
      expect(fire.resource).toMatchObject({ 'service.name': 'hookrun', team: 'payments' })
      expect(typeof fire.resource['service.version']).toBe('string')
      expect(fire.headers['x-api-key']).toBe('collector-key')
      expect(fire.parentSpanId ?? '').toBe('')
      expect(fire.attributes).toMatchObject({
        'hookrun.event': 'tool:pre_execute',
        'hookrun.event.qualified': 'tool:pre_execute:bash',
        'hookrun.decision': 'deny',
        'hookrun.blocked': true,
        'hookrun.decided_by': 'no-sudo',
        'hookrun.hooks.count': 2,
        'gen_ai.tool.name': 'Bash',
        'gen_ai.agent.name': 'claude',
        'gen_ai.conversation.id': 'sess-42',
        'hookrun.reason': 'no sudo (GITHUB_TOKEN=[REDACTED]',
      })
      const hooks = spans.filter((span) => span.name.startsWith('hook '))
      expect(hooks.map((span) => span.name).sort()).toEqual(['hook no-sudo', 'hook note'])
      for (const span of hooks) {
        expect(span.traceId).toBe(fire.traceId)
        expect(span.parentSpanId).toBe(fire.spanId)
        expect(BigInt(span.startTimeUnixNano) >= BigInt(fire.startTimeUnixNano)).toBe(true)
        expect(BigInt(span.endTimeUnixNano) <= BigInt(fire.endTimeUnixNano)).toBe(true)
      }
      const gate = hooks.find((span) => span.name === 'hook no-sudo')!
      expect(gate.attributes).toMatchObject({
        'hookrun.hook.outcome': 'deny',
        'hookrun.hook.source': 'user',
        'process.exit.code': 2,
        'hookrun.hook.timed_out': false,
      })
      expect(String(gate.attributes['process.command_line'])).toContain('GITHUB_TOKEN=[REDACTED]')
      expect(JSON.stringify(spans)).not.toContain(SECRET.slice(4))
    })

    test('the OTEL_* variables turn it on; the agent’s TRACEPARENT becomes the parent; OTEL_SDK_DISABLED turns it off', async () => {
      const run = `${runtime.name}-env-${Date.now()}`
      const dir = project(undefined)
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
      const env = {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
        OTEL_RESOURCE_ATTRIBUTES: `team=infra,test.run=${run}`,
        OTEL_SERVICE_NAME: 'agent-gates',
        TRACEPARENT: `00-${traceId}-00f067aa0ba902b7-01`,
      }
      const result = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], {
        runtime: runtime.name,
        cwd: dir,
        input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }),
        env,
      })
      expect(result.exitCode).toBe(0)
      await waitFor(() => spansFor(run).length >= 3, 15_000)
      const fire = spansFor(run).find((span) => span.name === 'fire tool:pre_execute')!
      expect(fire).toMatchObject({ traceId, parentSpanId: '00f067aa0ba902b7' })
      expect(fire.resource).toMatchObject({ 'service.name': 'agent-gates', team: 'infra' })
      expect(fire.attributes).toMatchObject({ 'hookrun.decision': 'allow', 'hookrun.blocked': false })

      const off = `${runtime.name}-off-${Date.now()}`
      await runCli(['fire', 'tool:pre_execute'], {
        runtime: runtime.name,
        cwd: dir,
        env: { ...env, OTEL_RESOURCE_ATTRIBUTES: `test.run=${off}`, OTEL_SDK_DISABLED: 'true' },
      })
      await new Promise((resolveWait) => setTimeout(resolveWait, 1500))
      expect(spansFor(off)).toEqual([])
    })
  })
}
