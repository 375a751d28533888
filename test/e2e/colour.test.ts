// Colour for people (issue 15): on a terminal or when asked, never in JSON or on fire's stdout.
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'
import { ALL_RUNTIMES, cliEnvironment, makeProject, removeProject, runCli, runtimeCommand, trustProjectFor } from '../helpers.ts'

const projects: string[] = []
afterAll(() => projects.forEach(removeProject))

const ESC = '\u001b['

function project(): string {
  const dir = makeProject({
    '.hookrun/hooks.json': {
      hooks: [
        { name: 'no-sudo', event: 'tool:pre_execute', command: 'echo "sudo is not allowed" >&2; exit 2' },
        // An unknown key: fire warns on stderr.
        { name: 'log', event: '*', command: 'true', colour: 'blue' },
      ],
    },
  })
  projects.push(dir)
  trustProjectFor(dir)
  return dir
}

describe('human output', () => {
  test.each([
    ['--color=always', ['list', '--color=always'], {}, true],
    ['--color before the command', ['--color', 'list'], {}, true],
    ['FORCE_COLOR=1', ['list'], { FORCE_COLOR: '1', NO_COLOR: undefined }, true],
    ['FORCE_COLOR wins over NO_COLOR', ['list'], { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
    ['--color=always wins over NO_COLOR', ['list', '--color=always'], { NO_COLOR: '1' }, true],
    ['not a terminal', ['list'], { NO_COLOR: undefined }, false],
    ['NO_COLOR=yes', ['list'], { NO_COLOR: 'yes' }, false],
    ['--no-color wins over FORCE_COLOR', ['list', '--no-color'], { FORCE_COLOR: '1' }, false],
    ['--color=never', ['list', '--color=never'], { FORCE_COLOR: '1' }, false],
  ])('%s', async (_name, args, env, coloured) => {
    const dir = project()
    const result = await runCli(args, { cwd: dir, env })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout.includes(ESC), result.stdout).toBe(coloured)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC
    expect(result.stdout.replace(/\u001b\[\d+m/g, '')).toMatch(/^yes +no-sudo|^on +no-sudo/m)
  })

  test('colours mean something: a failing doctor line red, a passing test green, a deny red', async () => {
    const dir = project()
    expect((await runCli(['doctor', '--color=always'], { cwd: dir })).stdout).toContain(`${ESC}31mFAIL${ESC}39m  no agent runs hookrun`)
    const explained = await runCli(['explain', 'tool:pre_execute', '--color=always'], { cwd: dir })
    expect(explained.stdout).toContain(`decision  ${ESC}31mdeny — blocked: sudo is not allowed${ESC}39m`)
  })

  test('columns line up whatever the colour codes', async () => {
    const dir = project()
    const plain = (await runCli(['list'], { cwd: dir })).stdout
    const coloured = (await runCli(['list', '--color=always'], { cwd: dir })).stdout
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(plain)
  })

  test('JSON is never coloured', async () => {
    const dir = project()
    for (const args of [
      ['list', '--json'],
      ['doctor', '--json'],
      ['validate', '--json'],
      ['events', '--json'],
    ]) {
      const result = await runCli([...args, '--color=always'], { cwd: dir })
      expect(result.stdout.includes(ESC), args.join(' ')).toBe(false)
      JSON.parse(result.stdout)
    }
  })

  test('a bad --color value is one line naming the values, exit 1', async () => {
    const result = await runCli(['list', '--color=maybe'], { cwd: project() })
    expect([result.exitCode, result.stderr]).toEqual([
      1,
      'hookrun: --color=maybe: expected --color=auto, --color=always or --color=never\n',
    ])
  })
})

describe('fire', () => {
  test("stdout, the agent's protocol, is never coloured; a warning on stderr is only when asked (or on a terminal)", async () => {
    const dir = project()
    const payload = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'sudo ls' } })
    const asked = await runCli(['fire', 'tool:pre_execute', '--payload', '-', '--color=always'], { cwd: dir, input: payload })
    expect(asked.exitCode).toBe(2)
    expect(asked.stdout.includes(ESC)).toBe(false)
    expect(asked.json()).toMatchObject({ decision: 'deny' })
    expect(asked.stderr).toContain(`hookrun: ${ESC}33mwarning:${ESC}39m`)
    const piped = await runCli(['fire', 'tool:pre_execute', '--payload', '-'], { cwd: dir, input: payload, env: { NO_COLOR: undefined } })
    expect(piped.stderr).toContain('hookrun: warning:')
    expect(piped.stderr.includes(ESC)).toBe(false)
  })
})

describe.each(ALL_RUNTIMES.map((runtime) => runtime.name))('%s', (runtime) => {
  test('styleText colours under this runtime when asked, and not when piped', async () => {
    const dir = project()
    expect((await runCli(['doctor', '--color=always'], { cwd: dir, runtime })).stdout).toContain(`${ESC}31mFAIL`)
    expect((await runCli(['doctor'], { cwd: dir, runtime, env: { NO_COLOR: undefined } })).stdout.includes(ESC)).toBe(false)
  })
})

// `script` (util-linux) runs the command on a pseudo-terminal, as a person's shell would.
describe('on a terminal', () => {
  const onTerminal = (dir: string, env: Record<string, string | undefined>) => {
    const command = [...runtimeCommand('binary'), 'list'].map((word) => `'${word}'`).join(' ')
    return spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: dir,
      env: cliEnvironment(dir, { TERM: 'xterm', ...env }),
      encoding: 'utf8',
    }).stdout
  }
  test('colour by default; NO_COLOR (any non-empty value) turns it off', () => {
    const dir = project()
    expect(onTerminal(dir, { NO_COLOR: undefined })).toContain(ESC)
    expect(onTerminal(dir, { NO_COLOR: '1' }).includes(ESC)).toBe(false)
    expect(onTerminal(dir, { NO_COLOR: '' })).toContain(ESC)
  })
})
