/**
 * npm run bench [-- BENCH [options]]: hookrun's benchmarks, one entry each. The first is the
 * default: what a user feels, in the real agents.
 *
 *   npm run bench                         agents: ms and hookrun starts per tool call in Claude Code,
 *                                         Gemini CLI and Qwen Code (scripts/bench-agents.ts)
 *   npm run bench -- fire --rounds 20     one fire, against its floors and lefthook (scripts/bench-fire.ts)
 *   npm run bench -- pair OLD NEW         two binaries, interleaved (scripts/bench-pair.ts)
 *   npm run bench -- floors               a fire's time split into the runtime's and hookrun's code's (scripts/bench-floors.ts)
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const BENCHES: Record<string, { readonly script: string; readonly what: string }> = {
  agents: {
    script: 'bench-agents.ts',
    what: 'real agent sessions with a fake instant model: ms and hookrun starts per tool call, per mode',
  },
  fire: { script: 'bench-fire.ts', what: 'one fire against its floors and lefthook, cases (a) to (f)' },
  floors: { script: 'bench-floors.ts', what: 'a fire against its floors: the runtime, node:fs, the embedded chunks, its modules loaded' },
  pair: { script: 'bench-pair.ts', what: 'two hookrun binaries interleaved on (a), (b), (d) and (e); (n) and (m) as Claude Code fires' },
  'narrowed-check': { script: 'bench-narrowed-check.ts', what: 'what checking a narrowed install costs a fire' },
  processes: { script: 'agent-processes.ts', what: 'hookrun starts in a modelled Claude Code session of 100 tool calls' },
}

const [first, ...rest] = process.argv.slice(2)
const name = first === undefined || first.startsWith('-') ? 'agents' : first
const bench = BENCHES[name]
if (bench === undefined) {
  console.error(
    `npm run bench -- ${name}: no such bench; one of:\n${Object.entries(BENCHES)
      .map(([key, { what }]) => `  ${key.padEnd(15)} ${what}`)
      .join('\n')}`,
  )
  process.exit(2)
}
const args = first === undefined || first.startsWith('-') ? process.argv.slice(2) : rest
const done = spawnSync(process.execPath, [join(import.meta.dirname, bench.script), ...args], { stdio: 'inherit' })
process.exit(done.status ?? 1)
