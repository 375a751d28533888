/**
 * One name for an MCP tool in every agent (docs/events.md "MCP tools"). Agents name a call to
 * tool T of MCP server S each their own way (`mcp__S__T` in Claude Code, Codex and Windsurf;
 * other shapes elsewhere, read by each agent's dialect into `mcp_server` / `mcp_tool`). hookrun
 * gives every such call the subject `mcp__S__T`, so `tool:pre_execute:mcp__github__*` is one gate
 * on server github in every agent, and `HOOKRUN_MCP_SERVER` / `HOOKRUN_MCP_TOOL` name the parts.
 */
import type { Payload } from '../core/types.ts'

export interface McpTool {
  readonly server: string
  readonly tool: string
}

/** Claude Code's shape, which Codex and Windsurf share: `mcp__<server>__<tool>`, the server without `__`. */
const CLAUDE_SHAPE = /^mcp__(.+?)__(.+)$/

/**
 * The MCP server and tool of a call: the payload's own `mcp_server` and `mcp_tool` (hookrun's
 * protocol; agent dialects fill them in from their payloads), else a tool name of Claude's shape.
 */
export function mcpToolOf(tool: string | undefined, payload: Payload): McpTool | undefined {
  const server = payload.mcp_server
  const name = payload.mcp_tool
  if (typeof server === 'string' && typeof name === 'string' && server.trim() !== '' && name.trim() !== '')
    return { server: server.trim(), tool: name.trim() }
  const claude = tool === undefined ? null : CLAUDE_SHAPE.exec(tool)
  return claude === null ? undefined : { server: claude[1]!, tool: claude[2]! }
}

/**
 * The subject every agent's call of this MCP tool gets: `mcp__<server>__<tool>`, lowercased as
 * every subject is, and with what a pattern segment cannot hold (`:`, spaces, …) as `_`, as
 * Claude Code writes such names.
 */
export function mcpSubject(mcp: McpTool): string {
  return `mcp__${mcp.server}__${mcp.tool}`.toLowerCase().replace(/[^\w.-]/g, '_')
}
