/**
 * What a hook costs per tool call in Gemini CLI and Qwen Code (the agent lab's real CLIs against
 * a fake model on 127.0.0.1): a session of N shell `true` calls, run as
 *   none    no hooks at all
 *   default hookrun install --agent X --project --all-events, one gate on tool:pre_execute:bash
 *   narrow  the same without --all-events: the default (entries only on events the gate can fire on)
 *   shell   a plain shell hook in the agent's own settings doing the same check
 * alternating in rounds, so load on the machine spreads over all of them. Prints, per tool call,
 * the wall ms added (each variant's median session time minus none's, divided by N) and the CPU ms
 * added (user + system of the agent and every process it waited for, from bash's `times`: on a
 * loaded machine this is the steadier figure), and hookrun starts per tool call (counted in
 * sessions of 1 and of N calls with hookrun behind a counting wrapper, not timed).
 *
 *   npm run build --silent && npx bun scripts/bench-agents-gemini.ts [rounds=3] [calls=10] [agents=gemini,qwen]
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  DONE,
  denyGate,
  editSettings,
  type FamilyAgent,
  GEMINI,
  QWEN,
  type SessionOptions,
  session,
  shell,
} from '../test/agents/gemini-family.ts'
import { ROOT } from '../test/helpers.ts'

const rounds = Number(process.argv[2] ?? 3)
const calls = Number(process.argv[3] ?? 10)
const agents = (process.argv[4] ?? 'gemini,qwen').split(',').map((name) => ({ gemini: GEMINI, qwen: QWEN })[name as 'gemini' | 'qwen'])

const VARIANTS = ['none', 'default', 'narrow', 'shell'] as const
type Variant = (typeof VARIANTS)[number]

const gate = denyGate('DENIED', 'no DENIED files')
/** The same check as a hook of the agent's own: the payload on stdin, exit 2 with the reason on stderr. */
const PLAIN_HOOK = `grep -q DENIED && { echo 'no DENIED files' >&2; exit 2; }; exit 0`

function optionsFor(agent: FamilyAgent, variant: Variant, count = false, n = calls): SessionOptions {
  // Each call a different command: Gemini stops a session that repeats one call ("Loop detected").
  const turns = [...Array.from({ length: n }, (_, index) => shell(`true call-${index}`)), DONE]
  const counting = (run: { root: string }) => {
    if (!count) return
    // hookrun on PATH becomes a wrapper that counts its starts.
    const wrapper = join(run.root, 'bin', 'hookrun')
    rmSync(wrapper)
    writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> "${run.root}/starts"\nexec "${join(ROOT, 'dist', 'hookrun')}" "$@"\n`)
    chmodSync(wrapper, 0o755)
  }
  switch (variant) {
    case 'none':
      return { turns, install: 'none' }
    case 'default':
      return { turns, hooks: [gate], installArgs: ['--all-events'], prepare: counting }
    case 'narrow':
      return { turns, hooks: [gate], prepare: counting }
    case 'shell':
      return {
        turns,
        install: 'none',
        prepare(run) {
          const file = join(run.project, agent.settingsDir, 'settings.json')
          mkdirSync(join(run.project, agent.settingsDir), { recursive: true })
          writeFileSync(file, '{"hooks": {}}\n')
          const event = agent.name === 'gemini' ? 'BeforeTool' : 'PreToolUse'
          editSettings(
            file,
            (settings) =>
              (settings.hooks[event] = [
                { matcher: 'run_shell_command', hooks: [{ type: 'command', name: 'plain', command: PLAIN_HOOK }] },
              ]),
          )
        },
      }
  }
}

/** How many times the agent started hookrun in a session of n calls. */
async function countStarts(agent: FamilyAgent, variant: Variant, n: number): Promise<number> {
  const s = await session(agent, optionsFor(agent, variant, true, n))
  const lines = readFileSync(join(s.run.root, 'starts'), 'utf8').trim().split('\n').length
  s.remove()
  return lines
}

/** The agent under bash, which prints with `times` the CPU its children (and theirs, waited for) used. */
const withTimes = (command: string, args: string[]): [string, string[]] => [
  'bash',
  ['-c', '"$0" "$@"; status=$?; times >&2; exit $status', command, ...args],
]

/** The children's user + system ms from the last line of `times` ("0m5.123s 0m1.004s"). */
function childrenCpuMs(stderr: string): number {
  const last = stderr.trim().split('\n').at(-1) ?? ''
  const match = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(last)
  if (match === null) throw new Error(`no CPU times from bash: ${last}`)
  return (Number(match[1]) * 60 + Number(match[2]) + Number(match[3]) * 60 + Number(match[4])) * 1000
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

for (const agent of agents) {
  const times: Record<Variant, number[]> = { none: [], default: [], narrow: [], shell: [] }
  const cpu: Record<Variant, number[]> = { none: [], default: [], narrow: [], shell: [] }
  for (let round = 0; round < rounds; round++) {
    for (const variant of VARIANTS) {
      const s = await session(agent, { ...optionsFor(agent, variant), wrap: withTimes })
      const toolCalls = s.turns.length - 1
      if (toolCalls !== calls) throw new Error(`${agent.name} ${variant}: ${toolCalls} tool calls, not ${calls}:\n${s.shown.slice(-2000)}`)
      times[variant].push(s.agent.ms)
      cpu[variant].push(childrenCpuMs(s.agent.stderr))
      s.remove()
    }
  }
  const starts: Record<string, string> = {}
  for (const variant of ['default', 'narrow'] as const) {
    // Starts in a session of N calls less those in a session of 1, over N - 1: what each call adds.
    const [one, many] = [await countStarts(agent, variant, 1), await countStarts(agent, variant, calls)]
    starts[variant] = `${((many - one) / (calls - 1)).toFixed(1)} per call (+${one - (many - one) / (calls - 1)} per session)`
  }
  const base = median(times.none)
  console.log(`\n${agent.name}: ${calls} shell calls per session, ${rounds} rounds, median session ms`)
  const cpuBase = median(cpu.none)
  console.log(
    '| variant | session wall ms (median; all) | wall ms added per call | session CPU ms (median) | CPU ms added per call | hookrun starts |',
  )
  console.log('| --- | --- | --- | --- | --- | --- |')
  for (const variant of VARIANTS) {
    const ms = median(times[variant])
    const cpuMs = median(cpu[variant])
    const added = variant === 'none' ? '—' : ((ms - base) / calls).toFixed(0)
    const cpuAdded = variant === 'none' ? '—' : ((cpuMs - cpuBase) / calls).toFixed(0)
    const all = times[variant].map((t) => t.toFixed(0)).join(', ')
    console.log(
      `| ${variant} | ${ms.toFixed(0)} (${all}) | ${added} | ${cpuMs.toFixed(0)} | ${cpuAdded} | ${starts[variant] ?? (variant === 'shell' ? 'none (1 sh per call)' : '0')} |`,
    )
  }
}
