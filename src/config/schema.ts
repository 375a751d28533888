import { z } from 'zod'
import { patternProblem } from '../pattern.ts'

/**
 * The config file and hook shapes. These schemas are the single source of truth: the TypeScript
 * types, the validation in `fire`/`validate` and the published JSON Schema (`hookrun schema`)
 * all come from them.
 */

const PatternTextSchema = z.string().superRefine((text, ctx) => {
  const problem = patternProblem(text)
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `pattern '${text}' ${problem}` })
})

export const EventPatternSchema = z
  .union([PatternTextSchema, z.array(PatternTextSchema).min(1)], {
    error: 'expected an event pattern string, or a non-empty array of them',
  })
  .meta({
    description:
      "Event pattern(s): 'tool:pre_execute', 'tool:*', 'tool:pre_execute:bash', 'tool:*:write|edit', 'session:start,session:end', '*'. An array means any of.",
  })

const hookShape = {
  name: z.string().min(1).optional().meta({
    description: 'Identifies the hook in output and logs; a later layer replaces or disables a hook of the same name.',
  }),
  event: EventPatternSchema.optional(),
  command: z.string().min(1).optional().meta({
    description: "Shell command, run with 'sh -c' in the project root. Required unless the entry only disables a hook.",
  }),
  timeout: z.number().positive().max(86_400).default(10).meta({
    description: 'Seconds before the hook is killed (its whole process group). A timeout is a failure.',
  }),
  blocking: z.boolean().default(true).meta({
    description: 'false: start the hook detached and do not wait for it (fire-and-forget); it cannot block.',
  }),
  onError: z.enum(['block', 'allow']).optional().meta({
    description:
      'What a failure (exit other than 0/2, timeout, cannot start) means. Default: block on events that can be stopped (tool:pre_execute, user:prompt_submit, permission:*), allow with a warning elsewhere.',
  }),
  cwd: z.string().min(1).optional().meta({ description: 'Working directory; relative paths start at the project root.' }),
  env: z.record(z.string(), z.string()).optional().meta({ description: 'Extra environment variables for this hook.' }),
  enabled: z.boolean().default(true).meta({ description: 'false switches the hook (or an inherited one of the same name) off.' }),
  description: z.string().optional().meta({ description: 'What the hook is for; shown by `hookrun list`.' }),
}

function requireEventAndCommand(hook: { name?: string; event?: unknown; command?: string; enabled: boolean }, ctx: z.RefinementCtx): void {
  // An entry that only switches an inherited hook off needs nothing but its name.
  if (hook.enabled === false && hook.name !== undefined) return
  if (hook.event === undefined) ctx.addIssue({ code: 'custom', path: ['event'], message: 'required: the event pattern this hook runs on' })
  if (hook.command === undefined) ctx.addIssue({ code: 'custom', path: ['command'], message: 'required: the shell command to run' })
}

export const HookSchema = z.strictObject(hookShape).superRefine(requireEventAndCommand)

/** The same hook with unknown keys dropped: `fire` warns about them and still runs the hook. */
export const LenientHookSchema = z.object(hookShape).superRefine(requireEventAndCommand)

export const TrustedFoldersSchema = z.array(z.string()).meta({
  description:
    "User config only. Folders whose project hooks run without 'hookrun trust': absolute paths or ~/…, globs allowed ('~/src/mine/*'). A project is trusted when its root or a folder above it matches.",
})

export const LogSchema = z
  .strictObject({
    path: z.string().min(1).meta({ description: 'The audit log file (JSON Lines); ~/… and paths relative to this config file allowed.' }),
  })
  .meta({ description: "User config only. Append one JSON line per fire (event, each hook's outcome, the decision), secrets redacted." })

const fileShape = {
  $schema: z.string().optional().meta({ description: 'JSON Schema URL or path, for editors.' }),
  hooks: z.array(HookSchema).default([]).meta({ description: 'Hooks, run in this order.' }),
  // Settings: read from the user config (and --config files) only; a project file cannot set them.
  trustedFolders: TrustedFoldersSchema.optional(),
  log: LogSchema.optional(),
}

export const ConfigFileSchema = z
  .strictObject(fileShape)
  .meta({ title: 'hookrun hooks.json', description: 'Hooks for every coding agent, run by hookrun.' })

/**
 * The top level of a file, its entries left for HookSchema one by one so one bad hook skips alone,
 * and its settings left for their own schemas so a bad setting is ignored alone.
 */
const envelopeShape = { ...fileShape, hooks: z.array(z.unknown()).default([]), trustedFolders: z.unknown().optional(), log: z.unknown().optional() }
export const ConfigEnvelopeSchema = z.strictObject(envelopeShape)
export const LenientConfigEnvelopeSchema = z.object(envelopeShape)

export type HookEntry = z.output<typeof HookSchema>
/** The settings a config file may carry besides its hooks. */
export interface FileSettings {
  readonly trustedFolders?: z.output<typeof TrustedFoldersSchema>
  readonly log?: z.output<typeof LogSchema>
}
export type ConfigFile = z.output<typeof ConfigFileSchema>
