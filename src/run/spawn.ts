// How a process is started: Bun.spawn under Bun, child_process elsewhere, one contract.
import type { Child, SpawnRequest } from './child.ts'
// Imported, not loaded on demand: the binary spawns on most events, and a chunk load costs more
// than this small module (it touches `Bun` only when called).
import { startBunChild } from './spawn-bun.ts'
/**
 * The one way hookrun starts a process: the fastest primitive the runtime has, behind one
 * interface. Under Bun (and so in the compiled binary) that is `Bun.spawn`; Node's
 * `child_process` costs a Bun process ~10 ms of stream and module set-up on every event
 * (measured: a compiled program spawning `sh -c true` through `node:child_process` took 2.7× a
 * hello-world, through `Bun.spawn` 1.4×). On Node and Deno the child_process path loads lazily.
 * Every caller gets the same contract, so timeouts, group kills and output caps (src/run/command.ts)
 * are written once and hold on both paths.
 */

/**
 * Start `argv` as the leader of a new process group (setsid), so one signal to `-pid` reaches it
 * and everything it starts. Throws the runtime's spawn error (`code` ENOENT, EACCES, …).
 */
export async function startChild(request: SpawnRequest): Promise<Child> {
  if (process.versions.bun !== undefined) return startBunChild(request)
  return (await import('./spawn-node.ts')).startNodeChild(request)
}

/** Which primitive `startChild` uses in this runtime (tests check the fast one is used under Bun). */
export function spawnPrimitive(): 'Bun.spawn' | 'child_process' {
  return process.versions.bun !== undefined ? 'Bun.spawn' : 'child_process'
}
