// An agent's standalone hook file pasted into a hooks.json (Kiro CLI v3's `{"version": "v1",
// "hooks": [{name, trigger, matcher, action, timeout, enabled}]}`): each entry one hook of that
// agent's shape, read with its facts (src/agents/native-config.ts `hookList`).
import type { Agent } from '../agents/types.ts'
import type { HookShape } from '../core/types.ts'
import { eventPattern } from '../event/events.ts'
import { claudeMatcher, handlerSpec, type HookSpec, nativeTimeout, parseEntry, type Report } from './hook-spec.ts'
import { HookListEntrySchema } from './agent-schemas.ts'

/** The entries of `agent`'s hook list: a command action runs by the agent's rules; an agent action is not run, with one warning. */
export function hookListHooks(
  agent: Agent,
  entries: readonly unknown[],
  envPrefixes: readonly string[],
  report: Report,
  counter: { next: number },
): HookSpec[] {
  const native = agent.nativeConfig!
  const shape = agent.name as HookShape
  const matcherOf = native.matcher ?? claudeMatcher
  const specs: HookSpec[] = []
  entries.forEach((raw, index) => {
    const ordinal = counter.next++
    const path = `hooks[${index}]`
    const entry = parseEntry(HookListEntrySchema, raw, path, report)
    if (entry === undefined) return
    if (entry.action.type !== 'command') {
      report(
        `${path}.action`,
        `'${entry.name}' has a type '${entry.action.type}' action, which hookrun does not run (only 'command'); skipped`,
        'warning',
      )
      return
    }
    const command = entry.action.command
    if (command === undefined) {
      report(`${path}.action.command`, `required for '${entry.name}', a command action; skipped`)
      return
    }
    const event = eventPattern(entry.trigger)
    // Named by the agent's own name for it, so `disabled` and explain name what the file says.
    specs.push(
      handlerSpec({ shape, path, ordinal, envPrefixes }, entry.trigger, entry.name, command, {
        name: entry.name,
        event,
        command,
        timeout: nativeTimeout(native, event, entry.timeout),
        enabled: entry.enabled ?? true,
        matcher: matcherOf(entry.matcher),
      }),
    )
  })
  return specs
}
