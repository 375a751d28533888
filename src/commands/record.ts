// `hookrun fire --record DIR` (or HOOKRUN_RECORD): each payload, redacted, saved as a `hookrun test` case with the answer it got.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { redactPayload } from '../audit/audit.ts'
import type { Decision } from '../core/protocol.ts'
import type { Payload } from '../core/types.ts'

interface RecordedFire {
  /** The event as given on the command line (absent when the agent's payload names it). */
  readonly event?: string
  /** The agent's dialect that read the payload, if any (`--format`, or detected). */
  readonly format?: string
  /** The event in the agent's spelling, for the case's name. */
  readonly agentEvent?: string
  readonly tool?: string
  /** The payload as it came in, before a dialect filled anything in: replay reads it the same way. */
  readonly payload: Payload
  readonly decision: Decision
  readonly exitCode: number
}

/** Write one case file; returns a warning when it cannot (the fire's answer is never affected). */
export function recordCase(dir: string, fired: RecordedFire, now = new Date()): string | undefined {
  const label = fired.agentEvent ?? fired.decision.event
  const testCase = {
    name: `${fired.agentEvent === undefined ? '' : `${fired.agentEvent} `}${fired.decision.event}, recorded ${now.toISOString()}`,
    ...(fired.event !== undefined && { event: fired.event }),
    ...(fired.tool !== undefined && { tool: fired.tool }),
    ...(fired.format !== undefined && { format: fired.format }),
    payload: redactPayload(fired.payload),
    expect: { decision: fired.decision.decision, decidedBy: fired.decision.decidedBy ?? null, exitCode: fired.exitCode },
  }
  const file = join(dir, `${now.toISOString().replace(/[:.]/g, '-')}-${label.replace(/[^\w-]+/g, '_')}-${process.pid}.json`)
  try {
    mkdirSync(dir, { recursive: true })
    writeFileSync(file, `${JSON.stringify(testCase, null, 2)}\n`, { flag: 'wx', mode: 0o600 })
  } catch (error) {
    return `cannot record the payload in ${dir}: ${(error as Error).message}`
  }
  return undefined
}
