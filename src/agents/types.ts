// What a dialect is: normalise an agent's payload, render a decision in its JSON.
import type { McpTool, Payload, ProjectSource } from '../core/types.ts'
import type { CarriedField, Decision, Rendered } from '../core/protocol.ts'
import type { McpServerFiles } from './mcp-servers.ts'
import type { InstallTarget } from './install.ts'
import type { Caller } from './callers.ts'
import type { PluginFacts, PluginLayoutFacts, PluginSwitches } from './plugins.ts'
import type { HookFolderFacts } from './hook-folders.ts'
import type { HttpHooks } from './serve.ts'
import type { HooksImport, NativeConfig, ProjectScan } from './native-config.ts'

/** What a dialect adds to a payload whose agent left something out (see `Dialect.normalize`). */
export interface Normalized {
  /** The tool the event is about, in the agent's own spelling, when the payload has no tool name. */
  readonly tool?: string
  /** The payload hooks see: the agent's own fields untouched, missing ones added. */
  readonly payload: Payload
}

/**
 * An agent's hook protocol: how its payload names the event and the tool, and how it reads a
 * decision. The agent's event name (`agentEvent`) decides the answer's shape: Cursor answers a
 * `beforeShellExecution` differently from a `preToolUse`, though both are `tool:pre_execute`.
 */
export interface Dialect {
  /** The `--format` name. */
  readonly name: string
  /** The agent's name in messages: `Claude Code`, `Cursor`. */
  readonly label: string
  /** The agent whose event names it speaks (src/agents/registry.ts). */
  readonly source: string
  /**
   * Where the agent says its project is: its hooks' variables or a payload field; it wins over the
   * folder the hook runs in (src/config/project.ts).
   */
  readonly project: ProjectSource
  /**
   * The carried answer fields (`CARRIED_FIELDS`) the agent takes, on which events and under which key;
   * left out: none, and `renderFor` warns about each.
   */
  readonly carries?: readonly CarriedRow[]
  /**
   * Fields the agent's protocol names but the real agent was seen to ignore on some events (Qwen Code
   * 0.24.4, PreToolUse's `updatedInput`): fire, explain and validate warn; `hookrun agents` does not list them.
   */
  readonly ignores?: readonly IgnoredField[]
  /**
   * Where hookrun's notices for the person go, in order of preference: a channel the dialect renders on
   * the event and the agent does not ignore. Default: `systemMessage`.
   */
  readonly notices?: readonly NoticeChannel[]
  /**
   * hookrun's stderr reaches the person on every fire (OpenCode): an untrusted project's warning is then
   * said only with the once-per-session notice.
   */
  readonly showsStderr?: boolean
  /**
   * Another agent that runs this one's hook files and is answered in its own shape (VS Code's
   * agent hooks run Copilot's): one line for `hookrun agents`, saying where the facts come from.
   */
  readonly alsoAnswers?: string
  /** What a user must know beyond the fields it honours (Cline's cancel ends the run): lines for `hookrun agents` and the docs. */
  readonly caveats?: readonly string[]
  /**
   * The agent kills a hook after this many seconds and goes ahead (Cline: 120): hookrun's budget stays
   * 10 s under it.
   */
  readonly killsAfterSeconds?: number
  /**
   * How the agent names tool T of MCP server S (`S-T` in Copilot CLI), read as `mcp__S__T` (src/event/mcp.ts).
   * Undefined: not known; doctor and `hookrun agents` say an MCP gate may not hold.
   */
  readonly mcpNaming?: McpNaming
  /** Where the agent keeps its MCP servers, to tell which reading of an ambiguous name is the real one (src/agents/mcp-servers.ts). */
  readonly mcpServers?: McpServerFiles
  /** The server and tool from the agent's own fields, where it sends them (Gemini CLI's `mcp_context`): exact, where a name may not be. */
  mcpCall?(payload: Payload, tool: string): McpTool | undefined
  /** Does this payload come from this agent? (Detection order: src/dialect.ts.) */
  detect(payload: Payload): boolean
  /**
   * Payload fields one of which every payload `detect` accepts has: a fire without `--format` loads this
   * agent's module only where one is there (src/agents/loaded.ts); none: detection never picks it.
   */
  readonly detectMarks: readonly string[]
  /** The event the payload names itself, in the agent's spelling; undefined when it names none. */
  eventName(payload: Payload): string | undefined
  /** Fill in what hookrun needs and the agent left out (a tool name, an object tool input). */
  normalize?(payload: Payload, agentEvent: string | undefined): Normalized
  /**
   * The decision in the agent's own JSON and exit code; `warnings` name each field the agent
   * cannot honour, with the agent and the event. `agentEvent` defaults to the payload's.
   */
  render(decision: Decision, payload: Payload, agentEvent?: string): Rendered & { readonly warnings: readonly string[] }
}

/** One carried answer field and where an agent takes it: `key` in `hookSpecificOutput` on `events`. */
export interface CarriedRow {
  readonly field: CarriedField
  readonly events: readonly string[]
  readonly key: string
}

/** The answer fields an agent may be seen to ignore (the Decision's names). */
export type IgnorableField = 'updatedInput' | 'updatedPrompt' | 'additionalContext' | 'systemMessage' | 'suppressOutput' | 'continue'

/** One answer field an agent ignores on `events`, and what happens instead (one clause). */
interface IgnoredField {
  readonly field: IgnorableField
  readonly events: readonly string[]
  readonly why: string
}

/** A channel hookrun's notices can take: a message the agent shows the person, or context for the model. */
export type NoticeChannel = 'systemMessage' | 'additionalContext'

/** How an agent spells an MCP tool's name: `<prefix><server><separator><tool>`. */
export interface McpNaming {
  readonly prefix: string
  readonly separator: string
}

/** Claude Code's spelling (an MCP tool is `mcp__S__T`), which Codex, Qwen Code and Windsurf (as hookrun reads it) share; the default. */
export const CLAUDE_MCP_NAMING: McpNaming = { prefix: 'mcp__', separator: '__' }

/**
 * One of an agent's hook events: hookrun's event, and the tool the agent's event implies where it
 * has one (Cursor's `beforeShellExecution` is `tool:pre_execute` for `bash`: pattern syntax).
 */
type AgentEvent = string | { readonly event: string; readonly subject: string }

/** An agent's hook events in its own spelling, in order: the first name of a hookrun event is the one hookrun answers as. */
export type AgentEvents = Readonly<Record<string, AgentEvent>>

/** An agent's tool names and hookrun's subject for each (`run_shell_command` → `bash`; docs/events.md). */
export type AgentTools = Readonly<Record<string, string>>

/**
 * A field of this agent's hook answers that hookrun reads as its own protocol's, wherever the hook runs
 * (src/answer/agent-answers.ts), so a deny in the agent's form denies. Data, kept in the vocabulary.
 */
export interface AnswerField {
  /** The agent's field, top level in its answer. */
  readonly field: string
  /** The protocol's field it fills (src/core/protocol.ts). */
  readonly to: 'decision' | 'reason' | 'systemMessage' | 'additionalContext' | 'updatedInput' | 'continue' | 'stopReason'
  /** Only when the answer also has this field (Copilot's `message` means something only beside `behavior`). */
  readonly with?: string
  /** The value the protocol field gets whatever the agent's field holds; without this, `ifTrue` or `strings`: the agent's value as it is. */
  readonly always?: unknown
  /** The value the protocol field gets when the agent's field is `true` (and none otherwise). */
  readonly ifTrue?: unknown
  /** The agent's value is a string or a list of strings: the non-empty ones, a blank line between them. */
  readonly strings?: true
  /** For a decision: the agent's fields that hold its reason, the first one present counting. */
  readonly reasons?: readonly string[]
}

/**
 * Everything hookrun knows of one agent (src/agents/<agent>.ts), collected in src/agents/registry.ts:
 * its names, its events and tools in its own spelling, and its hook protocol where it has one of its own.
 */
export interface Agent {
  /** The name `--format` and `install --agent` take. */
  readonly name: string
  /** Its name in messages: `Claude Code`. */
  readonly label: string
  readonly events?: AgentEvents
  readonly tools?: AgentTools
  /** Its payloads and answers; absent for an agent that runs another's entries or whose hooks hookrun does not answer. */
  readonly dialect?: Dialect
  /** Where `hookrun install` writes its router entries (src/agents/install.ts); absent: no hooks config install writes. */
  readonly install?: InstallTarget
  /** The agents that run this one's hook entries with payloads of their own, by name, in detection order (src/agents/callers.ts). */
  readonly callers?: readonly string[]
  /** How this agent runs another's entries (the other lists it in its `callers`). */
  readonly caller?: Caller
  /** Its payloads name no event: a fire must name one on the command line, like this one (Copilot's `preToolUse`). */
  readonly eventOnCommandLine?: string
  /** It answers another agent's hooks (`of`) inside its own process, as `how` says (the Agent SDK's hookrunHooks()). */
  readonly inProcess?: { readonly of: string; readonly how: string }
  /** It runs plugins, not hook commands: hookrun's plugin in it (src/agents/plugins.ts). */
  readonly plugin?: PluginFacts
  /** Its hooks are executable files in a folder, named after their events (src/agents/hook-folders.ts). */
  readonly hookFolder?: HookFolderFacts
  /** Where it can switch the plugin hookrun's hooks run as off (Goose: src/agents/plugins.ts). */
  readonly pluginSwitches?: PluginSwitches
  /** It takes http hook handlers, which hookrun serve answers (src/agents/serve.ts). */
  readonly http?: HttpHooks
  /** The files of a project it reads hooks from, for `hookrun scan` (src/agents/native-config.ts). */
  readonly scan?: ProjectScan
  /** How its own hooks object reads, where hookrun reads one (src/agents/native-config.ts). */
  readonly nativeConfig?: NativeConfig
  /** How `hookrun import` moves its handlers into hooks.json (src/agents/native-config.ts). */
  readonly hooksImport?: HooksImport
  /** Its layout for plugins that ship hooks, found by its manifest (src/agents/plugins.ts). */
  readonly pluginLayout?: PluginLayoutFacts
  /** The fields of its hook answers hookrun reads as its own protocol's, in the order they count. */
  readonly answerFields?: readonly AnswerField[]
}
