/**
 * Where spans go (the `telemetry` setting and the OTEL_* variables), and `fire()` called by a
 * program: it exports in the program's own background, to a real collector on 127.0.0.1.
 */
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { fire } from '../../src/fire.ts'

/** The parts of an OTLP/HTTP JSON trace export this test reads. */
interface OtlpTraces {
  resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }>
}
import { type FireRecord, SPOOL_FILE, spoolDir, spoolRecord, telemetryTarget } from '../../src/telemetry/record.ts'
import { cliEnvironment, makeProject, removeProject } from '../helpers.ts'
import { json, startServer } from '../loopback.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const settings = (telemetry?: object) => ({
  trustedFolders: [],
  ...(telemetry && { telemetry: { ...telemetry, file: '/etc/hookrun/hooks.json' } }),
})

describe('telemetry target', () => {
  test('off unless configured or an OTLP endpoint variable is set', () => {
    expect(telemetryTarget(settings(), {})).toBeUndefined()
    expect(telemetryTarget(settings(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })?.url).toBe('http://c:4318/v1/traces')
    expect(telemetryTarget(settings(), { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom' })?.url).toBe('http://c:4318/custom')
    expect(
      telemetryTarget(settings({ endpoint: 'http://mine:4318/v1/traces' }), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' })?.url,
    ).toBe('http://mine:4318/v1/traces')
  })

  test('OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none switch it off', () => {
    expect(telemetryTarget(settings({ endpoint: 'http://c:4318' }), { OTEL_SDK_DISABLED: 'true' })).toBeUndefined()
    expect(telemetryTarget(settings({ endpoint: 'http://c:4318' }), { OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined()
  })

  test('headers and resource attributes: variables first, the config over them', () => {
    const target = telemetryTarget(
      settings({ endpoint: 'http://c:4318', headers: { b: 'config' }, serviceName: 'gates', attributes: { team: 'payments', tier: 1 } }),
      {
        OTEL_EXPORTER_OTLP_HEADERS: 'a=one,b=env,api-key=x%20y',
        OTEL_RESOURCE_ATTRIBUTES: 'team=infra,region=eu',
        OTEL_SERVICE_NAME: 'ignored-by-config',
      },
    )!
    expect(target.headers).toEqual({ a: 'one', b: 'config', 'api-key': 'x y' })
    expect(target.resource).toMatchObject({ 'service.name': 'gates', team: 'payments', region: 'eu', tier: 1 })
  })

  test("a managed config's telemetry cannot be replaced by a user config", async () => {
    const dir = makeProject({
      'managed/hooks.json': { telemetry: { endpoint: 'http://org-collector:4318' } },
      '.xdg-config/hookrun/hooks.json': { telemetry: { endpoint: 'http://127.0.0.1:9' } },
    })
    projects.push(dir)
    const { loadConfig } = await import('../../src/config/parse.ts')
    const config = loadConfig({ cwd: dir, env: cliEnvironment(dir, { HOOKRUN_MANAGED_DIR: join(dir, 'managed') }) })
    expect(config.settings.telemetry).toMatchObject({ endpoint: 'http://org-collector:4318', file: join(dir, 'managed/hooks.json') })
    expect(config.problems).toContainEqual(
      expect.objectContaining({ file: join(dir, '.xdg-config/hookrun/hooks.json'), path: 'telemetry' }),
    )
  })
})

test('fire() in a program exports the trace in that program, after returning the decision', async () => {
  const collector = await startServer((_request, res) => json(res, {}))
  try {
    const dir = makeProject({
      'hooks.json': { telemetry: { endpoint: collector.origin }, hooks: [{ name: 'ok', event: 'session:start', command: 'true' }] },
    })
    projects.push(dir)
    const decision = await fire({ event: 'session:start', cwd: dir, configFiles: [join(dir, 'hooks.json')], env: cliEnvironment(dir) })
    expect(decision.hooks).toHaveLength(1)
    const deadline = Date.now() + 10_000
    while (collector.requests.length === 0 && Date.now() < deadline) await new Promise((resolveWait) => setTimeout(resolveWait, 50))
    const names = collector.requests.flatMap((request) =>
      (JSON.parse(request.body) as OtlpTraces).resourceSpans.flatMap((group) =>
        group.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)),
      ),
    )
    expect(names.sort()).toEqual(['fire session:start', 'hook ok'])
  } finally {
    await collector.close()
  }
})

describe("the spool is hookrun's own file (issue 29 row 8)", () => {
  const record = {
    target: { url: 'http://127.0.0.1:9/v1/traces', headers: {}, resource: {} },
    fire: { name: 'fire x', start: 0, end: 1, attributes: {} },
    hooks: [],
  }

  test('a link planted at its name is not followed: the file it points at is untouched, and the error names the spool', () => {
    const dir = makeProject({ victim: 'precious\n' })
    projects.push(dir)
    const env = cliEnvironment(dir)
    mkdirSync(spoolDir(env), { recursive: true })
    symlinkSync(join(dir, 'victim'), join(spoolDir(env), SPOOL_FILE))
    expect(() => spoolRecord(record as FireRecord, env)).toThrow(`cannot write ${join(spoolDir(env), SPOOL_FILE)}: it is a symbolic link`)
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('precious\n')
  })

  test('a batch to ship that is a link is not read (and so not sent)', async () => {
    const dir = makeProject({ 'secret.jsonl': `${JSON.stringify(record)}\n` })
    projects.push(dir)
    const env = cliEnvironment(dir)
    mkdirSync(spoolDir(env), { recursive: true })
    symlinkSync(join(dir, 'secret.jsonl'), join(spoolDir(env), SPOOL_FILE))
    const { flushSpool } = await import('../../src/telemetry/export.ts')
    expect(await flushSpool(env, false)).toMatchObject({ shipped: 0, failures: [] })
  })
})
