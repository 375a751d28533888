// The zod schema of hooks.json: the single source of its types, validation and JSON Schema.
import { z } from 'zod'
import { matcherProblem, permissionRuleProblem } from '../event/pattern.ts'
import { HOOK_DEFAULTS } from './defaults.ts'
import {
  AllowedHttpHookUrlsSchema,
  AllowManagedHooksOnlySchema,
  HttpHookAllowedEnvVarsSchema,
  HttpUrlSchema,
  LogSchema,
  PolicySchema,
  TelemetrySchema,
  TrustedFoldersSchema,
} from './settings-schema.ts'
import { patternProblem } from '../event/pattern.ts'

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

const MatcherSchema = z
  .string()
  .superRefine((matcher, ctx) => {
    const problem = matcherProblem(matcher)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `matcher '${matcher}' ${problem}` })
  })
  .meta({
    description:
      "Claude Code's matcher: '' or '*' matches all; names separated by '|' or ',' match exactly; anything else is an unanchored regular expression.",
  })

/** Claude Code's `if`: one permission rule; hookrun entries may carry it too. */
const PermissionRuleSchema = z
  .string()
  .superRefine((rule, ctx) => {
    const problem = permissionRuleProblem(rule)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `if rule '${rule}': ${problem}` })
  })
  .meta({
    description:
      "Claude Code's permission rule, e.g. 'Bash(git *)' or 'Edit(*.ts)': the hook runs only for tool calls it matches (never on other events).",
  })

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

/** Claude Code (settings.json `hooks`): event → matcher groups → handlers. */
export const ClaudeHandlerSchema = z
  .strictObject({
    type: z.enum(['command', 'http', 'prompt', 'agent', 'mcp_tool']),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    timeout: z.number().positive().optional().meta({ description: 'Seconds; Claude Code defaults to 600 (30 on UserPromptSubmit).' }),
    async: z.boolean().optional(),
    asyncRewake: z.boolean().optional(),
    if: PermissionRuleSchema.optional(),
    shell: z.enum(['bash', 'powershell']).optional(),
    statusMessage: z.string().optional(),
    // Qwen Code's command hooks (its settings.json) carry one; `hookrun list` shows it.
    description: z.string().optional(),
    once: z.boolean().optional(),
    onFailure: z.enum(['block', 'allow']).optional().meta({
      description:
        "'block': a handler that cannot start, times out or exits with an unexpected code blocks instead of failing open (hookrun's onError: block).",
    }),
    // Goose's and the Open Plugins spelling, honoured on PreToolUse only, as Goose does.
    on_failure: z.enum(['block', 'allow']).optional().meta({
      description: "Goose (Open Plugins): 'block' on PreToolUse is onFailure: 'block'; Goose ignores it on other events.",
    }),
    // http handlers (src/run/http.ts).
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    allowedEnvVars: z.array(z.string()).optional(),
    // Fields of the handler types hookrun does not run (prompt, agent, mcp_tool): known, so only
    // the skip itself is reported.
    prompt: z.string().optional(),
    model: z.string().optional(),
    continueOnBlock: z.boolean().optional(),
    server: z.string().optional(),
    tool: z.string().optional(),
    input: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: "A Claude Code hook handler; hookrun runs types 'command' and 'http'." })

export const ClaudeGroupSchema = z.strictObject({
  matcher: MatcherSchema.optional(),
  hooks: z.array(z.unknown()),
})

/** Gemini CLI (settings.json `hooks`): Claude's nesting, `sequential` groups, named handlers, timeouts in ms. */
export const GeminiHandlerSchema = z
  .strictObject({
    type: z.enum(['command']).default('command').meta({ description: "Gemini CLI runs 'command' handlers only." }),
    command: z.string().min(1),
    name: z.string().min(1).optional().meta({ description: 'Names the handler in output (Gemini: in /hooks enable|disable).' }),
    description: z.string().optional(),
    timeout: z.number().positive().max(86_400_000).optional().meta({ description: 'Milliseconds (Gemini CLI), default 60000.' }),
  })
  .meta({ description: 'A Gemini CLI hook handler.' })

export const GeminiGroupSchema = z.strictObject({
  matcher: MatcherSchema.optional(),
  sequential: z.boolean().optional().meta({
    description:
      'true: the handlers matching this event run one after another (Gemini CLI runs all of them so if any matching group asks).',
  }),
  hooks: z.array(z.unknown()),
})

/** Cursor's own hooks.json (`{"version": 1, "hooks": {"beforeShellExecution": [handler]}}`): handlers without groups. */
export const CursorHandlerSchema = z
  .strictObject({
    command: z.string().min(1).optional(),
    type: z
      .enum(['command', 'prompt'])
      .optional()
      .meta({ description: "hookrun runs 'command' (the default); 'prompt' handlers are skipped with a warning." }),
    timeout: z.number().positive().max(86_400).optional().meta({ description: 'Seconds.' }),
    failClosed: z.boolean().optional().meta({
      description: "true: a failure (crash, timeout, bad answer) blocks instead of letting the action through (hookrun's onError: block).",
    }),
    matcher: MatcherSchema.optional(),
    loop_limit: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .optional()
      .meta({ description: "Cursor's cap on stop follow-ups; Cursor applies it to its own entries." }),
    prompt: z.string().optional(),
    model: z.string().optional(),
  })
  .meta({ description: "A Cursor hook handler (.cursor/hooks.json); hookrun runs type 'command'." })

/** Crush's own handler (crush.json `hooks.PreToolUse[]`, charmbracelet/crush docs/hooks): flat, no groups. */
const CrushHandlerSchema = z
  .strictObject({
    command: z.string().min(1),
    name: z.string().optional().meta({ description: "The name Crush's TUI shows." }),
    matcher: MatcherSchema.optional(),
    timeout: z.number().positive().max(86_400).optional().meta({ description: 'Seconds (Crush: default 30).' }),
  })
  .meta({ description: 'A Crush hook handler (crush.json): exit 2 denies, exit 49 halts the turn, JSON on exit 0.' })

/** Windsurf Cascade's own handler (hooks.json `hooks.pre_run_command[]`, docs.windsurf.com/windsurf/cascade/hooks). */
const WindsurfHandlerSchema = z
  .strictObject({
    command: z.string().min(1).optional(),
    powershell: z.string().optional().meta({ description: 'Windows only; hookrun runs command and skips a handler that has only this.' }),
    show_output: z.boolean().optional().meta({ description: 'Cascade shows the output; hookrun reports it in its own answer.' }),
    working_directory: z.string().min(1).optional().meta({ description: "The hook's working directory (hookrun's cwd)." }),
  })
  .meta({ description: 'A Windsurf Cascade hook handler: exit 2 blocks a pre-hook.' })

/** Kiro CLI's own handler (an agent file's `hooks.preToolUse[]`, kiro.dev/docs/cli/hooks). */
const KiroHandlerSchema = z
  .strictObject({
    command: z.string().min(1),
    matcher: z.string().optional().meta({ description: "Kiro's tool matcher: a name, a glob (fs_*), @server/tool, @builtin or *." }),
    timeout_ms: z.number().positive().max(86_400_000).optional().meta({ description: 'Milliseconds (Kiro: default 30000).' }),
    max_output_size: z.number().int().positive().optional(),
    cache_ttl_seconds: z.number().nonnegative().optional(),
  })
  .meta({ description: 'A Kiro CLI hook handler: exit 2 blocks preToolUse; stdout of agentSpawn and userPromptSubmit is context.' })

/** Reasonix's own handler (settings.json `hooks.PreToolUse[]`, internal/hook/hook.go, 1.38.11): flat, `match` not `matcher`. */
const ReasonixHandlerSchema = z
  .strictObject({
    command: z.string().min(1),
    match: z.string().optional().meta({ description: "Reasonix's tool matcher: a regex anchored on the whole tool name." }),
    description: z.string().optional(),
    timeout: z.number().positive().max(86_400_000).optional().meta({
      description: 'Milliseconds (Reasonix: default 5000 on PreToolUse, PermissionRequest and UserPromptSubmit, 30000 elsewhere).',
    }),
    cwd: z.string().min(1).optional().meta({ description: "The hook's working directory." }),
  })
  .meta({ description: 'A Reasonix settings hook: exit 2 blocks PreToolUse and UserPromptSubmit; stdout of SessionStart is context.' })

/** The handler schema of each agent whose own file lists handlers flat with no `version` (src/config/flat-shapes.ts), by the agent's name. */
export const FLAT_HANDLER_SCHEMAS: Readonly<
  Record<string, typeof CrushHandlerSchema | typeof WindsurfHandlerSchema | typeof KiroHandlerSchema | typeof ReasonixHandlerSchema>
> = { crush: CrushHandlerSchema, windsurf: WindsurfHandlerSchema, kiro: KiroHandlerSchema, reasonix: ReasonixHandlerSchema }

/** One entry of Kiro CLI v3's standalone hook file (`.kiro/hooks/<name>.json`, kiro.dev/docs/cli/v3/hooks). */
export const HookListEntrySchema = z
  .strictObject({
    name: z.string().min(1).meta({ description: 'With version "v1" (Kiro CLI v3): the entry\'s name, which hookrun names the hook by.' }),
    trigger: z.string().min(1).meta({
      description:
        'With version "v1" (Kiro CLI v3): its event, in PascalCase: PreToolUse, PostToolUse, SessionStart, UserPromptSubmit, Stop, PreTaskExec, …',
    }),
    matcher: z
      .string()
      .optional()
      .meta({ description: 'With version "v1" (Kiro CLI v3): Kiro\'s tool matcher: a name, a glob (fs_*), @server/tool, @builtin or *.' }),
    action: z
      .strictObject({
        type: z.enum(['command', 'agent']).meta({ description: "hookrun runs 'command'; an 'agent' action is skipped with a warning." }),
        command: z.string().min(1).optional().meta({ description: 'The command a command action runs.' }),
        prompt: z.string().optional().meta({ description: "An agent action's prompt (not run by hookrun)." }),
      })
      .meta({ description: 'With version "v1" (Kiro CLI v3): what the entry does.' }),
    timeout: z.number().positive().max(86_400).optional().meta({ description: 'With version "v1" (Kiro CLI v3): seconds, default 30.' }),
    enabled: z.boolean().optional().meta({ description: 'With version "v1" (Kiro CLI v3): false keeps the entry but does not run it.' }),
  })
  .meta({ description: 'A Kiro CLI v3 hook: exit 2 blocks PreToolUse, UserPromptSubmit and PreTaskExec.' })

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
  trustedFolders: TrustedFoldersSchema.optional(),
  log: LogSchema.optional(),
  allowManagedHooksOnly: AllowManagedHooksOnlySchema.optional(),
  telemetry: TelemetrySchema.optional(),
  policy: PolicySchema.optional(),
  allowedHttpHookUrls: AllowedHttpHookUrlsSchema.optional(),
  httpHookAllowedEnvVars: HttpHookAllowedEnvVarsSchema.optional(),
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
  trustedFolders: z.unknown().optional(),
  log: z.unknown().optional(),
  allowManagedHooksOnly: z.unknown().optional(),
  telemetry: z.unknown().optional(),
  policy: z.unknown().optional(),
  allowedHttpHookUrls: z.unknown().optional(),
  httpHookAllowedEnvVars: z.unknown().optional(),
}
export const ConfigEnvelopeSchema = z.strictObject(envelopeShape)

export type HookEntry = z.output<typeof HookSchema>
export type ConfigFile = z.output<typeof ConfigFileSchema>
