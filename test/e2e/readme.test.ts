/**
 * Every example in the README and the docs (docs/, BENCHMARKS.md, CONTRIBUTING.md) runs exactly
 * as printed. The convention: a ```console block is a terminal
 * session. `$ ` starts a command, `> ` continues one, every other line is what the terminal shows
 * (stdout and stderr, as a user sees them). `…` on a line of its own stands for any lines, and
 * inside a line for any text. Each block runs in a fresh folder that is also HOME, in one `sh`,
 * with the freshly built `hookrun` first on PATH. hooks.json examples (```json blocks with
 * "hooks" at the top) must pass `hookrun validate`.
 *
 * A ```sh (or ```bash) block is commands to paste: it runs the same way, under `sh -e`, in a
 * sandbox that also holds the files examples name (`event.json`, a tool call's payload;
 * `policy.json`, a hooks.json to sign), and must succeed. A block that cannot run here says so
 * where a reader sees it, on its first line: `# not run by the docs test: <why>`. Every fenced
 * block names its kind (```text for synopses and output), so no example hides in an unmarked one.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { cliEnvironment, makeProject, removeProject, ROOT } from '../helpers.ts'
import { consoleSteps, fencedBlocks, fits, markdownPages, runSteps } from './pages.ts'

/** Every fenced block of every page, each named by its page and line (`docs/trust.md:40`). */
const blocks = markdownPages().flatMap((page) =>
  fencedBlocks(readFileSync(page, 'utf8')).map((block) => ({ ...block, at: `${relative(ROOT, page)}:${block.line}` })),
)
const folders: string[] = []
afterAll(() => folders.forEach(removeProject))

describe('console examples run as printed', () => {
  const sessions = blocks.filter((block) => block.info === 'console')
  test('there are some', () => expect(sessions.length).toBeGreaterThanOrEqual(3))
  for (const block of sessions) {
    const steps = consoleSteps(block.text)
    test.concurrent(`${block.at}: ${steps[0]!.command.split('\n')[0]}`, ({ expect }) => {
      const dir = makeProject()
      folders.push(dir)
      const bin = join(dir, '.bin')
      mkdirSync(bin)
      symlinkSync(join(ROOT, 'dist', 'hookrun'), join(bin, 'hookrun'))
      const printed = runSteps(steps, dir, bin)
      steps.forEach((step, index) => {
        const actual = printed[index] ?? []
        expect(
          fits(step.expected, actual),
          `${block.at}: $ ${step.command}\nprinted:\n${actual.join('\n')}\nthe page shows:\n${step.expected.join('\n')}`,
        ).toBe(true)
      })
    })
  }
})

const NOT_RUN = /^# not run by the docs test: (.+)$/

/** The files the sh examples name, as a reader would have them. */
const SANDBOX_FILES = {
  'event.json': { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } },
  'policy.json': { hooks: [{ name: 'no-sudo', event: 'tool:pre_execute:bash', command: 'echo no sudo >&2; exit 2' }] },
}

describe('sh examples run as printed, or say why not', () => {
  const scripts = blocks.filter((block) => block.info === 'sh' || block.info === 'bash')
  test('there are some of each', () => {
    expect(scripts.filter((block) => NOT_RUN.test(block.text.split('\n')[0]!)).length).toBeGreaterThan(0)
    expect(scripts.filter((block) => !NOT_RUN.test(block.text.split('\n')[0]!)).length).toBeGreaterThanOrEqual(3)
  })
  for (const block of scripts) {
    const reason = NOT_RUN.exec(block.text.split('\n')[0]!)?.[1]
    if (reason !== undefined) continue
    test.concurrent(`${block.at}: ${block.text.split('\n')[0]}`, ({ expect }) => {
      const dir = makeProject(SANDBOX_FILES)
      folders.push(dir)
      const bin = join(dir, '.bin')
      mkdirSync(bin)
      symlinkSync(join(ROOT, 'dist', 'hookrun'), join(bin, 'hookrun'))
      writeFileSync(join(dir, '.block.sh'), block.text)
      const env = cliEnvironment(dir, {
        PATH: `${bin}:${process.env.PATH}`,
        XDG_CONFIG_HOME: undefined,
        XDG_CACHE_HOME: undefined,
        XDG_STATE_HOME: undefined,
      })
      const result = spawnSync('sh', ['-e', '.block.sh'], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 })
      expect(result.status, `${block.at}\n${block.text}\nprinted:\n${result.stdout}${result.stderr}`).toBe(0)
    })
  }
})

describe('every block names its kind', () => {
  test('no fenced block without an info string (```text for synopses and output)', () => {
    expect(blocks.filter((block) => block.info === '').map((block) => `${block.at}`)).toEqual([])
  })
})

describe('hooks.json examples validate', () => {
  // A config has "hooks" at its top; a decision, an audit line or a test file has other keys there too.
  const configs = blocks.filter((block) => block.info === 'json' && /^\s*\{/.test(block.text) && isConfig(block.text))
  for (const block of configs) {
    test(`${block.at}`, () => {
      // An organisation's managed config is validated where hookrun reads it, as the managed layer.
      const managed = block.text.includes('"allowManagedHooksOnly"')
      const dir = makeProject({ [managed ? 'managed/hooks.json' : 'hooks.json']: block.text })
      folders.push(dir)
      const env = cliEnvironment(dir, managed ? { HOOKRUN_MANAGED_DIR: join(dir, 'managed') } : {})
      const result = spawnSync(join(ROOT, 'dist', 'hookrun'), managed ? ['validate'] : ['validate', 'hooks.json'], {
        cwd: dir,
        env,
        encoding: 'utf8',
      })
      expect(result.status, `${block.at}\n${result.stdout}${result.stderr}`).toBe(0)
    })
  }
})

function isConfig(text: string): boolean {
  try {
    const json = JSON.parse(text) as Record<string, unknown>
    return 'hooks' in json && !['event', 'decision', 'cases', 'name'].some((key) => key in json)
  } catch {
    return false
  }
}

describe('the convention itself', () => {
  test('… matches any lines alone and any text inside a line', () => {
    expect(fits(['a', '…', 'z'], ['a', 'b', 'c', 'z'])).toBe(true)
    expect(fits(['a', '…', 'z'], ['a', 'z'])).toBe(true)
    expect(fits(['{"x":…}'], ['{"x":1}'])).toBe(true)
    expect(fits(['a'], ['a', 'b'])).toBe(false)
    expect(fits(['a (x)'], ['a (y)'])).toBe(false)
  })
  test('$ starts a command, > continues it, the rest is output', () => {
    expect(consoleSteps('$ echo 1 \\\n> 2\n1 2\n$ true')).toEqual([
      { command: 'echo 1 \\\n2', expected: ['1 2'] },
      { command: 'true', expected: [] },
    ])
  })
})
