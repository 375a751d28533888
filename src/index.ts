/**
 * hookrun as a library: the same pipeline the CLI runs, as plain functions.
 *
 *   import { fire } from 'hookrun'
 *   const decision = await fire({ event: 'tool:pre_execute', payload: { tool_name: 'bash', tool_input: { command: 'ls' } } })
 *   if (decision.blocked) refuse(decision.reason)
 *
 * Nothing happens at import time.
 */
export { fire, runChain, type FireOptions } from './fire.ts'
export { readPayload, parsePayload, MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH, type Payload } from './payload.ts'
export { qualifyEvent, type FiredEvent } from './event.ts'
export { CANONICAL_EVENTS, canonicalEvent, isGate, type CanonicalEvent } from './events.ts'
export { findConfigFiles, findProjectRoot, mergeHooks, userConfigDir, formatProblem, type Hook, type Layer, type ConfigProblem, type ResolvedConfig, type LoadOptions, type ConfigDocument } from './config/load.ts'
export { loadConfig, readConfigFile, readConfigDocument, parseConfigDocument } from './config/parse.ts'
export { type Settings } from './config/settings.ts'
export {
  resolveTrust,
  projectMaterial,
  hashProjectMaterial,
  readTrustRecord,
  writeTrustRecord,
  removeTrustRecord,
  trustedFolderOf,
  needsTrust,
  stateDir,
  type ProjectTrust,
  type MaterialHash,
  type TrustRecord,
} from './trust.ts'
export { redactText, redactValue, isSecretName, REDACTED } from './redact.ts'
export { ConfigFileSchema, HookSchema, EventPatternSchema, type ConfigFile, type HookEntry } from './config/schema.ts'
export { compilePattern, patternProblem, MAX_SEGMENT_LENGTH, MAX_WILDCARDS, type EventPattern } from './pattern.ts'
export { selectHooks, selectionOf } from './select.ts'
export { runCommand, startDetached, OUTPUT_CAPS, type CommandRun, type CommandOptions } from './run.ts'
export { interpretRun, readAnswer, type HookResult, type ParsedAnswer } from './interpret.ts'
export { parseAnswer, interpretCommandRun } from './answer.ts'
export { decide, type Rewrites } from './decide.ts'
export { renderNative, type Rendered } from './render.ts'
export { hookEnvironment, HOOK_VARIABLES, ENV_VALUE_CAP, MAX_DEPTH } from './env.ts'
export {
  HookAnswerSchema,
  DecisionSchema,
  HookReportSchema,
  type HookAnswer,
  type Decision,
  type DecisionValue,
  type HookReport,
} from './protocol.ts'
export { HookrunError, ExitCode, formatError } from './errors.ts'
export { withFolderHooks, patternsFromAnswer, type ConfigWithFolders, type ShadowedHook } from './folders/hooks.ts'
export { discoverHookFolders, installedPlugins, type Discovery, type FoundSource, type InstalledPlugin } from './folders/discover.ts'
export { addPlugin, listPlugins, removePlugin, parsePluginSource, type PluginInfo } from './folders/plugins.ts'
export { fromKodeletAnswer } from './folders/kodelet.ts'
export { applySetFields } from './set-fields.ts'

// In-process hooks for agents written in TypeScript or JavaScript (README: "Function hooks").
export {
  createRunner,
  FunctionHookOptionsSchema,
  type Runner,
  type RunnerOptions,
  type RunnerFireOptions,
  type FunctionHookOptions,
} from './runner.ts'
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
} from './function-hook.ts'
export { loadHooks, type ChainStep, type InProcessStep, type LoadedHooks, type ProgressRecord } from './fire.ts'
export { canonicalTool, TOOL_ALIASES, type ToolAlias } from './tools.ts'
export { DIALECTS, resolveDialect, prepareDialect, type Dialect, type PreparedDialect } from './dialects/index.ts'
export { explainFire, addExclusionCheck, type Explanation, type HookExplanation, type Exclusion, type ExclusionCheck } from './explain.ts'
