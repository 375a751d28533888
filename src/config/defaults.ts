/**
 * The defaults of a hook entry. The zod schema (schema.ts) applies them when it parses a config;
 * code that makes hooks without parsing one (hook folders) takes them from here, so there is one
 * place for each value and neither needs zod loaded.
 */
export const HOOK_DEFAULTS = { timeout: 10, blocking: true, enabled: true } as const

/**
 * How long one fire's hooks may run in all, in seconds (every hook, every judging round). Past it
 * the hooks still running are killed and a gate blocks. Agents' router entries are written with a
 * timeout above it (src/install/agents.ts), so an agent never has to kill hookrun mid-gate.
 */
export const CHAIN_BUDGET_SECONDS = 540
