// What a fire needs to know of every agent without evaluating every agent's module: their event
// and tool names, the project variables their handlers read, their plugin layouts, the `--format`
// names in detection order, the look-up tables from any of their names to hookrun's. Derived from
// the registry (`vocabularyWithTables` in src/event/vocabulary-tables.ts) and kept as data in vocabulary-data.ts (`npm run vocabulary` writes it; a test holds it to the
// registry): evaluating every agent module cost each fire about a fifth of its time (BENCHMARKS.md).
import type { AgentEvents, AgentTools, AnswerField } from './types.ts'
import type { PluginLayoutFacts } from './plugins.ts'
import type { Caller } from './callers.ts'
import type { NativeConfig } from './native-config.ts'
import { VOCABULARY_JSON } from './vocabulary-data.ts'

/** What an agent's handlers' exits and timeouts mean, where not as Claude Code's (src/answer/interpret.ts reads it). */
type HandlerExits = Pick<NativeConfig, 'timeoutBlocks' | 'answersOnExitZero' | 'haltExit'>

/** What the registry says of every agent (`vocabularyOf` in src/agents/registry.ts). */
export interface AgentVocabulary {
  /** Every agent's name and its name in messages, in the registry's order. */
  readonly agents: ReadonlyArray<readonly [string, string]>
  /** Each agent's events in its own spelling, in the registry's order (the first agent to use a name gives its meaning). */
  readonly events: ReadonlyArray<readonly [string, AgentEvents]>
  /** Each agent's tool names, in the registry's order. */
  readonly tools: ReadonlyArray<readonly [string, AgentTools]>
  /** The project-folder variables each agent's handlers read (`NativeConfig.handlerVariables`). */
  readonly handlerVariables: ReadonlyArray<readonly [string, readonly string[]]>
  /** The plugin layouts hookrun reads, in the order a manifest is chosen (`PLUGIN_LAYOUTS`). */
  readonly pluginLayouts: ReadonlyArray<readonly [string, PluginLayoutFacts]>
  /** Each dialect's `detectMarks`, in detection order: the fields one of which any payload it detects has. */
  readonly detectMarks: ReadonlyArray<readonly [string, readonly string[]]>
  /** Every agent's answer fields hookrun reads as its own protocol's, in the registry's order (`Agent.answerFields`). */
  readonly answerFields: readonly AnswerField[]
  /** How each agent reads its handlers' exits and timeouts, where not as Claude Code does (`HandlerExits`). */
  readonly handlerExits: ReadonlyArray<readonly [string, HandlerExits]>
  /** What a fire from each agent that runs another's entries has, and where it says its project is (`Agent.caller`). */
  readonly callers: ReadonlyArray<readonly [string, Pick<Caller, 'marks' | 'project'>]>
  /** Every `--format` an agent has, in detection order (`DIALECTS`). */
  readonly formats: readonly string[]
}

/** And the look-up tables made from it with hookrun's own seeds' names (src/event/vocabulary-tables.ts). */
export interface Vocabulary extends AgentVocabulary {
  /** Every seed's and agent's event name, lowercased → its canonical event (`eventNameTables` in src/event/events.ts). */
  readonly eventNames: Readonly<Record<string, string>>
  /** The names that imply a tool, lowercased → the tool's subject (`beforeShellExecution` → bash). */
  readonly eventSubjects: Readonly<Record<string, string>>
  /** Every agent's tool name, lowercased → its subject (`toolNameTable` in src/event/tools.ts). */
  readonly toolNames: Readonly<Record<string, string>>
}

const parsed: Partial<Record<keyof Vocabulary, unknown>> = {}

/** Each part is parsed when first read: a fire reads a few of them (the look-up tables, its callers' marks). */
export const VOCABULARY: Vocabulary = Object.defineProperties(
  {} as Vocabulary,
  Object.fromEntries(
    (Object.keys(VOCABULARY_JSON) as (keyof Vocabulary)[]).map((key) => [
      key,
      { enumerable: true, get: () => (parsed[key] ??= JSON.parse(VOCABULARY_JSON[key]!)) },
    ]),
  ),
)

/** An agent's name in messages (`Claude Code`), by its name. */
export function agentLabel(name: string): string | undefined {
  return VOCABULARY.agents.find(([agent]) => agent === name)?.[1]
}

/** How a handler of this agent's shape exits and times out, where not as Claude Code's do. */
export function handlerExitsOf(shape: string): HandlerExits | undefined {
  return VOCABULARY.handlerExits.find(([name]) => name === shape)?.[1]
}

/** The project-folder variables a handler of this agent's shape reads. */
export function handlerVariablesOf(shape: string): readonly string[] | undefined {
  return VOCABULARY.handlerVariables.find(([name]) => name === shape)?.[1]
}

/** Every agent's project-folder variables for its handlers, once each: a project's own hooks get them all. */
export const HANDLER_VARIABLES: readonly string[] = [...new Set(VOCABULARY.handlerVariables.flatMap(([, names]) => names))]
