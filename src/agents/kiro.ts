import { agentOf, Answer, contextText, decided, hookEventName, ownEvent, exitTwo } from './shared.ts'
import { claudeEvents } from './claude.ts'
import type { AgentEvents, AgentTools, Dialect } from './types.ts'
import { basename, dirname, join } from 'node:path'
import { type InstallTarget, type Places, ROUTER_TIMEOUT_SECONDS } from './install.ts'
import { JSON_FILES, type ProjectScan, type NativeConfig } from './native-config.ts'

const EVENTS = {
  ...claudeEvents('PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop'),
  preToolUse: 'tool:pre_execute',
  postToolUse: 'tool:post_execute',
  stop: 'agent:stop',
  agentSpawn: 'agent:start',
  userPromptSubmit: 'user:prompt_submit',
  PreTaskExec: 'task:start',
  PostTaskExec: 'task:completed',
  PostFileCreate: 'file:created',
  PostFileSave: 'file:changed',
  PostFileDelete: 'file:deleted',
  Manual: 'user:trigger',
} as const satisfies AgentEvents

const TOOLS: AgentTools = {
  shell: 'bash',
  web_fetch: 'webfetch',
  web_search: 'websearch',
  read: 'read',
  write: 'write',
  fs_read: 'read',
  fs_write: 'write',
  execute_bash: 'bash',
  use_aws: 'aws',
  aws: 'aws',
  todo_list: 'todo',
}

/**
 * Kiro CLI (kiro.dev/docs/cli/hooks; from the docs only): `{hook_event_name, cwd, tool_name,
 * tool_input}` with camelCase events, three of them Cursor's (told apart by Cursor's
 * `cursor_version`). It reads no JSON: exit 2 blocks on preToolUse (stderr to the model); stdout is
 * context on agentSpawn and userPromptSubmit. Kiro v3 (kiro.dev/docs/cli/v3/hooks) reads
 * `.kiro/hooks/<name>.json` with PascalCase triggers and documents no payload, so its entries name
 * the trigger on the command line; exit 2 blocks PreToolUse, UserPromptSubmit and PreTaskExec.
 */
const KIRO_EVENTS = new Set<string>(Object.keys(EVENTS))
/** Names only Kiro sends: agent-config events, and v3 triggers no other agent has. */
const KIRO_ONLY = new Set([
  'agentSpawn',
  'userPromptSubmit',
  'PreTaskExec',
  'PostTaskExec',
  'PostFileCreate',
  'PostFileSave',
  'PostFileDelete',
])
/** Names Kiro shares with Cursor (camelCase): Kiro's only without Cursor's fields. */
const SHARED_WITH_CURSOR = new Set(['preToolUse', 'postToolUse', 'stop'])
const CONTEXT_EVENTS = new Set(['agentSpawn', 'userPromptSubmit', 'SessionStart', 'UserPromptSubmit'])
/** Where exit 2 blocks: preToolUse in agent configs; PreToolUse, UserPromptSubmit and PreTaskExec in v3 files. */
const BLOCKING_EVENTS = new Set(['preToolUse', 'PreToolUse', 'UserPromptSubmit', 'PreTaskExec'])
/** The events after the fact: a block there comes too late. */
const AFTER_EVENTS = new Set(['postToolUse', 'PostToolUse', 'PostTaskExec', 'PostFileCreate', 'PostFileSave', 'PostFileDelete'])

export const kiro: Dialect = {
  name: 'kiro',
  label: 'Kiro',
  source: 'kiro',
  // No project variable known; hookrun's own folder, as the hook runs there.
  project: { variables: [] },
  // Kiro shows no message of a hook's: notices go to the model where stdout is context.
  notices: ['additionalContext'],
  // Kiro's matchers name an MCP tool `@<server>/<tool>` (kiro.dev docs; not seen in the lab).
  mcpNaming: { prefix: '@', separator: '/' },
  detectMarks: ['hook_event_name'],
  detect(payload) {
    const event = payload.hook_event_name
    if (typeof event !== 'string') return false
    return (
      KIRO_ONLY.has(event) ||
      (SHARED_WITH_CURSOR.has(event) && payload.conversation_id === undefined && payload.cursor_version === undefined)
    )
  },
  eventName: hookEventName,
  render(decision, payload, agentEvent) {
    const event = ownEvent(payload, agentEvent, KIRO_EVENTS) ?? 'preToolUse'
    const answer = new Answer('Kiro', event)
    const { exitCode, stderr } = exitTwo(decision, BLOCKING_EVENTS.has(event), answer)
    if (exitCode === 0) {
      if (decision.blocked) answer.cannot('a block', afterWhat(event))
      else if (decision.decision === 'ask') answer.cannot("decision 'ask'")
      else if (decided(decision)) answer.cannot("decision 'allow'", 'Kiro has no pre-approval; its tool permissions apply')
    }
    if (decision.updatedInput !== undefined) answer.cannot('updatedInput')
    if (decision.updatedPrompt !== undefined) answer.cannot('updatedPrompt', 'it was not sent: Kiro cannot rewrite a prompt')
    let stdout = ''
    answer.take('additionalContext', contextText(decision), CONTEXT_EVENTS.has(event), (context) => (stdout = `${context}\n`))
    answer.cannotTake(decision, ['continue', 'systemMessage', 'suppressOutput'])
    return { stdout, stderr, exitCode, warnings: answer.warnings }
  },
}

/** Why a block comes too late, or does nothing. */
function afterWhat(event: string): string {
  if (event.toLowerCase() === 'posttooluse') return 'the tool already ran'
  return AFTER_EVENTS.has(event) ? 'it already happened' : 'the event proceeds'
}

const kiroHome = (places: Places) => places.env.KIRO_HOME || join(places.home, '.kiro')
/** Kiro CLI v3's triggers (kiro.dev/docs/cli/v3/hooks). */
const KIRO_V3_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'PreTaskExec',
  'PostTaskExec',
  'PostFileCreate',
  'PostFileSave',
  'PostFileDelete',
  'Manual',
]
const kiroSkipped: Readonly<Record<string, string>> = {
  Manual:
    "Kiro lists a Manual hook for you to run by hand; one of hookrun's would run every user:trigger hook at once (write your own Manual hook running hookrun fire user:trigger --format kiro)",
}

/** Kiro CLI 2's shape: hooks inside an agent's configuration, in hookrun's own agent (install --agent-format legacy). */
const KIRO_AGENT_CONFIG: InstallTarget = {
  // Kiro CLI 2 reads hooks from an agent's configuration (kiro.dev/docs/cli/hooks): hookrun
  // brings an agent of its own rather than editing the user's (install --agent-format legacy).
  file: (scope, places) => join(scope === 'user' ? kiroHome(places) : join(places.project, '.kiro'), 'agents', 'hookrun.json'),
  ownsFile: (file) => basename(dirname(file)) === 'agents',
  shape: 'flat',
  header: { name: 'hookrun', description: 'The default tools, with hookrun answering every hook', tools: ['*'] },
  events: ['agentSpawn', 'userPromptSubmit', 'preToolUse', 'postToolUse', 'stop'],
  // Kiro's default is 30 s (timeout_ms).
  handler: (command) => ({ command, timeout_ms: ROUTER_TIMEOUT_SECONDS * 1000 }),
  timeout: { field: 'timeout_ms', perSecond: 1000 },
  note: "these hooks apply only while Kiro's `hookrun` agent is selected: start Kiro with kiro-cli chat --agent hookrun, or make it the default (kiro-cli settings chat.defaultAgent hookrun); Kiro's other agents run none of them",
  appliesOnly: {
    when: "only while Kiro's `hookrun` agent is selected (kiro-cli chat --agent hookrun, or chat.defaultAgent hookrun): Kiro's other agents, its default one included, run none of these hooks",
    fix: 'kiro-cli chat --agent hookrun   (or for every session: kiro-cli settings chat.defaultAgent hookrun)',
  },
}

/** Kiro's hooks config for `hookrun install` (src/agents/install.ts): Kiro CLI v3's, and as `legacy` Kiro CLI 2's. */
const kiroInstall: InstallTarget = {
  // Kiro CLI v3 (kiro.dev/docs/cli/v3/hooks): standalone hook files in .kiro/hooks/ of the
  // workspace, and ~/.kiro/hooks/ for every workspace (kirodotdev/Kiro#5440: CLI 2.13.0;
  // $KIRO_HOME moves ~/.kiro). hookrun's is a file of its own, written whole
  // (src/install/json-list.ts). Agent configs' hooks, which Kiro CLI 2 reads: KIRO_AGENT_CONFIG.
  file: (scope, places) => join(scope === 'user' ? kiroHome(places) : join(places.project, '.kiro'), 'hooks', 'hookrun.json'),
  format: 'hook-list',
  shape: 'flat',
  header: { version: 'v1' },
  events: KIRO_V3_EVENTS.filter((event) => kiroSkipped[event] === undefined),
  skipped: kiroSkipped,
  // The trigger on the command line: Kiro's docs give no payload for v3 hooks, and its PascalCase
  // names are Claude Code's too.
  command: (self, event) => `${self} fire ${event} --format kiro`,
  // Kiro's timeout is in seconds here (its default 30).
  handler: (command, event) => ({
    name: `hookrun-${event}`,
    trigger: event,
    action: { type: 'command', command },
    timeout: ROUTER_TIMEOUT_SECONDS,
    enabled: true,
  }),
  timeout: { field: 'timeout', perSecond: 1 },
  note: "Kiro CLI v3 runs these for every agent (before 3.0, only in kiro-cli --v3 sessions); the v3 format is from Kiro's docs, not the agent lab",
  legacy: KIRO_AGENT_CONFIG,
  versions: {
    program: 'kiro-cli',
    current: 'the v3 hooks file (.kiro/hooks/hookrun.json) Kiro CLI 3 reads',
    legacy: "hookrun's agent config (.kiro/agents/hookrun.json) Kiro CLI 2 reads",
    older: "Kiro CLI 2's hooks in an agent config",
    since: [3, 0, 0],
    // Kiro CLI 2.x has a v3 engine behind `kiro-cli --v3` (it reports 2.x either way).
    old: "runs agent configs' hooks (kiro-cli --v3 sessions read the v3 file instead: install with --agent-format current for those)",
  },
}

const KIRO_SCAN: ProjectScan = {
  sources: [
    { path: '.kiro/agents', entries: JSON_FILES, reader: 'events', agents: ['Kiro'], owners: ['kiro'], hookrunFile: true },
    { path: '.kiro/hooks', entries: /\.(?:json|kiro\.hook)$/, reader: 'trigger-files', agents: ['Kiro'], owners: ['kiro'] },
  ],
}

/**
 * Kiro's matcher as a Claude-style one: `*` is every tool, `@builtin` every built-in tool (MCP
 * tools are `@server/tool`), a `*` elsewhere a glob; a plain name or `@server/tool` as it is.
 */
function kiroMatcher(matcher: string | undefined): string | undefined {
  if (matcher === undefined || matcher === '' || matcher === '*') return undefined
  if (matcher === '@builtin') return '^[^@]'
  if (/^[\w-]+$/.test(matcher)) return matcher
  return `^${matcher
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')}$`
}

/**
 * How a Kiro agent config's `hooks` reads: handlers flat under its camelCase events (Kiro CLI 2;
 * its v3 files are a list, not keyed by event, and their PascalCase triggers keyed so are
 * Crush's), `timeout_ms` (default 30000); its v3 hook files by `hookList`.
 */
const KIRO_NATIVE: NativeConfig = {
  answersOnExitZero: true,
  reader: 'flat',
  defaultTimeout: 30,
  timeoutMsField: 'timeout_ms',
  pasted: { ownEvents: /^[a-z]/ },
  // Kiro CLI v3's `.kiro/hooks/*.json` (`{"version": "v1", "hooks": [{name, trigger, matcher,
  // action, timeout, enabled}]}`, kiro.dev/docs/cli/v3/hooks): `timeout` in seconds.
  hookList: { version: 'v1' },
  matcher: kiroMatcher,
}

export const kiroAgent = agentOf(kiro, {
  events: EVENTS,
  tools: TOOLS,
  install: kiroInstall,
  scan: KIRO_SCAN,
  nativeConfig: KIRO_NATIVE,
  // `hookrun import --agent kiro`: the command entries of the v3 hook files beside hookrun's own.,
  hooksImport: { folder: true },
})
