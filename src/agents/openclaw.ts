import { dirname, join } from 'node:path'
import { agentOf, Answer, carryFields, jsonLine, objectFrom, renderGates, type PluginGates, stringField } from './shared.ts'
import type { AgentEvents, AgentTools, Dialect } from './types.ts'
import type { PluginFacts } from './plugins.ts'
import { OPENCLAW_PLUGIN_ID, openclawManifests, openclawPluginText } from './openclaw-plugin.ts'

/**
 * OpenClaw's typed plugin hooks hookrun's plugin registers, in OpenClaw's spelling, and hookrun's
 * event for each (openclaw 2026.9.6, docs/plugins/hooks/reference.md "Hook catalog").
 */
const EVENTS = {
  before_tool_call: 'tool:pre_execute',
  after_tool_call: 'tool:post_execute',
  before_agent_run: 'user:prompt_submit',
  session_start: 'session:start',
  session_end: 'session:end',
  agent_end: 'agent:stop',
  before_compaction: 'context:pre_compact',
  after_compaction: 'context:post_compact',
} as const satisfies AgentEvents

/** OpenClaw's core tools (docs/tools/index.md) and hookrun's subject for each. */
const TOOLS: AgentTools = {
  exec: 'bash',
  read: 'read',
  write: 'write',
  edit: 'edit',
  apply_patch: 'edit',
  web_fetch: 'webfetch',
  web_search: 'websearch',
}

const OPENCLAW_EVENTS = new Set<string>(Object.keys(EVENTS))
const BEFORE_TOOL = 'before_tool_call'
const AFTER_TOOL = 'after_tool_call'
const RUN = 'before_agent_run'
/** Code Mode's outer `exec` runs JavaScript, not a shell command (docs/plugins/hooks/tool-policy.md: `toolKind`). */
const CODE_MODE_EXEC = 'code_mode_exec'

/** A block where OpenClaw can refuse (a tool call, a run); an ask is its plugin approval on a tool call, a refusal of a run. */
const GATES: PluginGates = { tool: BEFORE_TOOL, prompt: RUN, refused: 'run', elsewhere: 'OpenClaw goes on (the hook only observes)' }

const hookOf = stringField('openclaw_hook')

/**
 * OpenClaw: no hook commands, only plugin hooks in its process. hookrun's plugin
 * (src/agents/openclaw-plugin.ts) sends `hookrun fire <hook> --format openclaw` the payload
 * `{openclaw_hook, event, ctx, cwd}` and applies the answer: `block` (before_tool_call's
 * `blockReason`, before_agent_run's `outcome: 'block'`), `ask` (`requireApproval`), `params` and
 * `message` (printed on stderr). A failed fire refuses a gate.
 */
export const openclaw: Dialect = {
  name: 'openclaw',
  label: 'OpenClaw',
  source: 'openclaw',
  // The plugin sends the run's workspace folder (the agent context's workspaceDir) as `cwd`.
  project: { variables: [], payloadField: 'cwd' },
  notices: ['systemMessage'],
  showsStderr: true,
  caveats: [
    'the plugin folder alone is not loaded: OpenClaw 2026.9.6 (agent --local) imported it only with plugins.allow naming hookrun and plugins.entries.hookrun.enabled in openclaw.json, so install writes both there and doctor fails while one is missing (lab)',
    "context a hook adds does not reach the model: the hooks hookrun's plugin registers take none (before_prompt_build would, with conversation access the operator grants)",
    'before_agent_run (the prompt gate) and agent_end run only with plugins.entries.hookrun.hooks.allowConversationAccess: true; without it OpenClaw blocks their registration (`openclaw plugins inspect hookrun --runtime`, 2026.9.6) and prompts are not gated',
  ],
  detectMarks: ['event'],
  detect: (payload) => {
    const hook = hookOf(payload)
    return hook !== undefined && OPENCLAW_EVENTS.has(hook) && objectFrom(payload.event) !== undefined
  },
  eventName: hookOf,
  normalize(payload, agentEvent) {
    const hook = agentEvent ?? hookOf(payload)
    const event = objectFrom(payload.event) ?? {}
    const ctx = objectFrom(payload.ctx) ?? {}
    const added: Record<string, unknown> = {}
    if (hook !== undefined) added.hook_event_name = hook
    const session = ctx.sessionId ?? event.sessionId
    if (typeof session === 'string') added.session_id = session
    let tool: string | undefined
    if ((hook === BEFORE_TOOL || hook === AFTER_TOOL) && typeof event.toolName === 'string') {
      tool = (event.toolKind ?? ctx.toolKind) === CODE_MODE_EXEC ? CODE_MODE_EXEC : event.toolName
      added.tool_name = tool
      if (objectFrom(event.params) !== undefined) added.tool_input = event.params
      if (typeof event.toolCallId === 'string') added.tool_use_id = event.toolCallId
      if (hook === AFTER_TOOL && event.result !== undefined) added.tool_response = event.result
    }
    if (hook === RUN && typeof event.prompt === 'string') added.prompt = event.prompt
    return { tool, payload: { ...added, ...payload } }
  },
  render(decision, payload, agentEvent) {
    const event = agentEvent ?? hookOf(payload) ?? BEFORE_TOOL
    const answer = new Answer('OpenClaw', event)
    const out: Record<string, unknown> = {}
    renderGates(decision, event, GATES, out, answer)
    answer.rewrite(decision, 'updatedInput', event === BEFORE_TOOL, (input) => (out.params = input))
    answer.cannotTake(decision, ['updatedPrompt', 'additionalContext'])
    for (const field of carryFields(decision, event, [], () => {})) answer.cannot(field)
    if (decision.systemMessage !== undefined) out.message = decision.systemMessage
    if (!decision.continue) answer.cannot('continue: false', 'OpenClaw goes on (a plugin hook cannot end the session)')
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

/** OpenClaw's state folder: OPENCLAW_STATE_DIR, else OPENCLAW_HOME's or the home's `.openclaw` (docs/help/environment.md). */
const stateDir = (home: string, env: Readonly<Record<string, string | undefined>>) =>
  env.OPENCLAW_STATE_DIR || join(env.OPENCLAW_HOME || home, '.openclaw')

/**
 * hookrun's plugin: a global plugin in `<state>/extensions/<id>/`, which OpenClaw loads unless
 * `plugins.allow` is set and lacks its id (dist/config-normalization-shared-*.mjs, 2026.9.6).
 */
const PLUGIN: PluginFacts = {
  file: (_scope, places) => join(stateDir(places.home, places.env), 'extensions', OPENCLAW_PLUGIN_ID, 'index.js'),
  note: `OpenClaw loads the plugin only because openclaw.json lets it in (plugins.allow and plugins.entries.${OPENCLAW_PLUGIN_ID}, which install wrote); restart a running OpenClaw gateway to load it`,
  format: 'openclaw',
  text: (command, timeoutSeconds) => openclawPluginText(command, timeoutSeconds),
  companions: (file) => {
    const { manifest, packageJson } = openclawManifests()
    return [
      { file: join(dirname(file), 'openclaw.plugin.json'), text: manifest },
      { file: join(dirname(file), 'package.json'), text: packageJson },
    ]
  },
  userOnly:
    "a plugin in a workspace's .openclaw/extensions/ stays off until plugins.entries.hookrun.enabled is set, and OpenClaw's workspace is its own folder (agents.defaults.workspace), not the project",
  // Seen in the lab (2026.9.6): with the plugin's folder alone, `agent --local` never imported it
  // (though `openclaw plugins inspect` called it enabled); with these it did. Without
  // allowConversationAccess its before_agent_run (the prompt gate) and agent_end are not registered.
  enabledBy: {
    file: (places) => join(stateDir(places.home, places.env), 'openclaw.json'),
    lists: [{ path: ['plugins', 'allow'], item: OPENCLAW_PLUGIN_ID }],
    values: [{ path: ['plugins', 'entries', OPENCLAW_PLUGIN_ID], value: { enabled: true, hooks: { allowConversationAccess: true } } }],
  },
}

export const openclawAgent = agentOf(openclaw, { events: EVENTS, tools: TOOLS, plugin: PLUGIN })
