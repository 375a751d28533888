/**
 * A large payload (issue 14): its long strings stay bytes until something reads them, hooks get
 * the bytes as they came, and the variables hooks get are what a whole parse gives. Every runtime.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { ENV_VALUE_CAP } from '../../src/run/env.ts'
import { cutUtf8, makeProject, removeProject, runCli, RUNTIMES, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const MiB = 1024 * 1024
const awkward = `line "one"\n\ttwo é 😀 \\ \u2028 `
// 108 KB: whole in HOOKRUN_BASH_COMMAND (a variable holds 128 KiB with its name).
const command = `${awkward}${'echo hi; '.repeat(12_000)}`
const payload = { session_id: 's', tool_name: 'Bash', tool_input: { command, content: `${awkward}${'x'.repeat(3 * MiB)}` } }

function project(hookCommand: string): string {
  const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'reader', event: 'tool:pre_execute', command: hookCommand }] } })
  projects.push(dir)
  trustProjectFor(dir)
  return dir
}

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    test('a 3 MB payload reaches the hook whole; HOOKRUN_BASH_COMMAND is whole, TOOL_ARGS cut and flagged', async () => {
      const dir = project(
        'cat > got.json; printf %s "$HOOKRUN_BASH_COMMAND" > command.txt; printf %s "$HOOKRUN_TOOL_ARGS" > args.txt; echo "$HOOKRUN_BASH_COMMAND_TRUNCATED/$HOOKRUN_TOOL_ARGS_TRUNCATED" > flags.txt',
      )
      const result = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], {
        runtime: runtime.name,
        cwd: dir,
        input: JSON.stringify(payload),
        timeoutMs: 30_000,
      })
      expect(result.exitCode, result.stderr).toBe(0)
      expect(JSON.parse(readFileSync(join(dir, 'got.json'), 'utf8'))).toEqual({
        ...payload,
        event: 'tool:pre_execute:bash',
        hook_event_name: 'tool:pre_execute',
      })
      expect(readFileSync(join(dir, 'command.txt'), 'utf8')).toBe(command)
      expect(readFileSync(join(dir, 'args.txt'), 'utf8')).toBe(cutUtf8(JSON.stringify(payload.tool_input), ENV_VALUE_CAP))
      expect(readFileSync(join(dir, 'flags.txt'), 'utf8')).toBe('/1\n')
    })

    // A gate reading the command from its variable: it must see all of it, or not judge at all.
    const gate = 'case "$HOOKRUN_BASH_COMMAND" in *"rm -rf ~"*) echo "no rm -rf" >&2; exit 2;; esac'
    test('a 12,000-character command ending in "; rm -rf ~" reaches a gate reading HOOKRUN_BASH_COMMAND whole: it blocks', async () => {
      const dir = project(gate)
      const long = { session_id: 's', tool_name: 'Bash', tool_input: { command: `${'x'.repeat(12_000)}; rm -rf ~` } }
      const result = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], {
        runtime: runtime.name,
        cwd: dir,
        input: JSON.stringify(long),
        timeoutMs: 30_000,
      })
      expect(result.exitCode, result.stderr).toBe(2)
      expect(result.json()).toMatchObject({ decision: 'deny', decidedBy: 'reader', reason: 'no rm -rf' })
    })

    test('a command longer than a variable holds blocks a gate event (the gate is not run on part of it); elsewhere the hook runs, flagged', async () => {
      const dir = makeProject({
        '.hookrun/hooks.json': {
          hooks: [
            { name: 'reader', event: 'tool:pre_execute', command: `${gate}; touch ran` },
            { name: 'logger', event: 'tool:post_execute', command: 'echo "$HOOKRUN_BASH_COMMAND_TRUNCATED" > flag.txt' },
          ],
        },
      })
      projects.push(dir)
      trustProjectFor(dir)
      const long = { session_id: 's', tool_name: 'Bash', tool_input: { command: `${'x'.repeat(200_000)}; rm -rf ~` } }
      const result = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], {
        runtime: runtime.name,
        cwd: dir,
        input: JSON.stringify(long),
        timeoutMs: 30_000,
      })
      expect(result.exitCode, result.stderr).toBe(2)
      expect(result.json()).toMatchObject({
        decision: 'deny',
        reason:
          "hook 'reader' was not run: the command is longer than an environment variable can hold (128 KiB), so HOOKRUN_BASH_COMMAND would hold only its start and a gate reading it would judge part of the command",
      })
      expect(existsSync(join(dir, 'ran'))).toBe(false)
      const after = await runCli(['fire', 'tool:post_execute', '--payload', '-'], {
        runtime: runtime.name,
        cwd: dir,
        input: JSON.stringify(long),
        timeoutMs: 30_000,
      })
      expect(after.exitCode, after.stderr).toBe(0)
      expect(readFileSync(join(dir, 'flag.txt'), 'utf8')).toBe('1\n')
    })

    test('a long string that is not valid JSON, read for a variable, blocks the gate with one line; no hook ran', async () => {
      const dir = project('touch ran')
      const broken = JSON.stringify(payload).replace('line \\"one\\"', 'line \u0001')
      const result = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], {
        runtime: runtime.name,
        cwd: dir,
        input: broken,
        timeoutMs: 30_000,
      })
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toMatch(
        /^hookrun: payload on stdin is not valid JSON: the string 'command' at byte \d+: .+; send the event as valid JSON\n$/,
      )
      expect(result.json()).toMatchObject({ decision: 'deny', blocked: true, decidedBy: 'hookrun' })
      expect(existsSync(join(dir, 'ran'))).toBe(false)
    })

    // The agent's dialect reads the broken string while the event is still being told (Copilot's
    // toolArgs, Cursor's command): the rest of the payload tells it, and the gate blocks in the agent's form.
    const brokenAgentPayloads: Array<[string, string[], Record<string, unknown>, string, Record<string, unknown>]> = [
      [
        'copilot',
        ['fire', 'preToolUse', '--format', 'copilot'],
        { sessionId: 's', timestamp: 1, toolName: 'bash', toolArgs: JSON.stringify({ command: 'BROKEN' }) },
        'toolArgs',
        { permissionDecision: 'deny' },
      ],
      [
        'cursor',
        ['fire', '--format', 'cursor'],
        { conversation_id: 'c', generation_id: 'g', hook_event_name: 'beforeShellExecution', cursor_version: '1.7', command: 'BROKEN' },
        'command',
        { permission: 'deny' },
      ],
    ]
    test.each(brokenAgentPayloads)(
      "%s: a long string the dialect reads that is not valid JSON blocks the gate in the agent's form; no hook ran",
      async (_agent, args, fields, key, answer) => {
        const dir = project('touch ran')
        const input = JSON.stringify({ ...fields, cwd: dir })
          .replace('BROKEN', `line \u0001${'x'.repeat(2 * MiB)}`)
          .replace('\\u0001', '\u0001')
        const result = await runCli(args, { runtime: runtime.name, cwd: dir, input, timeoutMs: 30_000 })
        expect(result.stderr).toMatch(
          new RegExp(
            `^hookrun: payload on stdin is not valid JSON: the string '${key}' at byte \\d+: [^\\u0000-\\u001f]+; send the event as valid JSON\n`,
          ),
        )
        expect(result.json()).toMatchObject(answer)
        expect(existsSync(join(dir, 'ran'))).toBe(false)
      },
    )
  })
}

describe.runIf(RUNTIMES.some((runtime) => runtime.name === 'binary') && existsSync('/usr/bin/time'))('memory', () => {
  test('a 10 MB payload is held about once: peak memory grows by less than twice the payload (decoded and parsed whole it grew by 4×)', async () => {
    const dir = project('cat > /dev/null')
    const big = JSON.stringify({ ...payload, tool_input: { file_path: '/tmp/f', content: 'x'.repeat(10 * MiB) } })
    const small = JSON.stringify({ ...payload, tool_input: { file_path: '/tmp/f', content: 'x' } })
    const peak = async (input: string) => {
      const result = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], {
        cwd: dir,
        input,
        measureMemory: true,
        timeoutMs: 30_000,
      })
      expect(result.exitCode, result.stderr).toBe(0)
      return result.maxRssKb! / 1024
    }
    await peak(small) // the binary's pages in the page cache for both runs alike
    const growth = (await peak(big)) - (await peak(small))
    console.log(`binary: peak memory +${growth.toFixed(1)} MiB for a 10 MiB payload`)
    expect(growth).toBeLessThan(20)
  })
})
