// OpenTelemetry, the part `fire` runs: where spans go, and one fire as plain data (./export.ts makes the spans).
import { closeSync, existsSync, renameSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { makeOwnFolder, userCacheDir } from '../core/places.ts'
import type { Decision } from '../core/protocol.ts'
import type { FiredEvent, Hook, Payload, Settings } from '../core/types.ts'
import { redactText } from '../audit/redact.ts'
import { openOwnFile } from '../core/own-file.ts'
import { lockHeld } from '../core/lock.ts'
import { nodeOs } from '../core/builtins.ts'

type Env = Readonly<Record<string, string | undefined>>
type AttributeValue = string | number | boolean
type Attributes = Record<string, AttributeValue>

/** Where the spans go: the OTLP/HTTP traces URL, its headers and the resource attributes. */
interface TelemetryTarget {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly resource: Readonly<Attributes>
}

/** A span as data: times in epoch milliseconds. */
interface SpanData {
  readonly name: string
  readonly start: number
  readonly end: number
  readonly attributes: Attributes
  /** Set when the span is an error: its status message. */
  readonly error?: string
}

/** One fire: its span, a child span per hook, and the trace it belongs to (W3C traceparent). */
export interface FireRecord {
  readonly target: TelemetryTarget
  readonly traceparent?: string
  readonly fire: SpanData
  readonly hooks: readonly SpanData[]
}

/** On with a `telemetry` setting or OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT; off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. */
export function telemetryTarget(settings: Settings, env: Env): TelemetryTarget | undefined {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return undefined
  const configured = settings.telemetry
  const url = tracesUrl(configured?.endpoint, env)
  if (url === undefined) return undefined
  return {
    url,
    headers: { ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS), ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS), ...configured?.headers },
    resource: {
      'service.name': configured?.serviceName ?? env.OTEL_SERVICE_NAME ?? 'hookrun',
      'service.version': pkg.version,
      'host.name': nodeOs().hostname(),
      ...keyValues(env.OTEL_RESOURCE_ATTRIBUTES),
      ...configured?.attributes,
    },
  }
}

/** The config's endpoint or OTEL_EXPORTER_OTLP_ENDPOINT is a base URL (`/v1/traces` is added); the TRACES one is used as is. */
function tracesUrl(endpoint: string | undefined, env: Env): string | undefined {
  if (endpoint === undefined && env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
  const base = endpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT
  if (!base) return undefined
  return /\/v1\/traces\/?$/.test(base) ? base : `${base.replace(/\/+$/, '')}/v1/traces`
}

/** `k1=v1,k2=v2` (values percent-decoded), as the OTEL_* variables write them. */
function keyValues(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=')
    if (at <= 0) continue
    const value = pair.slice(at + 1).trim()
    try {
      out[pair.slice(0, at).trim()] = decodeURIComponent(value)
    } catch {
      out[pair.slice(0, at).trim()] = value
    }
  }
  return out
}

export interface FireFacts {
  readonly event: FiredEvent
  readonly decision: Decision
  readonly payload: Payload
  readonly hooks: readonly Hook[]
  /** Same order as `decision.hooks`. */
  readonly startedAt: readonly number[]
  readonly start: number
  readonly end: number
  readonly agent?: string
  readonly env: Env
}

const MAX_TEXT = 1000
const text = (value: string) => redactText(value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value)

/** The fire as spans, with OpenTelemetry's semantic conventions where they fit and `hookrun.*` for the rest; text redacted as the audit log. */
export function fireRecord(target: TelemetryTarget, facts: FireFacts): FireRecord {
  const { event, decision, payload } = facts
  const session = payload.session_id ?? payload.conversation_id ?? payload.sessionId
  const fire: Attributes = {
    'hookrun.event': event.name,
    'hookrun.event.qualified': decision.event,
    'hookrun.decision': decision.decision,
    'hookrun.blocked': decision.blocked,
    'hookrun.hooks.count': decision.hooks.length,
    'hookrun.warnings.count': decision.warnings.length,
    'process.pid': process.pid,
    ...(event.tool !== undefined && { 'gen_ai.tool.name': event.tool }),
    ...(facts.agent !== undefined && { 'gen_ai.agent.name': facts.agent }),
    ...(typeof session === 'string' && { 'gen_ai.conversation.id': session }),
    ...(decision.decidedBy !== undefined && { 'hookrun.decided_by': decision.decidedBy }),
    ...(decision.reason !== undefined && { 'hookrun.reason': text(decision.reason) }),
  }
  const byName = new Map(facts.hooks.map((hook) => [hook.name, hook]))
  const hooks = decision.hooks.map((report, index): SpanData => {
    const hook = byName.get(report.name)
    const start = facts.startedAt[index] ?? facts.start
    const attributes: Attributes = {
      'hookrun.hook.name': report.name,
      'hookrun.hook.source': report.source,
      'hookrun.hook.outcome': report.outcome,
      'hookrun.hook.timed_out': report.timedOut,
      ...(report.exitCode !== null && { 'process.exit.code': report.exitCode }),
      ...(report.reason !== undefined && { 'hookrun.hook.reason': text(report.reason) }),
      ...(hook?.http !== undefined
        ? {
            'http.request.method': 'POST',
            'url.full': text(hook.http.url),
            ...(report.httpStatus !== undefined && { 'http.response.status_code': report.httpStatus }),
          }
        : hook !== undefined && { 'process.command_line': text(hook.command) }),
      ...(report.outcome === 'error' && {
        'error.type': report.timedOut ? 'timeout' : report.httpStatus !== undefined ? String(report.httpStatus) : 'hook_failed',
      }),
    }
    // durationMs is rounded: a hook that ends as the fire does must not end after it.
    return {
      name: `hook ${report.name}`,
      start,
      end: Math.min(start + report.durationMs, facts.end),
      attributes,
      ...(report.outcome === 'error' && { error: text(report.reason ?? 'failed') }),
    }
  })
  const traceparent = facts.env.TRACEPARENT
  return {
    target,
    ...(traceparent && { traceparent }),
    fire: { name: `fire ${event.name}`, start: facts.start, end: facts.end, attributes: fire },
    hooks,
  }
}

/** The spool: fires waiting for the shipper (`hookrun telemetry flush`). */
export function spoolDir(env: Env): string {
  return join(userCacheDir(env), 'telemetry')
}

export const SPOOL_FILE = 'spool.jsonl'
export const SHIPPER_LOCK = 'shipper.lock'
/** A shipper touches its lock at least this often while it runs. */
const SHIPPER_HEARTBEAT_MS = 1000
/** Past this the spool takes no more: a collector that is down must not fill the disk. */
const MAX_SPOOL_BYTES = 8 * 1024 * 1024

/** Append the fire to the spool; true when no shipper is running, so the caller starts one. */
export function spoolRecord(record: FireRecord, env: Env): boolean {
  const dir = spoolDir(env)
  makeOwnFolder(dir, env)
  const spool = join(dir, SPOOL_FILE)
  if (existsSync(spool) && statSync(spool).size > MAX_SPOOL_BYTES) return !shipperRunning(dir)
  // Never through a link planted at its name, and only a file of the user's (src/core/own-file.ts).
  let fd: number
  try {
    fd = openOwnFile(spool, 'append')
  } catch (error) {
    throw new Error(`cannot write ${spool}: ${(error as Error).message}`)
  }
  try {
    writeSync(fd, `${JSON.stringify(record)}\n`)
  } finally {
    closeSync(fd)
  }
  return !shipperRunning(dir)
}

/** A shipper is running while its lock is fresh; one not touched for three heartbeats died. */
export const SHIPPER_STALE_MS = SHIPPER_HEARTBEAT_MS * 3

function shipperRunning(dir: string): boolean {
  return lockHeld(join(dir, SHIPPER_LOCK), SHIPPER_STALE_MS)
}

/** Take the spooled fires for shipping: the file is renamed first, so new fires start a new one. */
export function takeSpool(dir: string, into: string): boolean {
  try {
    renameSync(join(dir, SPOOL_FILE), into)
    return true
  } catch {
    return false
  }
}
