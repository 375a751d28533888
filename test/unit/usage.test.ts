import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { versionLine } from '../../src/commands/usage.ts'
import { didYouMean, nearest } from '../../src/core/suggest.ts'
import { count } from '../../src/core/words.ts'
import { ROOT, runCli } from '../helpers.ts'

describe('nearest: the word a typo meant', () => {
  const commands = ['fire', 'explain', 'install', 'uninstall', 'validate', 'list', 'test', 'trust', 'untrust']
  test.each([
    ['instal', 'install'],
    ['valdate', 'validate'],
    ['fier', 'fire'],
    ['TRUST', 'trust'],
    ['expl', 'explain'],
  ])('%s → %s', (typo, meant) => expect(nearest(typo, commands)).toBe(meant))
  test('nothing close: no guess', () => {
    expect(nearest('frobnicate', commands)).toBeUndefined()
    expect(didYouMean('frobnicate', commands)).toBe('')
  })
  test('an ambiguous prefix is no guess', () => expect(nearest('un', commands)).toBeUndefined())
  test('didYouMean shows the candidate as asked', () => expect(didYouMean('--jsn', ['--json', '--cwd'])).toBe(' (did you mean --json?)'))
})

test('count: counted nouns, never "(s)"', () => {
  expect([count(0, 'hook'), count(1, 'hook'), count(2, 'entry', 'entries')]).toEqual(['0 hooks', '1 hook', '2 entries'])
})

describe('--version names the runtime by its own version', () => {
  test('under Node: node and its version', () => {
    expect(versionLine('1.2.3')).toBe(`hookrun 1.2.3 (node ${process.versions.node}, ${process.platform}-${process.arch})\n`)
  })
  test('the compiled binary: the Bun it was built with, not the Node version Bun reports', async () => {
    const bun = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'bun', 'package.json'), 'utf8')).version as string
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string
    const result = await runCli(['--version'])
    expect(result.stdout).toBe(`hookrun ${pkg} (bun ${bun}, ${process.platform}-${process.arch})\n`)
    expect((await runCli(['-v'])).stdout).toBe(result.stdout)
  })
})

describe('the command line of a fire', () => {
  const io = { stdout: () => undefined, stderr: () => undefined, env: {}, stdin: (async function* () {})() }
  test('defines only the fire command, with the options every command line has', async () => {
    const { createCli } = await import('../../src/commands/program.ts')
    const cli = createCli(io, () => undefined, 'fire')
    expect(cli.commands.map((command) => command.name)).toEqual(['fire'])
    expect(cli.globalCommand.options.map((option) => option.name)).toEqual(expect.arrayContaining(['version', 'color']))
    expect(createCli(io, () => undefined).commands.length).toBeGreaterThan(15)
  })
  test('main gives `hookrun fire` that command line: its help and its option suggestions still work', async () => {
    const help = await runCli(['fire', '--help'])
    expect(help.stdout).toContain('$ hookrun fire [event]')
    expect(help.stdout).toContain('--payload <file>')
    const typo = await runCli(['fire', '--paylod', '-'])
    expect([typo.exitCode, typo.stderr]).toEqual([1, expect.stringContaining('did you mean --payload?')])
  })
})

describe('a common fire line, read without cac', () => {
  const io = { stdout: () => undefined, stderr: () => undefined, env: {}, stdin: (async function* () {})() }
  const lines = [
    ['fire', '--format', 'claude'],
    ['fire', 'tool:pre_execute', '--payload', '-'],
    ['fire', '--payload=-', 'PreToolUse:Bash'],
    ['fire', 'preToolUse', '--format', 'copilot', '--cwd', '/tmp'],
    ['fire', 'tool:pre_execute', '--tool', 'Bash', '--payload', 'event.json'],
    ['fire'],
  ]
  test.each(lines.map((line) => [line.join(' '), line]))('%s: read as cac reads it', async (_text, line) => {
    const { simpleFireArgs } = await import('../../src/commands/fire-args.ts')
    const { createCli, prepareArgv, valueFlags } = await import('../../src/commands/program.ts')
    const simple = simpleFireArgs(line)
    expect(simple).toBeDefined()
    const cli = createCli(io, () => undefined, 'fire')
    cli.parse(['hookrun', 'hookrun', ...prepareArgv(line, valueFlags(cli))], { run: false })
    const { payload, format, cwd, tool } = cli.options
    expect(simple).toEqual({
      event: cli.args[0],
      flags: Object.fromEntries(Object.entries({ payload, format, cwd, tool }).filter(([, value]) => value !== undefined)),
    })
  })
  test.each([
    ['--strict', ['fire', 'x', '--strict']],
    ['a flag given twice', ['fire', '--tool', 'a', '--tool', 'b']],
    ['two events', ['fire', 'a', 'b']],
    ['a number-like value (cac makes it a number)', ['fire', 'x', '--tool', '007']],
    ['an empty value', ['fire', 'x', '--payload=']],
    ['a value that is a flag', ['fire', 'x', '--payload', '--tool']],
    ['help', ['fire', '--help']],
    ['a short flag', ['fire', '-h']],
    ['end of options', ['fire', '--', 'x']],
    ['another command', ['list', 'x']],
  ])('left to cac: %s', async (_what, line) => {
    const { simpleFireArgs } = await import('../../src/commands/fire-args.ts')
    expect(simpleFireArgs(line)).toBeUndefined()
  })
})
