import { agentOf, Answer, blockReason, contextText, decided, jsonLine, knownEvent, stringField } from './shared.ts'
import { claudeEvents } from './claude.ts'
import type { AgentTools, Dialect } from './types.ts'
import { join } from 'node:path'
import { type InstallTarget, commandHandler } from './install.ts'
import type { ProjectScan } from './native-config.ts'

const EVENTS = claudeEvents(
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Notification',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'PermissionRequest',
)

const TOOLS: AgentTools = {
  Bash: 'bash',
  Shell: 'bash',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'multiedit',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'ls',
  Task: 'agent',
  TodoWrite: 'todo',
  AskUserQuestion: 'ask',
  ApplyPatch: 'edit',
}

/**
 * Letta Code (letta-ai/letta-code 0.30.29 `src/hooks/`; from its source, not the agent lab): its
 * own payload (`event_type`, `working_directory`). Exit 2 blocks with stderr on PreToolUse,
 * PermissionRequest, UserPromptSubmit, Stop and SubagentStop, and on PostToolUse(Failure) sends it
 * to the model. Exit 0: PreToolUse's `updatedInput`, stdout as text on UserPromptSubmit and
 * SessionStart, `additionalContext` JSON after a tool. On PermissionRequest any exit 0 allows, so
 * hookrun exits 1 (a hook error, ignored) when no hook allowed.
 */
const LETTA_EVENTS = new Set<string>(Object.keys(EVENTS))
const BLOCKING = new Set(['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'Stop', 'SubagentStop'])
const FEEDBACK_ON_BLOCK = new Set(['PostToolUse', 'PostToolUseFailure'])
const TEXT_CONTEXT = new Set(['UserPromptSubmit', 'SessionStart'])
const JSON_CONTEXT = new Set(['PostToolUse', 'PostToolUseFailure'])

export const letta: Dialect = {
  name: 'letta',
  label: 'Letta Code',
  source: 'letta',
  project: { variables: ['LETTA_WORKING_DIR'], payloadField: 'working_directory' },
  // Letta shows the person nothing a hook prints: hookrun's notices have no channel there.
  notices: [],
  caveats: [
    'on PermissionRequest Letta Code allows the request when any hook exits 0: hookrun exits 0 there only for an allow, and 1 (ignored) when no hook decided',
    'PreToolUse does not fire for its Agent tool (letta-code#3150), so subagent launches pass no gate',
  ],
  detectMarks: ['event_type'],
  detect: (payload) =>
    typeof payload.event_type === 'string' && LETTA_EVENTS.has(payload.event_type) && typeof payload.working_directory === 'string',
  eventName: stringField('event_type'),
  render(decision, payload, agentEvent) {
    const event = knownEvent(agentEvent ?? payload.event_type, LETTA_EVENTS, 'PreToolUse')
    const answer = new Answer('Letta Code', event)
    const context = contextText(decision)
    if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'the call goes ahead')
    answer.cannotTake(decision, ['updatedPrompt', 'continue', 'systemMessage', 'suppressOutput'])
    if (decision.blocked && (BLOCKING.has(event) || FEEDBACK_ON_BLOCK.has(event))) {
      // Only stderr is read on a block: nothing else of the answer reaches Letta.
      if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
      if (context !== undefined) answer.cannot('additionalContext')
      return { stdout: '', stderr: `${blockReason(decision)}\n`, exitCode: 2, warnings: answer.warnings }
    }
    if (decision.blocked) answer.cannot('a block', 'the event proceeds')
    let stdout = ''
    if (decision.updatedInput !== undefined) {
      if (event === 'PreToolUse' && !decision.blocked)
        stdout = jsonLine({ hookSpecificOutput: { hookEventName: event, updatedInput: decision.updatedInput } })
      else answer.cannot('updatedInput')
    }
    if (context !== undefined) {
      if (TEXT_CONTEXT.has(event)) stdout = `${context}\n`
      else if (JSON_CONTEXT.has(event)) stdout = jsonLine({ additionalContext: context })
      else answer.cannot('additionalContext')
    }
    const standAside = event === 'PermissionRequest' && !(decided(decision) && decision.decision === 'allow')
    return { stdout, exitCode: standAside ? 1 : 0, warnings: answer.warnings }
  },
}

const lettaInstall: InstallTarget = {
  // letta-ai/letta-code 0.30.29 (src/hooks/loader.ts): `hooks` of ~/.letta/settings.json, then
  // the project's .letta/settings.json and settings.local.json, merged; hookrun writes the
  // project's local file, as Claude Code's.
  file: (scope, places) =>
    scope === 'user' ? join(places.home, '.letta', 'settings.json') : join(places.project, '.letta', 'settings.local.json'),
  localProjectFile: true,
  shape: 'groups',
  // Letta's timeout is in milliseconds (its default 60 000: src/hooks/executor.ts).
  ...commandHandler(1000),
  note: 'what Letta Code does with an answer is from its 0.30.29 source, not the agent lab (it needs a Letta server)',
}

const LETTA_SCAN: ProjectScan = {
  sources: [
    { path: '.letta/settings.json', reader: 'events', agents: ['Letta Code'], owners: ['letta'] },
    { path: '.letta/settings.local.json', reader: 'events', agents: ['Letta Code'], owners: ['letta'], hookrunFile: true },
  ],
}

export const lettaAgent = agentOf(letta, { events: EVENTS, tools: TOOLS, install: lettaInstall, scan: LETTA_SCAN })
