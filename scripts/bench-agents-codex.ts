/**
 * What hooks cost Codex and Copilot CLI per tool call, measured on the real CLIs in the agent lab
 * (test/agents/lab.ts): a session of N shell `true` calls, run with
 *   none     no hooks at all
 *   hookrun  `hookrun install --agent X --project --all-events` (every event routed) + one pre-tool gate in hooks.json
 *   narrow   the same without `--all-events`: the default (entries only where the project's hooks can fire)
 *   plain    a plain shell hook in the agent's own hooks file doing the same check (no hookrun)
 * each variant in a HOME and project of its own (warmed up once), the variants alternating round
 * by round. Reported: the median session wall time, ms added per tool call against `none`, and
 * hookrun starts per tool call (counted in separate runs through a counting `hookrun` on PATH:
 * the starts of an N-call session minus those of a session with no call, over N).
 *
 *   npm run build --silent && npx bun scripts/bench-agents-codex.ts   (BENCH_CALLS=10 BENCH_ROUNDS=5 BENCH_AGENTS=codex,copilot)
 */
import { chmodSync, mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { codexConfig, runCodex } from '../test/agents/codex-cli.ts'
import { copilotConfig, runCopilot } from '../test/agents/copilot-cli.ts'
import { labRun, type AgentRun, type LabRun, type ModelServer, type Turn } from '../test/agents/lab.ts'
import { startOpenAIChatModel } from '../test/agents/models/openai-chat.ts'
import { startOpenAIResponsesModel } from '../test/agents/models/openai-responses.ts'

const CALLS = Number(process.env.BENCH_CALLS ?? 10)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const AGENTS = (process.env.BENCH_AGENTS ?? 'codex,copilot').split(',') as ('codex' | 'copilot')[]
const VARIANTS = ['none', 'hookrun', 'narrow', 'plain'] as const
type Variant = (typeof VARIANTS)[number]

/** The one check every hooked variant makes: deny a shell command that mentions "forbidden". */
const GATE = `case "$HOOKRUN_BASH_COMMAND" in *forbidden*) echo "forbidden" >&2; exit 2;; esac`

interface AgentBench {
  readonly shell: (command: string) => Turn
  readonly startModel: (turns: readonly Turn[]) => Promise<ModelServer>
  configure(run: LabRun, server: ModelServer): void
  /** The same check as GATE, written straight into the agent's own hooks file. */
  plainHook(run: LabRun): void
  run(run: LabRun, server: ModelServer, env?: Record<string, string>): Promise<AgentRun>
}

const BENCHES: Record<'codex' | 'copilot', AgentBench> = {
  codex: {
    shell: (cmd) => ({ tool: 'exec_command', input: { cmd } }),
    startModel: startOpenAIResponsesModel,
    configure: (run, server) => codexConfig(run, server),
    plainHook(run) {
      mkdirSync(join(run.project, '.codex'), { recursive: true })
      const command = `grep -q forbidden && { echo forbidden >&2; exit 2; }; exit 0`
      writeFileSync(
        join(run.project, '.codex', 'hooks.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }, null, 2),
      )
    },
    // Codex finds its model in config.toml: pointed at this run's server each time.
    run(run, server, env) {
      codexConfig(run, server)
      return runCodex({ ...run, env: { ...run.env, ...env } }, 'bench')
    },
  },
  copilot: {
    shell: (command) => ({ tool: 'bash', input: { command, description: 'bench step' } }),
    startModel: startOpenAIChatModel,
    configure: (run) => copilotConfig(run),
    plainHook(run) {
      mkdirSync(join(run.project, '.github', 'hooks'), { recursive: true })
      const bash = `grep -q forbidden && { echo '{"permissionDecision":"deny","permissionDecisionReason":"forbidden"}'; }; exit 0`
      writeFileSync(
        join(run.project, '.github', 'hooks', 'plain.json'),
        JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash }] } }, null, 2),
      )
    },
    run: (run, server, env) => runCopilot({ ...run, env: { ...run.env, ...env } }, server, 'bench'),
  },
}

function prepare(bench: AgentBench, variant: Variant, run: LabRun, server: ModelServer): void {
  bench.configure(run, server)
  if (variant === 'none') return
  if (variant === 'plain') {
    bench.plainHook(run)
    return
  }
  mkdirSync(join(run.project, '.hookrun'), { recursive: true })
  writeFileSync(
    join(run.project, '.hookrun', 'hooks.json'),
    JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute:bash', command: GATE }] }, null, 2),
  )
  const agent = bench === BENCHES.codex ? 'codex' : 'copilot'
  const install = run.hookrun(['install', '--agent', agent, '--project', ...(variant === 'narrow' ? [] : ['--all-events'])])
  if (install.status !== 0) throw new Error(`${agent} ${variant}: install failed: ${install.stderr}`)
  if (run.hookrun(['trust']).status !== 0) throw new Error(`${agent} ${variant}: trust failed`)
}

/** A `hookrun` first on PATH that counts its starts, then runs this build's. */
function countingPath(run: LabRun): { env: Record<string, string>; starts: () => number; reset: () => void } {
  const dir = join(run.root, 'counting-bin')
  const file = join(run.root, 'starts')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'hookrun'), `#!/bin/sh\necho . >> '${file}'\nexec '${join(run.root, 'bin', 'hookrun')}' "$@"\n`)
  chmodSync(join(dir, 'hookrun'), 0o755)
  return {
    env: { PATH: `${dir}:${run.env.PATH}` },
    starts: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0),
    reset: () => writeFileSync(file, ''),
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

async function benchAgent(agent: 'codex' | 'copilot'): Promise<string[]> {
  const bench = BENCHES[agent]
  const turns: Turn[] = [...Array.from({ length: CALLS }, () => bench.shell('true')), { text: 'done' }]
  const setups = new Map<Variant, { run: LabRun; server: ModelServer; idle: ModelServer }>()
  for (const variant of VARIANTS) {
    const run = labRun()
    const server = await bench.startModel(turns)
    const idle = await bench.startModel([{ text: 'done' }])
    prepare(bench, variant, run, server)
    setups.set(variant, { run, server, idle })
  }
  const times = new Map<Variant, number[]>(VARIANTS.map((variant) => [variant, []]))
  const check = (variant: Variant, result: AgentRun) => {
    if (result.status !== 0) throw new Error(`${agent} ${variant}: exit ${result.status}\n${result.stderr.slice(-2000)}`)
  }
  try {
    // Warm-up: Copilot unpacks itself into a fresh HOME on its first run.
    for (const variant of VARIANTS) check(variant, await bench.run(setups.get(variant)!.run, setups.get(variant)!.server))
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order so no variant always runs right after another.
      const order = VARIANTS.map((_, index) => VARIANTS[(index + round) % VARIANTS.length]!)
      for (const variant of order) {
        const { run, server } = setups.get(variant)!
        const before = server.requests.length
        const result = await bench.run(run, server)
        check(variant, result)
        if (server.requests.length - before < CALLS + 1)
          throw new Error(`${agent} ${variant}: the session made ${server.requests.length - before} model requests, not ${CALLS + 1}`)
        times.get(variant)!.push(result.ms)
      }
      process.stderr.write(`${agent}: round ${round + 1}/${ROUNDS}\n`)
    }
    const rows: string[] = []
    const base = median(times.get('none')!)
    for (const variant of VARIANTS) {
      const { run, server, idle } = setups.get(variant)!
      let perCall = '0'
      let perSession = '0'
      if (variant === 'hookrun' || variant === 'narrow') {
        const counter = countingPath(run)
        counter.reset()
        check(variant, await bench.run(run, idle, counter.env))
        const fixed = counter.starts()
        counter.reset()
        check(variant, await bench.run(run, server, counter.env))
        const total = counter.starts()
        if (process.env.BENCH_DEBUG) process.stderr.write(`${agent} ${variant}: ${fixed} starts with no call, ${total} with ${CALLS}\n`)
        perCall = ((total - fixed) / CALLS).toFixed(1)
        perSession = String(fixed)
      }
      const wall = median(times.get(variant)!)
      const spread = `${Math.round(Math.min(...times.get(variant)!))}–${Math.round(Math.max(...times.get(variant)!))}`
      rows.push(
        `| ${agent} | ${variant} | ${Math.round(wall)} (${spread}) | ${variant === 'none' ? '—' : ((wall - base) / CALLS).toFixed(1)} | ${perCall} | ${perSession} |`,
      )
    }
    return rows
  } finally {
    for (const { run, server, idle } of setups.values()) {
      await server.close()
      await idle.close()
      run.remove()
    }
  }
}

const rows: string[] = []
for (const agent of AGENTS) rows.push(...(await benchAgent(agent)))
console.log(`${CALLS} shell calls per session, ${ROUNDS} rounds, variants alternating; median session wall time (min–max)\n`)
console.log('| agent | variant | session ms | ms added per call | hookrun starts per call | hookrun starts per session (no call) |')
console.log('| --- | --- | --- | --- | --- | --- |')
for (const row of rows) console.log(row)
