// `hookrun import` of an agent's standalone hook file, a list of entries each naming its trigger
// (the `hook-list` shape: Kiro CLI v3's `.kiro/hooks/*.json`).
import { hookListHooks } from '../config/list-shapes.ts'
import type { HookSpec } from '../config/shapes.ts'
import { agentNamed } from '../agents/registry.ts'
import { agentTarget } from './agents.ts'
import { type AgentTarget, isRouterCommand } from './agent-target.ts'
import { JsonTextError, type Path, removeAt } from './json-text.ts'
import { type AgentFileImport, compareDescending, type ImportAgent, type MovedHook, runsHookrun } from './import-shared.ts'

/**
 * An agent's standalone hook file (Kiro CLI v3's `{version, hooks: [{name, trigger, action, …}]}`):
 * each command entry moves as one hooks.json entry with the agent's rules, read as a pasted file is
 * (src/config/list-shapes.ts); an agent action, a trigger hookrun routes no entry for, or one that
 * runs hookrun stays. What stays keeps the file valid for the agent: a list, maybe empty.
 */
export function readHookList(agent: ImportAgent, file: string, text: string, root: Record<string, unknown>): AgentFileImport {
  const target = agentTarget(agent)!
  const native = agentNamed(agent)!.nativeConfig!
  if (root.version !== native.hookList!.version)
    throw new JsonTextError(
      `"version" is ${JSON.stringify(root.version)}, but ${target.label}'s hook files say "${native.hookList!.version}"`,
    )
  const entries = root.hooks as unknown[]
  const problems: Array<{ path: string; message: string }> = []
  const specs = hookListHooks(agentNamed(agent)!, entries, [], (path, message) => problems.push({ path, message }), { next: 0 })
  const byPath = new Map<string, HookSpec>(specs.map((spec) => [spec.path, spec]))
  const moved: MovedHook[] = []
  const removed: Path[] = []
  const staying: Array<{ path: string; why: string }> = []
  let routers = 0
  for (const [index, raw] of entries.entries()) {
    const path = `hooks[${index}]`
    const about = problems.filter((problem) => problem.path === path || problem.path.startsWith(`${path}.`))
    const spec = byPath.get(path)
    const why = whyListEntryStays(target, raw as Record<string, unknown>, spec, about)
    if (why === 'router') routers++
    else if (why !== undefined) staying.push({ path, why })
    else {
      const entry = {
        name: spec!.identity ?? spec!.name!,
        agent,
        event: spec!.event,
        ...(spec!.matcher !== undefined && { matcher: spec!.matcher }),
        command: spec!.command,
        timeout: spec!.timeout,
        // Switched off in the agent's file: kept off in hooks.json.
        ...(!spec!.enabled && { enabled: false }),
        description: `${target.label}'s ${spec!.name}`,
      }
      moved.push({ entry: entry as MovedHook['entry'], path, notCarried: [] })
      removed.push(['hooks', index])
    }
  }
  let out = text
  for (const path of [...removed].sort(compareDescending)) out = removeAt(out, path)
  return { file, moved, staying, routers, text: out }
}

/** Why a hook-list entry stays in the agent's file (`router`: it is hookrun's own), or undefined when it moves. */
function whyListEntryStays(
  target: AgentTarget,
  raw: Record<string, unknown>,
  spec: HookSpec | undefined,
  about: ReadonlyArray<{ path: string; message: string }>,
): string | undefined {
  if (spec === undefined) return about.map((problem) => problem.message).join('; ') || 'hookrun does not run it'
  if (isRouterCommand(spec.command, target.name)) return 'router'
  if (runsHookrun(spec.command)) return 'it runs hookrun itself; moved into hooks.json it would call hookrun again'
  const trigger = raw.trigger as string
  if (!target.events.includes(trigger)) {
    const skipped = target.skipped[trigger]
    return skipped !== undefined
      ? `hookrun's router has no entry on ${trigger}: ${skipped}`
      : `${trigger} is not an event hookrun routes for ${target.label}`
  }
  if (about.length > 0) return about.map((problem) => `${problem.path}: ${problem.message}`).join('; ')
  return undefined
}
