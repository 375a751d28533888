// What an untrusted project's hooks would have done for this event: named in fire's warning, never run.
import type { FiredEvent, Hook, Payload } from '../core/types.ts'
import type { ProjectTrust } from '../trust/trust.ts'
import { selectHooks } from './select.ts'

/** The warning `fire` gives when hooks of an untrusted project would have run for this event. */
export function untrustedWarning(trust: ProjectTrust | undefined, untrustedHooks: readonly Hook[], event: FiredEvent, payload: Payload = {}): string | undefined {
  if (trust === undefined || trust.trusted) return undefined
  const skipped = selectHooks(untrustedHooks, event, payload)
  if (skipped.length === 0) return undefined
  const why = trust.reason === 'changed' ? `changed since you trusted them (${trust.changed?.join(', ')})` : 'not trusted'
  const names = skipped.map((hook) => hook.name).join(', ')
  return `project hooks in ${trust.root} ${why}; skipped: ${names}. Review them ('hookrun list'), then run: ${trust.command}`
}
