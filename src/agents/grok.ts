// Grok Build's dialect: its camelCase payloads in, its top-level decision out; its hooks file of
// hookrun's own; and how a fire tells Grok running Claude Code's or Cursor's entries apart.
import { join } from 'node:path'
import { spreadKeepingLongStrings } from '../payload/long-strings.ts'
import type { Decision } from '../core/protocol.ts'
import type { Payload } from '../core/types.ts'
import { fromGrok, grokEventName } from './grok-payload.ts'
import { claudeEvents } from './claude.ts'
import { agentOf, Answer, blockReason, decided, jsonLine } from './shared.ts'
import type { AgentTools, Dialect, Normalized } from './types.ts'
import { type InstallTarget, commandHandler } from './install.ts'
import type { Caller } from './callers.ts'
import { JSON_FILES, type ProjectScan } from './native-config.ts'

/**
 * Grok Build's hook events (docs.x.ai/build/features/hooks, "Events"): Claude Code's names, with
 * the same meaning. skillsaw's grok-hooks-valid adds StopCancelled and SubagentEnd, which the
 * official page does not name: left out.
 */
const EVENTS = claudeEvents(
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionDenied',
  'Stop',
  'StopFailure',
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
)

/**
 * Grok's shell tool as its payload names it (`run_terminal_command`: the sample payload of Grok's
 * bundled ~/.grok/docs/user-guide/10-hooks.md, as quoted by safe-chains 0.230 `targets/grok.rs`).
 * Its other tools' names were not found; a matcher may still name Claude Code's (Bash, Read,
 * Edit), which Grok maps to its own (docs.x.ai).
 */
const TOOLS: AgentTools = { run_terminal_command: 'bash' }

/**
 * Grok Build (xAI; docs.x.ai/build/features/hooks): camelCase payloads (`hookEventName`,
 * `workspaceRoot`, `toolName`, `toolInput`), the event in snake case in its docs (both read). Only
 * PreToolUse blocks: a top-level `decision` (`allow` | `deny`) with `reason`, or exit 2; an allow
 * only declines to deny. No ask, rewrite or context (safe-chains 0.230 `targets/grok.rs`). Not run
 * in the agent lab: its installer downloads a binary.
 */
const GROK_EVENTS = new Set<string>(Object.keys(EVENTS))

/** The payload's event, when it is one of Grok's. */
function ownEventName(payload: Payload): string | undefined {
  const event = grokEventName(payload)
  return event !== undefined && GROK_EVENTS.has(event) ? event : undefined
}

/** The decision in Grok's JSON: a top-level decision on PreToolUse, nothing it would ignore. */
function renderForGrok(decision: Decision, event: string): ReturnType<Dialect['render']> {
  const answer = new Answer('Grok Build', event)
  const out: Record<string, unknown> = {}
  let exitCode = 0
  if (event === 'PreToolUse') {
    if (decision.blocked || decision.decision === 'deny' || decision.decision === 'ask') {
      if (decision.decision === 'ask') answer.cannot("decision 'ask'", 'answered deny: a hook wanted a person to confirm')
      out.decision = 'deny'
      out.reason = blockReason(decision)
      exitCode = 2
    } else if (decided(decision)) out.decision = 'allow'
    if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
  } else {
    if (decision.blocked) answer.cannot('a block', 'only PreToolUse blocks in Grok Build; the event proceeds')
    else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
    if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
  }
  answer.cannotTake(decision, ['additionalContext', 'updatedPrompt', 'continue', 'systemMessage', 'suppressOutput'])
  // Exit 2 with the reason on stderr too: the deny holds whichever of the two Grok reads.
  return {
    stdout: jsonLine(out),
    exitCode,
    ...(exitCode === 2 && { stderr: `${String(out.reason)}\n` }),
    warnings: answer.warnings,
  }
}

export const grok: Dialect = {
  name: 'grok',
  label: 'Grok Build',
  source: 'grok',
  carries: [],
  project: { variables: ['GROK_WORKSPACE_ROOT'], payloadField: 'workspaceRoot' },
  caveats: [
    "only PreToolUse blocks; a hook's allow only declines to deny (Grok's own permission check still runs)",
    "Grok's default hook timeout is 5 s and what it does at a timeout is not documented: install gives hookrun's entries 600 s",
    'project hooks run only in a folder trusted with /hooks-trust or --trust',
    "what Grok Build does with an answer is from docs.x.ai and third parties' readings of Grok's bundled docs, not the agent lab",
  ],
  detectMarks: ['workspaceRoot'],
  detect: fromGrok,
  eventName: ownEventName,
  normalize(payload): Normalized {
    // toolName / toolInput are read in Grok's spelling already (src/event/event.ts, src/payload/fields.ts);
    // a hook that reads hook_event_name gets Claude Code's name for the event.
    const event = ownEventName(payload)
    return event === undefined || payload.hook_event_name !== undefined
      ? { payload }
      : { payload: spreadKeepingLongStrings(payload, { hook_event_name: event }) }
  },
  render(decision, payload, agentEvent) {
    return renderForGrok(decision, agentEvent ?? ownEventName(payload) ?? 'PreToolUse')
  },
}

/**
 * Grok running Claude Code's and Cursor's entries (a project's `.claude/settings.json` and
 * `.cursor/hooks.json`, docs.x.ai; not `settings.local.json`, which the page does not name): its
 * own payload and answer. Told apart by its payload, or by `GROK_HOOK_EVENT` with
 * `GROK_SESSION_ID`, which Grok sets for every hook.
 */
const RUNS_CLAUDE: Caller = {
  when: "a project's .claude/settings.json and .cursor/hooks.json, in a trusted folder, beside .grok/hooks",
  detect: (payload, env) => fromGrok(payload) || (env.GROK_HOOK_EVENT !== undefined && env.GROK_SESSION_ID !== undefined),
  marks: { fields: ['workspaceRoot'], variables: ['GROK_SESSION_ID'] },
  ownAnswer: { kind: 'reader-entry' },
  project: { variables: ['GROK_WORKSPACE_ROOT'], payloadField: 'workspaceRoot' },
  // Both owners' files: an owner's is looked at for that owner's entries alone (src/install/overlaps.ts).
  files: (places) => [
    { file: join(places.project, '.claude', 'settings.json'), scope: 'project' },
    { file: join(places.project, '.cursor', 'hooks.json'), scope: 'project' },
  ],
  reading: {
    from: fromGrok,
    render: (decision, payload, agentEvent) => renderForGrok(decision, ownEventName(payload) ?? agentEvent ?? 'PreToolUse'),
  },
  source: 'docs.x.ai/build/features/hooks',
}

/** Grok Build's hooks file of hookrun's own (`hookrun install`: src/agents/install.ts). */
const grokInstall: InstallTarget = {
  // docs.x.ai: every ~/.grok/hooks/*.json and <project>/.grok/hooks/*.json is read and merged, so a
  // file of hookrun's own leaves the user's files alone.
  file: (scope, places) => join(scope === 'user' ? places.home : places.project, '.grok', 'hooks', 'hookrun.json'),
  shape: 'groups',
  // Seconds, default 5 (docs.x.ai): a gate killed at 5 s would let the call through.
  ...commandHandler(1),
  note: 'only PreToolUse can block in Grok Build; project hooks run once the folder is trusted (/hooks-trust or grok --trust)',
}

const GROK_SCAN: ProjectScan = {
  projectVariables: ['GROK_WORKSPACE_ROOT'],
  sources: [{ path: '.grok/hooks', entries: JSON_FILES, reader: 'events', agents: ['Grok Build'], owners: ['grok'] }],
}

export const grokAgent = agentOf(grok, { events: EVENTS, tools: TOOLS, install: grokInstall, caller: RUNS_CLAUDE, scan: GROK_SCAN })
