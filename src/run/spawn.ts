// How a process is started: Bun.spawn under Bun, child_process elsewhere, one contract.
import type { Child, SpawnRequest } from './child.ts'
// Imported, not loaded on demand: the binary spawns on most events (it touches `Bun` only when called).
import { startBunChild } from './spawn-bun.ts'

/**
 * Start `argv` as the leader of a new process group (setsid) with the runtime's fastest primitive (`Bun.spawn`: Node's
 * child_process costs a Bun process ~10 ms an event). Throws the runtime's spawn error (`code` ENOENT, EACCES, …).
 */
export async function startChild(request: SpawnRequest): Promise<Child> {
  if (process.versions.bun !== undefined) return startBunChild(request)
  return (await import('./spawn-node.ts')).startNodeChild(request)
}

/** Which primitive `startChild` uses in this runtime (tests check the fast one is used under Bun). */
export function spawnPrimitive(): 'Bun.spawn' | 'child_process' {
  return process.versions.bun !== undefined ? 'Bun.spawn' : 'child_process'
}
