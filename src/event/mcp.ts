/**
 * One name for an MCP tool in every agent (docs/events.md "MCP tools"): each agent's spelling of tool T of server S
 * becomes the subject `mcp__S__T`. A name with several readings (`my_srv_get`) matches a pattern matching any of
 * them, so a gate never misses a call; hooks are told the first (split at the first separator).
 */
import type { McpTool, Payload } from '../core/types.ts'
import { isToolName } from './tools.ts'
import type { McpNaming } from '../agents/types.ts'
import { DEFAULT_MCP_NAMING } from '../agents/defaults.ts'

/** What the payload's `mcp` field holds: the call's server and tool, and its other readings if any. */
interface McpField extends McpTool {
  readonly also?: readonly McpTool[]
}

/** Every reading of `name` under `naming`, the first separator first; none when not of that shape or one of the agents' own tools. */
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

/** The readings of a call: the payload's `mcp` field (hookrun's protocol), else a tool name of the default shape. */
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

/** The subjects a call of this MCP tool matches by: `mcp__<server>__<tool>` lowercased (what a segment cannot hold as `_`), and its loose spelling. */
export function mcpSubjects(mcp: McpTool): string[] {
  const own = `mcp__${mcp.server}__${mcp.tool}`.toLowerCase().replace(/[^\w.-]/g, '_')
  const loose = looseMcpName(own)
  return loose === own ? [own] : [own, loose]
}

/** An MCP name with `.` and `-` as `_`: agents clean up server names their own ways, so patterns and calls also compare so. */
export function looseMcpName(name: string): string {
  return name.replace(/[.-]/g, '_')
}
