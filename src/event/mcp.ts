/**
 * One name for an MCP tool in every agent (docs/events.md "MCP tools"). Agents name a call to
 * tool T of MCP server S each their own way: `mcp__S__T` (Claude Code, Codex, Qwen Code,
 * Windsurf), `mcp_S_T` (Gemini CLI), `S__T` (Goose, Cline), `S_T` (OpenCode, Kilo Code), `S-T`
 * (Copilot CLI). hookrun gives every such call the subject `mcp__S__T`, so
 * `tool:pre_execute:mcp__github__*` is one gate on server github in every agent, and tells hooks
 * the parts (`HOOKRUN_MCP_SERVER`, `HOOKRUN_MCP_TOOL`, the payload's `mcp`).
 *
 * Where an agent joins S and T with a character S may hold itself (`_`, `-`) and sends no server
 * field, the name has several readings (`my_srv_get` is my / srv_get or my_srv / get). A gate
 * must not miss a call because hookrun picked the wrong one, so a pattern matching any reading
 * matches; the first reading (split at the first separator) is the one hooks are told.
 */
import type { McpTool, Payload } from '../core/types.ts'
import { isToolName } from './tools.ts'
import type { McpNaming } from '../agents/types.ts'
import { DEFAULT_MCP_NAMING } from '../agents/defaults.ts'

/** What the payload's `mcp` field holds: the call's server and tool, and its other readings if any. */
interface McpField extends McpTool {
  readonly also?: readonly McpTool[]
}

/**
 * Every reading of `name` under `naming`, the first separator first. None when the name is not of
 * that shape, or, for an agent whose MCP names have no prefix, when it is one of the agents'
 * own tools (`apply_patch` is not server apply's tool patch).
 */
export function mcpReadings(name: string, naming: McpNaming): McpTool[] {
  if (!name.startsWith(naming.prefix) || (naming.prefix === '' && isToolName(name))) return []
  const rest = name.slice(naming.prefix.length)
  const readings: McpTool[] = []
  for (let at = rest.indexOf(naming.separator); at > 0; at = rest.indexOf(naming.separator, at + 1)) {
    const tool = rest.slice(at + naming.separator.length)
    if (tool !== '') readings.push({ server: rest.slice(0, at), tool })
  }
  return readings
}

/** The payload's `mcp` field for these readings (undefined for none). */
export function mcpField(readings: readonly McpTool[]): McpField | undefined {
  const [first, ...also] = readings
  return first === undefined ? undefined : { ...first, ...(also.length > 0 && { also }) }
}

/**
 * The readings of a call: the payload's `mcp` field (hookrun's protocol; each agent's dialect
 * fills it in from its own payload), else a tool name of Claude Code's shape.
 */
export function mcpCallOf(tool: string | undefined, payload: Payload): McpTool[] {
  const field = payload.mcp
  if (typeof field === 'object' && field !== null) {
    const { server, tool: name, also } = field as Record<string, unknown>
    if (isNamed(server) && isNamed(name)) {
      // As many readings as a name of the longest segment could have: no more patterns tried than that.
      const more = Array.isArray(also)
        ? also.slice(0, MAX_READINGS).filter((each): each is McpTool => isNamed(each?.server) && isNamed(each?.tool))
        : []
      return [{ server: server.trim(), tool: name.trim() }, ...more]
    }
  }
  return tool === undefined ? [] : mcpReadings(tool, DEFAULT_MCP_NAMING)
}

const MAX_READINGS = 128

function isNamed(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== ''
}

/**
 * The subjects a call of this MCP tool matches by: `mcp__<server>__<tool>`, lowercased as every
 * subject is, with what a pattern segment cannot hold (`:`, spaces, …) as `_`; and, where it
 * differs, its loose spelling (`looseMcpName`).
 */
export function mcpSubjects(mcp: McpTool): string[] {
  const own = `mcp__${mcp.server}__${mcp.tool}`.toLowerCase().replace(/[^\w.-]/g, '_')
  const loose = looseMcpName(own)
  return loose === own ? [own] : [own, loose]
}

/**
 * An MCP name with `.` and `-` as `_`. Agents clean up server names their own ways (Claude Code
 * makes `my.srv` `my_srv`, newer Codex makes `my-srv` `my_srv`), so a pattern and a call are also
 * compared in this spelling: a gate written with the server's real name holds whatever the agent
 * made of it (src/event/pattern.ts compares patterns so too).
 */
export function looseMcpName(name: string): string {
  return name.replace(/[.-]/g, '_')
}
