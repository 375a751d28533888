/**
 * The audit log for an organisation: the calling agent on each line, the tamper-evident chain
 * (`"chain": true`) that `hookrun log verify` checks, and `hookrun log` for people.
 */
import { chmodSync, chownSync, linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { chainLine, verifyChain } from '../../src/audit/chain.ts'
import { sinceTime } from '../../src/commands/log.ts'
import { makeProject, removeProject, runCli } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

function project(chain: boolean): string {
  const dir = makeProject({
    '.xdg-config/hookrun/hooks.json': {
      log: { path: '~/audit.jsonl', chain },
      hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'grep -q sudo && { echo "no sudo" >&2; exit 2; }; exit 0' }],
    },
  })
  projects.push(dir)
  return dir
}

const claude = (command: string) =>
  JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } })
const native = (command: string) => JSON.stringify({ tool_name: 'Bash', tool_input: { command } })

async function fires(dir: string): Promise<void> {
  await runCli(['fire', '--format', 'claude'], { cwd: dir, input: claude('sudo ls') })
  await runCli(['fire', '--format', 'claude'], { cwd: dir, input: claude('ls') })
  await runCli(['fire', 'tool:pre_execute', '--payload', '-'], { cwd: dir, input: native('sudo reboot') })
}

describe('audit log', () => {
  test('each line names the calling agent and the hook that decided', async () => {
    const dir = project(false)
    await fires(dir)
    const lines = readFileSync(join(dir, 'audit.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.map((line) => [line.agent, line.decision, line.decidedBy])).toEqual([
      ['claude', 'deny', 'no-sudo'],
      ['claude', 'allow', undefined],
      [undefined, 'deny', 'no-sudo'],
    ])
    const agentFromEnv = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], {
      cwd: dir,
      input: native('ls'),
      env: { HOOKRUN_AGENT: 'my-agent' },
    })
    expect(agentFromEnv.exitCode).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, 'audit.jsonl'), 'utf8').trimEnd().split('\n').at(-1)!).agent).toBe('my-agent')
  })

  test('hookrun log: a table for people, filtered by decision, agent and time, or JSON', async () => {
    const dir = project(false)
    await fires(dir)
    const table = await runCli(['log'], { cwd: dir })
    expect(table.exitCode).toBe(0)
    const rows = table.stdout.trimEnd().split('\n')
    expect(rows[0]).toMatch(/^TIME\s+AGENT\s+EVENT\s+DECISION\s+BY\s+REASON$/)
    expect(rows.slice(1).map((row) => row.split(/\s{2,}/).slice(1))).toEqual([
      ['claude', 'tool:pre_execute:bash', 'deny', 'no-sudo', 'no sudo'],
      ['claude', 'tool:pre_execute:bash', 'allow', '-'],
      ['-', 'tool:pre_execute:bash', 'deny', 'no-sudo', 'no sudo'],
    ])
    const denied = await runCli(['log', '--decision', 'deny', '--agent', 'claude', '--since', '1h', '--json'], { cwd: dir })
    expect(denied.json()).toMatchObject([{ agent: 'claude', decision: 'deny', reason: 'no sudo' }])
    expect((await runCli(['log', '--since', '2099-01-01'], { cwd: dir })).stdout).toBe(`no matching lines in ${join(dir, 'audit.jsonl')}\n`)
    const bad = await runCli(['log', '--since', 'yesterday-ish'], { cwd: dir })
    expect([bad.exitCode, bad.stderr.trim()]).toEqual([
      1,
      "hookrun: --since 'yesterday-ish': expected a duration such as 30m, 2h or 7d, or a date such as 2026-11-01T09:00",
    ])
  })

  test('a chained log verifies; an edited line and a cut are found by line number', async () => {
    const dir = project(true)
    await fires(dir)
    await fires(dir)
    const file = join(dir, 'audit.jsonl')
    const intact = await runCli(['log', 'verify'], { cwd: dir })
    expect(intact.exitCode).toBe(0)
    expect(intact.stdout).toMatch(/: 6 lines, the chain holds \(last line seq 6, sha256 [0-9a-f]{64}\)/)

    const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
    expect(lines.map((line) => JSON.parse(line).seq)).toEqual([1, 2, 3, 4, 5, 6])
    // Someone turns a deny into an allow.
    writeFileSync(
      file,
      `${lines.map((line, index) => (index === 2 ? line.replace('"decision":"deny"', '"decision":"allow"') : line)).join('\n')}\n`,
    )
    const edited = await runCli(['log', 'verify'], { cwd: dir })
    expect(edited.exitCode).toBe(1)
    expect(edited.stdout).toContain('line 3 (seq 3) was changed after it was written')
    // Someone removes two lines.
    writeFileSync(file, `${lines.filter((_, index) => index !== 1 && index !== 2).join('\n')}\n`)
    const cut = await runCli(['log', 'verify'], { cwd: dir })
    expect(cut.exitCode).toBe(1)
    expect(cut.stdout).toContain('between line 1 and line 2: 2 lines (seq 2–3) were cut')
  })

  test('concurrent fires chain one after another', async () => {
    const dir = project(true)
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        runCli(['fire', 'tool:pre_execute', '--payload', '-'], { cwd: dir, input: native(`echo ${index}`) }),
      ),
    )
    const check = verifyChain(readFileSync(join(dir, 'audit.jsonl'), 'utf8'))
    expect(check).toMatchObject({ lines: 12, chained: 12, problems: [], lastSeq: 12 })
  })

  test('the start of a log cut away, a line inserted, and an unchained log', () => {
    const lines: string[] = []
    for (let index = 0; index < 4; index++) lines.push(chainLine(lines.at(-1), JSON.stringify({ n: index })))
    expect(verifyChain(`${lines.slice(2).join('\n')}\n`).problems).toEqual(['line 1 has seq 3: the 2 lines before it were cut'])
    expect(verifyChain(`${[lines[0], '{"n":"forged"}', ...lines.slice(1)].join('\n')}\n`).problems).toEqual([
      'line 2 has no seq/prev although the lines before it are chained: it was inserted or edited',
      'between line 2 and line 3: the chain is broken (lines cut or edited)',
    ])
    expect(verifyChain('{"a":1}\n').chained).toBe(0)
  })

  test('--since reads durations and dates', () => {
    const now = new Date('2026-11-22T12:00:00Z')
    expect(sinceTime('30m', now)).toBe(Date.parse('2026-11-22T11:30:00Z'))
    expect(sinceTime('2d', now)).toBe(Date.parse('2026-11-20T12:00:00Z'))
    expect(sinceTime('2026-11-01T09:00:00Z', now)).toBe(Date.parse('2026-11-01T09:00:00Z'))
  })

  describe("hookrun's own files are not opened through links others planted (issue 29 row 8)", () => {
    const sudo = (dir: string) =>
      runCli(['fire', 'tool:pre_execute', '--payload', '-'], { cwd: dir, input: native('sudo reboot'), timeoutMs: 20_000 })

    test.each([[false], [true]])(
      'a link at log.path (chain: %s): the file it points at is untouched, the gate still blocks, stderr names the path',
      async (chain) => {
        const dir = project(chain)
        writeFileSync(join(dir, 'victim'), 'precious\n')
        symlinkSync(join(dir, 'victim'), join(dir, 'audit.jsonl'))
        const result = await sudo(dir)
        expect([result.exitCode, result.json().decision]).toEqual([2, 'deny'])
        expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('precious\n')
        expect(result.stderr).toContain(
          `hookrun: warning: cannot write audit log ${join(dir, 'audit.jsonl')}: it is a symbolic link, which hookrun does not follow`,
        )
      },
    )

    test('a log that belongs to another user, has a second name, or others can write: refused, and said so', async () => {
      const dir = project(false)
      const log = join(dir, 'audit.jsonl')
      writeFileSync(log, '')
      chownSync(log, 4242, 4242)
      expect((await sudo(dir)).stderr).toContain(`cannot write audit log ${log}: it belongs to another user (uid 4242)`)
      expect(readFileSync(log, 'utf8')).toBe('')
      chownSync(log, process.getuid!(), process.getgid!())
      chmodSync(log, 0o666)
      expect((await sudo(dir)).stderr).toContain(`cannot write audit log ${log}: others can write it (mode 666)`)
      chmodSync(log, 0o600)
      linkSync(log, join(dir, 'second-name'))
      expect((await sudo(dir)).stderr).toContain(`cannot write audit log ${log}: it has 2 names`)
      rmSync(join(dir, 'second-name'))
      const result = await sudo(dir)
      expect([result.exitCode, result.stderr]).toEqual([2, ''])
      expect(readFileSync(log, 'utf8')).toContain('"decision":"deny"')
    })

    test('a lock that cannot be removed (a folder in its place): the fire still answers, and the gate still blocks', async () => {
      const dir = project(true)
      mkdirSync(join(dir, 'audit.jsonl.lock'))
      const result = await sudo(dir)
      expect([result.exitCode, result.json().decision]).toEqual([2, 'deny'])
      expect(result.stderr).toContain(
        `cannot write audit log ${join(dir, 'audit.jsonl')}: its lock ${join(dir, 'audit.jsonl.lock')} cannot be taken or removed`,
      )
    })
  })
})
