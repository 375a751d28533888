/**
 * hookrun as a library: what docs/library.md documents, and nothing else (the internal stages are
 * in `hookrun/unstable`, src/unstable.ts, which may change in any release).
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

// One event, decided: the pipeline `hookrun fire` runs.
export { fire, MAX_DEPTH, type FireOptions } from './fire.ts'
export { explainFire, type Explanation, type HookExplanation, type Exclusion } from './explain/explain.ts'
export type { ChainStep, InProcessStep, ProgressRecord } from './chain.ts'

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

// Payloads, events, tools and patterns: the vocabulary a caller names events and hooks in.
export { readPayload, parsePayload, MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH } from './payload/payload.ts'
export type { Payload, FiredEvent, Hook, Layer, Settings, ConfigProblem } from './core/types.ts'
export { qualifyEvent } from './event/event.ts'
export { CANONICAL_EVENTS, canonicalEvent, isGate, type CanonicalEvent } from './event/events.ts'
export { canonicalTool } from './event/tools.ts'
export { TOOL_ALIASES, type ToolAlias } from './event/tool-aliases.ts'
export { compilePattern, patternProblem, MAX_SEGMENT_LENGTH, MAX_WILDCARDS, type EventPattern } from './event/pattern.ts'

// Agents' payloads and answers (docs/agents.md).
export { DIALECTS } from './agents/registry.ts'
export { resolveDialect, prepareDialect, type Dialect, type PreparedDialect } from './dialect.ts'
export { renderNative, type Rendered } from './answer/render.ts'

// The schemas: hooks.json, and the protocol's answers and decision (schema.json is made from them).
export { ConfigFileSchema, HookSchema, EventPatternSchema, type ConfigFile, type HookEntry } from './config/schema.ts'
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
