// The zod schemas of agents' own hook handlers as a hooks.json may hold them (Claude Code's
// groups, Gemini CLI's, Cursor's, the flat shapes, a hook list): part of hooks.json's schema
// (./schema.ts), the single source of their types, validation and JSON Schema.
import { z } from 'zod'
import { matcherProblem, permissionRuleProblem } from '../event/pattern.ts'

export const MatcherSchema = z
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
export const PermissionRuleSchema = z
  .string()
  .superRefine((rule, ctx) => {
    const problem = permissionRuleProblem(rule)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `if rule '${rule}': ${problem}` })
  })
  .meta({
    description:
      "Claude Code's permission rule, e.g. 'Bash(git *)' or 'Edit(*.ts)': the hook runs only for tool calls it matches (never on other events).",
  })

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
export const CrushHandlerSchema = z
  .strictObject({
    command: z.string().min(1),
    name: z.string().optional().meta({ description: "The name Crush's TUI shows." }),
    matcher: MatcherSchema.optional(),
    timeout: z.number().positive().max(86_400).optional().meta({ description: 'Seconds (Crush: default 30).' }),
  })
  .meta({ description: 'A Crush hook handler (crush.json): exit 2 denies, exit 49 halts the turn, JSON on exit 0.' })

/** Windsurf Cascade's own handler (hooks.json `hooks.pre_run_command[]`, docs.windsurf.com/windsurf/cascade/hooks). */
export const WindsurfHandlerSchema = z
  .strictObject({
    command: z.string().min(1).optional(),
    powershell: z.string().optional().meta({ description: 'Windows only; hookrun runs command and skips a handler that has only this.' }),
    show_output: z.boolean().optional().meta({ description: 'Cascade shows the output; hookrun reports it in its own answer.' }),
    working_directory: z.string().min(1).optional().meta({ description: "The hook's working directory (hookrun's cwd)." }),
  })
  .meta({ description: 'A Windsurf Cascade hook handler: exit 2 blocks a pre-hook.' })

/** Kiro CLI's own handler (an agent file's `hooks.preToolUse[]`, kiro.dev/docs/cli/hooks). */
export const KiroHandlerSchema = z
  .strictObject({
    command: z.string().min(1),
    matcher: z.string().optional().meta({ description: "Kiro's tool matcher: a name, a glob (fs_*), @server/tool, @builtin or *." }),
    timeout_ms: z.number().positive().max(86_400_000).optional().meta({ description: 'Milliseconds (Kiro: default 30000).' }),
    max_output_size: z.number().int().positive().optional(),
    cache_ttl_seconds: z.number().nonnegative().optional(),
  })
  .meta({ description: 'A Kiro CLI hook handler: exit 2 blocks preToolUse; stdout of agentSpawn and userPromptSubmit is context.' })

/** Reasonix's own handler (settings.json `hooks.PreToolUse[]`, internal/hook/hook.go, 1.38.11): flat, `match` not `matcher`. */
export const ReasonixHandlerSchema = z
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

/** The handler schema of each agent whose own file lists handlers flat with no `version` (src/config/agent-shapes.ts), by the agent's name. */
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
