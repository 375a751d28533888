/**
 * The defaults of a hook entry. The zod schema (schema.ts) applies them when it parses a config;
 * code that makes hooks without parsing one (hook folders) takes them from here, so there is one
 * place for each value and neither needs zod loaded.
 */
export const HOOK_DEFAULTS = { timeout: 10, blocking: true, enabled: true } as const
