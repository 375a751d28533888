/**
 * Hostile hooks the JSON case runner cannot express: output floods measured for memory, payloads
 * large enough to fill the stdin pipe, and hookrun itself being interrupted (signal handling differs
 * between runtimes, so that part runs under every one of them, always).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  ALL_RUNTIMES,
  makeProject,
  processesMatching,
  removeProject,
  runCli,
  RUNTIMES,
  startCli,
  trustProjectFor,
  waitForNoProcess,
} from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

function projectWith(hooks: object[]): string {
  const dir = makeProject({ '.hookrun/hooks.json': { hooks } })
  projects.push(dir)
  trustProjectFor(dir)
  return dir
}

/** If an assertion failed half-way, end what this test started (found by its unique marker). */
function killLeftovers(marker: string): void {
  for (const line of processesMatching(marker)) {
    try {
      process.kill(Number.parseInt(line.trim(), 10), 'SIGKILL')
    } catch {}
  }
}

const FLOOD_BYTES = 256 * 1024 * 1024
const MIB = 1024

for (const runtime of ALL_RUNTIMES) {
  describe(runtime.name, () => {
    // Floods and large payloads: under the runtimes this run covers (all of them in CI).
    const covered = RUNTIMES.includes(runtime)
    if (covered)
      test('a hook writing 256 MiB to stdout and to stderr: output capped, the rest drained, memory bounded', async () => {
        const dir = projectWith([
          { name: 'small', event: 'session:end', command: 'true' },
          // Minutes, not the default 10 s: on a loaded machine `tr` alone can take longer than that.
          { name: 'stdout-flood', event: 'tool:post_execute', command: `head -c ${FLOOD_BYTES} /dev/zero`, timeout: 120 },
          { name: 'stderr-flood', event: 'tool:error', command: `head -c ${FLOOD_BYTES} /dev/zero | tr '\\0' e >&2; exit 1`, timeout: 120 },
        ])
        const options = { runtime: runtime.name, cwd: dir, measureMemory: true, timeoutMs: 60_000 }
        const baseline = await runCli(['fire', 'session:end'], options)
        const stdout = await runCli(['fire', 'tool:post_execute'], options)
        const stderr = await runCli(['fire', 'tool:error'], options)

        expect(stdout.exitCode, stdout.stderr).toBe(0)
        expect(stdout.json().hooks[0]).toMatchObject({ name: 'stdout-flood', exitCode: 0, timedOut: false })
        expect(stdout.json().warnings).toContain("hook 'stdout-flood' wrote more stdout than hookrun keeps; the rest was discarded")
        expect(stderr.exitCode, stderr.stderr).toBe(0)
        expect(stderr.json().hooks[0]).toMatchObject({ name: 'stderr-flood', exitCode: 1, timedOut: false })
        // The reason quotes the start of stderr, cut short: one line a person can read.
        expect(stderr.json().hooks[0].reason.length).toBeLessThan(2100)

        const growth = (run: typeof stdout) => (run.maxRssKb! - baseline.maxRssKb!) / MIB
        console.log(
          `${runtime.name}: peak RSS ${Math.round(baseline.maxRssKb! / MIB)} MiB at rest, +${Math.round(growth(stdout))} MiB for a 256 MiB stdout flood, +${Math.round(growth(stderr))} MiB for stderr`,
        )
        // Holding the output would cost at least twice the flood (chunks + their concatenation).
        expect(growth(stdout)).toBeLessThan((1.5 * FLOOD_BYTES) / MIB / MIB)
        expect(growth(stderr)).toBeLessThan((1.5 * FLOOD_BYTES) / MIB / MIB)
      }, 180_000)

    if (covered)
      test('a 10 MB payload reaches a hook whole; hooks that never read stdin, or exit before reading, do not hang or crash hookrun', async () => {
        const dir = projectWith([
          { name: 'counts', event: 'session:start', command: 'wc -c | tr -d " "' },
          { name: 'exits-at-once', event: 'session:start', command: 'exit 0' },
          { name: 'never-reads', event: 'session:start', command: 'sleep 1' },
        ])
        const payload = { session_id: 's', content: 'x'.repeat(10_000_000) }
        writeFileSync(join(dir, 'payload.json'), JSON.stringify(payload))
        const seen = Buffer.byteLength(JSON.stringify({ ...payload, event: 'session:start', hook_event_name: 'session:start' }))
        for (const args of [
          ['--payload', '-'],
          ['--payload', 'payload.json'],
        ]) {
          const result = await runCli(['fire', 'session:start', ...args], {
            runtime: runtime.name,
            cwd: dir,
            input: args[1] === '-' ? JSON.stringify(payload) : '',
            timeoutMs: 60_000,
          })
          expect(result.exitCode, result.stderr).toBe(0)
          expect(result.json()).toMatchObject({
            decision: 'allow',
            additionalContext: [String(seen)],
            hooks: [
              { name: 'counts', exitCode: 0 },
              { name: 'exits-at-once', exitCode: 0 },
              { name: 'never-reads', exitCode: 0, timedOut: false },
            ],
          })
          expect(result.stderr).toBe('')
        }
      })

    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
      ['SIGHUP', 129],
      ['SIGQUIT', 131],
    ] as const) {
      test(`hookrun interrupted by ${signal} outside a gate kills the hooks' process groups (even one ignoring SIGTERM), says so, exits ${code}`, async () => {
        const marker = `${31400 + ALL_RUNTIMES.indexOf(runtime) * 10 + (code % 10)}`
        const dir = projectWith([
          {
            name: 'stubborn',
            event: 'tool:post_execute',
            timeout: 60,
            command: `sleep ${marker}1 & trap '' TERM INT; sleep ${marker}2; wait`,
          },
        ])
        const { child, result } = startCli(['fire', 'tool:post_execute'], { runtime: runtime.name, cwd: dir })
        try {
          const deadline = Date.now() + 15_000
          while (processesMatching(`sleep ${marker}2`).length < 2 && Date.now() < deadline)
            await new Promise((wake) => setTimeout(wake, 50))
          child.kill(signal)
          const run = await result
          expect(run.exitCode, `${run.signal} ${run.stderr}`).toBe(code)
          expect(run.stderr).toBe(`hookrun: interrupted by ${signal}: running hooks were killed\n`)
          expect(await waitForNoProcess(`sleep ${marker}`)).toEqual([])
        } finally {
          killLeftovers(`sleep ${marker}`)
        }
      })
    }

    // Killed mid-gate (the agent's own timeout, a supervisor): a bare exit 143 with empty stdout
    // is a non-blocking error to Claude Code, and the tool would run.
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
      test(`hookrun --format claude interrupted by ${signal} mid-gate kills its hooks and answers Claude Code's deny`, async () => {
        const marker = `${31500 + ALL_RUNTIMES.indexOf(runtime) * 10 + ['SIGTERM', 'SIGINT', 'SIGHUP'].indexOf(signal)}`
        const dir = projectWith([{ name: 'slow-gate', event: 'tool:pre_execute', timeout: 60, command: `sleep ${marker}1` }])
        const payload = { hook_event_name: 'PreToolUse', session_id: 's', cwd: dir, tool_name: 'Bash', tool_input: { command: 'rm -rf ~' } }
        const { child, result } = startCli(['fire', '--format', 'claude'], {
          runtime: runtime.name,
          cwd: dir,
          input: JSON.stringify(payload),
        })
        try {
          const deadline = Date.now() + 15_000
          while (processesMatching(`sleep ${marker}1`).length < 1 && Date.now() < deadline)
            await new Promise((wake) => setTimeout(wake, 50))
          child.kill(signal)
          const run = await result
          expect(run.exitCode, `${run.signal} ${run.stderr}`).toBe(0)
          expect(JSON.parse(run.stdout)).toMatchObject({
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'deny',
              permissionDecisionReason: `blocked because hookrun could not decide: interrupted by ${signal}: running hooks were killed`,
            },
          })
          expect(await waitForNoProcess(`sleep ${marker}`)).toEqual([])
        } finally {
          killLeftovers(`sleep ${marker}`)
        }
      })
    }
  })
}
