import { claude, claudeEvents, claudeTools } from './claude.ts'
import { CLAUDE_MCP_NAMING, type AgentTools, type CarriedRow, type Dialect } from './types.ts'
import { agentOf, hookEventName, jsonLine, ownEvent } from './shared.ts'
import { join } from 'node:path'
import { type InstallTarget, commandHandler } from './install.ts'
import type { ProjectScan } from './native-config.ts'
import type { HttpHooks } from './serve.ts'

/**
 * CodeBuddy Code's hook events (the `HookEvent` enum of its 2.117.0 bundle, in its order), all Claude
 * Code names; its `FinalStop` is left out: nothing says what it means.
 */
const EVENTS = claudeEvents(
  'PreToolUse',
  'PostToolUse',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
  'WorktreeCreate',
  'WorktreeRemove',
  'PostToolUseFailure',
  'SubagentStart',
  'StopFailure',
  'PostCompact',
  'ConfigChange',
  'InstructionsLoaded',
  'PermissionRequest',
  'PermissionDenied',
  'Elicitation',
  'ElicitationResult',
  'TaskCreated',
  'TaskCompleted',
  'TeammateIdle',
  'Setup',
  'FileChanged',
  'CwdChanged',
)

/** CodeBuddy Code's tool names (its bundled tools-reference.md) and hookrun's subject for each. */
const TOOLS: AgentTools = claudeTools(
  'Bash',
  'PowerShell',
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'Grep',
  'WebFetch',
  'WebSearch',
  'Agent',
  'Task',
  'AskUserQuestion',
)

/**
 * Tencent CodeBuddy Code (npm `@tencent-ai/codebuddy-code` 2.117.0; its bundled docs
 * `cli/dist/web-ui/docs/en/cli/hooks.md`): Claude Code's settings shape, events and payload, with
 * `CODEBUDDY_PROJECT_DIR`. Its answers are Claude Code's, except:
 *   - PreToolUse's rewrite is documented as `modifiedInput` but 2.117.0 reads `updatedInput` (the
 *     agent lab), merged over the input: hookrun sends both keys;
 *   - on UserPromptSubmit, Stop and SubagentStop `continue: false` is the block; on the stop events
 *     it means "keep working", so hookrun never sends Claude Code's `continue: false` there;
 *   - `additionalContext` is read on PostToolUse, PostToolUseFailure, UserPromptSubmit,
 *     SessionStart and Setup only.
 * Its payload is Claude Code's but for its transcripts under `.codebuddy/`: any other reads as
 * Claude Code's, and `--format codebuddy` (what install writes) names it.
 */
const CODEBUDDY_EVENTS = new Set<string>(Object.keys(EVENTS))
/** Where it reads a continue: false as "block": the stop events, where it means "keep working". */
const STOP_EVENTS = new Set(['Stop', 'SubagentStop'])
/** Where a block is its documented `continue: false` + `reason`. */
const CONTINUE_BLOCK_EVENTS = new Set(['UserPromptSubmit', 'Stop', 'SubagentStop'])
const TRANSCRIPT_FOLDER = /(^|[\\/])\.codebuddy[\\/]/

/** PostToolUse may replace an MCP tool's output (the bundle reads `updatedMCPToolOutput` for `mcp__` tools; no `updatedToolOutput`). */
const CODEBUDDY_CARRIES: readonly CarriedRow[] = [{ field: 'updatedMCPToolOutput', events: ['PostToolUse'], key: 'updatedMCPToolOutput' }]

export const codebuddy: Dialect = {
  name: 'codebuddy',
  label: 'CodeBuddy Code',
  carries: CODEBUDDY_CARRIES,
  source: 'codebuddy',
  project: { variables: ['CODEBUDDY_PROJECT_DIR'] },
  ignores: [
    {
      field: 'additionalContext',
      events: ['PreToolUse', 'SubagentStart', 'Stop', 'SubagentStop'],
      why: 'CodeBuddy Code 2.117.0 reads additionalContext only on PostToolUse, PostToolUseFailure, UserPromptSubmit, SessionStart and Setup',
    },
  ],
  caveats: [
    'a rewrite is merged over the tool input (documented as modifiedInput, read as updatedInput by 2.117.0): a field the rewrite leaves out keeps its old value',
    "on Stop and SubagentStop CodeBuddy Code reads continue: false as 'keep working': hookrun's continue: false is not sent there",
    'CodeBuddy Code loads hooks once at startup and asks for edits made while it runs to be reviewed in its /hooks panel',
    "PostToolUse's tool_response for a successful Bash call holds its exit code, not its output (2.117.0, the agent lab)",
  ],
  mcpNaming: CLAUDE_MCP_NAMING,
  detectMarks: ['transcript_path'],
  detect: (payload) =>
    typeof payload.hook_event_name === 'string' &&
    CODEBUDDY_EVENTS.has(payload.hook_event_name) &&
    typeof payload.transcript_path === 'string' &&
    TRANSCRIPT_FOLDER.test(payload.transcript_path),
  eventName: hookEventName,
  render(decision, payload, agentEvent) {
    const event = ownEvent(payload, agentEvent, CODEBUDDY_EVENTS) ?? 'PreToolUse'
    const stopping = STOP_EVENTS.has(event)
    // Claude Code's renderer, without what CodeBuddy reads otherwise (continue: false on its stop events).
    const rendered = claude.render(stopping ? { ...decision, continue: true, stopReason: undefined } : decision, payload, event)
    const warnings = rendered.warnings
      // CodeBuddy applies a rewrite without an allow (aggregateSettledResults merges it as it comes).
      .filter((warning) => !warning.startsWith('Claude Code applies updatedInput on PreToolUse only with'))
      .map((warning) => warning.replaceAll('Claude Code', 'CodeBuddy Code'))
    const cannot = (field: string, consequence = 'it was not sent') =>
      warnings.push(`CodeBuddy Code cannot apply ${field} on ${event}; ${consequence}`)
    if (stopping && !decision.continue) cannot('continue: false', "it reads it as 'keep working'; it was not sent")
    const out = JSON.parse(rendered.stdout) as Record<string, unknown> & { hookSpecificOutput?: Record<string, unknown> }
    const specific = out.hookSpecificOutput
    if (specific?.updatedInput !== undefined) specific.modifiedInput = specific.updatedInput
    if (specific?.updatedToolOutput !== undefined) {
      delete specific.updatedToolOutput
      cannot('updatedToolOutput')
    }
    if (out.decision === 'block' && CONTINUE_BLOCK_EVENTS.has(event)) {
      // Its documented block: continue: false with the reason ("decision: block" is deprecated).
      delete out.decision
      out.continue = false
    }
    return { ...rendered, stdout: jsonLine(out), warnings }
  },
}

const codebuddyInstall: InstallTarget = {
  // hooks.md "Configuration": ~/.codebuddy/settings.json (user), <project>/.codebuddy/settings.json
  // and settings.local.json (project, local-only), merged; hookrun writes the project's local file.
  file: (scope, places) =>
    scope === 'user' ? join(places.home, '.codebuddy', 'settings.json') : join(places.project, '.codebuddy', 'settings.local.json'),
  localProjectFile: true,
  earlierProjectFiles: (places) => [join(places.project, '.codebuddy', 'settings.json')],
  shape: 'groups',
  skipped: {
    // The bundle's HOOK_EVENT_IO_DESCRIPTIONS: "stdout must contain the absolute path to the created worktree".
    WorktreeCreate: 'its hook must print the new worktree path; a router there would break worktree creation',
  },
  // Seconds: the bundle's command hook runs with `1e3 * timeout` ms (default 60 s).
  ...commandHandler(1),
  toolMatchers: true,
  // The agent lab (2.117.0): started in a subfolder, the project's .codebuddy/ entries did not run.
  projectFileOnlyWhereStarted: true,
  // hooks.md "Configuration Safety": a snapshot at startup; a change made while it runs applies
  // after review in the /hooks panel. The 2.117.0 bundle has no other approval of settings hooks.
  note: 'CodeBuddy Code reads hooks when it starts: a session already running applies these entries only after review in its /hooks panel',
  serves: true,
}

/**
 * CodeBuddy Code's http hook handlers (2.117.0's `executeHttpHook`: a non-2xx answer, a timeout or
 * no server lets the call through, and there is no `onFailure`): gates go through the command
 * client, whose exit 2 blocks, in bash started by the client itself (its command handlers run in
 * `$SHELL -c`, else `/bin/sh`); the other events go over http (test/agents/codebuddy-serve.lab.ts).
 */
const HTTP: HttpHooks = {
  route: 'codebuddy',
  program: 'codebuddy',
  commandEvents: ['SessionStart'],
  projectVariable: 'CODEBUDDY_PROJECT_DIR',
  // It sets Claude Code's variable for its hooks too: the server keeps no session's.
  sessionVariables: ['CLAUDE_PROJECT_DIR'],
  client: {
    blockExit: 2,
    everyEvent: false,
    inUserShell: true,
    why: 'its http handlers let a call through when the server does not answer',
  },
}

/** The files of a project CodeBuddy Code reads hooks from (`hookrun scan`; its bundled hooks.md). */
const CODEBUDDY_SCAN: ProjectScan = {
  projectVariables: ['CODEBUDDY_PROJECT_DIR'],
  sources: [
    { path: '.codebuddy/settings.json', reader: 'events', agents: ['CodeBuddy Code'], owners: ['codebuddy'] },
    { path: '.codebuddy/settings.local.json', reader: 'events', agents: ['CodeBuddy Code'], owners: ['codebuddy'], hookrunFile: true },
  ],
}

export const codebuddyAgent = agentOf(codebuddy, {
  events: EVENTS,
  tools: TOOLS,
  install: codebuddyInstall,
  http: HTTP,
  scan: CODEBUDDY_SCAN,
})
