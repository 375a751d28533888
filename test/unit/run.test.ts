import { describe, expect, test } from 'vitest'
import { runCommand, startDetached } from '../../src/run/command.ts'
import { makeProject, waitForNoProcess } from '../helpers.ts'

const base = { cwd: '/', env: { ...process.env, BUN_OPTIONS: undefined }, input: '{"x":1}', timeoutMs: 5000 }

describe('runCommand', () => {
  test('the input arrives on stdin and the pipe is closed', async () => {
    const run = await runCommand('cat; echo " done" >&2; exit 3', base)
    expect(run).toMatchObject({ exitCode: 3, stdout: '{"x":1}', stderr: ' done\n', timedOut: false })
  })
  test('a timeout kills the whole group, children too', async () => {
    const started = performance.now()
    const run = await runCommand('sleep 41001 & sleep 41001', { ...base, timeoutMs: 300 })
    expect(run.timedOut).toBe(true)
    expect(performance.now() - started).toBeLessThan(2500)
    expect(await waitForNoProcess('sleep 41001')).toEqual([])
  })
  test('an abort signal kills the group', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort('SIGTERM'), 200)
    const run = await runCommand('sleep 41002', { ...base, signal: controller.signal })
    expect(run.signal).toBe('SIGTERM')
    expect(await waitForNoProcess('sleep 41002')).toEqual([])
  })
  test('output beyond the cap is drained, not kept', async () => {
    const run = await runCommand('head -c 20000000 /dev/zero | tr "\\0" a; echo done >&2', base)
    expect(run.exitCode).toBe(0)
    expect(run.stdout.length).toBe(16 * 1024 * 1024)
    expect(run.truncated.stdout).toBe(true)
    expect(run.stderr).toBe('done\n')
  })
  test('a hook that exits before reading a large input does not crash hookrun', async () => {
    const run = await runCommand('exit 0', { ...base, input: 'x'.repeat(8 * 1024 * 1024) })
    expect(run.exitCode).toBe(0)
  })
  test('a missing working directory is a spawn error that names it', async () => {
    const run = await runCommand('true', { ...base, cwd: '/no/such/dir' })
    expect(run.spawnError).toMatch(/working directory \/no\/such\/dir does not exist/)
    expect(run.exitCode).toBeNull()
  })
  test('invalid UTF-8 output is decoded with replacement characters', async () => {
    const run = await runCommand("printf 'ok\\377\\376'", base)
    expect(run.stdout).toBe('ok\uFFFD\uFFFD')
  })
  test('scrubbed variables are not inherited', async () => {
    process.env.BUN_OPTIONS = '--smol'
    try {
      const run = await runCommand('printf "[%s]" "$BUN_OPTIONS"', base)
      expect(run.stdout).toBe('[]')
    } finally {
      delete process.env.BUN_OPTIONS
    }
  })
})

describe('startDetached', () => {
  test('hands over the input and returns without waiting', async () => {
    const dir = makeProject()
    const started = performance.now()
    expect(await startDetached('cat > got.json; sleep 1', { cwd: dir, env: process.env, input: '{"bg":true}' })).toBeUndefined()
    expect(performance.now() - started).toBeLessThan(900)
    const { readFileSync, existsSync } = await import('node:fs')
    for (let i = 0; i < 40 && !existsSync(`${dir}/got.json`); i++) await new Promise((r) => setTimeout(r, 25))
    await new Promise((r) => setTimeout(r, 50))
    expect(readFileSync(`${dir}/got.json`, 'utf8')).toBe('{"bg":true}')
  })
})
