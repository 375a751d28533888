import { namesOf } from '../event/events.ts'
import { claude } from './claude.ts'
import type { Dialect } from './types.ts'

/**
 * Factory Droid (docs.factory.ai/reference/hooks-reference). Claude Code's format on both sides
 * (`hook_event_name`, `hookSpecificOutput.permissionDecision`, top-level `decision: "block"`,
 * exit 2 + stderr) for nine of Claude Code's events, with Droid's own tool names (`Execute`,
 * `Create`, `FetchUrl`, `ApplyPatch`, `AskUser`, …) and `$FACTORY_PROJECT_DIR` for the project.
 * A payload is Droid's when it names one of the tools only Droid has; any other Droid payload
 * reads as Claude Code's, which is the same protocol, so `--format droid` only changes the
 * wording of warnings and where the project is looked for.
 */
const DROID_EVENTS = namesOf('droid')
const DROID_ONLY_TOOLS = new Set(['Execute', 'Create', 'FetchUrl', 'ApplyPatch', 'AskUser', 'Create-PR'])

export const droid: Dialect = {
  name: 'droid',
  label: 'Factory Droid',
  // Answered with Claude Code's renderer, which places the fields it carries.
  carries: claude.carries,
  source: 'droid',
  project: { variables: ['FACTORY_PROJECT_DIR'] },
  detect: (payload) =>
    typeof payload.hook_event_name === 'string' &&
    DROID_EVENTS.has(payload.hook_event_name) &&
    typeof payload.tool_name === 'string' &&
    DROID_ONLY_TOOLS.has(payload.tool_name),
  eventName: claude.eventName,
  render(decision, payload, agentEvent) {
    const rendered = claude.render(decision, payload, agentEvent)
    return { ...rendered, warnings: rendered.warnings.map((warning) => warning.replaceAll('Claude Code', 'Factory Droid')) }
  },
}
