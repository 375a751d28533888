// Google Antigravity CLI (`agy`): its payloads in, its decision out, its named hook group in
// hooks.json, and the file read as agy reads it (agy drops a file it cannot load without a word).
import { join } from 'node:path'
import { spreadKeepingLongStrings } from '../payload/long-strings.ts'
import { agentOf, Answer, blockReason, decided, jsonLine } from './shared.ts'
import type { AgentEvents, AgentTools, Dialect, Normalized } from './types.ts'
import type { InstallTarget } from './install.ts'
import type { ProjectScan } from './native-config.ts'

/**
 * Antigravity CLI's hook events (skillsaw docs/rules/antigravity-hooks-valid.md, agy 1.1.25/1.1.26;
 * case-insensitive, no SessionEnd). An invocation is one run of the agent on a prompt.
 */
const EVENTS = {
  PreToolUse: 'tool:pre_execute',
  PostToolUse: 'tool:post_execute',
  PreInvocation: 'turn:start',
  PostInvocation: 'turn:end',
  Stop: 'agent:stop',
  SessionStart: 'session:start',
} as const satisfies AgentEvents

/** Its tool names (skillsaw; safe-chains 0.230 `targets/agy.rs`: the shell tool is `run_command`, its command `CommandLine`). */
const TOOLS: AgentTools = {
  run_command: 'bash',
  view_file: 'read',
  write_to_file: 'write',
  replace_file_content: 'edit',
}

/** The events whose list holds matcher groups; the others take handlers directly (skillsaw). */
const GROUP_EVENTS = ['PreToolUse', 'PostToolUse']
const AGY_EVENTS = new Set<string>(Object.keys(EVENTS))
/** hookrun's named hook in the file: agy's hooks.json maps hook names to their events. */
const HOOK_NAME = 'hookrun'

/**
 * Antigravity CLI (`agy`, Google; safe-chains 0.230 `targets/agy.rs`, verified live against agy
 * 1.1.2). Its protojson payload names no event, so hookrun's entries name it on the command line.
 * PreToolUse takes a top-level `decision` (`allow`, `deny`, `ask`, or `force_ask`, which even an
 * "always allow" cannot skip) with `reason`; a missing decision fails closed, so hookrun always
 * sends one. What other events read was not found: hookrun sends nothing there, and says so.
 */
export const antigravity: Dialect = {
  name: 'antigravity',
  label: 'Antigravity CLI',
  source: 'antigravity',
  carries: [],
  project: { variables: [], payloadField: 'workspacePaths' },
  caveats: [
    "a hook's allow does not skip agy's own review prompt (agy 1.1.2); deny and ask hold",
    'what agy reads of an answer on events other than PreToolUse was not found: hookrun answers nothing there',
    'agy drops a hooks.json it cannot load, silently: hookrun doctor reads the file as agy does',
    "what Antigravity CLI does with an answer is from third parties' live readings (safe-chains, skillsaw), not the agent lab",
  ],
  detectMarks: ['toolCall', 'workspacePaths'],
  detect: (payload) => (typeof payload.toolCall === 'object' && payload.toolCall !== null) || Array.isArray(payload.workspacePaths),
  eventName: (payload) => {
    const named = payload.hookEventName ?? payload.hook_event_name
    if (typeof named !== 'string') return undefined
    // agy matches event names case-insensitively.
    return [...AGY_EVENTS].find((event) => event.toLowerCase() === named.toLowerCase())
  },
  normalize(payload): Normalized {
    const call = payload.toolCall as { name?: unknown; args?: unknown } | null | undefined
    if (typeof call !== 'object' || call === null) return { payload }
    const tool = typeof call.name === 'string' ? call.name : undefined
    const args = typeof call.args === 'object' && call.args !== null ? (call.args as Record<string, unknown>) : {}
    // Hooks and gates read a shell command from tool_input.command, as for every other agent.
    const input = typeof args.CommandLine === 'string' && args.command === undefined ? { ...args, command: args.CommandLine } : args
    return { tool, payload: spreadKeepingLongStrings(payload, { ...(tool !== undefined && { tool_name: tool }), tool_input: input }) }
  },
  render(decision, payload, agentEvent) {
    const event = agentEvent ?? antigravity.eventName(payload) ?? 'PreToolUse'
    const answer = new Answer('Antigravity CLI', event)
    const out: Record<string, unknown> = {}
    if (event === 'PreToolUse') {
      // force_ask: a person confirms even where the user once chose "always allow" (safe-chains).
      const kind = decision.blocked ? 'deny' : decision.decision === 'ask' ? 'force_ask' : decided(decision) ? decision.decision : 'allow'
      out.decision = kind
      if (kind !== 'allow') out.reason = blockReason(decision)
      else if (decision.reason !== undefined) out.reason = decision.reason
    } else if (decision.blocked) answer.cannot('a block', 'the event proceeds')
    else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
    answer.cannotTake(decision, ['updatedInput', 'updatedPrompt', 'additionalContext', 'continue', 'systemMessage', 'suppressOutput'])
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

/** The handler keys agy reads (skillsaw: `env`, `cwd`, `name` and `background` are discarded). */
const HANDLER_TYPES = new Set(['command', 'prompt'])
const INT32_MAX = 2 ** 31 - 1

/**
 * Why agy would drop this hooks.json whole, silently (skillsaw antigravity-hooks-valid, agy 1.1.26), or
 * undefined when it loads: named hooks of events, PreToolUse and PostToolUse matcher groups, the others
 * handler lists, each handler command or prompt with a whole-number timeout.
 */
function agyDiscards(value: unknown): string | undefined {
  const object = (item: unknown) => typeof item === 'object' && item !== null && !Array.isArray(item)
  if (!object(value)) return 'is not an object of named hooks'
  for (const [name, hook] of Object.entries(value as Record<string, unknown>)) {
    if (!object(hook)) return `has hook "${name}", which is not an object of events`
    for (const [key, list] of Object.entries(hook as Record<string, unknown>)) {
      if (key === 'enabled') {
        if (typeof list !== 'boolean') return `"${name}.enabled" is not true or false`
        continue
      }
      const event = [...AGY_EVENTS].find((known) => known.toLowerCase() === key.toLowerCase())
      if (event === undefined) return `"${name}" names "${key}", which is not an Antigravity CLI event`
      if (!Array.isArray(list)) return `"${name}.${key}" is not a list`
      const handlers: Array<{ handler: unknown; at: string }> = []
      for (const [index, item] of list.entries()) {
        if (!GROUP_EVENTS.includes(event)) {
          handlers.push({ handler: item, at: `${key}[${index}]` })
          continue
        }
        const inner = object(item) ? (item as { hooks?: unknown }).hooks : undefined
        if (!Array.isArray(inner)) return `"${name}.${key}[${index}]" is not a { "matcher", "hooks": [...] } group`
        for (const handler of inner) handlers.push({ handler, at: `${key}[${index}].hooks` })
      }
      for (const item of handlers) {
        const handler = item.handler as Record<string, unknown>
        if (!object(handler)) return `"${name}.${item.at}" holds a handler that is not an object`
        if (!HANDLER_TYPES.has(String(handler.type)))
          return `"${name}.${item.at}" has a handler of type ${JSON.stringify(handler.type)} (command or prompt)`
        const timeout = handler.timeout
        if (timeout !== undefined && !(Number.isInteger(timeout) && (timeout as number) >= 0 && (timeout as number) <= INT32_MAX))
          return `"${name}.${item.at}" has timeout ${JSON.stringify(timeout)}, not a whole number`
      }
    }
  }
  return undefined
}

/** Antigravity CLI's hooks file for `hookrun install` (src/agents/install.ts). */
const antigravityInstall: InstallTarget = {
  // `.agents/` in a project, `~/.gemini/config/` for the user (safe-chains 0.230 `targets/agy.rs`).
  // Contested (agent-config 0.3.0, michaelAGI/toolahead v0.7.0): docs/agents/antigravity.md says so.
  file: (scope, places) =>
    scope === 'user' ? join(places.home, '.gemini', 'config', 'hooks.json') : join(places.project, '.agents', 'hooks.json'),
  hooksPathFor: () => [HOOK_NAME],
  shape: 'groups',
  flatEvents: ['PreInvocation', 'PostInvocation', 'Stop', 'SessionStart'],
  // The payload names no event (as far as was found): the command line does.
  command: (self, event) => `${self} fire ${event} --format antigravity`,
  // No timeout: agy's field is a whole number whose unit was not found; a wrong unit could kill hookrun mid-gate.
  handler: (command) => ({ type: 'command', command }),
  discards: agyDiscards,
  note: "agy drops a hooks.json it cannot load without a word (hookrun doctor checks it); a hook's allow does not skip agy's own review prompt",
}

const ANTIGRAVITY_SCAN: ProjectScan = {
  sources: [{ path: '.agents/hooks.json', reader: 'named-groups', agents: ['Antigravity CLI'], owners: ['antigravity'] }],
}

export const antigravityAgent = agentOf(antigravity, {
  events: EVENTS,
  tools: TOOLS,
  install: antigravityInstall,
  eventOnCommandLine: 'PreToolUse',
  scan: ANTIGRAVITY_SCAN,
})
