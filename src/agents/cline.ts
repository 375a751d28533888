// Cline's dialect: its hook files' payloads in, its JSON control answers out.
import { claudeEvents } from './claude.ts'
import { shellQuote } from '../core/shell.ts'
import { spreadKeepingLongStrings } from '../payload/long-strings.ts'
import type { Payload } from '../core/types.ts'
import { agentOf, Answer, blockReason, carryFields, contextText, decided, jsonLine, objectFrom, ownEvent } from './shared.ts'
import type { AgentEvents, AgentTools, Dialect, Normalized } from './types.ts'
import { join } from 'node:path'
import type { HookFolderFacts } from './hook-folders.ts'
import type { ProjectScan } from './native-config.ts'

const EVENTS = {
  ...claudeEvents('PreToolUse', 'PostToolUse', 'UserPromptSubmit'),
  TaskStart: 'session:start',
  TaskResume: 'session:start',
  TaskCancel: 'user:interrupt',
  TaskComplete: 'agent:stop',
  TaskError: 'agent:error',
  SessionShutdown: 'session:end',
} as const satisfies AgentEvents

const TOOLS: AgentTools = {
  read_file: 'read',
  apply_patch: 'edit',
  run_commands: 'bash',
  read_files: 'read',
  editor: 'edit',
  search_codebase: 'grep',
  fetch_web_content: 'webfetch',
  ask_question: 'ask',
  spawn_agent: 'agent',
  execute_command: 'bash',
  write_to_file: 'write',
  replace_in_file: 'edit',
  list_files: 'ls',
  search_files: 'grep',
}

/**
 * Cline (cline/cline sdk/packages/core/src/hooks/; CLI 3.0.65 in the agent lab). A hook is an
 * executable file named after its event; its payload names the event in `hookName` beside
 * `clineVersion`. The answer is JSON on stdout (the exit code is not read): `cancel: true` with
 * `errorMessage` stops the whole run, not the call, and the model never sees the reason, so hookrun
 * also writes it to the person's terminal (`Rendered.terminal`). `contextModification` (at most
 * 50,000 characters) reaches the model next request; `overrideInput` replaces the input whole. Only
 * the PreToolUse and PostToolUse files are waited for.
 */
const CLINE_EVENTS = new Set<string>(Object.keys(EVENTS))

/** `hookName` → the hook file's name, which is the event's name in hookrun's alias table. */
const FILE_OF_HOOK: Readonly<Record<string, string>> = {
  agent_start: 'TaskStart',
  agent_resume: 'TaskResume',
  agent_abort: 'TaskCancel',
  agent_end: 'TaskComplete',
  agent_error: 'TaskError',
  tool_call: 'PreToolUse',
  tool_result: 'PostToolUse',
  prompt_submit: 'UserPromptSubmit',
  session_shutdown: 'SessionShutdown',
}

/** The events Cline waits for and reads an answer from (runBlockingHookCommands); the rest run detached. */
const ANSWERED = new Set(['PreToolUse', 'PostToolUse'])

/** Cline's cap on a hook's context (MAX_HOOK_CONTEXT_SIZE); hookrun cuts first, and says so in the text. */
export const CLINE_CONTEXT_LIMIT = 50_000

/** Why an event's answer is not read, for warnings, `explain` and `hookrun agents`. */
const NOT_ACTED_ON = 'Cline does not act on this: it runs this hook detached and reads none of its output'

/** What a cancel does, for the person (the model never sees it). */
const CANCEL_ENDS_RUN =
  'Cline ends the whole run on a cancel and the model never sees the reason; hookrun writes it to the terminal Cline runs in'

/** A `run_commands` entry: a shell command, or an executable with its arguments. */
function commandText(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry
  const structured = objectFrom(entry)
  if (structured === undefined || typeof structured.command !== 'string') return undefined
  const args = Array.isArray(structured.args) ? structured.args.filter((arg): arg is string => typeof arg === 'string') : []
  return [structured.command, ...args].map(shellQuote).join(' ')
}

/**
 * The tool's input as hooks read it: Cline's raw `tool_call.input` (its `parameters` are all strings),
 * with `command` added for `run_commands` (its commands, one a line) for gates and HOOKRUN_BASH_COMMAND.
 */
function toolInputOf(name: string | undefined, raw: unknown, parameters: unknown): Record<string, unknown> | undefined {
  const input = objectFrom(raw) ?? parsedParameters(parameters)
  if (input === undefined || name !== 'run_commands' || input.command !== undefined) return input
  const commands = Array.isArray(input.commands) ? input.commands.map(commandText) : [commandText(input.commands)]
  if (commands.some((command) => command === undefined)) return input
  return { ...input, command: commands.join('\n') }
}

/** `preToolUse.parameters`: each value a string, JSON for anything that was not one. */
function parsedParameters(parameters: unknown): Record<string, unknown> | undefined {
  const params = objectFrom(parameters)
  if (params === undefined) return undefined
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => {
      if (typeof value !== 'string') return [key, value]
      try {
        const parsed: unknown = JSON.parse(value)
        return [key, typeof parsed === 'object' && parsed !== null ? parsed : value]
      } catch {
        return [key, value]
      }
    }),
  )
}

/** The tool call the payload is about: PreToolUse's `tool_call`, PostToolUse's `tool_result`. */
function callOf(payload: Payload): Record<string, unknown> | undefined {
  return objectFrom(payload.tool_call) ?? objectFrom(payload.tool_result)
}

/** A rewrite in Cline's shape for `overrideInput`: `run_commands`' added `command` becomes `commands` again, unless rewritten. */
function clineInput(updated: Record<string, unknown>, original: Record<string, unknown> | undefined, tool: unknown): unknown {
  if (tool !== 'run_commands') return updated
  const { command, ...rest } = updated
  if (typeof command !== 'string') return updated
  const rewroteCommands = rest.commands !== undefined && JSON.stringify(rest.commands) !== JSON.stringify(original?.commands)
  if (rewroteCommands || (original?.command === command && rest.commands !== undefined)) return rest
  return { ...rest, commands: [command] }
}

/** Context within Cline's cap: cut, with a line that says so, rather than cut by Cline without hookrun's word. */
export function cappedContext(text: string): { text: string; cut: number } {
  if (text.length <= CLINE_CONTEXT_LIMIT) return { text, cut: 0 }
  const note = (cut: number) => `\n[hookrun: context cut to Cline's limit of 50,000 characters; ${cut} characters left out]`
  let keep = CLINE_CONTEXT_LIMIT - note(text.length).length
  keep = CLINE_CONTEXT_LIMIT - note(text.length - keep).length
  return { text: `${text.slice(0, keep)}${note(text.length - keep)}`, cut: text.length - keep }
}

export const cline: Dialect = {
  name: 'cline',
  label: 'Cline',
  carries: [],
  source: 'cline',
  // Cline runs its hooks in the workspace root and names it in `workspaceRoots` (normalize puts it in `cwd`).
  project: { variables: [], payloadField: 'cwd' },
  // Context reaches the model on PreToolUse and PostToolUse; the terminal reaches the person
  // where Cline runs in one.
  notices: ['additionalContext', 'systemMessage'],
  caveats: [
    `${CANCEL_ENDS_RUN} (when Cline runs without one, in CI or a pipe, nobody sees it)`,
    `TaskStart, TaskResume, UserPromptSubmit, TaskComplete, TaskCancel, TaskError, SessionShutdown: ${NOT_ACTED_ON}; a block there is not claimed`,
    'a block on PostToolUse reaches the model as context (the tool already ran); ask is answered with a cancel',
    'hookrun reads the raw tool_call.input (preToolUse.parameters holds every value as a string); run_commands gates see its commands one a line',
    "no hook fires for tools the provider runs itself (Cline's claude-code and openai-codex-cli providers, cline/cline#13277): hookrun doctor says so",
  ],
  // runBlockingHookCommands: SIGKILL at 120 s, then "timed out" is logged and the call goes ahead.
  killsAfterSeconds: 120,
  // The CLI's SDK runtime names the event in snake_case (`tool_call`); the VS Code extension's
  // hook runner (apps/vscode/src/core/hooks/hook-factory.ts) by its file name (`PreToolUse`).
  // Cline 3.0.65 names an MCP tool `<server>__<tool>` (a name it had to clean up gets a hash: then it is read as it is).
  mcpNaming: { prefix: '', separator: '__' },
  detectMarks: ['clineVersion'],
  detect: (payload) =>
    typeof payload.hookName === 'string' &&
    (FILE_OF_HOOK[payload.hookName] !== undefined || CLINE_EVENTS.has(payload.hookName)) &&
    'clineVersion' in payload,
  eventName: (payload) => (typeof payload.hookName === 'string' ? (FILE_OF_HOOK[payload.hookName] ?? payload.hookName) : undefined),
  normalize(payload, agentEvent): Normalized {
    const added: Record<string, unknown> = {}
    const roots = payload.workspaceRoots
    const root = Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : objectFrom(payload.workspaceInfo)?.rootPath
    if (payload.cwd === undefined && typeof root === 'string') added.cwd = root
    if (payload.session_id === undefined && typeof payload.taskId === 'string') added.session_id = payload.taskId
    const prompt = objectFrom(payload.userPromptSubmit)?.prompt
    if (agentEvent === 'UserPromptSubmit' && payload.prompt === undefined && typeof prompt === 'string') added.prompt = prompt
    const call = callOf(payload)
    const named = objectFrom(payload.preToolUse) ?? objectFrom(payload.postToolUse)
    const tool = typeof call?.name === 'string' ? call.name : typeof named?.toolName === 'string' ? named.toolName : undefined
    if (tool !== undefined) {
      if (payload.tool_name === undefined) added.tool_name = tool
      const input = toolInputOf(tool, call?.input, named?.parameters)
      if (payload.tool_input === undefined && input !== undefined) added.tool_input = input
      const post = objectFrom(payload.tool_result)
      if (payload.tool_response === undefined && post !== undefined && 'output' in post) added.tool_response = post.output
    }
    const normalized = Object.keys(added).length > 0 ? spreadKeepingLongStrings(payload, added) : payload
    return tool === undefined ? { payload: normalized } : { tool, payload: normalized }
  },
  render(decision, payload, agentEvent) {
    const event = ownEvent(payload, agentEvent, CLINE_EVENTS) ?? cline.eventName(payload) ?? 'PreToolUse'
    const answer = new Answer('Cline', event)
    const out: Record<string, unknown> = {}
    const forPerson: string[] = []
    if (decision.systemMessage !== undefined) forPerson.push(decision.systemMessage)
    for (const field of carryFields(decision, event, [], () => {})) answer.cannot(field)
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Cline cannot rewrite a prompt')
    if (decision.suppressOutput) answer.cannot('suppressOutput')
    if (!ANSWERED.has(event)) {
      // A detached hook: nothing it prints is read, and it has no terminal to write to.
      if (decision.blocked) answer.cannot('a block', NOT_ACTED_ON)
      else if (decision.decision === 'ask') answer.cannot("decision 'ask'", NOT_ACTED_ON)
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput', NOT_ACTED_ON)
      if (contextText(decision) !== undefined) answer.cannot('additionalContext', NOT_ACTED_ON)
      if (!decision.continue) answer.cannot('continue: false', NOT_ACTED_ON)
      if (decision.systemMessage !== undefined) answer.cannot('systemMessage', NOT_ACTED_ON)
      return { stdout: jsonLine(out), exitCode: 0, warnings: answer.warnings }
    }
    const context: string[] = contextText(decision) === undefined ? [] : [contextText(decision)!]
    const pre = event === 'PreToolUse'
    const stops = (pre && (decision.blocked || decision.decision === 'ask')) || !decision.continue
    if (pre && decision.decision === 'ask' && !decision.blocked)
      answer.cannot("decision 'ask'", 'answered with a cancel: Cline has no way for a hook to ask the person')
    if (!pre && decision.blocked) {
      // After the call there is nothing to stop; the reason goes to the model, as other agents send it.
      answer.cannot('a block', 'the tool already ran; the reason goes to the model as contextModification')
      context.unshift(blockReason(decision))
    }
    if (pre && decided(decision) && decision.decision === 'allow' && !stops)
      answer.cannot("decision 'allow'", 'Cline takes no approval from a hook; its own auto-approve settings apply')
    if (stops) {
      const why =
        decision.blocked || decision.decision === 'ask' ? blockReason(decision) : (decision.stopReason ?? 'a hook stopped the run')
      out.cancel = true
      out.errorMessage = why
      forPerson.push(`hookrun stopped Cline's run (${event}${toolLabel(payload)}): ${why}`)
      answer.warnings.push(CANCEL_ENDS_RUN)
      if (context.length > 0) answer.cannot('additionalContext', 'Cline drops context from a hook that cancels')
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput', 'the run was stopped instead')
    } else {
      if (decision.updatedInput !== undefined) {
        if (pre) out.overrideInput = clineInput(decision.updatedInput, objectFrom(payload.tool_input), payload.tool_name)
        else answer.cannot('updatedInput')
      }
      if (context.length > 0) {
        const capped = cappedContext(context.join('\n\n'))
        if (capped.cut > 0) answer.cannot(`${capped.cut} characters of additionalContext`, "cut to Cline's limit of 50,000 characters")
        out.contextModification = capped.text
      }
    }
    const terminal = forPerson.length === 0 ? undefined : `${forPerson.join('\n')}\n`
    return { stdout: jsonLine(out), exitCode: 0, ...(terminal !== undefined && { terminal }), warnings: answer.warnings }
  },
}

function toolLabel(payload: Payload): string {
  return typeof payload.tool_name === 'string' ? ` ${payload.tool_name}` : ''
}

/**
 * Cline's hook folders (sdk/packages/shared/src/storage/paths.ts): all are read, a file's name less its
 * extension is its event, and a link is skipped.
 */
const HOOK_FOLDER: HookFolderFacts = {
  dir: (scope, places) =>
    scope === 'user' ? join(places.env.CLINE_DIR || join(places.home, '.cline'), 'hooks') : join(places.project, '.cline', 'hooks'),
  skipped: {
    PreCompact: 'Cline declares it but never fires it (it maps to no event in its runtime)',
  },
  note: "Cline waits for and reads only PreToolUse and PostToolUse; it runs the other events' files detached and acts on none of their answers, and a block ends its whole run (hookrun writes the reason to the terminal). Hooks do not fire where the provider runs tools itself (Claude Code and Codex providers: cline/cline#13277)",
  answered: ['PreToolUse', 'PostToolUse'],
  // Providers that execute tools themselves (capability `provider-tools` in cline/cline
  // sdk/packages/llms/src/providers/builtins.ts): the runtime skips its hooks for their calls.
  toolRunningProviders: {
    // `lastUsedProvider` of its providers.json (`cline auth` writes it).
    file: (env, home) => join(env.CLINE_DIR || join(home, '.cline'), 'data', 'settings', 'providers.json'),
    key: 'lastUsedProvider',
    names: ['claude-code', 'openai-codex-cli'],
    source: 'cline/cline#13277',
    fix: 'cline auth with a provider Cline runs tools for (an API key provider)',
  },
}

const CLINE_SCAN: ProjectScan = {
  sources: [
    { path: '.cline/hooks', entries: /^[^.]/, reader: 'executables', agents: ['Cline'], owners: ['cline'], hookrunFile: true },
    { path: '.clinerules/hooks', entries: /^[^.]/, reader: 'executables', agents: ['Cline'], owners: ['cline'] },
  ],
}

export const clineAgent = agentOf(cline, { events: EVENTS, tools: TOOLS, hookFolder: HOOK_FOLDER, scan: CLINE_SCAN })
