// The registry: every agent hookrun knows, one module each (src/agents/<agent>.ts). Every list of
// agents, the event and tool vocabulary's agent names and the docs tables derive from it.
import type { Agent, Dialect } from './types.ts'
import type { AgentVocabulary } from './vocabulary.ts'
import { auggie, auggieAgent } from './auggie.ts'
import { claude, claudeAgent } from './claude.ts'
import { cline, clineAgent } from './cline.ts'
import { codex, codexAgent } from './codex.ts'
import { copilot, copilotAgent } from './copilot.ts'
import { crush, crushAgent } from './crush.ts'
import { cursor, cursorAgent } from './cursor.ts'
import { devinAgent } from './devin.ts'
import { vscodeAgent } from './vscode.ts'
import { agentSdkAgent } from './agent-sdk.ts'
import { addLoaded } from './loaded.ts'
import { kiloAgent } from './kilo.ts'
import { grok, grokAgent } from './grok.ts'
import { ampAgent } from './amp.ts'
import { antigravity, antigravityAgent } from './antigravity.ts'
import { junie, junieAgent } from './junie.ts'
import { hermes, hermesAgent } from './hermes.ts'
import { deepagents, deepagentsAgent } from './deepagents.ts'
import { droid, droidAgent } from './droid.ts'
import { codebuddy, codebuddyAgent } from './codebuddy.ts'
import { gemini, geminiAgent } from './gemini.ts'
import { goose, gooseAgent } from './goose.ts'
import { kimi, kimiAgent } from './kimi.ts'
import { kiro, kiroAgent } from './kiro.ts'
import { letta, lettaAgent } from './letta.ts'
import { opencode, opencodeAgent } from './opencode.ts'
import { openclaw, openclawAgent } from './openclaw.ts'
import { pi, piAgent } from './pi.ts'
import { qwen, qwenAgent } from './qwen.ts'
import { reasonix, reasonixAgent } from './reasonix.ts'
import { vibe, vibeAgent } from './vibe.ts'
import { windsurf, windsurfAgent } from './windsurf.ts'

/** Every agent, in the order the docs list their names. */
export const AGENTS: readonly Agent[] = [
  claudeAgent,
  codexAgent,
  geminiAgent,
  cursorAgent,
  copilotAgent,
  windsurfAgent,
  vibeAgent,
  kiroAgent,
  auggieAgent,
  qwenAgent,
  clineAgent,
  opencodeAgent,
  lettaAgent,
  droidAgent,
  crushAgent,
  kimiAgent,
  gooseAgent,
  devinAgent,
  vscodeAgent,
  agentSdkAgent,
  kiloAgent,
  grokAgent,
  ampAgent,
  antigravityAgent,
  codebuddyAgent,
  reasonixAgent,
  junieAgent,
  hermesAgent,
  deepagentsAgent,
  piAgent,
  openclawAgent,
]

/**
 * Every agent protocol hookrun speaks besides its own, in detection order. Several agents share
 * field and event names, so the order is part of the rule (docs/agents.md "Which agent sent it"):
 *   0. Pi, OpenClaw: hookrun's own plugin's `pi_event` / `openclaw_hook` with an `event` object (no agent sends either)
 *   1. OpenCode: hookrun's own plugin's `hook` (a plugin hook or bus event of OpenCode's) with an `input` object
 *   2. Cline:   `hookName` with `clineVersion` (no other agent has them)
 *   3. Windsurf: `agent_action_name` (no other agent has it)
 *   4. Antigravity CLI: a `toolCall` object or a `workspacePaths` list (its protojson payload; no other agent has them)
 *   5. Grok Build: `hookEventName` with a `workspaceRoot` string (no other agent sends one)
 *   6. Deep Agents Code: one of its dotted event names in `event` (session.start, …)
 *   7. Hermes Agent: one of its snake_case events in `hook_event_name` with its `profile` and `extra` object
 *   8. Goose:   its event in `event` with a `session_id` and a `matcher_context` (null or not)
 *   9. Crush:   its event in `event` with a `session_id`, and no `hook_event_name`
 *  10. Reasonix: one of its events in `event` with a camelCase `sessionId`, no `session_id` and no `hook_event_name`
 *  11. Mistral Vibe: pre_tool / post_tool / post_agent (before 2.21: before_tool / after_tool / post_agent_turn) in `hook_event_name`
 *  12. Letta Code: one of its events in `event_type` with a `working_directory` (no other agent has them)
 *  13. Auggie:  a Claude Code name or PromptSubmit with `conversation_id` and a `workspace_roots` list,
 *               no `session_id` and no `cursor_version`
 *  14. Kiro:    agentSpawn / userPromptSubmit or a v3 trigger no one else has (PreTaskExec, PostFile…), or preToolUse / postToolUse / stop without
 *               Cursor's `conversation_id` and `cursor_version`
 *  15. Cursor:  `cursor_version`, or a camelCase `hook_event_name` that is one of Cursor's
 *  16. Copilot: a `sessionId` string with a numeric `timestamp` (its camelCase payloads), or
 *               with VS Code's `hookEventName` (VS Code's own hooks read Copilot's files)
 *  17. Gemini:  a Gemini-only event name (BeforeTool, AfterAgent, …), or SessionStart /
 *               SessionEnd / Notification with Gemini's ISO `timestamp` string
 *  18. Qwen Code: a Qwen-only event name (TodoCreated, …), or a Claude Code name with an ISO
 *               `timestamp` string (Claude Code sends none)
 *  19. Kimi Code CLI: a Claude Code event with Kimi's `tool_call_id`, about a tool only Kimi has (Shell, ReadFile, …)
 *  20. Factory Droid: a Claude Code event about a tool only Droid has (Execute, Create, …)
 *  21. CodeBuddy Code: a Claude Code event whose `transcript_path` is in a `.codebuddy` folder (its payload is
 *               Claude Code's otherwise: `--format codebuddy` names it)
 *  22. Codex:   a Codex event name with `turn_id`
 *  23. Claude Code: any Claude Code event name
 * Junie CLI last: its payload has no field of its own, so only `--format junie` names it.
 * Anything else gets hookrun's own answer.
 */
export const DIALECTS: readonly Dialect[] = [
  pi,
  openclaw,
  opencode,
  cline,
  windsurf,
  antigravity,
  grok,
  deepagents,
  hermes,
  goose,
  crush,
  reasonix,
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
  codebuddy,
  codex,
  claude,
  junie,
]

// Whatever imports the registry has every agent: a fire loads only the ones it speaks (src/agents/loaded.ts).
addLoaded(AGENTS)
export { agentNamed, callersOf } from './loaded.ts'

/**
 * The agents whose plugin layouts hookrun reads, in the order a manifest is chosen when a plugin
 * ships several (one folder serving several agents: the first wins, so its hooks run once).
 */
const PLUGIN_LAYOUTS: readonly Agent[] = [claudeAgent, droidAgent, codexAgent, cursorAgent]

/** What a fire knows of every agent without loading their modules (src/agents/vocabulary.ts). */
export function vocabularyOf(): AgentVocabulary {
  return {
    agents: AGENTS.map((agent) => [agent.name, agent.label] as const),
    events: AGENTS.flatMap((agent) => (agent.events === undefined ? [] : [[agent.name, agent.events] as const])),
    tools: AGENTS.flatMap((agent) => (agent.tools === undefined ? [] : [[agent.name, agent.tools] as const])),
    handlerVariables: AGENTS.flatMap((agent) =>
      agent.nativeConfig?.handlerVariables === undefined ? [] : [[agent.name, agent.nativeConfig.handlerVariables] as const],
    ),
    timeoutBlocks: AGENTS.flatMap((agent) =>
      agent.nativeConfig?.timeoutBlocks === undefined ? [] : [[agent.name, agent.nativeConfig.timeoutBlocks] as const],
    ),
    callers: AGENTS.flatMap((agent) =>
      agent.caller === undefined
        ? []
        : [
            [
              agent.name,
              { marks: agent.caller.marks, ...(agent.caller.project !== undefined && { project: agent.caller.project }) },
            ] as const,
          ],
    ),
    pluginLayouts: PLUGIN_LAYOUTS.map((agent) => [agent.name, agent.pluginLayout!] as const),
    formats: DIALECTS.map((dialect) => dialect.name),
  }
}

/**
 * The agents with an install target (their module's `install`: src/agents/install.ts), in the
 * order `install --agent`'s list, doctor and the docs give them (src/install/agents.ts).
 */
export const INSTALLED: readonly Agent[] = [
  claudeAgent,
  cursorAgent,
  geminiAgent,
  codexAgent,
  copilotAgent,
  windsurfAgent,
  droidAgent,
  kiroAgent,
  crushAgent,
  qwenAgent,
  gooseAgent,
  auggieAgent,
  lettaAgent,
  kimiAgent,
  vibeAgent,
  codebuddyAgent,
  reasonixAgent,
  grokAgent,
  antigravityAgent,
  junieAgent,
  hermesAgent,
  deepagentsAgent,
]

/**
 * The agents `hookrun scan` speaks of, in the order it lists them and their files: the agents of
 * `hookrun agents`, then the ones hookrun has no install for (most read another agent's files).
 */
export const SCAN_ORDER: readonly Agent[] = [
  claudeAgent,
  cursorAgent,
  geminiAgent,
  qwenAgent,
  codexAgent,
  copilotAgent,
  windsurfAgent,
  droidAgent,
  kiroAgent,
  crushAgent,
  gooseAgent,
  auggieAgent,
  lettaAgent,
  kimiAgent,
  vibeAgent,
  codebuddyAgent,
  reasonixAgent,
  clineAgent,
  opencodeAgent,
  kiloAgent,
  piAgent,
  devinAgent,
  grokAgent,
  ampAgent,
  antigravityAgent,
  agentSdkAgent,
]

/**
 * The agents whose own hooks object a hooks.json may hold, in the order a pasted one is told apart
 * (src/config/shapes.ts): Cursor's by its `version`; then, where every entry is a flat handler,
 * Windsurf's or Kiro's by their event names, Reasonix's by its handler keys or events Crush lacks,
 * else Crush's; then Gemini CLI's by what only it has, else Claude Code's.
 */
export const PASTED_SHAPES: readonly Agent[] = [cursorAgent, windsurfAgent, kiroAgent, reasonixAgent, crushAgent, geminiAgent, claudeAgent]

/** The agents whose standalone hook files (a `version` beside a `hooks` list) a hooks.json may hold (src/config/list-shapes.ts). */
export const HOOK_LIST_SHAPES: readonly Agent[] = AGENTS.filter((agent) => agent.nativeConfig?.hookList !== undefined)

/** Every agent `install --agent` takes: the ones with a hooks config, then the ones hookrun reaches by a hook folder or a plugin. */
export function installableNames(): string[] {
  return [...INSTALLED, ...AGENTS.filter((agent) => agent.hookFolder !== undefined || agent.plugin !== undefined)].map(
    (agent) => agent.name,
  )
}

/** Every `--format` an agent has, in the order the docs list agents. */
export function formatNames(): string[] {
  return AGENTS.flatMap((agent) => (agent.dialect === undefined ? [] : [agent.dialect.name]))
}

/** Every agent `hookrun import` reads, in scan's order. */
export function importableNames(): string[] {
  return SCAN_ORDER.filter((agent) => agent.hooksImport !== undefined).map((agent) => agent.name)
}

/** A list for help text: `a, b or c`. */
export function spokenList(names: readonly string[], last = 'or'): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}`
}
