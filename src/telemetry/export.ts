// OpenTelemetry export: fires (./record.ts) become spans and go to the collector over OTLP/HTTP, in
// `hookrun telemetry flush` (never in the fire the agent waits for); its packages load only here.
import { closeSync, existsSync, readFileSync, rmSync, utimesSync } from 'node:fs'
import { nodeOs } from '../core/builtins.ts'
import { releaseLock, takeLock } from '../core/lock.ts'
import { openOwnFile } from '../core/own-file.ts'
import { join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { makeOwnFolder } from '../core/places.ts'
import { type FireRecord, SHIPPER_LOCK, SHIPPER_STALE_MS, spoolDir, takeSpool } from './record.ts'

/** A pause (not node:timers/promises: a bundler hoists builtin imports, loading them on every event). */
const sleep = (ms: number) => new Promise<void>((wake) => setTimeout(wake, ms))

type Env = Readonly<Record<string, string | undefined>>

/** Export fires to their collectors (one request per collector). Returns one line per failure. */
export async function exportRecords(records: readonly FireRecord[]): Promise<string[]> {
  const api = await import('@opentelemetry/api')
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base')
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http')
  const { resourceFromAttributes } = await import('@opentelemetry/resources')
  const groups = new Map<string, FireRecord[]>()
  for (const record of records) {
    const key = JSON.stringify(record.target)
    groups.set(key, [...(groups.get(key) ?? []), record])
  }
  const failures: string[] = []
  for (const group of groups.values()) {
    const { target } = group[0]!
    const memory = new InMemorySpanExporter()
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ ...target.resource }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    })
    const tracer = provider.getTracer('hookrun', pkg.version)
    const startSpan = (data: FireRecord['fire'], context: ReturnType<typeof remoteParent>) => {
      const span = tracer.startSpan(data.name, { startTime: data.start, attributes: data.attributes, kind: api.SpanKind.INTERNAL }, context)
      if (data.error !== undefined) span.setStatus({ code: api.SpanStatusCode.ERROR, message: data.error })
      return span
    }
    for (const record of group) {
      const parent = remoteParent(api, record.traceparent)
      const fire = startSpan(record.fire, parent)
      const inside = api.trace.setSpan(parent, fire)
      for (const hook of record.hooks) startSpan(hook, inside).end(hook.end)
      fire.end(record.fire.end)
    }
    const spans = memory.getFinishedSpans()
    const exporter = new OTLPTraceExporter({ url: target.url, headers: { ...target.headers } })
    const result = await new Promise<{ code: number; error?: Error }>((resolveExport) => exporter.export(spans, resolveExport))
    if (result.code !== 0) failures.push(`${target.url}: ${result.error?.message ?? 'export failed'}`)
    await exporter.shutdown()
    await provider.shutdown()
  }
  return failures
}

/** The agent's trace (a W3C `traceparent` from its environment) as the fire span's parent. */
function remoteParent(api: typeof import('@opentelemetry/api'), traceparent: string | undefined) {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceparent?.trim() ?? '')
  if (match === null) return api.ROOT_CONTEXT
  return api.trace.setSpanContext(api.ROOT_CONTEXT, {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16),
    isRemote: true,
  })
}

/** How long a shipper waits for more fires before it exits (agents fire in bursts); it looks once a second. */
const LINGER_MS = 10_000
const POLL_MS = 1000

/** `hookrun telemetry flush`: ship the spool; with `linger` keep shipping until idle. One shipper at a time (a fresh lock). */
export async function flushSpool(env: Env, linger = true): Promise<{ shipped: number; failures: string[]; alreadyRunning: boolean }> {
  const dir = spoolDir(env)
  const lock = join(dir, SHIPPER_LOCK)
  makeOwnFolder(dir, env)
  // Background work: it yields the cores to the agent and its hooks.
  if (linger) lowerPriority()
  // A lock not touched for three heartbeats is a shipper's that died: it is taken over.
  if (!takeLock(lock, { staleMs: SHIPPER_STALE_MS })) return { shipped: 0, failures: [], alreadyRunning: true }
  let shipped = 0
  const failures: string[] = []
  const batch = join(dir, `sending-${process.pid}.jsonl`)
  const shipOnce = async (): Promise<boolean> => {
    if (!takeSpool(dir, batch)) return false
    // A fire that opened the spool just before the rename finishes its one write first.
    await sleep(20)
    const records = readRecords(batch)
    rmSync(batch, { force: true })
    if (records.length === 0) return false
    failures.push(...(await exportRecords(records)))
    shipped += records.length
    return true
  }
  try {
    let idleSince = Date.now()
    // Until idle for a while, or until the cache folder is removed under us.
    while (Date.now() - idleSince < (linger ? LINGER_MS : 0) && existsSync(dir)) {
      touch(lock)
      if (await shipOnce()) idleSince = Date.now()
      else await sleep(POLL_MS)
    }
  } finally {
    releaseLock(lock)
  }
  // A fire that saw the lock just before it went relies on this last look.
  await shipOnce()
  return { shipped, failures, alreadyRunning: false }
}

/** The lowest scheduling priority for this process (nice 19; Windows: idle), where the system allows it. */
function lowerPriority(): void {
  try {
    const { constants, setPriority } = nodeOs()
    setPriority(constants.priority.PRIORITY_LOW)
  } catch {
    // Not permitted here: ship at the priority it has.
  }
}

function touch(file: string): void {
  const now = new Date()
  try {
    utimesSync(file, now, now)
  } catch {
    // Removed under us: the next fire starts another shipper.
  }
}

function readRecords(file: string): FireRecord[] {
  const records: FireRecord[] = []
  let text = ''
  try {
    // The spool renamed: a link planted at its name (to a file of the user's) is not read and sent.
    const fd = openOwnFile(file, 'read')
    try {
      text = readFileSync(fd, 'utf8')
    } finally {
      closeSync(fd)
    }
  } catch {
    return records
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      records.push(JSON.parse(line) as FireRecord)
    } catch {
      // A damaged line is one fire's spans lost, not the batch's.
    }
  }
  return records
}
