/**
 * `--json` on install, uninstall, trust and init: one JSON document on stdout saying what the
 * command did, with the exit code it has without --json.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { makeProject, removeProject, runCli } from '../helpers.ts'

const folders: string[] = []
afterAll(() => folders.forEach(removeProject))

function project(files: Record<string, string | object> = {}): string {
  const dir = makeProject(files)
  folders.push(dir)
  return dir
}

/** Run hookrun in `dir` (also HOME); its stdout must be exactly one JSON document. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read fields of each command's --json result without declaring its shape
async function json(dir: string, args: string[]): Promise<{ exitCode: number | null; stderr: string; result: any }> {
  const run = await runCli(args, { cwd: dir })
  expect(() => JSON.parse(run.stdout), `${args.join(' ')}: ${run.stdout}${run.stderr}`).not.toThrow()
  return { exitCode: run.exitCode, stderr: run.stderr, result: JSON.parse(run.stdout) }
}

describe('install and uninstall --json', () => {
  test('per agent file: created, then unchanged; uninstall removes it; then absent', async () => {
    const dir = project()
    const settings = join(dir, '.claude', 'settings.json')
    // Every event (a narrowed install in a HOME with no hooks routes the session start alone).
    const first = await json(dir, ['install', '--agent', 'claude', '--all-events', '--json'])
    expect(first.exitCode).toBe(0)
    expect(first.result).toMatchObject({
      command: 'install',
      scope: 'user',
      agents: [{ agent: 'claude', file: settings, status: 'created', eventsRemoved: [], warnings: [] }],
    })
    const [claude] = first.result.agents
    expect(claude.eventsAdded).toEqual(expect.arrayContaining(['PreToolUse', 'Stop']))
    expect(claude.events).toEqual(claude.eventsAdded)
    // The events it leaves out on purpose are notes, as the human output gives them.
    expect(claude.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^not WorktreeCreate: /)]))
    expect(Object.keys(JSON.parse(readFileSync(settings, 'utf8')).hooks)).toEqual(claude.eventsAdded)

    const again = await json(dir, ['install', '--agent', 'claude', '--all-events', '--json'])
    expect(again.result.agents).toMatchObject([{ agent: 'claude', status: 'unchanged', eventsAdded: [], events: claude.events }])

    const removed = await json(dir, ['uninstall', '--agent', 'claude', '--json'])
    expect(removed.exitCode).toBe(0)
    expect(removed.result).toMatchObject({
      command: 'uninstall',
      agents: [{ agent: 'claude', file: settings, status: 'deleted', eventsAdded: [] }],
    })
    expect(removed.result.agents[0].eventsRemoved).toEqual(claude.events)
    expect(removed.result.agents[0].entriesRemoved).toBe(claude.events.length)
    expect((await json(dir, ['uninstall', '--agent', 'claude', '--json'])).result.agents).toMatchObject([
      { status: 'absent', eventsRemoved: [] },
    ])
  })
  test("--events narrows: the events dropped are eventsRemoved; a file kept holds the user's own hooks", async () => {
    const dir = project({ '.claude/settings.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] } } })
    await json(dir, ['install', '--agent', 'claude', '--all-events', '--json'])
    const narrowed = await json(dir, ['install', '--agent', 'claude', '--all-events', '--events', 'PreToolUse', '--json'])
    const [claude] = narrowed.result.agents
    expect(claude).toMatchObject({ status: 'updated', eventsAdded: [], events: ['PreToolUse'] })
    expect(claude.eventsRemoved).toEqual(expect.arrayContaining(['Stop', 'PostToolUse']))
    expect(claude.eventsRemoved).not.toContain('PreToolUse')
    const removed = await json(dir, ['uninstall', '--agent', 'claude', '--json'])
    expect(removed.result.agents).toMatchObject([{ status: 'removed', eventsRemoved: ['PreToolUse'], entriesRemoved: 1 }])
  })
  test('a file the agent cannot read is failed, with the error, exit 1, and still one JSON document', async () => {
    const dir = project({ '.claude/settings.json': '{ not json' })
    const broken = await json(dir, ['install', '--agent', 'claude,cursor', '--json'])
    expect(broken.exitCode).toBe(1)
    expect(broken.result.agents).toMatchObject([
      { agent: 'claude', status: 'failed', error: expect.stringContaining('left untouched') },
      { agent: 'cursor', status: 'created' },
    ])
    expect((await runCli(['install', '--agent', 'claude'], { cwd: dir })).exitCode).toBe(1)
  })
  test('--json with --quiet is refused (it prints nothing)', async () => {
    const run = await runCli(['install', '--project', '--sync', '--quiet', '--json'], { cwd: project() })
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([
      1,
      '',
      'hookrun: --json and --quiet exclude each other: --quiet prints nothing\n',
    ])
  })
})

describe('trust --json', () => {
  const hooks = { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: '.hookrun/gate.sh' }] }
  test('the project, each file pinned with its hash, what trust does not cover', async () => {
    const dir = project({ '.hookrun/hooks.json': hooks, '.hookrun/gate.sh': '#!/bin/sh\nexit 0\n', '.hookrun/tests/a.json': '[]' })
    const trusted = await json(dir, ['trust', '--json'])
    expect(trusted.exitCode).toBe(0)
    expect(trusted.result).toMatchObject({ project: dir, trusted: true, hooks: 1, refused: [], problems: 0 })
    expect(trusted.result.files).toHaveLength(2)
    expect(trusted.result.files).toEqual(
      expect.arrayContaining([
        { path: '.hookrun/gate.sh', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), executable: true },
        { path: '.hookrun/hooks.json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), executable: false },
      ]),
    )
    expect(trusted.result.notCovered).toEqual([expect.stringContaining('.hookrun/tests/')])
    // It did trust: the project's hook runs.
    const listed = await runCli(['trust', '--diff'], { cwd: dir })
    expect(listed.stdout).toContain('nothing changed')
  })
  test('a hook trust cannot pin: refused, nothing trusted, exit 1 as without --json', async () => {
    const dir = project({
      '.hookrun/hooks.json': { hooks: [{ name: 'pathy', event: 'tool:pre_execute', command: 'gate', env: { PATH: '/tmp' } }] },
    })
    const refused = await json(dir, ['trust', '--json'])
    expect(refused.exitCode).toBe(1)
    expect(refused.result).toMatchObject({
      project: dir,
      trusted: false,
      files: [],
      refused: [{ file: '.hookrun/hooks.json', path: expect.stringContaining('hooks[0]') }],
    })
    const plain = await runCli(['trust'], { cwd: dir })
    expect([plain.exitCode, plain.stderr]).toEqual([
      1,
      expect.stringContaining(
        `cannot trust ${dir}: .hookrun/hooks.json: ${refused.result.refused[0].path}: ${refused.result.refused[0].message}`,
      ),
    ])
    expect((await runCli(['trust', '--diff'], { cwd: dir })).stderr).toContain('has not been trusted')
  })
  test('--json with --diff is refused', async () => {
    const run = await runCli(['trust', '--diff', '--json'], { cwd: project({ '.hookrun/hooks.json': hooks }) })
    expect([run.exitCode, run.stdout]).toEqual([1, ''])
    expect(run.stderr).toContain('--json goes with trust, not --diff')
  })
})

describe('init --json', () => {
  test('files written, trusted; again after the user rewrote hooks.json: the entry added to it, not trusted', async () => {
    const dir = project()
    const first = await json(dir, ['init', '--template', 'dangerous-commands', '--json'])
    expect(first.exitCode).toBe(0)
    expect(first.result).toMatchObject({ project: dir, trusted: true, untrustedFiles: [], switchedOff: [] })
    expect(first.result.files).toEqual([
      { file: '.hookrun/hooks.json', status: 'written' },
      { file: '.hookrun/hooks.schema.json', status: 'written', reason: 'for editors: the $schema of hooks.json' },
      { file: '.hookrun/scripts/dangerous-commands.sh', status: 'written' },
      { file: '.hookrun/tests/dangerous-commands.json', status: 'written' },
    ])
    writeFileSync(join(dir, '.hookrun', 'hooks.json'), '{"hooks": []}\n')
    const again = await json(dir, ['init', '--template', 'dangerous-commands', '--json'])
    expect(again.result.trusted).toBe(false)
    expect(again.result.untrustedFiles).toEqual(expect.arrayContaining(['.hookrun/hooks.json']))
    expect(again.result.files[0]).toEqual({ file: '.hookrun/hooks.json', status: 'edited', reason: 'added dangerous-commands' })
    expect(again.result.files.slice(1).map((file: { status: string }) => file.status)).toEqual(['kept', 'kept'])
  })
  test('every template: the intrusive ones switched off; the user config written by its absolute path', async () => {
    const dir = project()
    const { result } = await json(dir, ['init', '--json'])
    expect(result.switchedOff.length).toBeGreaterThan(0)
    expect(result.files).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: join(dir, '.xdg-config', 'hookrun', 'hooks.json'), status: 'written' })]),
    )
    // The person's output says the same.
    const other = project()
    const human = (await runCli(['init'], { cwd: other })).stdout
    expect(human.match(/^wrote {2}/gm)?.length).toBe(result.files.filter((file: { status: string }) => file.status === 'written').length)
  })
})
