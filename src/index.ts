/**
 * hookrun as a library: the same pipeline the CLI runs, as plain functions.
 *
 *   import { fire } from 'hookrun'
 *   const decision = await fire({ event: 'tool:pre_execute', payload: { tool_name: 'bash', tool_input: { command: 'ls' } } })
 *   if (decision.blocked) refuse(decision.reason)
 *
 * Importing it only loads code: glob matching (picomatch) is imported here, so patterns and
 * filters compile synchronously wherever a program uses them; no top-level await, so the
 * module can also be `require`d where Node loads ES modules that way.
 */
import picomatch from 'picomatch'
import { provideGlobs } from './event/globs.ts'

provideGlobs(picomatch)

export { fire, MAX_DEPTH, type FireOptions } from './fire.ts'
export { runChain } from './chain.ts'
export { readPayload, parsePayload, MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH } from './payload/payload.ts'
export type { Payload } from './core/types.ts'
export { qualifyEvent } from './event/event.ts'
export type { FiredEvent } from './core/types.ts'
export { CANONICAL_EVENTS, canonicalEvent, isGate, type CanonicalEvent } from './event/events.ts'
export { findConfigFiles, findProjectRoot, mergeHooks, formatProblem, type ResolvedConfig, type LoadOptions } from './config/load.ts'
export { userConfigDir } from './core/places.ts'
export type { ConfigDocument } from './config/document.ts'
export type { Hook, Layer, ConfigProblem } from './core/types.ts'
export { loadConfig, readConfigFile, readConfigDocument, parseConfigDocument } from './config/parse.ts'
export type { Settings } from './core/types.ts'
export {
  resolveTrust,
  projectMaterial,
  hashProjectMaterial,
  readTrustRecord,
  writeTrustRecord,
  removeTrustRecord,
  trustedFolderOf,
  needsTrust,
  type ProjectTrust,
  type MaterialHash,
  type TrustRecord,
} from './trust/trust.ts'
export { stateDir } from './core/places.ts'
export { redactText, redactValue, isSecretName, REDACTED } from './audit/redact.ts'
export { ConfigFileSchema, HookSchema, EventPatternSchema, type ConfigFile, type HookEntry } from './config/schema.ts'
export { compilePattern, patternProblem, MAX_SEGMENT_LENGTH, MAX_WILDCARDS, type EventPattern } from './event/pattern.ts'
export { selectHooks, selectionOf } from './select/select.ts'
export { runCommand, startDetached, OUTPUT_CAPS, type CommandOptions } from './run/command.ts'
export type { CommandRun } from './core/types.ts'
export { interpretRun } from './answer/interpret.ts'
export { readAnswer } from './answer/read.ts'
export type { HookResult, ParsedAnswer } from './core/types.ts'
export { parseAnswer, interpretCommandRun } from './answer/parse.ts'
export { decide, type Rewrites } from './answer/decide.ts'
export { renderNative, type Rendered } from './answer/render.ts'
export { hookEnvironment, HOOK_VARIABLES, ENV_VALUE_CAP } from './run/env.ts'
export {
  HookAnswerSchema,
  DecisionSchema,
  HookReportSchema,
  type HookAnswer,
  type Decision,
  type DecisionValue,
  type HookReport,
} from './core/protocol.ts'
export { HookrunError, ExitCode, formatError } from './core/errors.ts'
export { withFolderHooks, patternsFromAnswer, type ConfigWithFolders, type ShadowedHook } from './folders/hooks.ts'
export { discoverHookFolders, installedPlugins, type Discovery, type FoundSource, type InstalledPlugin } from './discover/folders.ts'
export { addPlugin, listPlugins, removePlugin, parsePluginSource, type PluginInfo } from './folders/plugins.ts'
export { fromKodeletAnswer } from './answer/kodelet.ts'
export { applySetFields } from './payload/set-fields.ts'

// In-process hooks for agents written in TypeScript or JavaScript (docs/library.md).
export {
  createRunner,
  FunctionHookOptionsSchema,
  type Runner,
  type RunnerOptions,
  type RunnerFireOptions,
  type FunctionHookOptions,
} from './library/runner.ts'
export {
  allow,
  deny,
  ask,
  none,
  FunctionHookAnswerSchema,
  type HookContext,
  type FunctionHook,
  type FunctionHookAnswer,
  type FunctionHookReturn,
} from './library/function-hook.ts'
export type { ChainStep, InProcessStep, ProgressRecord } from './chain.ts'
export { loadHooks, type LoadedHooks } from './fire-config.ts'
export { canonicalTool, TOOL_ALIASES, type ToolAlias } from './event/tools.ts'
export { DIALECTS, resolveDialect, prepareDialect, type Dialect, type PreparedDialect } from './dialects/index.ts'
export {
  explainFire,
  addExclusionCheck,
  type Explanation,
  type HookExplanation,
  type Exclusion,
  type ExclusionCheck,
} from './explain/explain.ts'

// The Claude Agent SDK's `options.hooks`, answered by hookrun in-process (docs/agents/agent-sdk.md).
export {
  hookrunHooks,
  hookrunHooksVariable,
  AGENT_SDK_EVENTS,
  AGENT_SDK_DEFAULT_EVENTS,
  AGENT_SDK_UNCALLED_EVENTS,
  AGENT_SDK_HOOKS_VARIABLE,
  type AgentSdkEvent,
  type AgentSdkHookCallback,
  type AgentSdkHookInput,
  type AgentSdkHookMatcher,
  type AgentSdkHookOutput,
  type HookrunHooksOptions,
} from './library/agent-sdk.ts'
