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
export {
  loadConfig,
  findConfigFiles,
  findProjectRoot,
  readConfigFile,
  readConfigDocument,
  parseConfigDocument,
  mergeHooks,
  userConfigDir,
  formatProblem,
  type Hook,
  type Layer,
  type ConfigProblem,
  type ResolvedConfig,
  type LoadOptions,
  type ConfigDocument,
} from './config/load.ts'
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
export { interpretRun, type HookResult } from './interpret.ts'
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
