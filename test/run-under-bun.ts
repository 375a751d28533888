/**
 * test/unit/run.test.ts runs its cases in-process (Node: the child_process path) and through this
 * driver under Bun (the Bun.spawn path, the compiled binary's). Input: JSON on stdin
 * { command, options, abortAfterMs?, detached?, pieces? }; output: { primitive, run } as JSON.
 * `pieces` ([[length, byte], …]) replaces the input with byte pieces made here.
 */
import { readFileSync } from 'node:fs'
import { runCommand, startDetached } from '../src/run/command.ts'
import { spawnPrimitive } from '../src/run/spawn.ts'

const request = JSON.parse(readFileSync(0, 'utf8')) as {
  command: string
  options: { cwd: string; env: Record<string, string>; input: string; timeoutMs: number }
  abortAfterMs?: number
  detached?: boolean
  pieces?: Array<[number, number]>
}
if (request.pieces !== undefined)
  Object.assign(request.options, { input: request.pieces.map(([length, byte]) => new Uint8Array(length).fill(byte)) })
if (request.detached) {
  const error = await startDetached(request.command, request.options)
  console.log(JSON.stringify({ primitive: spawnPrimitive(), error }))
} else {
  const controller = new AbortController()
  if (request.abortAfterMs !== undefined) setTimeout(() => controller.abort('SIGTERM'), request.abortAfterMs)
  const run = await runCommand(request.command, { ...request.options, signal: controller.signal })
  console.log(JSON.stringify({ primitive: spawnPrimitive(), run }))
}
process.exit(0)
