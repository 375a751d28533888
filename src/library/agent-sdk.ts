// hookrunHooks(): hookrun's pipeline as the Claude Agent SDK's `options.hooks` callbacks, in-process.
import { fire } from '../fire.ts'
import { HookrunError, formatError } from '../core/errors.ts'
import type { Decision } from '../core/protocol.ts'
import type { Payload } from '../core/types.ts'
import { isGate } from '../event/events.ts'
import { qualifyEvent } from '../event/event.ts'
import { AGENT_SDK_DIALECT, AGENT_SDK_HOOKS_VARIABLE, agentSdkAgent } from '../agents/agent-sdk.ts'
import { noticeChannels, prepareDialect, renderFor } from '../dialect.ts'
import { loadAgentsFor } from '../agents/loaded.ts'
import { projectSearchStart } from '../config/project.ts'

/** The hook events of `@anthropic-ai/claude-agent-sdk` 0.3.332 (its `HOOK_EVENTS`; the agent lab checks them). */
export const AGENT_SDK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
] as const

export type AgentSdkEvent = (typeof AGENT_SDK_EVENTS)[number]

/** Events whose callbacks the SDK does not call (seen in the agent lab): left out by default, and never stood aside for. */
export const AGENT_SDK_UNCALLED_EVENTS: readonly AgentSdkEvent[] = ['SessionStart', 'Setup']

/** Left out by default, as install leaves them out: MessageDisplay fires per streamed chunk, WorktreeCreate must answer a path. */
const NOT_BY_DEFAULT: readonly AgentSdkEvent[] = ['MessageDisplay', 'WorktreeCreate']

/** The events `hookrunHooks()` answers unless told: every SDK event it is called for but those two. */
export const AGENT_SDK_DEFAULT_EVENTS: readonly AgentSdkEvent[] = AGENT_SDK_EVENTS.filter(
  (event) => !AGENT_SDK_UNCALLED_EVENTS.includes(event) && !NOT_BY_DEFAULT.includes(event),
)

/** The variable that tells hookrun's settings entries which events a `query()`'s hookrunHooks() answer, so hooks run once. */
export { AGENT_SDK_HOOKS_VARIABLE }

export interface HookrunHooksOptions {
  /** The project whose hooks apply; default: the `cwd` of each session's first hook input (a `cd` out keeps its gates). */
  readonly cwd?: string
  /** The events to answer; default: `AGENT_SDK_DEFAULT_EVENTS` (every SDK event but SessionStart, Setup, MessageDisplay, WorktreeCreate). */
  readonly events?: readonly AgentSdkEvent[]
  /** Config files that replace discovery (the CLI's `--config`). */
  readonly configFiles?: readonly string[]
  /** The environment hooks inherit; default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** hookrun's warnings (an answer field Claude cannot apply, a config problem); default: stderr, as `hookrun fire` prints them. */
  readonly onWarning?: (warning: string) => void
  /**
   * Set `HOOKRUN_AGENT_SDK_HOOKS` in `process.env` (default: no), only for an app whose every `query()` gets these hooks;
   * otherwise give that `query()` `env: { ...process.env, HOOKRUN_AGENT_SDK_HOOKS: hookrunHooksVariable(events) }`.
   */
  readonly markEnvironment?: boolean
}

/** The input the SDK passes a hook callback: Claude Code's hook payload. */
export type AgentSdkHookInput = { readonly hook_event_name: string; readonly cwd?: string }

/** Claude Code's JSON answer, as a callback returns it (the SDK's `SyncHookJSONOutput`). */
export interface AgentSdkHookOutput {
  continue?: boolean
  suppressOutput?: boolean
  stopReason?: string
  decision?: 'approve' | 'block'
  systemMessage?: string
  reason?: string
  // Claude Code's per-event answer; typed by the SDK (`hookSpecificOutput`), rendered by src/agents/claude.ts.
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's union of per-event shapes, which hookrun does not import
  hookSpecificOutput?: any
}

export type AgentSdkHookCallback = (
  input: AgentSdkHookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<AgentSdkHookOutput>

/** One entry of the SDK's `options.hooks[event]`. */
export interface AgentSdkHookMatcher {
  hooks: AgentSdkHookCallback[]
  /** `'block'` on gate events: a callback that fails or times out must not let the call through. */
  onFailure?: 'continue' | 'block'
}

/**
 * The Claude Agent SDK's `options.hooks`: per event one callback that runs hookrun's pipeline in-process and returns
 * Claude Code's JSON answer; when hookrun itself fails on a gate event the answer is a deny (docs/guarantees.md).
 *
 *   import { query } from '@anthropic-ai/claude-agent-sdk'
 *   import { hookrunHooks } from 'hookrun'
 *   for await (const message of query({ prompt, options: { hooks: hookrunHooks() } })) …
 */
export function hookrunHooks(options: HookrunHooksOptions = {}): Partial<Record<AgentSdkEvent, AgentSdkHookMatcher[]>> {
  const events = options.events ?? AGENT_SDK_DEFAULT_EVENTS
  for (const event of events) {
    if (!(AGENT_SDK_EVENTS as readonly string[]).includes(event))
      throw new HookrunError(`hookrunHooks: '${event}' is not an Agent SDK hook event; use one of: ${AGENT_SDK_EVENTS.join(', ')}`)
  }
  if (options.markEnvironment === true) process.env[AGENT_SDK_HOOKS_VARIABLE] = hookrunHooksVariable(events)
  const hooks: Partial<Record<AgentSdkEvent, AgentSdkHookMatcher[]>> = {}
  // Each session's first folder: its project, as CLAUDE_PROJECT_DIR is for Claude Code's own hooks.
  const sessionFolders = new Map<string, string>()
  const folderOf = (payload: Payload): string | undefined => {
    const current = typeof payload.cwd === 'string' ? payload.cwd : undefined
    const session = typeof payload.session_id === 'string' ? payload.session_id : ''
    if (current !== undefined && !sessionFolders.has(session)) sessionFolders.set(session, current)
    const project = options.cwd ?? sessionFolders.get(session)
    return current === undefined ? project : projectSearchStart(project, current)
  }
  for (const event of events) {
    const callback: AgentSdkHookCallback = (input, _toolUseID, { signal }) =>
      answerHook(event, input as Payload, signal, { ...options, cwd: folderOf(input as Payload) })
    hooks[event] = [{ hooks: [callback], ...(isGate(qualifyEvent(event, {}).name) && { onFailure: 'block' as const }) }]
  }
  return hooks
}

/** The value of `HOOKRUN_AGENT_SDK_HOOKS` for these events: this process's id (only its own Claude Code stands aside) and the events. */
export function hookrunHooksVariable(events: readonly AgentSdkEvent[] = AGENT_SDK_DEFAULT_EVENTS): string {
  return `${process.pid}:${events.filter((event) => !AGENT_SDK_UNCALLED_EVENTS.includes(event)).join(',')}`
}

/** One callback's work: the SDK's input through the pipeline, answered as Claude Code reads it. */
async function answerHook(
  event: AgentSdkEvent,
  input: Payload,
  signal: AbortSignal,
  options: HookrunHooksOptions,
): Promise<AgentSdkHookOutput> {
  const warn = options.onWarning ?? ((warning: string) => process.stderr.write(`hookrun: warning: ${warning}\n`))
  // The SDK names the event in the input; the matcher's own event decides if it names none.
  const payload = typeof input.hook_event_name === 'string' ? input : { ...input, hook_event_name: event }
  const agentEvent = String(payload.hook_event_name)
  try {
    await loadAgentsFor(AGENT_SDK_DIALECT.name)
    const prepared = prepareDialect(AGENT_SDK_DIALECT.name, undefined, payload)!
    const decision = await fire({
      event: prepared.event ?? event,
      payload: prepared.payload,
      tool: prepared.tool,
      agent: agentSdkAgent.name,
      cwd: options.cwd,
      configFiles: options.configFiles,
      env: options.env,
      signal,
      noticeChannels: noticeChannels(AGENT_SDK_DIALECT, agentEvent),
    })
    if (signal.aborted) throw new HookrunError(`the SDK aborted the ${agentEvent} callback: running hooks were killed`)
    const rendered = renderFor(AGENT_SDK_DIALECT, decision, prepared.payload, agentEvent)
    for (const warning of [...decision.warnings, ...rendered.warnings]) warn(warning)
    return JSON.parse(rendered.stdout) as AgentSdkHookOutput
  } catch (error) {
    const why = formatError(error, false).replace(/^hookrun: /, '')
    warn(why)
    if (!isGate(qualifyEvent(agentEvent, payload).name)) return {}
    // A gate never fails open: the SDK gets Claude Code's own block, with the reason.
    return JSON.parse(renderFor(AGENT_SDK_DIALECT, failedGate(agentEvent, payload, why), payload, agentEvent).stdout) as AgentSdkHookOutput
  }
}

function failedGate(agentEvent: string, payload: Payload, why: string): Decision {
  return {
    event: qualifyEvent(agentEvent, payload).qualified,
    decision: 'deny',
    blocked: true,
    reason: `blocked because hookrun could not decide: ${why}`,
    decidedBy: 'hookrun',
    continue: true,
    additionalContext: [],
    hooks: [],
    warnings: [],
  }
}
