/**
 * What hooks cost a real agent per tool call: Claude Code 2.1.331 (the agent lab's pinned CLI)
 * against the lab's fake model, in sessions of 0 and N Bash `true` calls, for four set-ups:
 *
 *   none     no hooks at all
 *   default  `hookrun install --agent claude --project --all-events` (a router on every event, the
 *            project default before installs narrowed) and one matching PreToolUse gate in .hookrun/hooks.json
 *   narrow   the same with `install --project` as it is now (entries only where a hook can fire)
 *   shell    no hookrun: the same check as a plain `sh -c` hook in .claude/settings.json that
 *            reads stdin and greps it
 *   serve    `install --project --serve`: Claude's http handler POSTs the event to `hookrun serve`
 *            (started by the SessionStart command hook; an http handler is no process)
 *
 * Rounds alternate the set-ups so load on the machine hits them alike. A tool call's cost is the
 * time between one request to the model and the next (the hooks, the tool, building the next
 * request), so Claude's start and session-level events (SessionStart, UserPromptSubmit, Stop) drop
 * out; "added" is the median minus that of `none`. Process starts are Claude's own `hook_started`
 * reports (stream-json `--include-hook-events`) on per-call events, divided by the calls.
 *
 *   npm run build --silent && bun scripts/bench-agents.ts [--rounds 5] [--calls 10]   (BENCH_AGENTS_OUT=file also writes the table)
 */
import { writeFileSync } from 'node:fs'
import { labRun, type LabRun } from '../test/agents/lab.ts'
import { bash, installClaude, runClaude, writeFileIn, writeHooks } from '../test/agents/claude-session.ts'

const flag = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(process.argv[index + 1])
}
const ROUNDS = flag('rounds', 5)
const CALLS = flag('calls', 10)

/** The gate every set-up but `none` runs on each Bash call: refuse `rm -rf /`. */
const GATE_HOOKRUN = {
  name: 'no-rm-rf',
  event: 'tool:pre_execute:bash',
  command: 'case $HOOKRUN_BASH_COMMAND in *"rm -rf /"*) echo "refusing rm -rf /" >&2; exit 2 ;; esac',
}
const GATE_SHELL = `sh -c 'if grep -q "rm -rf /"; then echo "refusing rm -rf /" >&2; exit 2; fi'`

const SETUPS: Record<string, (run: LabRun) => void> = {
  none: () => {},
  default: (run) => {
    writeHooks(run, [GATE_HOOKRUN])
    installClaude(run, ['--all-events'])
  },
  narrow: (run) => {
    writeHooks(run, [GATE_HOOKRUN])
    installClaude(run)
  },
  serve: (run) => {
    writeHooks(run, [GATE_HOOKRUN])
    // A port of its own (this run's HOME has its own server), stopped with the run at the end.
    installClaude(run, ['--serve', '--port', String(40_000 + Math.floor(Math.random() * 20_000))])
  },
  shell: (run) => {
    writeFileIn(
      run.project,
      '.claude/settings.json',
      `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: GATE_SHELL }] }] } }, null, 2)}\n`,
    )
  },
}

/** Events Claude fires once a session or a prompt, not per tool call. */
const SESSION_EVENTS = new Set(['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd', 'InstructionsLoaded', 'MessageDisplay'])

interface Sample {
  /** ms between one conversation request and the next: a tool call's whole cycle (hooks, the tool, the next request). */
  readonly cycles: number[]
  readonly startsPerCall: number
}

async function session(run: LabRun): Promise<Sample> {
  const turns = [...Array.from({ length: CALLS }, () => bash('true')), { text: 'All done.' }]
  const { agent, events, model } = await runClaude(run, turns)
  if (agent.status !== 0) throw new Error(`claude exited ${agent.status}: ${agent.stderr}`)
  if (model.arrivals.length !== CALLS + 1) throw new Error(`the session made ${model.arrivals.length - 1} of ${CALLS} calls`)
  const cycles = model.arrivals.slice(1).map((at, index) => at - model.arrivals[index]!)
  // An http handler is no process: Claude reports its HTTP status (200) where a command's exit code would be.
  const http = new Set(events.filter((event) => event.subtype === 'hook_response' && event.exit_code === 200).map((event) => event.hook_id))
  const starts = events.filter(
    (event) =>
      event.type === 'system' &&
      event.subtype === 'hook_started' &&
      !SESSION_EVENTS.has(String(event.hook_event)) &&
      !http.has(event.hook_id),
  ).length
  return { cycles, startsPerCall: starts / CALLS }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const runs = Object.fromEntries(
  Object.entries(SETUPS).map(([name, setUp]) => {
    const run = labRun()
    setUp(run)
    return [name, run]
  }),
) as Record<string, LabRun>

// One warm-up session each (Claude's first start in a fresh HOME writes its config).
for (const run of Object.values(runs)) await session(run)

const samples: Record<string, { cycles: number[]; starts: number[] }> = Object.fromEntries(
  Object.keys(SETUPS).map((name) => [name, { cycles: [], starts: [] }]),
)
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? Object.keys(SETUPS) : Object.keys(SETUPS).reverse()
  for (const name of order) {
    const sample = await session(runs[name]!)
    samples[name]!.cycles.push(...sample.cycles)
    samples[name]!.starts.push(sample.startsPerCall)
  }
  process.stderr.write(`round ${round}/${ROUNDS} done\n`)
}

const base = median(samples.none!.cycles)
const quartiles = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return `${sorted[Math.floor(sorted.length / 4)]!.toFixed(0)}–${sorted[Math.floor((sorted.length * 3) / 4)]!.toFixed(0)}`
}
const lines = [
  `Claude Code 2.1.331, ${ROUNDS} alternating rounds of one session of ${CALLS} Bash \`true\` calls per set-up (${ROUNDS * CALLS} calls each)`,
  '',
  '| set-up | ms per tool call (median) | middle half | added per tool call | hook processes per tool call |',
  '| --- | --- | --- | --- | --- |',
  ...Object.keys(SETUPS).map((name) => {
    const ms = median(samples[name]!.cycles)
    return `| ${name} | ${ms.toFixed(1)} | ${quartiles(samples[name]!.cycles)} | ${name === 'none' ? '—' : `${(ms - base).toFixed(1)}`} | ${median(samples[name]!.starts)} |`
  }),
]
console.log(lines.join('\n'))
if (process.env.BENCH_AGENTS_OUT) writeFileSync(process.env.BENCH_AGENTS_OUT, `${lines.join('\n')}\n`)
for (const run of Object.values(runs)) {
  run.hookrun(['serve', '--stop'])
  run.remove()
}
