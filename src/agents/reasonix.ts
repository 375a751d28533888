import { spreadKeepingLongStrings } from '../payload/long-strings.ts'
import { CLAUDE_MCP_NAMING, type Agent, type AgentEvents, type AgentTools, type Dialect, type Normalized } from './types.ts'
import type { Payload } from '../core/types.ts'
import { Answer, contextText, decided, knownEvent, objectFrom, exitTwo, stringField } from './shared.ts'
import { homeOr, type InstallTarget, ROUTER_TIMEOUT_SECONDS } from './install.ts'
import { join } from 'node:path'
import type { NativeConfig, ProjectScan } from './native-config.ts'

/**
 * Reasonix's hook events (its Go hook runner, `internal/hook/hook.go` `Events`, in its order; npm
 * `reasonix` 1.38.11, whose binary names each), and hookrun's event for each.
 */
const EVENTS = {
  PreToolUse: 'tool:pre_execute',
  PostToolUse: 'tool:post_execute',
  PostToolUseFailure: 'tool:error',
  PermissionRequest: 'permission:prompt',
  UserPromptSubmit: 'user:prompt_submit',
  Stop: 'agent:stop',
  StopFailure: 'agent:stop_failure',
  PostLLMCall: 'llm:post_response',
  SessionStart: 'session:start',
  SessionEnd: 'session:end',
  SubagentStop: 'subagent:stop',
  Notification: 'notification',
  PreCompact: 'context:pre_compact',
} as const satisfies AgentEvents

/**
 * Reasonix's tool names: those 1.38.11 offered the model, and the ones its runner maps to Claude Code's
 * (`internal/hook/hook.go` claudeToolNames).
 */
const TOOLS: AgentTools = {
  bash: 'bash',
  read_file: 'read',
  write_file: 'write',
  edit_file: 'edit',
  multi_edit: 'multiedit',
  notebook_edit: 'notebookedit',
  glob: 'glob',
  grep: 'grep',
  web_fetch: 'webfetch',
  ask: 'ask',
  todo_write: 'todo',
  task: 'agent',
  read_only_task: 'agent',
  parallel_tasks: 'agent',
}

/**
 * Reasonix (npm `reasonix`; esengine/DeepSeek-Reasonix internal/hook/hook.go; 1.38.11 in the agent
 * lab): camelCase payloads with the event in `event`. Its answer is the exit code: exit 2 blocks
 * PreToolUse and UserPromptSubmit, the output going to the model and the person. stdout counts on
 * SessionStart (context), PostLLMCall (replaces the reasoning shown: hookrun prints nothing there)
 * and PreCompact (compaction guidance). A rewrite cannot be applied, so a gate that rewrites is refused.
 */
const REASONIX_EVENTS = new Set<string>(Object.keys(EVENTS))
/** Exit 2 or a timeout blocks only here (hook.go `IsBlocking`). */
const BLOCKING_EVENTS = new Set(['PreToolUse', 'UserPromptSubmit'])
/** Where Reasonix reads a hook's stdout as words for the model: SessionStart's context, PreCompact's summary guidance. */
const CONTEXT_EVENTS = new Set(['SessionStart', 'PreCompact'])
/** After the fact: a block cannot undo it. */
const AFTER_EVENTS = new Set(['PostToolUse', 'PostToolUseFailure', 'Stop', 'StopFailure', 'SubagentStop', 'SessionEnd'])

export const reasonix: Dialect = {
  name: 'reasonix',
  label: 'Reasonix',
  source: 'reasonix',
  // It sets no variable for settings hooks; `cwd` is the session's folder (and the hook's).
  project: { variables: [], payloadField: 'cwd' },
  mcpNaming: CLAUDE_MCP_NAMING,
  notices: ['additionalContext'],
  ignores: [
    {
      field: 'updatedInput',
      events: ['PreToolUse'],
      why: 'Reasonix reads only the exit code of a settings hook, so the tool would run with its original input',
    },
  ],
  caveats: [
    "Reasonix reads a hook's exit code, not JSON: hookrun blocks with exit 2 and the reason on stderr; a rewrite is refused (the call is blocked, saying so)",
    'only PreToolUse and UserPromptSubmit can be blocked; a gate past its timeout blocks there too',
    'context reaches the model only from SessionStart (and PreCompact, as guidance for the summary)',
    'a failed tool call fires PostToolUse as well as PostToolUseFailure, with the output in `error`',
    'Reasonix loads hooks when a session starts (`/new` or a restart applies a change); project hooks load without a trust step since 1.17.21',
  ],
  detectMarks: ['event'],
  detect: (payload) =>
    typeof payload.event === 'string' &&
    REASONIX_EVENTS.has(payload.event) &&
    typeof payload.sessionId === 'string' &&
    payload.session_id === undefined &&
    payload.hook_event_name === undefined,
  eventName: stringField('event'),
  normalize(payload): Normalized {
    const added: Payload = {}
    if (payload.session_id === undefined && typeof payload.sessionId === 'string') added.session_id = payload.sessionId
    const input = objectFrom(payload.toolArgs)
    if (payload.tool_input === undefined && input !== undefined) added.tool_input = input
    // A failed call's output is in `error` (its PostToolUse and PostToolUseFailure).
    const output = payload.toolResult ?? payload.error
    if (payload.tool_response === undefined && output !== undefined) added.tool_response = output
    if (payload.last_assistant_message === undefined && typeof payload.lastAssistantText === 'string')
      added.last_assistant_message = payload.lastAssistantText
    return { payload: Object.keys(added).length > 0 ? spreadKeepingLongStrings(payload, added) : payload }
  },
  render(decision, payload, agentEvent) {
    const event = knownEvent(agentEvent ?? payload.event, REASONIX_EVENTS, 'PreToolUse')
    const answer = new Answer('Reasonix', event)
    const { exitCode, stderr } = exitTwo(decision, BLOCKING_EVENTS.has(event), answer)
    let stdout = ''
    if (exitCode === 0) {
      if (decision.blocked)
        answer.cannot('a block', AFTER_EVENTS.has(event) ? 'it already happened; the session goes on' : 'the event proceeds')
      else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
      else if (decided(decision) && decision.decision === 'allow')
        answer.cannot("decision 'allow'", 'a hook cannot approve a call in Reasonix; its own permission rules apply')
    }
    if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Reasonix cannot rewrite a prompt')
    answer.take('additionalContext', contextText(decision), CONTEXT_EVENTS.has(event), (context) => (stdout = `${context}\n`))
    if (!decision.continue) answer.cannot('continue: false', 'the session goes on')
    if (decision.systemMessage !== undefined)
      answer.cannot('systemMessage', "it was not sent: Reasonix shows a hook's output only when the hook blocks or fails")
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    return { stdout, stderr, exitCode, warnings: answer.warnings }
  },
}

const reasonixInstall: InstallTarget = {
  // docs/CONFIG_PATHS.md: <Reasonix home>/settings.json, Reasonix home ~/.reasonix or $REASONIX_HOME;
  // the project's .reasonix/settings.json (shared with the repository: no local variant).
  file: (scope, places) =>
    scope === 'user'
      ? join(homeOr(places, 'REASONIX_HOME', '.reasonix'), 'settings.json')
      : join(places.project, '.reasonix', 'settings.json'),
  shape: 'flat',
  // Milliseconds (hook.go `Timeout`); a timed-out PreToolUse or UserPromptSubmit hook blocks.
  handler: (command) => ({ command, description: 'hookrun', timeout: ROUTER_TIMEOUT_SECONDS * 1000 }),
  timeout: { field: 'timeout', perSecond: 1000 },
  note: 'Reasonix loads hooks when a session starts: a session already running applies these entries after /new or a restart',
}

/** The files of a project Reasonix reads hooks from (`hookrun scan`; docs/DESKTOP_HOOKS.zh-CN.md). */
const REASONIX_SCAN: ProjectScan = {
  sources: [{ path: '.reasonix/settings.json', reader: 'events', agents: ['Reasonix'], owners: ['reasonix'], hookrunFile: true }],
}

/**
 * How Reasonix's `hooks` read when pasted: flat entries like Crush's, told apart by `match`,
 * `description`, `cwd` or an event Crush lacks; `match` an anchored regex, `timeout` in ms (hook.go 1.38.11).
 */
const REASONIX_NATIVE: NativeConfig = {
  answersOnExitZero: true,
  reader: 'flat',
  defaultTimeout: 30,
  shortTimeout: { seconds: 5, events: ['tool:pre_execute', 'permission:prompt', 'user:prompt_submit'] },
  // A timeout blocks where Reasonix blocks (hook.go `IsBlocking`: PreToolUse, UserPromptSubmit); elsewhere it warns.
  timeoutBlocks: ['tool:pre_execute', 'user:prompt_submit'],
  timeoutUnit: 'ms',
  pasted: { ownEvents: true, sharesEventsWith: 'crush', handlerKeys: ['match', 'description', 'cwd'] },
  matcherField: 'match',
  cwdField: 'cwd',
  matcher: (match) => (match === undefined || match === '' ? undefined : `^(?:${match})$`),
}

export const reasonixAgent: Agent = {
  name: reasonix.name,
  label: reasonix.label,
  events: EVENTS,
  tools: TOOLS,
  dialect: reasonix,
  install: reasonixInstall,
  scan: REASONIX_SCAN,
  nativeConfig: REASONIX_NATIVE,
  // `hookrun import --agent reasonix`: its settings' entries, each read as a pasted one is.
  hooksImport: {
    // Reasonix runs a hook in its `cwd`; whether a relative one is the session's folder or the
    // settings file's its docs do not say, so such an entry stays where Reasonix resolves it.
    stays: (handler) => (handler.cwd === undefined ? undefined : 'its cwd is resolved by Reasonix, which hookrun cannot match for sure'),
  },
}
