// The agents whose hooks file changed shape between versions (Kiro CLI, Mistral Vibe): the shape
// current versions read, and, as its `legacy`, the one older versions read. Which one install
// writes: src/install/agent-formats.ts.
import { basename, dirname, join } from 'node:path'
import { type AgentTarget, type Places, ROUTER_TIMEOUT_SECONDS, type Scope } from './agent-target.ts'

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
const KIRO_AGENT_CONFIG: AgentTarget = {
  name: 'kiro',
  label: 'Kiro',
  // Kiro CLI 2 reads hooks from an agent's configuration (kiro.dev/docs/cli/hooks): hookrun
  // brings an agent of its own rather than editing the user's (install --agent-format legacy).
  file: (scope, places) => join(scope === 'user' ? kiroHome(places) : join(places.project, '.kiro'), 'agents', 'hookrun.json'),
  ownsFile: (file) => basename(dirname(file)) === 'agents',
  shape: 'flat',
  commandField: 'command',
  header: { name: 'hookrun', description: 'The default tools, with hookrun answering every hook', tools: ['*'] },
  comments: false,
  events: ['agentSpawn', 'userPromptSubmit', 'preToolUse', 'postToolUse', 'stop'],
  skipped: {},
  command: (self) => `${self} fire --format kiro`,
  // Kiro's default is 30 s (timeout_ms).
  handler: (command) => ({ command, timeout_ms: ROUTER_TIMEOUT_SECONDS * 1000 }),
  timeout: { field: 'timeout_ms', perSecond: 1000 },
  note: "these hooks apply only while Kiro's `hookrun` agent is selected: start Kiro with kiro-cli chat --agent hookrun, or make it the default (kiro-cli settings chat.defaultAgent hookrun); Kiro's other agents run none of them",
  appliesOnly: {
    when: "only while Kiro's `hookrun` agent is selected (kiro-cli chat --agent hookrun, or chat.defaultAgent hookrun): Kiro's other agents, its default one included, run none of these hooks",
    fix: 'kiro-cli chat --agent hookrun   (or for every session: kiro-cli settings chat.defaultAgent hookrun)',
  },
}

/** Mistral Vibe before 2.21: experimental hooks with the old event names (install --agent-format legacy). */
const VIBE_EXPERIMENTAL: AgentTarget = {
  name: 'vibe',
  label: 'Mistral Vibe',
  file: vibeFile,
  format: 'toml',
  tomlTable: vibeTable('post_agent_turn'),
  tomlEventKey: 'type',
  shape: 'flat',
  commandField: 'command',
  header: {},
  comments: false,
  events: ['before_tool', 'after_tool', 'post_agent_turn'],
  skipped: {},
  command: (self) => `${self} fire --format vibe`,
  handler: (command) => ({ command, timeout: ROUTER_TIMEOUT_SECONDS }),
  note: "Vibe before 2.21 runs hooks only with enable_experimental_hooks = true in ~/.vibe/config.toml (or VIBE_ENABLE_EXPERIMENTAL_HOOKS=true), and a project's .vibe/hooks.toml only in a folder it trusts; from its 2.18.4 source, not the agent lab",
  appliesOnly: {
    when: 'only when Vibe runs with enable_experimental_hooks = true (in ~/.vibe/config.toml, or VIBE_ENABLE_EXPERIMENTAL_HOOKS=true); a project file only in a folder Vibe trusts',
    fix: 'add enable_experimental_hooks = true to ~/.vibe/config.toml',
  },
}

function vibeFile(scope: Scope, places: Places): string {
  return join(scope === 'user' ? places.env.VIBE_HOME || join(places.home, '.vibe') : join(places.project, '.vibe'), 'hooks.toml')
}

/** hookrun's `[[hooks]]` table for one of Vibe's events; every one but the turn's end is `strict`. */
function vibeTable(turnEnd: string) {
  return (event: string, command: string) => ({
    name: `hookrun-${event}`,
    type: event,
    command,
    timeout: ROUTER_TIMEOUT_SECONDS,
    ...(event !== turnEnd && { strict: true }),
  })
}

export const KIRO: AgentTarget = {
  name: 'kiro',
  label: 'Kiro',
  // Kiro CLI v3 (kiro.dev/docs/cli/v3/hooks): standalone hook files in .kiro/hooks/ of the
  // workspace, and ~/.kiro/hooks/ for every workspace (kirodotdev/Kiro#5440: CLI 2.13.0;
  // $KIRO_HOME moves ~/.kiro). hookrun's is a file of its own, written whole
  // (src/install/kiro-hooks.ts). Agent configs' hooks, which Kiro CLI 2 reads: KIRO_AGENT_CONFIG.
  file: (scope, places) => join(scope === 'user' ? kiroHome(places) : join(places.project, '.kiro'), 'hooks', 'hookrun.json'),
  format: 'kiro-v1',
  shape: 'flat',
  commandField: 'command',
  header: { version: 'v1' },
  comments: false,
  events: KIRO_V3_EVENTS.filter((event) => kiroSkipped[event] === undefined),
  skipped: kiroSkipped,
  // The trigger on the command line: Kiro's docs give no payload for v3 hooks, and its PascalCase
  // names are Claude Code's too (src/agents/kiro.ts).
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
}

export const VIBE: AgentTarget = {
  name: 'vibe',
  label: 'Mistral Vibe',
  // docs.mistral.ai/vibe/code/cli/hooks (Vibe 2.21: hooks out of experimental, events renamed, the
  // old names refused); mistralai/mistral-vibe 2.18.4 (vibe/core/config/harness_files,
  // vibe/core/paths): .vibe/hooks.toml in a trusted project, and hooks.toml in $VIBE_HOME (~/.vibe).
  file: vibeFile,
  format: 'toml',
  // Names are unique across Vibe's files (a second `hookrun-pre_tool` is skipped: hooks run
  // once); `strict`: a tool hook that fails (hookrun killed, a crash) denies instead of warning.
  tomlTable: vibeTable('post_agent'),
  tomlEventKey: 'type',
  shape: 'flat',
  commandField: 'command',
  header: {},
  comments: false,
  events: ['pre_tool', 'post_tool', 'post_agent'],
  skipped: {},
  command: (self) => `${self} fire --format vibe`,
  handler: (command) => ({ command, timeout: ROUTER_TIMEOUT_SECONDS }),
  note: "Vibe 2.21 runs hooks with no setting (subagents too), and a project's .vibe/hooks.toml only in a folder it trusts; from its docs, not the agent lab",
  appliesOnly: {
    when: 'a project file only in a folder Vibe trusts; before Vibe 2.21, only with enable_experimental_hooks = true (in ~/.vibe/config.toml, or VIBE_ENABLE_EXPERIMENTAL_HOOKS=true)',
    fix: 'trust the folder in Vibe; before 2.21, add enable_experimental_hooks = true to ~/.vibe/config.toml',
  },
  legacy: VIBE_EXPERIMENTAL,
}
