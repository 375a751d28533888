// The dialect table: pick one by name or by payload, prepare the event, render the decision.
import { didYouMean } from '../core/suggest.ts'
import { HookrunError } from '../core/errors.ts'
import { splitEventName, toolFromPayload } from '../event/event.ts'
import { aliasFor, namesOf } from '../event/events.ts'
import type { Decision } from '../core/protocol.ts'
import type { Payload } from '../core/types.ts'
import { carryFields, ignoredFieldWarnings, ignores } from './shared.ts'
import { claude } from './claude.ts'
import { auggie } from './auggie.ts'
import { cline } from './cline.ts'
import { codex } from './codex.ts'
import { copilot } from './copilot.ts'
import { crush } from './crush.ts'
import { cursor } from './cursor.ts'
import { droid } from './droid.ts'
import { gemini } from './gemini.ts'
import { goose } from './goose.ts'
import { kimi } from './kimi.ts'
import { letta } from './letta.ts'
import { kiro } from './kiro.ts'
import { opencode } from './opencode.ts'
import { qwen } from './qwen.ts'
import { vibe } from './vibe.ts'
import { fromVSCode, renderForVSCode } from './vscode.ts'
import { fromCopilotCli, renderForCopilotCli } from './copilot-claude.ts'
import { windsurf } from './windsurf.ts'
import type { Dialect, Normalized, NoticeChannel } from './types.ts'
import { CLAUDE_MCP_NAMING, mcpField, mcpReadings } from '../event/mcp.ts'
import { configuredReadings } from './mcp-servers.ts'
import { spreadKeepingLongStrings } from '../payload/long-strings.ts'

/**
 * Every agent protocol hookrun speaks besides its own, in detection order. Several agents share
 * field and event names, so the order is part of the rule (docs/agents.md "Which agent sent it"):
 *   1. OpenCode: hookrun's own plugin's `hook` (a plugin hook or bus event of OpenCode's) with an `input` object
 *   2. Cline:   `hookName` with `clineVersion` (no other agent has them)
 *   3. Windsurf: `agent_action_name` (no other agent has it)
 *   4. Goose:   its event in `event` with a `session_id` and a `matcher_context` (null or not)
 *   5. Crush:   its event in `event` with a `session_id`, and no `hook_event_name`
 *   6. Mistral Vibe: pre_tool / post_tool / post_agent (before 2.21: before_tool / after_tool / post_agent_turn) in `hook_event_name`
 *   7. Letta Code: one of its events in `event_type` with a `working_directory` (no other agent has them)
 *   8. Auggie:  a Claude Code name or PromptSubmit with `conversation_id` and a `workspace_roots` list,
 *               no `session_id` and no `cursor_version`
 *   9. Kiro:    agentSpawn / userPromptSubmit or a v3 trigger no one else has (PreTaskExec, PostFile…), or preToolUse / postToolUse / stop without
 *               Cursor's `conversation_id` and `cursor_version`
 *  10. Cursor:  `cursor_version`, or a camelCase `hook_event_name` that is one of Cursor's
 *  11. Copilot: a `sessionId` string with a numeric `timestamp` (its camelCase payloads), or
 *               with VS Code's `hookEventName` (VS Code's own hooks read Copilot's files)
 *  12. Gemini:  a Gemini-only event name (BeforeTool, AfterAgent, …), or SessionStart /
 *               SessionEnd / Notification with Gemini's ISO `timestamp` string
 *  13. Qwen Code: a Qwen-only event name (TodoCreated, …), or a Claude Code name with an ISO
 *               `timestamp` string (Claude Code sends none)
 *  14. Kimi Code CLI: a Claude Code event with Kimi's `tool_call_id`, about a tool only Kimi has (Shell, ReadFile, …)
 *  15. Factory Droid: a Claude Code event about a tool only Droid has (Execute, Create, …)
 *  16. Codex:   a Codex event name with `turn_id`
 *  17. Claude Code: any Claude Code event name
 * Anything else gets hookrun's own answer.
 */
export const DIALECTS: readonly Dialect[] = [
  opencode,
  cline,
  windsurf,
  goose,
  crush,
  vibe,
  letta,
  auggie,
  kiro,
  cursor,
  copilot,
  gemini,
  qwen,
  kimi,
  droid,
  codex,
  claude,
]

const NATIVE = new Set(['hookrun', 'native'])

/** What `--format` takes, as help and completion offer it (`native` is an old name of `hookrun`). */
export const FORMAT_NAMES: readonly string[] = ['auto', 'hookrun', ...DIALECTS.map((dialect) => dialect.name)]

/** Refuse an unknown `--format` before anything is read. */
export function checkFormat(format: string): void {
  if (format === 'auto' || NATIVE.has(format) || DIALECTS.some((dialect) => dialect.name === format)) return
  throw new HookrunError(`--format ${format} is not known${didYouMean(format, FORMAT_NAMES)}; use one of: ${FORMAT_NAMES.join(', ')}`)
}

/** `--format NAME`, else the dialect the payload comes from, else none (hookrun's own JSON). */
export function resolveDialect(format: string | undefined, payload: Payload): Dialect | undefined {
  if (format === undefined || format === 'auto') return DIALECTS.find((dialect) => dialect.detect(payload))
  if (NATIVE.has(format)) return undefined
  checkFormat(format)
  return DIALECTS.find((candidate) => candidate.name === format)
}

/** What the fire pipeline needs from an agent's payload, and what rendering needs back. */
export interface PreparedDialect {
  readonly dialect: Dialect
  /** The event to fire: the command line's, else the one the payload names. */
  readonly event?: string
  /** The event in the agent's own spelling, which decides the answer's shape. */
  readonly agentEvent?: string
  /** The tool, when the agent's event implies one the payload does not name. */
  readonly tool?: string
  readonly payload: Payload
}

/**
 * Resolve the dialect (if any) and read the agent's payload: which event, in the agent's own
 * name and for firing, and what the payload leaves out. `eventArg` is the command line's event.
 */
export function prepareDialect(format: string | undefined, eventArg: string | undefined, payload: Payload): PreparedDialect | undefined {
  const dialect = resolveDialect(format, payload)
  if (dialect === undefined) return undefined
  const named = dialect.eventName(payload)
  const own = namesOf(dialect.source)
  let agentEvent: string | undefined
  if (eventArg !== undefined && own.has(eventArg)) agentEvent = eventArg
  else if (named !== undefined && own.has(named)) agentEvent = named
  else if (eventArg !== undefined) agentEvent = aliasFor(splitEventName(eventArg.trim().split(':')).name, dialect.source)
  const event = eventArg ?? named
  if (event === undefined && dialect === copilot) {
    throw new HookrunError(
      'Copilot does not name the event in its payload: name it on the command line, for example hookrun fire preToolUse --format copilot',
    )
  }
  const normalized = dialect.normalize?.(payload, agentEvent) ?? { payload }
  return { dialect, event, agentEvent, tool: normalized.tool, payload: withMcpCall(dialect, normalized) }
}

/**
 * The payload with hookrun's `mcp` field when the tool is an MCP tool in this agent's naming:
 * server and tool from the agent's own fields where it sends them, else every reading of the name.
 */
function withMcpCall(dialect: Dialect, { tool: implied, payload }: Normalized): Payload {
  const tool = implied ?? toolFromPayload(payload)
  if (tool === undefined || 'mcp' in payload) return payload
  const exact = dialect.mcpCall?.(payload, tool)
  const readings = exact === undefined ? mcpReadings(tool, dialect.mcpNaming ?? CLAUDE_MCP_NAMING) : [exact]
  const real =
    readings.length > 1 && dialect.mcpServers !== undefined ? configuredReadings(readings, dialect.mcpServers, payload) : readings
  const mcp = mcpField(real)
  return mcp === undefined ? payload : spreadKeepingLongStrings(payload, { mcp })
}

/**
 * The decision in the dialect's JSON. A dialect that declares no `carries` takes none of the
 * fields hookrun carries (toolConfig, llm_request, updatedMCPToolOutput, …): each one the decision
 * has is named in a warning, so no field is dropped without a word, whoever wrote the dialect.
 * A field the agent is known to ignore on this event (`Dialect.ignores`) is named too.
 */
export function renderFor(dialect: Dialect, decided: Decision, payload: Payload, agentEvent?: string): ReturnType<Dialect['render']> {
  const decision = refusingIgnoredRewrite(dialect, decided, agentEvent ?? dialect.eventName(payload))
  // VS Code (chat.useClaudeHooks) and Copilot CLI run Claude Code's entries too, each reading its own part of Claude's answer.
  const rendered =
    dialect === claude && fromVSCode(payload)
      ? renderForVSCode(decision, payload, agentEvent)
      : dialect === claude && fromCopilotCli(payload)
        ? renderForCopilotCli(decision, payload, agentEvent)
        : dialect.render(decision, payload, agentEvent)
  const ignored = ignoredFieldWarnings(dialect, decided, agentEvent ?? dialect.eventName(payload))
  const event = agentEvent ?? (typeof payload.hook_event_name === 'string' ? payload.hook_event_name : decision.event)
  const left =
    dialect.carries !== undefined
      ? []
      : carryFields(decision, event, [], () => {}).map((field) => `${dialect.label} cannot apply ${field} on ${event}; it was not sent`)
  return left.length === 0 && ignored.length === 0 ? rendered : { ...rendered, warnings: [...rendered.warnings, ...ignored, ...left] }
}

/**
 * A rewrite the agent would ignore is refused out loud: a hook that rewrites a tool call means the
 * call must not run as it was, so where the agent would run the original input instead (Qwen
 * Code's PreToolUse), the call is blocked, and the reason, which reaches the model, says why.
 */
function refusingIgnoredRewrite(dialect: Dialect, decision: Decision, event: string | undefined): Decision {
  if (decision.blocked || decision.updatedInput === undefined || event === undefined || !ignores(dialect, 'updatedInput', event))
    return decision
  const by = decision.decidedBy ?? decision.hooks.find((hook) => hook.outcome !== 'error')?.name ?? 'a hook'
  const why = (dialect.ignores ?? []).find((row) => row.field === 'updatedInput' && row.events.includes(event))!.why
  const reason = `hook '${by}' rewrote this call, but ${dialect.label} ignores a rewrite on ${event} (${why}); hookrun refused the call rather than run the input the hook replaced`
  const { updatedInput: _ignored, ...rest } = decision
  return { ...rest, decision: 'deny', blocked: true, reason, decidedBy: 'hookrun' }
}

/**
 * The budget for one fire's hooks, in ms, where the agent kills a hook sooner than hookrun's own
 * budget and then goes ahead (`Dialect.killsAfterSeconds`): 10 s under the agent's limit, so the
 * gate's block is the answer the agent reads. Undefined: hookrun's own budget.
 */
export function fireBudgetMs(dialect: Dialect | undefined): number | undefined {
  return dialect?.killsAfterSeconds === undefined ? undefined : (dialect.killsAfterSeconds - 10) * 1000
}

const PROBE: Decision = {
  event: 'probe',
  decision: 'allow',
  blocked: false,
  continue: true,
  additionalContext: [],
  hooks: [],
  warnings: [],
}

/**
 * The channels a notice of hookrun's own reaches the agent by on this event: those of the
 * dialect's `notices` (default `systemMessage`) that its answer carries here without a "cannot
 * apply" warning and that the agent does not ignore. Empty: nothing would reach anyone, so the
 * notice waits for a later event (its once-per-session turn is not spent).
 */
export function noticeChannels(dialect: Dialect, agentEvent: string | undefined): NoticeChannel[] {
  if (agentEvent === undefined) return []
  const probes: Record<NoticeChannel, Partial<Decision>> = {
    systemMessage: { systemMessage: 'm' },
    additionalContext: { additionalContext: ['m'] },
  }
  return (dialect.notices ?? ['systemMessage']).filter((channel) => {
    if (ignores(dialect, channel, agentEvent)) return false
    const rendered = dialect.render({ ...PROBE, ...probes[channel] }, {}, agentEvent)
    return (
      !rendered.warnings.some((warning) => warning.includes(channel)) &&
      JSON.stringify(rendered) !== JSON.stringify(dialect.render(PROBE, {}, agentEvent))
    )
  })
}

export type { Dialect }
