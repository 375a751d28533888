// The hook protocol as zod schemas: a hook's JSON answer and the Decision fire answers with.
import { z } from 'zod'
import { DECISION_WORDS } from './decisions.ts'

/** Where a hook came from (`Layer`, src/core/types.ts). */
export const LAYERS = [
  'managed',
  'policy',
  'user',
  'project',
  'local',
  'config',
  'project-folder',
  'project-plugin',
  'user-folder',
  'user-plugin',
] as const

/** allow / deny / ask, with the synonyms older hooks print. */
const DecisionValueSchema = z.enum(['allow', 'deny', 'ask', 'approve', 'block']).transform((value) => DECISION_WORDS[value]!)

// The carried fields are plain data in a zod-free module: fire's hot path reads them without zod.
export { CARRIED_FIELDS, type CarriedField } from './carried.ts'

/** Gemini's BeforeToolSelection answer: which functions the model may call. */
const ToolConfigSchema = z.looseObject({
  mode: z.enum(['AUTO', 'ANY', 'NONE']).optional(),
  allowedFunctionNames: z.array(z.string()).optional(),
})

/** Claude Code's nested form of the same answer. */
const HookSpecificOutputSchema = z.looseObject({
  hookEventName: z.string().optional(),
  permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
  permissionDecisionReason: z.string().optional(),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  additionalContext: z.string().optional(),
  /** Gemini BeforeTool: fields merged over the tool's arguments. */
  tool_input: z.record(z.string(), z.unknown()).optional(),
  toolConfig: ToolConfigSchema.optional(),
  /** PermissionRequest's form: `{ behavior, updatedInput, message }`. */
  decision: z
    .looseObject({
      behavior: z.enum(['allow', 'deny', 'ask']),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      message: z.string().optional(),
    })
    .optional(),
})

/** A hook's JSON answer on stdout. Unknown keys are allowed: agents add fields over time. */
export const HookAnswerSchema = z.looseObject({
  decision: DecisionValueSchema.optional(),
  reason: z.string().optional(),
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  systemMessage: z.string().optional(),
  additionalContext: z.string().optional(),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  updatedPrompt: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  toolConfig: ToolConfigSchema.optional(),
  hookSpecificOutput: HookSpecificOutputSchema.optional(),
})

export type HookAnswer = z.output<typeof HookAnswerSchema>
export type DecisionValue = 'allow' | 'deny' | 'ask'

/** How one hook ended, as reported in `hooks[]` of the decision. */
export const HookReportSchema = z.object({
  name: z.string(),
  // 'function': a function hook registered on a runner (src/library/runner.ts).
  source: z.enum([...LAYERS, 'function']),
  file: z.string(),
  outcome: z.enum(['allow', 'deny', 'ask', 'error', 'background']),
  exitCode: z.number().nullable(),
  signal: z.string().nullable().optional(),
  durationMs: z.number(),
  timedOut: z.boolean(),
  reason: z.string().optional(),
  /** The first stdout line was `{"async": true}`: released to run on, it gives no decision. */
  async: z.boolean().optional(),
  /** An http hook's answer status (its `exitCode` is null). */
  httpStatus: z.number().optional(),
  /** 2 or more: its answer on the input that runs, after a later hook rewrote what it had judged (README "Rewrites are judged again"). */
  round: z.number().optional(),
})

/** The one JSON object `hookrun fire` prints. */
export const DecisionSchema = z.object({
  event: z.string(),
  decision: z.enum(['allow', 'deny', 'ask']),
  blocked: z.boolean(),
  reason: z.string().optional(),
  /** The hook whose decision stands; absent when no hook decided (the agent's own rules apply). */
  decidedBy: z.string().optional(),
  /** On agent:stop / subagent:stop a block means: do not stop, keep going with `reason`. */
  keepGoing: z.boolean().optional(),
  continue: z.boolean(),
  stopReason: z.string().optional(),
  systemMessage: z.string().optional(),
  additionalContext: z.array(z.string()),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  updatedPrompt: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  /** Gemini's BeforeToolSelection tool config, merged over every hook as Gemini merges it. */
  toolConfig: ToolConfigSchema.optional(),
  /** Gemini's BeforeModel request to send instead. */
  llmRequest: z.record(z.string(), z.unknown()).optional(),
  /** Gemini's model response to use instead (BeforeModel: without calling the model). */
  llmResponse: z.record(z.string(), z.unknown()).optional(),
  /** Claude Code's PostToolUse: the tool output the model sees instead. */
  updatedToolOutput: z.unknown().optional(),
  updatedMCPToolOutput: z.unknown().optional(),
  hooks: z.array(HookReportSchema),
  warnings: z.array(z.string()),
})

export type HookReport = z.output<typeof HookReportSchema>
export type Decision = z.output<typeof DecisionSchema>

/** A decision as an agent reads it: what hookrun prints and its exit code. */
export interface Rendered {
  readonly stdout: string
  readonly exitCode: number
  /** For agents that read the reason of a block from stderr (Windsurf, Kiro). */
  readonly stderr?: string
  /** For the person at the keyboard where the agent shows nothing of a hook's output: written to its terminal. */
  readonly terminal?: string
}
