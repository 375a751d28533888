import { HookrunError } from '../errors.ts'
import type { Payload } from '../payload.ts'
import { claude } from './claude.ts'
import type { Dialect } from './types.ts'

/** Every agent protocol hookrun speaks besides its own. */
export const DIALECTS: readonly Dialect[] = [claude]

/** `--format NAME`, else the dialect the payload comes from, else none (hookrun's own JSON). */
export function resolveDialect(format: string | undefined, payload: Payload): Dialect | undefined {
  if (format === undefined || format === 'auto') return DIALECTS.find((dialect) => dialect.detect(payload))
  if (format === 'hookrun' || format === 'native') return undefined
  const dialect = DIALECTS.find((candidate) => candidate.name === format)
  if (dialect === undefined) {
    throw new HookrunError(`--format ${format} is not known; use one of: hookrun, ${DIALECTS.map((d) => d.name).join(', ')}`)
  }
  return dialect
}

export type { Dialect }
