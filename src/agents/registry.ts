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
 * Every agent protocol hookrun speaks besides its own, in detection order: several agents share
 * field and event names, so the order is part of the rule (docs/agents.md "Which agent sent it";
 * each one's `detect`). Junie CLI last: its payload has nothing of its own, only `--format junie`
 * names it. Anything else gets hookrun's own answer.
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
    answerFields: AGENTS.flatMap((agent) => agent.answerFields ?? []),
    detectMarks: DIALECTS.map((dialect) => [dialect.name, dialect.detectMarks] as const),
    handlerExits: AGENTS.flatMap((agent) => {
      const { timeoutBlocks, answersOnExitZero, haltExit } = agent.nativeConfig ?? {}
      if (timeoutBlocks === undefined && answersOnExitZero === undefined && haltExit === undefined) return []
      return [[agent.name, { timeoutBlocks, answersOnExitZero, haltExit }] as const]
    }),
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
 * (src/config/shapes.ts).
 */
export const PASTED_SHAPES: readonly Agent[] = [cursorAgent, windsurfAgent, kiroAgent, reasonixAgent, crushAgent, geminiAgent, claudeAgent]

/** The agents whose standalone hook files (a `version` beside a `hooks` list) a hooks.json may hold (src/config/agent-shapes.ts). */
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
