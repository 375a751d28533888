// The zod schema of hooks.json: the single source of its types, validation and JSON Schema.
import { z } from 'zod'
import { HOOK_DEFAULTS } from './defaults.ts'
import { HttpUrlSchema, SETTINGS } from './settings-schema.ts'
import { patternProblem } from '../event/pattern.ts'
import {
  ClaudeGroupSchema,
  CursorHandlerSchema,
  CrushHandlerSchema,
  GeminiGroupSchema,
  HookListEntrySchema,
  KiroHandlerSchema,
  MatcherSchema,
  PermissionRuleSchema,
  ReasonixHandlerSchema,
  WindsurfHandlerSchema,
} from './agent-schemas.ts'

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

const MatchSchema = z
  .strictObject({
    tool: z.string().min(1).meta({ description: "Tool name(s) separated by '|', compared without regard to case (pigo's match rule)." }),
  })
  .meta({ description: 'pigo-style filter on the tool name.' })

/** The agents whose rules a hookrun entry may keep (`agent`); Codex runs Claude Code's document by Claude's rules. */
const AGENT_RULES = ['claude', 'gemini', 'cursor', 'codex', 'kiro', 'reasonix'] as const

/** An http hook's fields (Claude Code's `type: "http"` handler, plus limits hookrun adds). */
const httpShape = {
  type: z
    .enum(['command', 'http'])
    .optional()
    .meta({ description: "'http' with url, 'command' (the default) with command; given or not, the hook's fields decide." }),
  url: HttpUrlSchema.optional(),
  headers: z.record(z.string(), z.string()).optional().meta({
    description: 'http hook: request headers. $VAR and ${VAR} expand only for names listed in allowedEnvVars (others become empty).',
  }),
  allowedEnvVars: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected a variable name such as API_TOKEN (no $)'))
    .optional()
    .meta({ description: 'http hook: the environment variables its headers may use; no other is ever sent.' }),
  followRedirects: z.boolean().optional().meta({ description: 'http hook: follow a 3xx answer (default false: a redirect is a failure).' }),
  maxResponseBytes: z
    .number()
    .int()
    .positive()
    .optional()
    .meta({ description: 'http hook: a longer response body is a failure (default 1048576).' }),
}

const hookShape = {
  name: z.string().min(1).optional().meta({
    description: 'Identifies the hook in output and logs; a later layer replaces or disables a hook of the same name.',
  }),
  event: EventPatternSchema.optional(),
  command: z.string().min(1).optional().meta({
    description:
      "Shell command, run with 'sh -c' in the project root. Required unless the entry only disables a hook or is an http hook (url).",
  }),
  ...httpShape,
  timeout: z.number().positive().max(86_400).default(HOOK_DEFAULTS.timeout).meta({
    description: 'Seconds before the hook is killed (its whole process group). A timeout is a failure.',
  }),
  blocking: z.boolean().default(HOOK_DEFAULTS.blocking).meta({
    description: 'false: start the hook detached and do not wait for it (fire-and-forget); it cannot block.',
  }),
  onError: z.enum(['block', 'allow']).optional().meta({
    description:
      'What a failure (exit other than 0/2, timeout, cannot start) means. Default: block on events that can be stopped (tool:pre_execute, user:prompt_submit, permission:*), allow with a warning elsewhere.',
  }),
  cwd: z.string().min(1).optional().meta({ description: 'Working directory; relative paths start at the project root.' }),
  working_dir: z.string().min(1).optional().meta({ description: "Code-Forge's name for cwd." }),
  env: z.record(z.string(), z.string()).optional().meta({ description: 'Extra environment variables for this hook.' }),
  enabled: z
    .boolean()
    .default(HOOK_DEFAULTS.enabled)
    .meta({ description: 'false switches the hook (or an inherited one of the same name) off.' }),
  description: z.string().optional().meta({ description: 'What the hook is for; shown by `hookrun list`.' }),
  match: MatchSchema.optional(),
  matcher: MatcherSchema.optional(),
  if: PermissionRuleSchema.optional(),
  agent: z.enum(AGENT_RULES).optional().meta({
    description:
      "Written for this agent (what 'hookrun import' moves over): the hook keeps that agent's rules. Every matching handler runs, concurrently, whatever another answers; only exit 2 or a deny blocks; a failure or timeout lets the event through unless onError is block; the agent's project-folder variable is set (CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR, CURSOR_PROJECT_DIR).",
  }),
  sequential: z.boolean().optional().meta({
    description: "With agent 'gemini': Gemini CLI's sequential group; the matching handlers of the event run one after another.",
  }),
  locked: z.boolean().optional().meta({
    description:
      'Managed config only: no user, project or local layer may replace, disable or reorder this hook (an attempt is a warning).',
  }),
}

function requireEventAndCommand(
  hook: { name?: string; event?: unknown; command?: string; url?: string; type?: string; enabled: boolean },
  ctx: z.RefinementCtx,
): void {
  if (hook.command !== undefined && hook.url !== undefined)
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'a hook has a command or a url, not both' })
  if (hook.type === 'http' && hook.command !== undefined)
    ctx.addIssue({ code: 'custom', path: ['command'], message: "type 'http' takes a url, not a command" })
  if (hook.type === 'command' && hook.url !== undefined)
    ctx.addIssue({ code: 'custom', path: ['url'], message: "type 'command' takes a command, not a url" })
  // An entry that only switches an inherited hook off needs nothing but its name.
  if (hook.enabled === false && hook.name !== undefined && hook.command === undefined && hook.url === undefined) return
  if (hook.event === undefined) ctx.addIssue({ code: 'custom', path: ['event'], message: 'required: the event pattern this hook runs on' })
  if (hook.command === undefined && hook.url === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [hook.type === 'http' ? 'url' : 'command'],
      message:
        hook.type === 'http'
          ? 'required: the URL to POST the payload to'
          : 'required: the shell command to run (or a url for an http hook)',
    })
  }
}

/** hookrun's own flat hook (Code-Forge's list, with `working_dir`, and pigo's `match`). */
export const HookSchema = z.strictObject(hookShape).superRefine(requireEventAndCommand)

/** pigo (seed 000): `plugins[].hooks.<event>[]`. */
export const PigoHookSchema = z.strictObject({
  command: z.string().min(1),
  match: MatchSchema.optional(),
  blocking: z.boolean().default(true),
  timeout: z.number().positive().max(86_400).default(10),
})

export const PigoPluginSchema = z
  .strictObject({
    name: z.string().min(1),
    enabled: z.boolean().default(true),
    hooks: z.record(z.string(), z.array(z.unknown())).meta({ description: 'pigo event name (tool_start, tool_end, agent_end, …) → hooks' }),
  })
  .meta({ description: "A pigo plugin: its hooks keyed by pigo's event names." })

const fileShape = {
  $schema: z.string().optional().meta({ description: 'JSON Schema URL or path, for editors.' }),
  // Claude Code's plugin hooks.json (and Open Plugins') opens with one: a pasted file must not warn on every fire.
  description: z
    .string()
    .optional()
    .meta({ description: 'What the file is for (as in a Claude Code plugin hooks.json); shown nowhere, never warned about.' }),
  hooks: z
    .union([
      z.array(HookSchema),
      z.record(z.string(), z.array(ClaudeGroupSchema)),
      z.record(z.string(), z.array(GeminiGroupSchema)),
      z.record(z.string(), z.array(CursorHandlerSchema)),
      z.record(z.string(), z.array(CrushHandlerSchema)),
      z.record(z.string(), z.array(WindsurfHandlerSchema)),
      z.record(z.string(), z.array(KiroHandlerSchema)),
      z.record(z.string(), z.array(ReasonixHandlerSchema)),
      z.array(HookListEntrySchema),
    ])
    .default([])
    .meta({
      description:
        "hookrun's list of hooks, run in this order; or Claude Code's (and Gemini CLI's) object form { Event: [ { matcher, hooks: [...] } ] }; or, with version, Cursor's { event: [ { command } ] }; or Crush's, Windsurf's, Kiro's or Reasonix's flat { event: [ { command } ] }, told apart by their event names and keys; or, with version \"v1\", Kiro CLI v3's list [ { name, trigger, action } ].",
    }),
  version: z
    .union([z.number().int().positive(), z.literal('v1')])
    .optional()
    .meta({
      description:
        "Cursor's hooks.json version (1): the file's hooks are read in Cursor's shape; \"v1\": a Kiro CLI v3 hook file, its hooks list read in Kiro's shape.",
    }),
  plugins: z.array(PigoPluginSchema).optional().meta({ description: "pigo's plugins array." }),
  envPrefixes: z
    .array(z.string().regex(/^[A-Z][A-Z0-9_]*_$/, 'expected an upper-case prefix ending in _, such as PIGO_'))
    .optional()
    .meta({
      description:
        "Also give this file's hooks the HOOKRUN_* variables under these prefixes. PIGO_ and FORGE_ give pigo's and Code-Forge's hooks the variable names they expect.",
    }),
  // Settings: read from the user config (and --config files) only; a project file cannot set them.
  ...z.object(SETTINGS).partial().shape,
}

export const ConfigFileSchema = z
  .strictObject(fileShape)
  .meta({ title: 'hookrun hooks.json', description: 'Hooks for every coding agent, run by hookrun.' })

/**
 * The top level of a file, its entries left for the entry schemas one by one so one bad hook skips
 * alone, and its settings left for their own schemas so a bad setting is ignored alone.
 */
const envelopeShape = {
  ...fileShape,
  hooks: z
    .union([z.array(z.unknown()), z.record(z.string(), z.array(z.unknown()))], {
      error: "expected an array of hooks, or Claude Code's object { Event: [ { matcher, hooks } ] }",
    })
    .default([]),
  plugins: z.array(z.unknown()).optional(),
  ...(Object.fromEntries(Object.keys(SETTINGS).map((key) => [key, z.unknown().optional()])) as {
    [K in keyof typeof SETTINGS]: z.ZodOptional<z.ZodUnknown>
  }),
}
export const ConfigEnvelopeSchema = z.strictObject(envelopeShape)

export type HookEntry = z.output<typeof HookSchema>
export type ConfigFile = z.output<typeof ConfigFileSchema>
