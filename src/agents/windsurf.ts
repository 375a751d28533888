import { spreadKeepingLongStrings } from '../payload/long-strings.ts'
import { CLAUDE_MCP_NAMING, type AgentEvents, type AgentTools, type Dialect, type Normalized } from './types.ts'
import type { Payload } from '../core/types.ts'
import { agentOf, Answer, decided, objectFrom, ownEvent, exitTwo, stringField } from './shared.ts'
import { join } from 'node:path'
import type { InstallTarget } from './install.ts'
import type { ProjectScan, NativeConfig } from './native-config.ts'

const EVENTS = {
  pre_run_command: 'tool:pre_execute',
  post_run_command: 'tool:post_execute',
  pre_write_code: 'tool:pre_execute',
  post_write_code: 'tool:post_execute',
  pre_read_code: 'tool:pre_execute',
  post_read_code: 'tool:post_execute',
  pre_mcp_tool_use: 'tool:pre_execute',
  post_mcp_tool_use: 'tool:post_execute',
  pre_user_prompt: 'user:prompt_submit',
  post_cascade_response: 'llm:post_response',
  post_setup_worktree: 'worktree:setup',
} as const satisfies AgentEvents

const TOOLS: AgentTools = { run_command: 'bash', write_code: 'edit', read_code: 'read' }

/**
 * Windsurf Cascade (docs.windsurf.com/windsurf/cascade/hooks): the event in `agent_action_name`.
 * It reads no JSON: exit 2 shows stderr to the agent and blocks a pre-hook; stdout is shown to the
 * user with `show_output`. So a block is exit 2 with the reason on stderr, a system message goes
 * to stdout, and everything else is a warning.
 */
const WINDSURF_EVENTS = new Set<string>(Object.keys(EVENTS))

/** Pre-hooks: exit 2 blocks the action (the docs' "Exit Codes" table). */
const BLOCKING_EVENTS = new Set(['pre_read_code', 'pre_write_code', 'pre_run_command', 'pre_mcp_tool_use', 'pre_user_prompt'])
/** After a tool, exit 2 cannot undo it, but "the Cascade agent will see the error message from stderr". */
const FEEDBACK_EVENTS = new Set(['post_read_code', 'post_write_code', 'post_run_command', 'post_mcp_tool_use'])

/**
 * The tool each event is about and how its tool_info becomes tool_input: hookrun's names, as Cascade names
 * none; an MCP call is `mcp__<server>__<tool>`, so one matcher serves both.
 */
const EVENT_TOOLS: Readonly<Record<string, (info: Record<string, unknown>) => { tool: string; input: Record<string, unknown> }>> = {
  pre_run_command: runCommand,
  post_run_command: runCommand,
  pre_write_code: (info) => ({ tool: 'write_code', input: pick(info, 'file_path', 'edits') }),
  post_write_code: (info) => ({ tool: 'write_code', input: pick(info, 'file_path', 'edits') }),
  pre_read_code: (info) => ({ tool: 'read_code', input: pick(info, 'file_path') }),
  post_read_code: (info) => ({ tool: 'read_code', input: pick(info, 'file_path') }),
  pre_mcp_tool_use: mcpTool,
  post_mcp_tool_use: mcpTool,
}

function runCommand(info: Record<string, unknown>) {
  return { tool: 'run_command', input: { command: info.command_line, ...pick(info, 'cwd') } }
}

function mcpTool(info: Record<string, unknown>) {
  return { tool: `mcp__${String(info.mcp_server_name)}__${String(info.mcp_tool_name)}`, input: objectFrom(info.mcp_tool_arguments) ?? {} }
}

function pick(info: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => info[key] !== undefined).map((key) => [key, info[key]]))
}

export const windsurf: Dialect = {
  name: 'windsurf',
  label: 'Windsurf',
  source: 'windsurf',
  project: { variables: [] },
  // hookrun names Windsurf's MCP calls from mcp_server_name and mcp_tool_name (below).
  mcpNaming: CLAUDE_MCP_NAMING,
  detectMarks: ['agent_action_name'],
  detect: (payload) => typeof payload.agent_action_name === 'string' && WINDSURF_EVENTS.has(payload.agent_action_name),
  eventName: stringField('agent_action_name'),
  normalize(payload, agentEvent): Normalized {
    const info = objectFrom(payload.tool_info) ?? {}
    const added: Payload = {}
    // HOOKRUN_SESSION_ID and hooks that read session_id get the conversation's id.
    if (payload.session_id === undefined && typeof payload.trajectory_id === 'string') added.session_id = payload.trajectory_id
    if (agentEvent === 'pre_user_prompt' && payload.prompt === undefined && typeof info.user_prompt === 'string')
      added.prompt = info.user_prompt
    if (agentEvent === 'post_cascade_response' && payload.response === undefined && typeof info.response === 'string')
      added.response = info.response
    const toolOf = agentEvent === undefined ? undefined : EVENT_TOOLS[agentEvent]
    if (toolOf === undefined) return { payload: Object.keys(added).length > 0 ? spreadKeepingLongStrings(payload, added) : payload }
    const { tool, input } = toolOf(info)
    // Gates and `if` rules read tool_input, as for every other agent; tool_info stays as it came.
    return {
      tool,
      payload: spreadKeepingLongStrings(payload, {
        ...added,
        tool_name: payload.tool_name ?? tool,
        tool_input: payload.tool_input ?? input,
      }),
    }
  },
  render(decision, payload, agentEvent) {
    const event =
      ownEvent(payload, agentEvent, WINDSURF_EVENTS) ??
      (typeof payload.agent_action_name === 'string' ? payload.agent_action_name : 'pre_run_command')
    const answer = new Answer('Windsurf', event)
    const feedback = decision.blocked && FEEDBACK_EVENTS.has(event)
    const { exitCode, stderr } = exitTwo(decision, BLOCKING_EVENTS.has(event) || feedback, answer)
    if (feedback) answer.cannot('a block', 'the action already happened; the reason goes to the agent (exit 2, stderr)')
    else if (exitCode === 0) {
      if (decision.blocked) answer.cannot('a block', 'the event proceeds')
      else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
      else if (decided(decision) && decision.decision === 'allow')
        answer.cannot("decision 'allow'", 'Cascade has no pre-approval; its own rules apply')
    }
    if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Windsurf cannot rewrite a prompt')
    answer.cannotTake(decision, ['additionalContext', 'continue', 'suppressOutput'])
    // stdout reaches the person at the keyboard when the entry says show_output (install sets it).
    const stdout = decision.systemMessage === undefined ? '' : `${decision.systemMessage}\n`
    return { stdout, stderr, exitCode, warnings: answer.warnings }
  },
}

const windsurfInstall: InstallTarget = {
  // docs.windsurf.com/windsurf/cascade/hooks "Configuration"; the system-level files are the admin's.
  file: (scope, places) =>
    scope === 'user' ? join(places.home, '.codeium', 'windsurf', 'hooks.json') : join(places.project, '.windsurf', 'hooks.json'),
  shape: 'flat',
  // Cascade reads no JSON; show_output lets the person at the keyboard see hookrun's messages.
  handler: (command) => ({ command, show_output: true }),
}

const WINDSURF_SCAN: ProjectScan = {
  sources: [{ path: '.windsurf/hooks.json', reader: 'events', agents: ['Windsurf'], owners: ['windsurf'], hookrunFile: true }],
}

/** Windsurf's tool events name their tool in the event: the pattern keeps it (its names are in src/event/tools.ts). */
const TOOL_EVENT = /^(?:pre|post)_(run_command|write_code|read_code|mcp_tool_use)$/

/** How Windsurf's hooks.json reads: handlers flat under its snake_case events; no default timeout of its own. */
const WINDSURF_NATIVE: NativeConfig = {
  answersOnExitZero: true,
  reader: 'flat',
  pasted: { ownEvents: true },
  cwdField: 'working_directory',
  eventTool(eventName) {
    const tool = TOOL_EVENT.exec(eventName)?.[1]
    return tool === 'mcp_tool_use' ? 'mcp__*' : tool
  },
}

export const windsurfAgent = agentOf(windsurf, {
  events: EVENTS,
  tools: TOOLS,
  install: windsurfInstall,
  scan: WINDSURF_SCAN,
  nativeConfig: WINDSURF_NATIVE,
})
