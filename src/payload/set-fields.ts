// `--set key=value`: payload fields from the command line.
import { HookrunError } from '../core/errors.ts'
import type { Payload } from '../core/types.ts'
import { spreadKeepingLongStrings } from './long-strings.ts'

/** `--set key=value` (a string) or `key:=JSON` (any value, `turn_number:=3`), repeatable: replaces the payload's field. */
export function applySetFields(payload: Payload, assignments: readonly string[]): Payload {
  if (assignments.length === 0) return payload
  const next: Payload = spreadKeepingLongStrings(payload)
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=')
    const json = equals > 0 && assignment[equals - 1] === ':'
    const key = equals < 0 ? '' : assignment.slice(0, json ? equals - 1 : equals)
    if (key === '') throw new HookrunError(`--set '${assignment}' needs key=value (a string) or key:=JSON`)
    const text = assignment.slice(equals + 1)
    if (!json) next[key] = text
    else {
      try {
        next[key] = JSON.parse(text)
      } catch (error) {
        throw new HookrunError(
          `--set '${assignment}': the value after ':=' is not JSON (${(error as Error).message}); use key=value for a string`,
        )
      }
    }
  }
  return next
}
