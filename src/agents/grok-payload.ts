// Grok Build's payload, told from others' (src/agents/grok.ts): apart so Claude Code's module can
// read a Grok fire of its entries without importing Grok's, which imports Claude Code's names.
import type { Payload } from '../core/types.ts'

/**
 * Grok's payload is camelCase with a `workspaceRoot` string, which no other agent sends
 * (docs.x.ai/build/features/hooks, "The script contract").
 */
export function fromGrok(payload: Payload): boolean {
  return typeof payload.hookEventName === 'string' && typeof payload.workspaceRoot === 'string'
}

/**
 * The event a Grok payload names, in the spelling of Grok's config (Claude Code's): Grok's bundled
 * docs write it in snake case (`pre_tool_use`, quoted by safe-chains 0.230 `targets/grok.rs`),
 * docs.x.ai's config in PascalCase; both read as `PreToolUse`.
 */
export function grokEventName(payload: Payload): string | undefined {
  const named = payload.hookEventName
  if (typeof named !== 'string' || named === '') return undefined
  return named
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')
}
