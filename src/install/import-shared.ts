// What `hookrun import` reads an agent's file into, and what every reader of a file shape shares
// (src/install/import.ts: event maps; import-hook-list.ts: hook lists).
import { AGENTS } from './agents.ts'
import { type AgentName, isRouterCommand } from './agent-target.ts'
import type { Path } from './json-text.ts'

/** An agent of IMPORT_AGENTS (one install has a router for). */
export type ImportAgent = AgentName

/** One handler moved into hooks.json. */
export interface MovedHook {
  /** Its entry in hooks.json. */
  readonly entry: Readonly<Record<string, unknown>> & { readonly name: string }
  /** Its JSON path in the agent's file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly path: string
  /** Fields of the handler hooks.json does not carry, each with why nothing is lost. */
  readonly notCarried: readonly string[]
}

/** One of the agent's files, read for import. */
export interface AgentFileImport {
  readonly file: string
  readonly moved: readonly MovedHook[]
  /** Handlers left where they are, with why. */
  readonly staying: ReadonlyArray<{ readonly path: string; readonly why: string }>
  /** hookrun's own router entries in the file (never imported). */
  readonly routers: number
  /** The file's text without the moved handlers. */
  readonly text: string
}

/** A command that runs hookrun (a router entry of any agent, or `hookrun fire` written by hand): importing it would loop. */
export function runsHookrun(command: unknown): boolean {
  if (typeof command !== 'string') return false
  return (
    AGENTS.some((agent) => isRouterCommand(command, agent.name)) || /(?:^|[\s/'"])hookrun(?:\.mjs|\.ts)?['"]?\s+fire(?:\s|$)/.test(command)
  )
}

/** Paths deepest and last first: removing in this order keeps the earlier ones where they were. */
export function compareDescending(a: Path, b: Path): number {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const [x, y] = [a[index], b[index]]
    if (x === y) continue
    if (typeof x === 'number' && typeof y === 'number') return y - x
    return String(y).localeCompare(String(x))
  }
  return 0
}
