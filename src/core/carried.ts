// Answer fields hookrun carries to the agents that take them; plain data, no zod (fire imports it).

/**
 * Answer fields hookrun does not interpret but carries to the agents that take them (docs/agents.md
 * "What each agent gets back"): the Decision's name for each, and the names a hook may print it
 * under, at the top level or in `hookSpecificOutput`. Sources: agent-hook-protocols.md §3.3
 * (Claude PostToolUse), §6.1 and §9.5 (Gemini BeforeToolSelection, BeforeModel, AfterModel).
 */
export const CARRIED_FIELDS = {
  toolConfig: ['toolConfig'],
  llmRequest: ['llm_request', 'llmRequest'],
  llmResponse: ['llm_response', 'llmResponse'],
  updatedToolOutput: ['updatedToolOutput'],
  updatedMCPToolOutput: ['updatedMCPToolOutput'],
} as const satisfies Record<string, readonly string[]>

export type CarriedField = keyof typeof CARRIED_FIELDS
