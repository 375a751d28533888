// The types every stage passes to the next; imports nothing outside src/core/.
import { dirname } from 'node:path'
import type { DecisionValue, HookAnswer, HookReport, LAYERS } from './protocol.ts'

export type { Decision, DecisionValue, HookAnswer, HookReport } from './protocol.ts'

/** Where a hook came from: hooks.json layers override earlier ones by name; folder and plugin layers come after. */
export type Layer = (typeof LAYERS)[number]

export interface ConfigFileRef {
  readonly layer: Layer
  readonly file: string
}

export interface ConfigProblem {
  readonly severity: 'error' | 'warning'
  readonly file: string
  /** JSON path inside the file, e.g. `hooks[2].timeout`; empty for the whole file. */
  readonly path: string
  readonly message: string
  /** The problem took a hook away: the events it was for (none: any event). On a gate event it blocks. */
  readonly brokenHook?: { readonly events?: readonly string[] }
  /** A project hook trust cannot pin (its `env` sets a search path, src/trust/hook-env.ts): `hookrun trust` refuses. */
  readonly untrustable?: true
}

/** The config shape a hook was written in (src/config/shapes.ts): the shapes differ in what a failure means. */
export type HookShape = 'hookrun' | 'pigo' | 'claude' | 'gemini' | 'cursor' | 'codex' | 'crush' | 'windsurf' | 'kiro' | 'reasonix'

/** Which handlers run when several match: `all` (concurrently, strictest wins: the agents' rule) or `chain` (in order, stop at a block). */
export type HookRule = 'all' | 'chain'

/** The rule a shape keeps: the one the document it was written for is run by. */
export function ruleOfShape(shape: HookShape): HookRule {
  return shape === 'hookrun' || shape === 'pigo' ? 'chain' : 'all'
}

/** Shapes written for an agent: only exit 2 blocks, other failures only warn (unless onError says block). */
export function isAgentShape(shape: HookShape): boolean {
  return ruleOfShape(shape) === 'all'
}

/** A hook ready to select and run, with where it was written. */
export interface Hook {
  /** The hook's `name`, or `<layer>#<index>` for an unnamed hook; an agent's handler's short name (`PreToolUse/check-bash`). */
  readonly name: string
  readonly named: boolean
  /** An agent-shaped handler's long name (`PreToolUse[Bash] ./check-bash.sh`): layers merge on it, and it still names the hook. */
  readonly identity?: string
  readonly event: readonly string[]
  /** The index keys of `event` (src/event/pattern.ts `patternKeys`), when the parser stored them. */
  readonly eventKeys?: readonly string[]
  /** The shell command; for an http hook `POST <url>`, which is what `list` and `explain` show. */
  readonly command: string
  /** Set for an http hook (`url` instead of `command`): POST the payload there instead of running a command. */
  readonly http?: HttpTarget
  /** Seconds. */
  readonly timeout: number
  readonly blocking: boolean
  readonly onError?: 'block' | 'allow'
  readonly cwd?: string
  readonly env?: Readonly<Record<string, string>>
  readonly enabled: boolean
  readonly description?: string
  /** The config shape it was written in; Claude-shape hooks keep Claude's exit-code rules. */
  readonly shape: HookShape
  /** pigo's `match: { tool }`: tool names separated by `|`. */
  readonly match?: { readonly tool: string }
  /** Claude Code's matcher (exact list or regular expression). */
  readonly matcher?: string
  /** Claude Code's `if` permission rule. */
  readonly when?: string
  /** Its Gemini CLI group says `sequential: true`: the matching handlers run one after another. */
  readonly sequential?: boolean
  /** Extra prefixes for the HOOKRUN_* variables (`PIGO_`, `FORGE_`, …). */
  readonly envPrefixes: readonly string[]
  /** `index` counts the file's hooks; `path` is the entry's JSON path. A hook folder's executable: `file` (`index` 0, `path` empty). */
  readonly source: {
    readonly layer: Layer
    readonly file: string
    readonly index: number
    readonly path: string
    readonly executable?: boolean
  }
  /** A hook of an enclosing project (src/config/files.ts): the project it runs in, as trust pinned it. */
  readonly projectRoot?: string
  /** A managed hook marked `locked`: no later layer may replace, disable or move it. */
  readonly locked?: boolean
  /** Set when a later entry of the same name switched this hook off. */
  readonly disabledBy?: { readonly file: string; readonly index: number; readonly path: string }
}

/** Where an http hook sends the payload, and how (src/run/http.ts). */
export interface HttpTarget {
  readonly url: string
  /** Header values; `$VAR` and `${VAR}` expand only for names in `allowedEnvVars`. */
  readonly headers?: Readonly<Record<string, string>>
  readonly allowedEnvVars?: readonly string[]
  /** A 3xx answer is a failure unless this is true. */
  readonly followRedirects?: boolean
  /** A longer answer is a failure. */
  readonly maxResponseBytes?: number
  /** The managed, user and trusted project limits on http hooks (`allowedHttpHookUrls`, `httpHookAllowedEnvVars`). */
  readonly limits?: HttpHookLimits
}

/** `allowedHttpHookUrls` and `httpHookAllowedEnvVars` per layer that set them: every list narrows. */
export interface HttpHookLimits {
  readonly urls?: ReadonlyArray<{ readonly patterns: readonly string[]; readonly file: string }>
  readonly envVars?: ReadonlyArray<{ readonly names: readonly string[]; readonly file: string }>
}

/** What the user's own config says besides its hooks. */
export interface Settings {
  /** `trustedFolders` entries (home expanded), each with the file that listed it. */
  readonly trustedFolders: ReadonlyArray<{ readonly pattern: string; readonly file: string }>
  /** Where the audit log goes (absolute), and the file that said so. */
  readonly log?: { readonly path: string; readonly file: string; readonly chain?: boolean }
  /** OpenTelemetry export (src/telemetry/): from the managed config, else the user's, and the file that said so. */
  readonly telemetry?: TelemetrySettings
  /** `allowManagedHooksOnly` in the managed config: the file that said so. Only managed hooks run. */
  readonly managedOnly?: { readonly file: string }
  /** Limits on http hooks from every layer that set them (a project's only while it is trusted). */
  readonly httpHooks?: HttpHookLimits
}

/** The `telemetry` setting as written. */
interface TelemetrySettings {
  readonly endpoint?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly serviceName?: string
  readonly attributes?: Readonly<Record<string, string | number | boolean>>
  readonly file: string
}

/** The event JSON an agent hands to `fire`: always a JSON object. */
export type Payload = Record<string, unknown>

/** A call of tool `tool` of MCP server `server`, whatever the agent called it (src/event/mcp.ts). */
export interface McpTool {
  readonly server: string
  readonly tool: string
}

/** An event as hooks see it: its canonical name plus, for tool events, the subject. */
export interface FiredEvent {
  /** Canonical name without subject, e.g. `tool:pre_execute`. */
  readonly name: string
  /** The tool name as the agent spelled it (`Bash`), if any. */
  readonly tool?: string
  /** Lowercased segments matched against patterns; the subject is the tool's canonical name (`['tool', 'pre_execute', 'bash']`). */
  readonly segments: readonly string[]
  /** `name` plus the subject: `tool:pre_execute:bash`. */
  readonly qualified: string
  /** A call of an MCP tool: its server and tool, whatever the agent called it (subject `mcp__<server>__<tool>`). */
  readonly mcp?: McpTool
  /** The segments of the other readings of an MCP tool's name (src/event/mcp.ts): a pattern matching any of them matches. */
  readonly alternates?: readonly (readonly string[])[]
}

/** What POSTing the payload to an http hook produced, before any interpretation. */
export interface HttpRun {
  /** The last answer's status; absent when none came. */
  readonly status?: number
  readonly body: string
  /** Why there is no usable answer: no connection, a redirect not followed, a body too large. */
  readonly failure?: string
  /** The URL is not one `allowedHttpHookUrls` allows: nothing was sent (`failure` says why). */
  readonly refused?: true
  /** Said on stderr: a header variable the limits do not allow, sent empty. */
  readonly warnings?: readonly string[]
  readonly timedOut: boolean
  readonly durationMs: number
}

/** What running one hook command produced, before any interpretation. */
export interface CommandRun {
  /** The hook's first stdout line was `{"async": true}`: it was released to run on detached. */
  readonly released?: boolean
  /** Exit status, or null when killed by a signal or never started. */
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  /** Why the command could not start at all (for example a missing working directory). */
  readonly spawnError?: string
  readonly stdout: string
  readonly stderr: string
  /** Output beyond the caps was read and thrown away (memory stays bounded). */
  readonly truncated: { readonly stdout: boolean; readonly stderr: boolean }
  readonly durationMs: number
}

/**
 * What running one hook gave, before interpretation: a gate's hook not run because a variable would hold part of a
 * value (`cut`: a NUL; `incomplete`: too long), a project hook whose files changed since trust, or what it came to.
 */
export type HookRun =
  | { readonly kind: 'cut'; readonly variables: readonly string[] }
  | { readonly kind: 'incomplete' }
  /** `project`: the root of the project whose trust no longer holds, and the command that trusts it again. */
  | { readonly kind: 'changed'; readonly changed: readonly string[]; readonly project: { readonly root: string; readonly command: string } }
  | { readonly kind: 'command'; readonly run: CommandRun; readonly path: string | undefined; readonly cut: readonly string[] }
  | { readonly kind: 'http'; readonly run: HttpRun }
  /** A `blocking: false` hook: what it says once started (or sent) is for the end of the chain. */
  | { readonly kind: 'started'; readonly handoff: Promise<string[]>; readonly letGo: boolean }

/** What a hook's stdout says as an answer (see src/answer/parse.ts, which parses it with zod). */
export interface ParsedAnswer {
  answer?: HookAnswer
  /** The JSON parsed but did not fit the protocol: what is wrong, naming the field. */
  invalid?: string
  /** Started with `{` but did not parse. */
  notJson?: string
}

/** One hook's answer, read from its exit code and output (docs/protocol.md). */
export interface HookResult {
  readonly report: HookReport
  /** The chain stops here (a deny, or a failure that blocks). */
  readonly blocks: boolean
  readonly decision?: DecisionValue
  readonly reason?: string
  readonly answer?: HookAnswer
  /** Text for the model: JSON `additionalContext`, or plain stdout on events that take it. */
  readonly context: readonly string[]
  readonly warnings: readonly string[]
}

/** A config problem as one line: file, JSON path, what is wrong. */
export function formatProblem(problem: ConfigProblem): string {
  const where = problem.path === '' ? problem.file : `${problem.file}: ${problem.path}`
  return `${where}: ${problem.message}`
}

/** A string as a list of one, a list of strings as it is; anything else undefined. */
export function stringsOf(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value]
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined
}

/** Layers whose files come with the project (a cloned repository) and need the user's trust. */
const PROJECT_LAYERS: ReadonlySet<Layer> = new Set(['project', 'local', 'project-folder', 'project-plugin'])

export function needsTrust(layer: Layer): boolean {
  return PROJECT_LAYERS.has(layer)
}

/** The project a hooks.json layer belongs to: `<root>/.hookrun/hooks.json` → `<root>`; undefined for other layers. */
export function projectRootOf(ref: Pick<ConfigFileRef, 'layer' | 'file'>): string | undefined {
  return ref.layer === 'project' || ref.layer === 'local' ? dirname(dirname(ref.file)) : undefined
}

/**
 * Where an agent says its project is (README "Which project"): the variables it sets in every hook's environment
 * (its own first), and the payload field with its session folder, read only when no variable is set (it may follow a `cd`).
 */
export interface ProjectSource {
  readonly variables: readonly string[]
  readonly payloadField?: 'cwd' | 'workspace_roots' | 'working_dir' | 'working_directory' | 'workspaceRoot' | 'workspacePaths'
}
