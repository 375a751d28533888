/**
 * What an in-process hook costs an agent, against a command hook and the CLI:
 *   npm run build && bun scripts/bench-runner.ts      (or: deno run -A scripts/bench-runner.ts)
 * Prints the mean time per event of each way, in a throw-away project.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { allow, createRunner, fire } from '../src/index.ts'

const root = resolve(import.meta.dirname, '..')
const dir = mkdtempSync(join(tmpdir(), 'hookrun-bench-runner-'))
const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg'), HOOKRUN_CONFIG: '' }
const payload = { tool_name: 'Bash', tool_input: { command: 'ls -la' } }

async function mean(label: string, runs: number, once: () => unknown): Promise<void> {
  await once() // warm-up: config read, patterns compiled, code paths jitted
  const started = performance.now()
  for (let i = 0; i < runs; i++) await once()
  const perRun = (performance.now() - started) / runs
  console.log(`${label.padEnd(58)} ${perRun < 1 ? `${(perRun * 1000).toFixed(1)} µs` : `${perRun.toFixed(2)} ms`}  (${runs} runs)`)
}

try {
  mkdirSync(join(dir, '.hookrun'))
  const functionsOnly = createRunner({ cwd: dir, env })
    .on('tool:pre_execute:bash', (ctx) =>
      String(ctx.toolInput?.command).includes('rm -rf') ? { decision: 'deny', reason: 'no' } : undefined,
    )
    .on('tool:pre_execute:read|write', () => allow())
    .on('tool:pre_execute', (ctx) => {
      ctx.toolInput!.command = `${ctx.toolInput!.command} --color=never`
    })
  await mean('runner.fire: 3 function hooks (2 match), no config hooks', 5000, () => functionsOnly.fire('tool:pre_execute', payload))

  writeFileSync(
    join(dir, '.hookrun/hooks.json'),
    JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute:bash', command: 'exit 0' }] }),
  )
  const withCommand = createRunner({ cwd: dir, env }).on('tool:pre_execute', () => allow())
  await mean('runner.fire: 1 command hook + 1 function hook', 100, () => withCommand.fire('tool:pre_execute', payload))
  await mean('fire(): 1 command hook (config read on every call)', 100, () => fire({ event: 'tool:pre_execute', payload, cwd: dir, env }))
  const input = JSON.stringify(payload)
  await mean('the CLI binary, spawned per event: 1 command hook', 30, () =>
    spawnSync(join(root, 'dist/hookrun'), ['fire', 'tool:pre_execute', '--payload', '-'], { cwd: dir, env, input }),
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
