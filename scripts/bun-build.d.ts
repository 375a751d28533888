/**
 * The part of Bun's API that build.ts uses, so `npm run typecheck` passes without Bun's type
 * package. Delete this file once `@types/bun` is a dev dependency.
 */
declare const Bun: {
  build(options: Record<string, unknown>): Promise<{ success: boolean; logs: unknown[] }>
}
