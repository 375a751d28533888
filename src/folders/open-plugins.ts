// Open Plugins: a plugin's Claude-shaped hooks/hooks.json as hookrun hooks.
import type { ConfigProblem, Hook } from '../core/types.ts'
import { isKnownEvent } from '../event/events.ts'

/**
 * The Open Plugins hooks component (open-plugins.com/agent-builders/components/hooks): a plugin
 * folder's `hooks/hooks.json` in Claude Code's shape, its commands naming files by
 * `${PLUGIN_ROOT}`. hookrun reads it as any Claude-shaped file (Claude Code's exit-code rules
 * and matchers), and adds what the spec asks of a host:
 * - `${PLUGIN_ROOT}` (and Claude Code's `${CLAUDE_PLUGIN_ROOT}`) is the plugin's folder, set in
 *   the hook's environment for the shell to expand (src/folders/plugin-config.ts);
 * - "Tools MUST ignore event names they do not recognize": a hook for an event hookrun does not
 *   know is left out (`hookrun plugin add` names them);
 * - the spec's extended tool events carry their tool: BeforeShellExecution is
 *   `tool:pre_execute:bash`, and so on. Their matcher is tested against the command or the file
 *   path, which hookrun's matchers do not do, so such a hook is skipped with a warning rather
 *   than run for every command.
 */
const EXTENDED_EVENTS: Readonly<Record<string, string>> = {
  BeforeShellExecution: 'tool:pre_execute:bash',
  AfterShellExecution: 'tool:post_execute:bash',
  BeforeReadFile: 'tool:pre_execute:read',
  AfterFileEdit: 'tool:post_execute:edit',
}

/** The event name a Claude-shaped entry was listed under: `hooks.<Event>[g].hooks[h]`. */
function listedUnder(hook: Hook): string | undefined {
  return /^hooks\.([^.[]+)\[/.exec(hook.source.path)?.[1]
}

interface OpenPluginHooks {
  readonly hooks: Hook[]
  /** Event names the plugin lists that hookrun does not know, left out as the spec requires. */
  readonly ignored: string[]
}

export function openPluginHooks(hooks: readonly Hook[], problems: ConfigProblem[]): OpenPluginHooks {
  const ignored = new Set<string>()
  const kept: Hook[] = []
  for (const hook of hooks) {
    const event = listedUnder(hook)
    const extended = event === undefined ? undefined : EXTENDED_EVENTS[event]
    if (event !== undefined && extended === undefined && !isKnownEvent(event)) {
      ignored.add(event)
      continue
    }
    if (extended !== undefined && hook.matcher !== undefined) {
      problems.push({
        severity: 'warning',
        file: hook.source.file,
        path: `${hook.source.path}`,
        message: `a matcher on ${event} is tested against the ${event!.includes('Shell') ? 'command' : 'file path'}, which hookrun cannot do; hook skipped (use an if rule such as Bash(git *) on PreToolUse instead)`,
      })
      continue
    }
    kept.push(extended === undefined ? hook : { ...hook, event: [extended] })
  }
  return { hooks: kept, ignored: [...ignored] }
}
