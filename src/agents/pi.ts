import { join } from 'node:path'
import { agentOf, Answer, carryFields, contextText, jsonLine, objectFrom, renderGates, type PluginGates, stringField } from './shared.ts'
import type { AgentEvents, AgentTools, CarriedRow, Dialect } from './types.ts'
import type { PluginFacts } from './plugins.ts'
import { CODE_FILES, type ProjectScan } from './native-config.ts'
import { piExtensionText } from './pi-extension.ts'

/**
 * Pi's extension events hookrun's extension sends, in Pi's spelling, and hookrun's event for each
 * (@earendil-works/pi-coding-agent 1.6.0, docs/extensions.md "Events").
 */
const EVENTS = {
  tool_call: 'tool:pre_execute',
  tool_result: 'tool:post_execute',
  input: 'user:prompt_submit',
  session_start: 'session:start',
  session_shutdown: 'session:end',
  agent_start: 'agent:start',
  agent_end: 'agent:stop',
  session_before_compact: 'context:pre_compact',
  session_compact: 'context:post_compact',
} as const satisfies AgentEvents

/** Pi's built-in tools (docs/settings.md "Tools": read, bash, powershell, edit, write, grep, find, ls) and hookrun's subject for each. */
const TOOLS: AgentTools = {
  bash: 'bash',
  read: 'read',
  edit: 'edit',
  write: 'write',
  grep: 'grep',
  find: 'glob',
  ls: 'ls',
  powershell: 'powershell',
}

const PI_EVENTS = new Set<string>(Object.keys(EVENTS))
const TOOL_CALL = 'tool_call'
const TOOL_RESULT = 'tool_result'
const INPUT = 'input'
const SHUTDOWN = 'session_shutdown'

/** The fields hookrun carries that Pi takes: a tool result's replacement text (tool_result's `content`). */
const CARRIES: readonly CarriedRow[] = [{ field: 'updatedToolOutput', events: [TOOL_RESULT], key: 'content' }]

/**
 * A block where Pi can refuse (a tool call, a prompt) or tell the model (after a tool: the reason
 * under the result); an ask becomes Pi's own confirmation on a tool call, a refusal of a prompt.
 */
const GATES: PluginGates = { tool: TOOL_CALL, prompt: INPUT, refused: 'prompt', afterTool: TOOL_RESULT, elsewhere: 'Pi goes on' }

const eventOf = stringField('pi_event')

/** A tool result's text: the `text` parts of Pi's `content`, joined. */
function resultText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined
  const texts = content.flatMap((part) => {
    const object = objectFrom(part)
    return object?.type === 'text' && typeof object.text === 'string' ? [object.text] : []
  })
  return texts.length > 0 ? texts.join('\n') : undefined
}

/**
 * Pi (earendil-works/pi): no hook commands, only extensions in its process. hookrun's extension
 * (src/agents/pi-extension.ts) sends `hookrun fire <event> --format pi` the payload `{pi_event,
 * event, cwd, session_id}` and applies the answer (a failed fire refuses a gate):
 *   block    tool_call: `{block: true, reason}`; input: the prompt is dropped, the reason printed.
 *   ask      Pi's own confirmation where it has a UI; without one (`pi -p`) the call is refused.
 *   input    the tool's new arguments, replaced in place; content / append: the result's text.
 *   context  under this call's result, or a message with the next run; prompt: the new prompt.
 *   message  for the person, on stderr.
 */
export const pi: Dialect = {
  name: 'pi',
  label: 'Pi',
  source: 'pi',
  // The extension sends Pi's working folder (ctx.cwd) as `cwd`.
  project: { variables: [], payloadField: 'cwd' },
  carries: CARRIES,
  // The extension prints `message` and hookrun's stderr; `pi -p` shows stderr, the TUI only the model's context.
  notices: ['systemMessage', 'additionalContext'],
  showsStderr: true,
  caveats: [
    "a project's .pi/extensions/ loads only once Pi trusts the project (its trust prompt, /trust, or `pi --approve`); in print mode an untrusted project's extension does not load, so install --agent pi (user) for headless runs",
  ],
  detectMarks: ['event'],
  detect: (payload) => {
    const event = eventOf(payload)
    return event !== undefined && PI_EVENTS.has(event) && objectFrom(payload.event) !== undefined
  },
  eventName: eventOf,
  normalize(payload, agentEvent) {
    const name = agentEvent ?? eventOf(payload)
    const event = objectFrom(payload.event) ?? {}
    const added: Record<string, unknown> = {}
    if (name !== undefined) added.hook_event_name = name
    let tool: string | undefined
    if ((name === TOOL_CALL || name === TOOL_RESULT) && typeof event.toolName === 'string') {
      tool = event.toolName
      added.tool_name = tool
      if (objectFrom(event.input) !== undefined) added.tool_input = event.input
      if (typeof event.toolCallId === 'string') added.tool_use_id = event.toolCallId
      const text = name === TOOL_RESULT ? resultText(event.content) : undefined
      if (text !== undefined) added.tool_response = text
    }
    if (name === INPUT && typeof event.text === 'string') added.prompt = event.text
    return { tool, payload: { ...added, ...payload } }
  },
  render(decision, payload, agentEvent) {
    const event = agentEvent ?? eventOf(payload) ?? TOOL_CALL
    const answer = new Answer('Pi', event)
    const out: Record<string, unknown> = {}
    renderGates(decision, event, GATES, out, answer)
    answer.rewrite(decision, 'updatedInput', event === TOOL_CALL, (input) => (out.input = input))
    answer.rewrite(decision, 'updatedPrompt', event === INPUT, (prompt) => (out.prompt = prompt))
    const context = contextText(decision)
    if (context !== undefined) {
      if (event === TOOL_RESULT) out.append = [out.append, context].filter(Boolean).join('\n\n')
      else if (event === SHUTDOWN) answer.cannot('additionalContext', 'the session is ending')
      else out.context = context
    }
    for (const field of carryFields(decision, event, CARRIES, (key, value) => (out[key] = value))) answer.cannot(field)
    if (decision.systemMessage !== undefined) out.message = decision.systemMessage
    if (!decision.continue) answer.cannot('continue: false', 'Pi goes on (an extension event cannot end the session)')
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

/** Pi's config folder: PI_CODING_AGENT_DIR, else ~/.pi/agent (docs/environment-variables.md). */
const agentDir = (home: string, env: Readonly<Record<string, string | undefined>>) => env.PI_CODING_AGENT_DIR || join(home, '.pi', 'agent')

/** hookrun's extension: Pi loads every `extensions/*.{ts,js}` of its config folder and, once the project is trusted, of `.pi/` (docs/extensions.md). */
const PLUGIN: PluginFacts = {
  file: (scope, places) =>
    scope === 'user'
      ? join(agentDir(places.home, places.env), 'extensions', 'hookrun.js')
      : join(places.project, '.pi', 'extensions', 'hookrun.js'),
  note: 'Pi loads the extension when it starts (or on /reload); a project extension only once the project is trusted (`pi --approve`, /trust)',
  format: 'pi',
  text: (command, timeoutSeconds) => piExtensionText(command, timeoutSeconds),
}

/** The extension files of a project Pi loads once it is trusted (`hookrun scan`). */
const PI_SCAN: ProjectScan = {
  sources: [{ path: '.pi/extensions', entries: CODE_FILES, reader: 'plugin', agents: ['Pi'], owners: ['pi'], hookrunFile: true }],
}

export const piAgent = agentOf(pi, { events: EVENTS, tools: TOOLS, plugin: PLUGIN, scan: PI_SCAN })
