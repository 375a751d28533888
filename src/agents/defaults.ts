// What hookrun assumes of an agent where the agent's module says nothing: Claude Code's ways.
import { claudeAgent } from './claude.ts'
import { CLAUDE_MCP_NAMING, type McpNaming } from './types.ts'

/** How an MCP tool is named where the agent's naming is not known: Claude Code's `mcp__S__T`. */
export const DEFAULT_MCP_NAMING: McpNaming = CLAUDE_MCP_NAMING

/** Whose naming that is, for messages: `Claude Code`. */
export const DEFAULT_MCP_NAMING_OF: string = claudeAgent.label
