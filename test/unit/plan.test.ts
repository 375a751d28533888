import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { trustProject, untrustProject } from '../../src/commands/trust.ts'
import { findConfigFiles } from '../../src/config/files.ts'
import { observe } from '../../src/config/observe.ts'
import { planFile, plannedHooks } from '../../src/config/plan.ts'
import { PLAN_VARIABLES, planEnvironment } from '../../src/config/plan-inputs.ts'
import { qualifyEvent } from '../../src/event/event.ts'
import { fire } from '../../src/fire.ts'
import { cliEnvironment, makeProject, removeProject, ROOT } from '../helpers.ts'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeProject))

const payload = { tool_name: 'Bash', tool_input: { command: 'ls' } }
const event = qualifyEvent('tool:pre_execute', payload)
const longAgo = new Date(Date.now() - 3_600_000)

/** Files dated back (the config cache and plans take only settled files), then left alone long enough for trust to record their signatures. */
async function settle(dir: string, files: readonly string[]): Promise<void> {
  for (const file of files) utimesSync(join(dir, file), longAgo, longAgo)
  await new Promise((done) => setTimeout(done, 150))
}

/** A project trusted by `hookrun trust` whose PreToolUse gate runs a script; HOME is the project. */
async function trustedProject(extra: Record<string, unknown> = {}) {
  const dir = makeProject({
    '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: './gate.sh' }], ...extra },
    'gate.sh': '#!/bin/sh\necho "{\\"decision\\":\\"deny\\",\\"reason\\":\\"from gate\\"}"\n',
  })
  dirs.push(dir)
  chmodSync(join(dir, 'gate.sh'), 0o755)
  const env = cliEnvironment(dir)
  await settle(dir, ['.hookrun/hooks.json', 'gate.sh'])
  trustProject({ cwd: dir, env })
  return { dir, env }
}

const planned = (dir: string, env: Record<string, string | undefined>) => plannedHooks(observe({ cwd: dir, env }), event)
const fireIn = (dir: string, env: Record<string, string | undefined>) => fire({ event: 'tool:pre_execute', payload, cwd: dir, env })

describe('plans: a fire remembers which hooks its event has', () => {
  test('the first fire of an event plans it; the next reads the plan and decides the same', async () => {
    const { dir, env } = await trustedProject()
    expect(planned(dir, env)).toBeUndefined()
    const first = await fireIn(dir, env)
    expect(first.reason).toBe('from gate')
    expect(planned(dir, env)?.hooks.map((hook) => hook.name)).toEqual(['gate'])
    expect(planned(dir, env)?.trust).toMatchObject({ trusted: true, via: 'record' })
    const second = await fireIn(dir, env)
    expect({ ...second, hooks: second.hooks.map((hook) => ({ ...hook, durationMs: 0 })) }).toEqual({
      ...first,
      hooks: first.hooks.map((hook) => ({ ...hook, durationMs: 0 })),
    })
    // An event no hook has is planned too: the answer "none" is what most fires ask.
    await fire({ event: 'session:start', payload: {}, cwd: dir, env })
    expect(plannedHooks(observe({ cwd: dir, env }), qualifyEvent('session:start', {}))?.hooks).toEqual([])
  })

  // A change returns the environment the next fire sees, or nothing when the environment stays.
  // biome-ignore lint/suspicious/noConfusingVoidType: most changes only write a file and return nothing
  const changes: Array<[string, (dir: string, env: Record<string, string | undefined>) => void | Record<string, string | undefined>]> = [
    [
      'hooks.json is edited',
      (dir) =>
        writeFileSync(
          join(dir, '.hookrun/hooks.json'),
          JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'true' }] }),
        ),
    ],
    ['a hooks.local.json appears', (dir) => writeFileSync(join(dir, '.hookrun/hooks.local.json'), JSON.stringify({ hooks: [] }))],
    ['the project is untrusted', (dir, env) => void untrustProject({ cwd: dir, env })],
    ['a script the hook runs is edited', (dir) => writeFileSync(join(dir, 'gate.sh'), '#!/bin/sh\nexit 0\n')],
    [
      "an executable lands in the project's hook folder",
      (dir) => {
        mkdirSync(join(dir, '.hookrun/hooks'))
        writeFileSync(join(dir, '.hookrun/hooks/new-hook'), '#!/bin/sh\n', { mode: 0o755 })
      },
    ],
    [
      'a file appears in an agent hook folder trust covers (.claude/hooks)',
      (dir) => {
        mkdirSync(join(dir, '.claude/hooks'), { recursive: true })
        writeFileSync(join(dir, '.claude/hooks/new.sh'), '#!/bin/sh\n', { mode: 0o755 })
      },
    ],
    [
      'a file appears nested in .hookrun',
      (dir) => {
        mkdirSync(join(dir, '.hookrun/scripts'), { recursive: true })
        writeFileSync(join(dir, '.hookrun/scripts/new.sh'), '#!/bin/sh\n')
      },
    ],
    ["the user's hook folder appears", (_dir, env) => void mkdirSync(join(env.XDG_CONFIG_HOME!, 'hookrun', 'hooks'), { recursive: true })],
    ['a plugin folder appears', (dir) => void mkdirSync(join(dir, '.hookrun/plugins/acme@hooks'), { recursive: true })],
    ['the user config moves (XDG_CONFIG_HOME)', (dir, env) => ({ ...env, XDG_CONFIG_HOME: join(dir, 'elsewhere') })],
    ['a HOOKRUN_ variable is set', (_dir, env) => ({ ...env, HOOKRUN_MANAGED_DIR: '/nonexistent' })],
  ]
  test.each(changes)('void when %s', async (_what, change) => {
    const { dir, env } = await trustedProject()
    await fireIn(dir, env)
    expect(planned(dir, env)).toBeDefined()
    const changedEnv = change(dir, env) ?? env
    expect(planned(dir, changedEnv)).toBeUndefined()
  })

  test('a script the hook names that was missing when trusted, created later: no plan answer, and the gate blocks as changed', async () => {
    const { dir, env } = await trustedProject({ hooks: [{ name: 'gate', event: 'tool:pre_execute', command: './gate.sh; ./later.sh' }] })
    await fireIn(dir, env)
    expect(planned(dir, env)).toBeDefined()
    writeFileSync(join(dir, 'later.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 })
    expect(planned(dir, env)).toBeUndefined()
    const decision = await fireIn(dir, env)
    expect(decision).toMatchObject({ decision: 'deny', blocked: true })
    expect(decision.reason).toMatch(/changed/)
  })

  test.each([
    ['a file its env loads (BASH_ENV)', { env: { BASH_ENV: 'tools/env.sh' } }, 'tools/env.sh'],
    ['a file reached through a link in .hookrun/', {}, '.hookrun/lib/util.sh'],
    ['a script outside the project', {}, 'OUTSIDE'],
  ])('an edit to %s after the trust: no plan answer, and the gate blocks as changed', async (_what, extra, file) => {
    const outside = makeProject({ 'out.sh': '#!/bin/sh\nexit 0\n', 'vendor/util.sh': 'true\n' })
    dirs.push(outside)
    const dir = makeProject({
      'tools/env.sh': 'true\n',
      'gate.sh': '#!/bin/sh\necho "{\\"decision\\":\\"deny\\",\\"reason\\":\\"from gate\\"}"\n',
    })
    dirs.push(dir)
    chmodSync(join(dir, 'gate.sh'), 0o755)
    mkdirSync(join(dir, '.hookrun'))
    symlinkSync(join(outside, 'vendor'), join(dir, '.hookrun/lib'))
    writeFileSync(
      join(dir, '.hookrun/hooks.json'),
      JSON.stringify({ hooks: [{ name: 'gate', event: 'tool:pre_execute', command: `${join(outside, 'out.sh')}; ./gate.sh`, ...extra }] }),
    )
    const env = cliEnvironment(dir)
    await settle(dir, ['.hookrun/hooks.json', 'gate.sh', 'tools/env.sh'])
    trustProject({ cwd: dir, env })
    expect((await fireIn(dir, env)).reason).toBe('from gate')
    expect(planned(dir, env)).toBeDefined()
    const edited = file === 'OUTSIDE' ? join(outside, 'out.sh') : join(dir, file)
    writeFileSync(edited, '#!/bin/sh\necho planted\n')
    expect(planned(dir, env)).toBeUndefined()
    const decision = await fireIn(dir, env)
    expect(decision).toMatchObject({ decision: 'deny', blocked: true, decidedBy: 'hookrun' })
    expect(decision.reason).toContain(file === 'OUTSIDE' ? 'out.sh edited' : `${file} edited`)
  })

  test('after an untrust the gate no longer runs; after a script edit the gate blocks as changed', async () => {
    const untrusted = await trustedProject()
    await fireIn(untrusted.dir, untrusted.env)
    untrustProject({ cwd: untrusted.dir, env: untrusted.env })
    const after = await fireIn(untrusted.dir, untrusted.env)
    expect(after.hooks).toEqual([])
    expect(after.reason).toBeUndefined()

    const edited = await trustedProject()
    await fireIn(edited.dir, edited.env)
    writeFileSync(join(edited.dir, 'gate.sh'), '#!/bin/sh\nexit 0\n')
    const blocked = await fireIn(edited.dir, edited.env)
    expect(blocked).toMatchObject({ blocked: true, decidedBy: 'hookrun' })
    expect(blocked.reason).toContain('gate.sh')
  })

  test("the user's own hooks: planned for any folder outside a project, void when the user config is edited", async () => {
    const home = makeProject()
    dirs.push(home)
    const env = cliEnvironment(home)
    const userConfig = join(env.XDG_CONFIG_HOME!, 'hookrun', 'hooks.json')
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'hookrun'), { recursive: true })
    writeFileSync(userConfig, JSON.stringify({ hooks: [{ name: 'mine', event: 'tool:pre_execute', command: 'true' }] }))
    utimesSync(userConfig, longAgo, longAgo)
    const folder = join(home, 'some', 'folder')
    mkdirSync(folder, { recursive: true })
    await fireIn(folder, env)
    expect(planned(home, env)?.hooks.map((hook) => hook.name)).toEqual(['mine'])
    writeFileSync(userConfig, JSON.stringify({ hooks: [{ name: 'mine', event: 'tool:pre_execute', command: 'false' }] }))
    expect(planned(folder, env)).toBeUndefined()
  })

  test("a planned http hook keeps the user config's allowedHttpHookUrls: the second fire, read from the plan, refuses it too", async () => {
    const home = makeProject()
    dirs.push(home)
    const env = cliEnvironment(home)
    const userConfig = join(env.XDG_CONFIG_HOME!, 'hookrun', 'hooks.json')
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'hookrun'), { recursive: true })
    writeFileSync(
      userConfig,
      JSON.stringify({
        allowedHttpHookUrls: ['https://hooks.example.com/*'],
        hooks: [{ name: 'post', event: 'tool:pre_execute', url: 'http://127.0.0.1:9/check', onError: 'allow' }],
      }),
    )
    utimesSync(userConfig, longAgo, longAgo)
    const first = await fireIn(home, env)
    expect(planned(home, env)?.hooks.map((hook) => hook.name)).toEqual(['post'])
    const second = await fireIn(home, env)
    for (const decision of [first, second]) expect(decision.reason).toContain('which allowedHttpHookUrls in')
  })

  test("an organisation's managed config that appears voids it (a managed layer is never planned)", async () => {
    const { dir, env } = await trustedProject()
    const managed = join(dir, 'managed')
    mkdirSync(managed)
    const withManaged = { ...env, HOOKRUN_MANAGED_DIR: managed }
    await fireIn(dir, withManaged)
    expect(planned(dir, withManaged)).toBeDefined()
    writeFileSync(join(managed, 'hooks.json'), JSON.stringify({ hooks: [{ name: 'org', event: 'tool:pre_execute', command: 'true' }] }))
    utimesSync(join(managed, 'hooks.json'), longAgo, longAgo)
    expect(planned(dir, withManaged)).toBeUndefined()
    expect((await fireIn(dir, withManaged)).hooks.map((hook) => hook.name)).toEqual(['org', 'gate'])
    // Nor is one made for the set with the managed file.
    expect(existsSync(planFile(findConfigFiles({ cwd: dir, env: withManaged }), withManaged))).toBe(false)
  })

  test('a nearer project found from the working directory has its own plan', async () => {
    const { dir, env } = await trustedProject()
    await fireIn(dir, env)
    const inner = join(dir, 'inner')
    mkdirSync(join(inner, '.hookrun'), { recursive: true })
    writeFileSync(join(inner, '.hookrun/hooks.json'), JSON.stringify({ hooks: [] }))
    expect(planned(inner, env)).toBeUndefined()
    expect(planned(dir, env)).toBeDefined()
  })

  test('an audit log is planned with the hooks: a fire answered from the plan still logs, to the path the user config names now', async () => {
    const { dir, env } = await trustedProject()
    const userConfig = join(env.XDG_CONFIG_HOME!, 'hookrun', 'hooks.json')
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'hookrun'), { recursive: true })
    const logAt = (name: string) => {
      writeFileSync(userConfig, JSON.stringify({ log: { path: join(dir, name) } }))
      utimesSync(userConfig, longAgo, longAgo)
    }
    logAt('first.jsonl')
    await fireIn(dir, env)
    expect(planned(dir, env)?.settings.log?.path).toBe(join(dir, 'first.jsonl'))
    await fireIn(dir, env)
    expect(readFileSync(join(dir, 'first.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2)
    // The user config is what the plan rests on: another path there is a miss, then the new path.
    logAt('second.jsonl')
    expect(planned(dir, env)).toBeUndefined()
    await fireIn(dir, env)
    await fireIn(dir, env)
    expect(readFileSync(join(dir, 'second.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2)
    expect(planned(dir, env)?.settings.log?.path).toBe(join(dir, 'second.jsonl'))
  })

  test("a nested project's plan rests on the enclosing project's trust too", async () => {
    const { dir, env } = await trustedProject()
    const sub = join(dir, 'sub')
    mkdirSync(join(sub, '.hookrun'), { recursive: true })
    writeFileSync(
      join(sub, '.hookrun/hooks.json'),
      JSON.stringify({ hooks: [{ name: 'note', event: 'tool:pre_execute', command: 'true' }] }),
    )
    await settle(sub, ['.hookrun/hooks.json'])
    trustProject({ cwd: sub, env })
    expect((await fireIn(sub, env)).reason).toBe('from gate')
    const plan = planned(sub, env)
    expect(plan?.hooks.map((hook) => hook.name)).toEqual(['gate', 'note'])
    expect(plan?.trusts.map((trust) => [trust.root, trust.trusted])).toEqual([
      [dir, true],
      [sub, true],
    ])
    // The enclosing project's script edited: no plan answer, and its gate blocks as changed.
    writeFileSync(join(dir, 'gate.sh'), '#!/bin/sh\nexit 0\n')
    expect(planned(sub, env)).toBeUndefined()
    expect(await fireIn(sub, env)).toMatchObject({ blocked: true, decidedBy: 'hookrun' })
  })

  test('a project that appears below the enclosing one voids the plan of the folder it is in', async () => {
    const { dir, env } = await trustedProject()
    const sub = join(dir, 'sub')
    mkdirSync(sub)
    await fireIn(sub, env)
    expect(planned(sub, env)).toBeDefined()
    mkdirSync(join(sub, '.hookrun/hooks'), { recursive: true })
    expect(planned(sub, env)).toBeUndefined()
    expect((await fireIn(sub, env)).reason).toBe('from gate')
  })

  test("a git worktree trusted by its repository's record is planned; an edit there, or an untrust of the repository, voids the plan", async () => {
    const { dir, env } = await trustedProject()
    const git = (...args: string[]) => {
      const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], {
        cwd: dir,
        encoding: 'utf8',
      })
      if (run.status !== 0) throw new Error(run.stderr)
    }
    git('init', '-q')
    git('add', '.hookrun', 'gate.sh')
    git('commit', '-q', '-m', 'hooks')
    const worktree = `${dir}-wt`
    dirs.push(worktree)
    git('worktree', 'add', '-q', worktree)
    await settle(worktree, ['.hookrun/hooks.json', 'gate.sh'])
    expect((await fireIn(worktree, env)).reason).toBe('from gate')
    expect(planned(worktree, env)?.trust).toMatchObject({ root: worktree, trusted: true, via: 'record' })
    untrustProject({ cwd: dir, env })
    expect(planned(worktree, env)).toBeUndefined()
    trustProject({ cwd: dir, env })
    await fireIn(worktree, env)
    expect(planned(worktree, env)).toBeDefined()
    writeFileSync(join(worktree, 'gate.sh'), '#!/bin/sh\nexit 0\n')
    expect(planned(worktree, env)).toBeUndefined()
    expect(await fireIn(worktree, env)).toMatchObject({ blocked: true, decidedBy: 'hookrun' })
  })

  const unplanned: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    [
      'a config problem is reported',
      {
        hooks: [
          { name: 'gate', event: 'tool:pre_execute', command: './gate.sh' },
          { name: 'x', event: 'tool:pre_execute', command: 'true', unknownField: 1 },
        ],
      },
      {},
    ],
  ]
  test.each(unplanned)('no plan when %s', async (_what, project, user) => {
    const { dir, env } = await trustedProject(project)
    const userConfig = join(env.XDG_CONFIG_HOME!, 'hookrun', 'hooks.json')
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'hookrun'), { recursive: true })
    writeFileSync(userConfig, JSON.stringify(user))
    utimesSync(userConfig, longAgo, longAgo)
    await fireIn(dir, env)
    expect(existsSync(planFile(findConfigFiles({ cwd: dir, env }), env))).toBe(false)
  })

  test('no plan for an untrusted project, nor for --config files', async () => {
    const dir = makeProject({ '.hookrun/hooks.json': { hooks: [{ name: 'gate', event: 'tool:pre_execute', command: 'true' }] } })
    dirs.push(dir)
    const env = cliEnvironment(dir)
    await settle(dir, ['.hookrun/hooks.json'])
    await fireIn(dir, env)
    await fire({ event: 'tool:pre_execute', payload, cwd: dir, env, configFiles: [join(dir, '.hookrun/hooks.json')] })
    expect(
      existsSync(join(env.XDG_CACHE_HOME!, 'hookrun', 'plans')) ? readdirSync(join(env.XDG_CACHE_HOME!, 'hookrun', 'plans')) : [],
    ).toEqual([])
  })

  test.each([
    ['cut short', (text: string) => text.slice(0, 40)],
    [
      'of another shape',
      (text: string) => JSON.stringify({ ...JSON.parse(text), inputs: { ...JSON.parse(text).inputs, trustRecords: [] } }),
    ],
  ])('a plan %s is a miss, and the next fire plans again', async (_what, damage) => {
    const { dir, env } = await trustedProject()
    await fireIn(dir, env)
    const file = planFile(findConfigFiles({ cwd: dir, env }), env)
    writeFileSync(file, damage(readFileSync(file, 'utf8')))
    expect(planned(dir, env)).toBeUndefined()
    expect((await fireIn(dir, env)).reason).toBe('from gate')
    expect(planned(dir, env)).toBeDefined()
  })
})

describe('cache folders stay bounded', () => {
  test('a new plan or config cache file removes the ones not written for 30 days; recent ones stay', async () => {
    const { dir, env } = await trustedProject()
    const cache = join(env.XDG_CACHE_HOME!, 'hookrun')
    const old = new Date(Date.now() - 40 * 24 * 3600_000)
    for (const folder of ['plans', 'config']) {
      mkdirSync(join(cache, folder), { recursive: true })
      for (const [name, when] of [
        ['gone.json', old],
        ['recent.json', new Date()],
      ] as const) {
        writeFileSync(join(cache, folder, name), '{}')
        utimesSync(join(cache, folder, name), when, when)
      }
    }
    await fireIn(dir, env)
    for (const folder of ['plans', 'config']) {
      const names = readdirSync(join(cache, folder))
      expect(names).toContain('recent.json')
      expect(names).not.toContain('gone.json')
      expect(names.length).toBe(2)
    }
  })
})

describe('the environment a plan rests on', () => {
  test('every variable the config stage reads is one a plan compares', () => {
    const files = ['src/config', 'src/trust', 'src/discover']
      .flatMap((folder) => readdirSync(join(ROOT, folder)).map((name) => join(folder, name)))
      .concat(['src/core/places.ts', 'src/fire-config.ts'])
    const names = new Set<string>()
    for (const file of files) {
      const source = readFileSync(join(ROOT, file), 'utf8')
      // `env.NAME`, `env?.NAME` (not a hook entry's own `entry.env.NAME`), and names places.ts passes as strings.
      for (const match of source.matchAll(/(?<![.\w])env\??\.([A-Z]\w*)/g)) names.add(match[1]!)
      for (const match of source.matchAll(/'((?:XDG|HOOKRUN|OTEL)_[A-Z_]+)'/g)) names.add(match[1]!)
    }
    expect([...names]).toEqual(
      expect.arrayContaining(['HOME', 'HOOKRUN_CONFIG', 'HOOKRUN_MANAGED_DIR', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME']),
    )
    expect([...names].filter((name) => !PLAN_VARIABLES.has(name))).toEqual([])
  })

  test("only those variables: an agent's own, and those hookrun sets for a hook, do not void a plan", () => {
    const env = {
      HOME: '/h',
      XDG_CONFIG_HOME: '/x',
      XDG_RUNTIME_DIR: '/run/user/1',
      HOOKRUN_AGENT: 'claude',
      HOOKRUN_FIRE_ID: '12-ab',
      HOOKRUN_EVENT: 'tool:pre_execute',
      HOOKRUN_CONFIG: '/c.json',
      PATH: '/bin',
      CLAUDE_PROJECT_DIR: '/p',
    }
    expect(planEnvironment(env)).toBe('HOME=/h\nXDG_CONFIG_HOME=/x\nHOOKRUN_CONFIG=/c.json')
  })
})
