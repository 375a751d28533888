// Who runs hookrun's Claude Code entries besides Claude Code, and when its own hookrun answer makes ours a second one.
import { aliasFor, resolveAlias } from '../event/events.ts'
import { homeOf } from '../core/places.ts'
import { agentTarget } from './agents.ts'
import type { Places } from './agent-target.ts'
import { answeredByReaderEntry, answeredByThisHookrun } from './overlaps.ts'
import { fromCopilotCli } from '../agents/copilot-claude.ts'

type Env = Readonly<Record<string, string | undefined>>
type Payload = Readonly<Record<string, unknown>>

/**
 * An agent that runs the hooks in `.claude/settings*.json` (and `~/.claude/settings.json`) with a
 * payload of its own (shared reference §10.14). `--format claude` tells it from Claude Code by
 * what it sends; where that agent also runs an answer of hookrun's own for the same event (its own
 * router entry, or `hookrunHooks()` in an SDK app), the Claude entry gives no opinion, so the
 * hooks run once per tool call.
 */
interface ClaudeCaller {
  readonly name: 'cursor' | 'vscode' | 'copilot' | 'devin' | 'agent-sdk'
  readonly label: string
  /** When it runs Claude Code's entries: the setting or option that decides it (a few words). */
  readonly when: string
  /** Does this fire come from it? (payload fields, or the variables it sets for its hooks) */
  detect(payload: Payload, env: Env): boolean
  /** Where hookrun's own answer for this Claude Code event is in that agent, when it has one. */
  ownAnswer(claudeEvent: string, places: Places, payload: Payload): string | undefined
  readonly source: string
}

export const CLAUDE_CALLERS: readonly ClaudeCaller[] = [
  {
    name: 'cursor',
    label: 'Cursor',
    when: 'third-party hooks setting on',
    // Cursor's payloads carry cursor_version and conversation_id; Claude Code's never do. (Not
    // CURSOR_VERSION: Claude Code started in Cursor's terminal may inherit it.)
    detect: (payload) => typeof payload.cursor_version === 'string' || typeof payload.conversation_id === 'string',
    ownAnswer: (event, places, payload) => answeredByReaderEntry('claude', event, places, payload)?.file,
    source: 'cursor.com/docs/reference/third-party-hooks',
  },
  {
    name: 'vscode',
    label: 'VS Code',
    when: 'chat.useClaudeHooks on, off by default',
    // VS Code's agent hooks send `hookEventName` and `sessionId` (camelCase); Claude Code sends `hook_event_name`, `session_id`.
    detect: (payload) => typeof payload.hookEventName === 'string' && typeof payload.hook_event_name !== 'string',
    // VS Code also runs .github/hooks/*.json and ~/.copilot/hooks, where `install --agent copilot` writes.
    ownAnswer: copilotRouterFor,
    source: 'code.visualstudio.com/docs/agent-customization/hooks',
  },
  {
    name: 'copilot',
    label: 'Copilot CLI',
    when: 'always, in a trusted folder, beside .github/hooks',
    // Copilot sets COPILOT_CLI=1 (and CLAUDE_PROJECT_DIR) for these hooks; its payload has an ISO
    // timestamp and no transcript_path, which Claude Code always sends (src/agents/copilot-claude.ts).
    detect: (payload, env) => env.COPILOT_CLI === '1' && fromCopilotCli(payload),
    // It runs .github/hooks first, then .claude: hookrun's Copilot entry answers, this one stands aside.
    ownAnswer: copilotRouterFor,
    source: 'github/docs copilot hooks-reference; seen in Copilot CLI 1.0.102 (real-agents.md)',
  },
  {
    name: 'devin',
    label: 'Devin CLI',
    when: 'always, beside .devin/hooks.v1.json',
    // Devin sets DEVIN_PROJECT_DIR for its hooks; Claude Code sets CLAUDE_PROJECT_DIR.
    detect: (_payload, env) => env.DEVIN_PROJECT_DIR !== undefined && env.CLAUDE_PROJECT_DIR === undefined,
    // hookrun writes no Devin entries of its own: the Claude Code entries are Devin's only ones.
    ownAnswer: () => undefined,
    source: 'docs.devin.ai/cli/extensibility/hooks/overview',
  },
  {
    name: 'agent-sdk',
    label: 'Claude Agent SDK apps',
    when: 'unless settingSources leaves the file out; all load by default',
    // The SDK starts Claude Code with CLAUDE_AGENT_SDK_VERSION and CLAUDE_CODE_ENTRYPOINT=sdk-ts (sdk-py in Python).
    detect: (_payload, env) => env.CLAUDE_AGENT_SDK_VERSION !== undefined || /^sdk-/.test(env.CLAUDE_CODE_ENTRYPOINT ?? ''),
    // hookrunHooks() names the events it answers in HOOKRUN_AGENT_SDK_HOOKS (src/library/agent-sdk.ts).
    ownAnswer: (event, places) =>
      (places.env.HOOKRUN_AGENT_SDK_HOOKS ?? '').split(',').includes(event) ? "the app's hookrunHooks()" : undefined,
    source: 'code.claude.com/docs/en/agent-sdk/claude-code-features',
  },
]

/**
 * hookrun's Copilot router entry (project `.github/hooks/hookrun.json`, or the user's) that routes
 * this Claude Code event to this very hookrun, if any (a look-alike a repository planted is not one).
 */
function copilotRouterFor(claudeEvent: string, places: Places): string | undefined {
  const copilotEvent = aliasFor(resolveAlias(claudeEvent) ?? claudeEvent, 'copilot')
  if (copilotEvent === undefined) return undefined
  const target = agentTarget('copilot')!
  return (['project', 'user'] as const)
    .map((scope) => target.file(scope, places))
    .find((file) => answeredByThisHookrun(file, 'copilot').includes(copilotEvent))
}

/** The agent other than Claude Code that runs this Claude Code entry, if the payload or environment tells one. */
export function claudeCaller(payload: Payload, env: Env): ClaudeCaller | undefined {
  return CLAUDE_CALLERS.find((caller) => caller.detect(payload, env))
}

/**
 * Does another answer of hookrun's own cover this Claude Code entry's event in the agent that runs
 * it? Then this entry answers "no opinion" without running the hooks a second time. Returns the
 * caller and where its answer is.
 */
export function answeredByCaller(
  claudeEvent: string,
  where: { readonly project: string; readonly env: Env },
  payload: Payload,
): { caller: ClaudeCaller; answer: string } | undefined {
  const caller = claudeCaller(payload, where.env)
  if (caller === undefined) return undefined
  const answer = caller.ownAnswer(claudeEvent, { ...where, home: homeOf(where.env) }, payload)
  return answer === undefined ? undefined : { caller, answer }
}

/**
 * For `hookrun doctor`: one line naming every agent besides Claude Code that runs hookrun's Claude
 * Code entries in `files`, and when (none when there are no such entries).
 */
export function claudeCallerLines(files: readonly string[]): Array<{ status: 'ok'; what: string }> {
  if (files.length === 0) return []
  const callers = CLAUDE_CALLERS.map((caller) => `${caller.label} (${caller.when})`).join(', ')
  return [
    {
      status: 'ok',
      what: `Claude Code's entries in ${files.join(' and ')} also run in ${callers}; --format claude tells each apart and answers an event once where it runs hookrun's own answer too`,
    },
  ]
}
