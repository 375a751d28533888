/**
 * `hookrun/unstable`: the pipeline's internal stages, for tools built on hookrun's internals. Any
 * release may change or remove them; `hookrun` (src/index.ts) is the API that stays. Glob
 * matching is set up here as there: the stages compile patterns synchronously.
 */
import picomatch from 'picomatch'
import { provideGlobs } from './event/globs.ts'

provideGlobs(picomatch)

export { runChain } from './chain.ts'
export { loadHooks, type LoadedHooks } from './fire-config.ts'
export { mergeHooks, type ResolvedConfig } from './config/load.ts'
export { findConfigFiles, findProjectRoot, type LoadOptions } from './config/files.ts'
export { loadConfig, readConfigFile, readConfigDocument, parseConfigDocument } from './config/parse.ts'
export type { ConfigDocument } from './config/document.ts'
export { userConfigDir, stateDir } from './core/places.ts'
export { resolveTrust, trustedFolderOf, type ProjectTrust } from './trust/trust.ts'
export { projectMaterial, hashProjectMaterial, type MaterialHash } from './trust/material-hash.ts'
export { readTrustRecord, writeTrustRecord, removeTrustRecord, type TrustRecord } from './trust/records.ts'
export { formatProblem, needsTrust } from './core/types.ts'
export { redactText, redactValue, isSecretName, REDACTED } from './audit/redact.ts'
export { selectHooks, selectionOf } from './select/select.ts'
export { runCommand, startDetached, OUTPUT_CAPS, type CommandOptions } from './run/command.ts'
export type { CommandRun, HookResult, ParsedAnswer } from './core/types.ts'
export { interpretRun } from './answer/interpret.ts'
export { readAnswer } from './answer/read.ts'
export { parseAnswer, interpretCommandRun } from './answer/parse.ts'
export { decide, type Rewrites } from './answer/decide.ts'
export { hookEnvironment, HOOK_VARIABLES, ENV_VALUE_CAP } from './run/env.ts'
export { withFolderHooks, patternsFromAnswer, type ConfigWithFolders, type ShadowedHook } from './folders/hooks.ts'
export { discoverHookFolders, installedPlugins, type Discovery, type FoundSource, type InstalledPlugin } from './discover/folders.ts'
export { addPlugin, listPlugins, removePlugin, parsePluginSource, type PluginInfo } from './folders/plugins.ts'
export { fromKodeletAnswer } from './answer/kodelet.ts'
export { applySetFields } from './payload/set-fields.ts'
export { addExclusionCheck, type ExclusionCheck } from './explain/explain.ts'
