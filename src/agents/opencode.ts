import { join } from 'node:path'
import type { Decision } from '../core/protocol.ts'
import { agentOf, Answer, blockReason, carryFields, contextText, jsonLine, objectFrom, stringField } from './shared.ts'
import type { AgentEvents, AgentTools, CarriedRow, Dialect } from './types.ts'
import { foldersUp, inEach } from './mcp-servers.ts'
import type { PluginFacts } from './plugins.ts'
import { CODE_FILES, type ProjectScan } from './native-config.ts'

const EVENTS = {
  'tool.execute.before': 'tool:pre_execute',
  'tool.execute.after': 'tool:post_execute',
  'chat.message': 'user:prompt_submit',
  'session.created': 'session:start',
  'session.idle': 'agent:stop',
  'session.compacted': 'context:post_compact',
  'session.error': 'agent:error',
} as const satisfies AgentEvents

const TOOLS: AgentTools = { bash: 'bash', edit: 'edit', glob: 'glob', grep: 'grep', task: 'agent', read: 'read', write: 'write' }

/**
 * OpenCode (anomalyco/opencode) and Kilo Code, which runs its engine: no hook commands. hookrun's
 * plugin (src/install/opencode-plugin.ts) fires `--format opencode` with `{hook, input, output,
 * directory, worktree}` and applies the answer (a failed fire blocks a gate):
 *   block    the plugin throws it: the model gets it as the tool result (OpenCode 1.18.33); on
 *            chat.message the prompt is refused and the reason printed on stderr.
 *   args     the tool's new input, replaced in place (OpenCode runs that object).
 *   output   the tool result the model sees instead; append: text added under it.
 *   context  text for the model, in the system prompt from the next request on.
 *   prompt   the user's new prompt; message: for the person, on stderr.
 */
const OPENCODE_EVENTS = new Set<string>(Object.keys(EVENTS))
const PRE_TOOL = 'tool.execute.before'
const POST_TOOL = 'tool.execute.after'
const PROMPT = 'chat.message'

/** The fields hookrun carries that OpenCode takes: a post-tool hook's replacement output. */
const CARRIES: readonly CarriedRow[] = [{ field: 'updatedToolOutput', events: [POST_TOOL], key: 'output' }]

const hookName = stringField('hook')

/** The prompt's text: OpenCode's user message parts of type `text`, joined. */
function promptText(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined
  const texts = parts.flatMap((part) => {
    const object = objectFrom(part)
    return object?.type === 'text' && typeof object.text === 'string' && object.synthetic !== true ? [object.text] : []
  })
  return texts.length > 0 ? texts.join('\n') : undefined
}

export const opencode: Dialect = {
  name: 'opencode',
  label: 'OpenCode',
  source: 'opencode',
  // The plugin sends OpenCode's session folder as `directory`; normalize copies it to `cwd`.
  project: { variables: [], payloadField: 'cwd' },
  carries: CARRIES,
  // The plugin prints `message` on stderr, which `opencode run` shows; in the TUI only the model's
  // context reaches anyone, so a notice goes both ways.
  notices: ['systemMessage', 'additionalContext'],
  // The plugin prints hookrun's stderr after every fire: `opencode run` shows it.
  showsStderr: true,
  alsoAnswers:
    "Kilo Code, whose CLI is OpenCode's engine: the same plugin from .kilo/plugins/ (hookrun install --agent kilo; Kilo-Org/kilocode packages/opencode/src/config/paths.ts), lab-verified with @kilocode/cli 7.7.7",
  // OpenCode (and Kilo) name an MCP tool `<server>_<tool>`, each part's other characters as `_`.
  mcpNaming: { prefix: '', separator: '_' },
  // Its servers: the `mcp` table of opencode.json (Kilo: kilo.json) from the session's folder up, and the user's.
  mcpServers: {
    files: (cwd, home, env) => [
      ...inEach(foldersUp(cwd, home), 'opencode.json', join('.opencode', 'opencode.json'), 'kilo.json', join('.kilo', 'kilo.json')),
      ...inEach(
        [join(env.XDG_CONFIG_HOME || join(home, '.config'), 'opencode'), join(env.XDG_CONFIG_HOME || join(home, '.config'), 'kilo')],
        'opencode.json',
        'config.json',
        'kilo.json',
      ),
    ],
    key: 'mcp',
    spell: (name) => name.replace(/[^a-zA-Z0-9_-]/g, '_'),
  },
  detectMarks: ['input'],
  detect: (payload) => {
    const hook = hookName(payload)
    return hook !== undefined && OPENCODE_EVENTS.has(hook) && typeof payload.input === 'object' && payload.input !== null
  },
  eventName: hookName,
  normalize(payload, agentEvent) {
    const hook = agentEvent ?? hookName(payload)
    const input = objectFrom(payload.input) ?? {}
    const output = objectFrom(payload.output) ?? {}
    const added: Record<string, unknown> = {}
    if (typeof payload.directory === 'string') added.cwd = payload.directory
    const session = input.sessionID ?? objectFrom(input.info)?.id
    if (typeof session === 'string') added.session_id = session
    if (hook !== undefined) added.hook_event_name = hook
    let tool: string | undefined
    if (typeof input.tool === 'string' && (hook === PRE_TOOL || hook === POST_TOOL)) {
      tool = input.tool
      added.tool_name = tool
      const args = hook === PRE_TOOL ? output.args : (input.args ?? output.args)
      if (objectFrom(args) !== undefined) added.tool_input = args
      if (hook === POST_TOOL && typeof output.output === 'string') added.tool_response = output.output
    }
    if (hook === PROMPT) {
      const prompt = promptText(output.parts)
      if (prompt !== undefined) added.prompt = prompt
    }
    // The agent's own fields win: hookrun adds only what is missing.
    return { tool, payload: { ...added, ...payload } }
  },
  render(decision, payload, agentEvent) {
    const event = agentEvent ?? hookName(payload) ?? PRE_TOOL
    const answer = new Answer('OpenCode', event)
    const out: Record<string, unknown> = {}
    renderBlock(decision, event, out, answer)
    answer.rewrite(decision, 'updatedInput', event === PRE_TOOL, (input) => (out.args = input))
    answer.rewrite(decision, 'updatedPrompt', event === PROMPT, (prompt) => (out.prompt = prompt))
    const context = contextText(decision)
    if (context !== undefined) {
      // After a tool, the model reads context right under the result; elsewhere it joins the system prompt.
      if (event === POST_TOOL) out.append = [out.append, context].filter(Boolean).join('\n\n')
      else out.context = context
    }
    for (const field of carryFields(decision, event, CARRIES, (key, value) => (out[key] = value))) answer.cannot(field)
    if (decision.systemMessage !== undefined) out.message = decision.systemMessage
    if (!decision.continue) answer.cannot('continue: false', 'OpenCode goes on (a plugin cannot end the session)')
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
  },
}

/**
 * A block where OpenCode can refuse (a tool call, a prompt) or tell the model (under a tool's result);
 * elsewhere a warning. An `ask` is a block: no plugin hook can ask the person.
 */
function renderBlock(decision: Decision, event: string, out: Record<string, unknown>, answer: Answer): void {
  const asked = !decision.blocked && decision.decision === 'ask'
  if (!decision.blocked && !asked) return
  const reason = asked
    ? `hook '${decision.decidedBy ?? 'unknown'}' asked for confirmation${decision.reason ? ` (${decision.reason})` : ''}; OpenCode's plugins cannot ask, so hookrun refused it`
    : blockReason(decision)
  if (event === PRE_TOOL || event === PROMPT) {
    out.block = reason
    if (asked) answer.cannot("decision 'ask'", 'the call was refused instead (no plugin hook can ask the person)')
  } else if (event === POST_TOOL && !asked) out.append = reason
  else answer.cannot(asked ? "decision 'ask'" : 'a block', 'OpenCode goes on')
}

/**
 * hookrun's plugin: OpenCode loads `{plugin,plugins}/*.{ts,js}` of `.opencode/` up to the worktree and of
 * `~/.config/opencode/`, with no trust step (opencode 1.18.33).
 */
const PLUGIN: PluginFacts = {
  file: (scope, places) =>
    scope === 'user'
      ? join(places.env.XDG_CONFIG_HOME || join(places.home, '.config'), 'opencode', 'plugins', 'hookrun.js')
      : join(places.project, '.opencode', 'plugins', 'hookrun.js'),
  note: 'OpenCode loads the plugin when it starts (restart a running OpenCode); it runs hookrun for every tool call, prompt and session event',
  format: 'opencode',
}

const OPENCODE_SCAN: ProjectScan = {
  sources: [
    { path: '.opencode/plugins', entries: CODE_FILES, reader: 'plugin', agents: ['OpenCode'], owners: ['opencode'], hookrunFile: true },
    { path: '.opencode/plugin', entries: CODE_FILES, reader: 'plugin', agents: ['OpenCode'], owners: ['opencode'] },
    { path: 'opencode.json', reader: 'npm-plugins', agents: ['OpenCode'], owners: ['opencode'] },
    { path: 'opencode.jsonc', reader: 'npm-plugins', agents: ['OpenCode'], owners: ['opencode'] },
    { path: '.opencode/opencode.json', reader: 'npm-plugins', agents: ['OpenCode'], owners: ['opencode'] },
  ],
}

export const opencodeAgent = agentOf(opencode, { events: EVENTS, tools: TOOLS, plugin: PLUGIN, scan: OPENCODE_SCAN })
