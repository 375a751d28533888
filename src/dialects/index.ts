import { HookrunError } from '../errors.ts'
import type { Payload } from '../payload.ts'
import { claude } from './claude.ts'
import type { Dialect } from './types.ts'

/** Every agent protocol hookrun speaks besides its own. */
export const DIALECTS: readonly Dialect[] = [claude]

const NATIVE = new Set(['hookrun', 'native'])

/** Refuse an unknown `--format` before anything is read. */
export function checkFormat(format: string): void {
  if (format === 'auto' || NATIVE.has(format) || DIALECTS.some((dialect) => dialect.name === format)) return
  throw new HookrunError(`--format ${format} is not known; use one of: auto, hookrun, ${DIALECTS.map((d) => d.name).join(', ')}`)
}

/** `--format NAME`, else the dialect the payload comes from, else none (hookrun's own JSON). */
export function resolveDialect(format: string | undefined, payload: Payload): Dialect | undefined {
  if (format === undefined || format === 'auto') return DIALECTS.find((dialect) => dialect.detect(payload))
  if (NATIVE.has(format)) return undefined
  checkFormat(format)
  return DIALECTS.find((candidate) => candidate.name === format)
}

export type { Dialect }
