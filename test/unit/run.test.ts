import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { CommandRun } from '../../src/core/types.ts'
import { commandArgv } from '../../src/run/argv.ts'
import { type CommandOptions, runCommand, startDetached } from '../../src/run/command.ts'
import { spawnPrimitive } from '../../src/run/spawn.ts'
import { makeProject as makeFolder, ROOT, waitForNoProcess } from '../helpers.ts'

const BUN = join(ROOT, 'node_modules', '.bin', 'bun')
const DRIVER = join(ROOT, 'test', 'run-under-bun.ts')

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
/** A throw-away folder with these files, removed after the file's tests. */
function makeProject(files: Record<string, string> = {}): string {
  const dir = makeFolder(files)
  dirs.push(dir)
  return dir
}

type Options = Omit<CommandOptions, 'signal'> & { readonly abortAfterMs?: number }

/**
 * Every case runs on both spawn paths: in this process (Node: child_process) and under Bun
 * (Bun.spawn, what the compiled binary uses), through test/run-under-bun.ts.
 */
const PATHS = [
  {
    primitive: 'child_process',
    async run(command: string, { abortAfterMs, ...options }: Options): Promise<CommandRun> {
      const controller = new AbortController()
      if (abortAfterMs !== undefined) setTimeout(() => controller.abort('SIGTERM'), abortAfterMs)
      return runCommand(command, { ...options, signal: controller.signal })
    },
    detached: (command: string, options: Omit<CommandOptions, 'timeoutMs' | 'signal'>) => startDetached(command, options),
  },
  {
    primitive: 'Bun.spawn',
    async run(command: string, { abortAfterMs, ...options }: Options): Promise<CommandRun> {
      return viaBun({ command, options, abortAfterMs }).run as CommandRun
    },
    async detached(command: string, options: Omit<CommandOptions, 'timeoutMs' | 'signal'>) {
      return viaBun({ command, options, detached: true }).error as string | undefined
    },
  },
] as const

function viaBun(request: object): { primitive: string; run?: unknown; error?: unknown } {
  const result = spawnSync(BUN, [DRIVER], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, BUN_OPTIONS: undefined },
  })
  if (result.status !== 0) throw new Error(`bun driver exited ${result.status}: ${result.stderr}`)
  const answer = JSON.parse(result.stdout) as { primitive: string }
  expect(answer.primitive).toBe('Bun.spawn')
  return answer
}

const env = () => ({ ...process.env, BUN_OPTIONS: undefined }) as Record<string, string | undefined>
const base = () => ({ cwd: '/', env: env(), input: '{"x":1}', timeoutMs: 5000 })

test('under Node the child_process path is used (the Bun path is checked by every Bun case)', () => {
  expect(spawnPrimitive()).toBe('child_process')
})

for (const path of PATHS) {
  describe(`runCommand through ${path.primitive}`, () => {
    test('the input arrives on stdin and the pipe is closed', async () => {
      const run = await path.run('cat; echo " done" >&2; exit 3', base())
      expect(run).toMatchObject({ exitCode: 3, stdout: '{"x":1}', stderr: ' done\n', timedOut: false })
    })
    test('input given as bytes arrives as those bytes', async () => {
      if (path.primitive === 'Bun.spawn') return // the driver takes JSON; bytes are checked in-process and by the e2e payload cases
      const run = await path.run('od -An -tx1 | tr -d " \\n"', { ...base(), input: new Uint8Array([0x7b, 0xc3, 0xa9, 0x7d]) })
      expect(run.stdout).toBe('7bc3a97d')
    })
    test('input given as pieces arrives whole and in order, however large', async () => {
      // Pieces larger than the slice the Bun path writes at a time (1 MiB), around a small one.
      const spec: Array<[number, number]> = [
        [1_500_000, 0x61],
        [3, 0x7c],
        [2_200_000, 0x62],
      ]
      const expected = createHash('sha256')
        .update(Buffer.concat(spec.map(([length, byte]) => Buffer.alloc(length, byte))))
        .digest('hex')
      const run =
        path.primitive === 'Bun.spawn'
          ? (viaBun({ command: 'sha256sum', options: base(), pieces: spec }).run as CommandRun)
          : await path.run('sha256sum', { ...base(), input: spec.map(([length, byte]) => new Uint8Array(length).fill(byte)) })
      expect(run.stdout.split(' ')[0]).toBe(expected)
    })
    test('a timeout kills the whole group, children too', async () => {
      const marker = path.primitive === 'Bun.spawn' ? '41011' : '41001'
      // Were the group not killed, the run would wait for the sleeps (hours): it answers, timed out, with none left.
      const run = await path.run(`sleep ${marker} & sleep ${marker}`, { ...base(), timeoutMs: 300 })
      expect(run.timedOut).toBe(true)
      expect(await waitForNoProcess(`sleep ${marker}`)).toEqual([])
    })
    test('an abort signal kills the group', async () => {
      const marker = path.primitive === 'Bun.spawn' ? '41012' : '41002'
      const run = await path.run(`sleep ${marker}`, { ...base(), abortAfterMs: 200 })
      expect(run.signal).toBe('SIGTERM')
      expect(await waitForNoProcess(`sleep ${marker}`)).toEqual([])
    })
    test('a grandchild holding stdout open does not hold the hook up; it is killed', async () => {
      const marker = path.primitive === 'Bun.spawn' ? '41013' : '41003'
      // Not timed out: the run ended on the hook's exit, not when its 30 s ran out or the grandchild's sleep ended.
      const run = await path.run(`sleep ${marker} & echo started`, { ...base(), timeoutMs: 30_000 })
      expect(run).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false })
      expect(await waitForNoProcess(`sleep ${marker}`)).toEqual([])
    })
    test('output beyond the cap is drained, not kept', async () => {
      const run = await path.run('head -c 20000000 /dev/zero | tr "\\0" a; echo done >&2', base())
      expect(run.exitCode).toBe(0)
      expect(run.stdout.length).toBe(16 * 1024 * 1024)
      expect(run.truncated.stdout).toBe(true)
      expect(run.stderr).toBe('done\n')
    })
    test('a hook that exits before reading a large input does not crash hookrun', async () => {
      const run = await path.run('exit 0', { ...base(), input: 'x'.repeat(8 * 1024 * 1024) })
      expect(run.exitCode).toBe(0)
    })
    test('a hook that never reads stdin is not held up by a large input', async () => {
      const run = await path.run('sleep 0.2', { ...base(), input: 'x'.repeat(8 * 1024 * 1024) })
      expect(run).toMatchObject({ exitCode: 0, timedOut: false })
    })
    test('a missing working directory is a spawn error that names it', async () => {
      const run = await path.run('true', { ...base(), cwd: '/no/such/dir' })
      expect(run.spawnError).toMatch(/working directory \/no\/such\/dir does not exist/)
      expect(run.exitCode).toBeNull()
    })
    test('invalid UTF-8 output is decoded with replacement characters', async () => {
      const run = await path.run("printf 'ok\\377\\376'", base())
      expect(run.stdout).toBe('ok\uFFFD\uFFFD')
    })
    test('scrubbed variables are not inherited', async () => {
      const run = await path.run('printf "[%s]" "$BUN_OPTIONS"', { ...base(), env: { ...env(), BUN_OPTIONS: undefined } })
      expect(run.stdout).toBe('[]')
    })
    test('a plain command starts without a shell; one with shell syntax in sh, with SIGPIPE ignored', async () => {
      const dir = makeProject({ 'parent.sh': '#!/bin/sh\nps -o comm= -p $PPID\ngrep SigIgn /proc/self/status\n' })
      const direct = await path.run(`${dir}/parent.sh`, { ...base(), cwd: dir })
      expect(direct.stdout.split('\n')[0]).not.toBe('sh')
      const shell = await path.run(`${dir}/parent.sh; true`, { ...base(), cwd: dir })
      expect(shell.stdout.split('\n')[0]).toBe('sh')
      // SIGPIPE is signal 13: bit 12 of the ignored mask.
      const ignored = (run: CommandRun) => (BigInt(`0x${/SigIgn:\s*([0-9a-f]+)/.exec(run.stdout)![1]}`) >> 12n) & 1n
      expect(ignored(shell)).toBe(1n)
    })
    test('a plain command that cannot start gets the shell exit status and message', async () => {
      const dir = makeProject({ 'not-executable.txt': 'echo hi\n' })
      const missing = await path.run('no-such-command-41004 --flag', base())
      expect(missing.exitCode).toBe(127)
      expect(missing.stderr).toMatch(/not found/)
      const notExecutable = await path.run('./not-executable.txt', { ...base(), cwd: dir })
      expect(notExecutable.exitCode).toBe(126)
    })
  })

  describe(`startDetached through ${path.primitive}`, () => {
    test('hands over the input and returns without waiting', async () => {
      const dir = makeProject()
      // The hook finishes only once the test, after startDetached returned, says go (it gives up
      // after 20 s): had startDetached waited for it, it would write that it finished first.
      const hook =
        'cat > got.json; i=0; while [ ! -f go ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; [ -f go ] && echo after-return > order || echo before-return > order'
      expect(await path.detached(hook, { cwd: dir, env: env(), input: '{"bg":true}' })).toBeUndefined()
      writeFileSync(join(dir, 'go'), '')
      const order = () => (existsSync(`${dir}/order`) ? readFileSync(`${dir}/order`, 'utf8').trim() : '')
      for (let i = 0; i < 800 && order() === ''; i++) await new Promise((r) => setTimeout(r, 25))
      expect(order()).toBe('after-return')
      expect(readFileSync(`${dir}/got.json`, 'utf8')).toBe('{"bg":true}')
    })
  })
}

describe('commandArgv: which commands start without sh', () => {
  const PATH = '/usr/bin:/bin'
  test.each([
    ['./scripts/check.sh --strict', ['/project/scripts/check.sh', '--strict']],
    ['/usr/bin/env node hook.js', ['/usr/bin/env', 'node', 'hook.js']],
    ['python3 -m hooks.guard a=b', ['python3', '-m', 'hooks.guard', 'a=b']],
    ['  node  hook.js ', ['node', 'hook.js']],
  ])('%s', (command, argv) => {
    expect(commandArgv(command, PATH, '/project')).toEqual(argv)
  })
  test.each([
    'echo "quoted"',
    'cat $FILE',
    'ls *.ts',
    'a; b',
    'a && b',
    'a | b',
    'a > out',
    '~/bin/hook',
    'FOO=1 node hook.js',
    'exit 2',
    'true',
    'echo hi',
    'cd /tmp',
    'if',
    'node hook.js # comment',
    'node hook.js\nnode other.js',
    'node `x`',
    '',
  ])('keeps the shell: %j', (command) => {
    expect(commandArgv(command, PATH, '/project')).toBeUndefined()
  })
  test('a PATH with a relative entry keeps the shell (it reads it from the hook folder)', () => {
    expect(commandArgv('node hook.js', 'bin:/usr/bin', '/project')).toBeUndefined()
    expect(commandArgv('node hook.js', '/usr/bin::/bin', '/project')).toBeUndefined()
    expect(commandArgv('node hook.js', undefined, '/project')).toBeUndefined()
  })
})
