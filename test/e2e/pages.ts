/**
 * The markdown pages a reader of the repository sees (the top-level ones and everything in docs/),
 * their fenced blocks, and how a ```console block runs (test/e2e/readme.test.ts has the convention;
 * test/release/ runs the README's quick start with hookrun as each install path leaves it).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliEnvironment, ROOT } from '../helpers.ts'

export function markdownPages(): string[] {
  const top = readdirSync(ROOT)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, name))
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.md') ? [path] : []
    })
  return [...top, ...(existsSync(join(ROOT, 'docs')) ? walk(join(ROOT, 'docs')) : [])]
}

interface Block {
  readonly line: number
  readonly info: string
  readonly text: string
}

/** The fenced blocks of a markdown text, with the line each starts on. */
export function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = []
  const lines = markdown.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)/.exec(lines[index]!)
    if (!open) continue
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'))
    blocks.push({ line: index + 1, info: open[1]!, text: lines.slice(index + 1, end).join('\n') })
    index = end
  }
  return blocks
}

interface Step {
  readonly command: string
  readonly expected: string[]
}

/** A console block's commands, each with the lines it must print. */
export function consoleSteps(text: string): Step[] {
  const steps: Array<{ command: string; expected: string[] }> = []
  for (const line of text.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] })
    else if (line.startsWith('> ') && steps.length > 0) steps.at(-1)!.command += `\n${line.slice(2)}`
    else if (steps.length > 0) steps.at(-1)!.expected.push(line)
    else throw new Error(`a console block must start with a "$ " command; found: ${line}`)
  }
  return steps
}

/** Does `actual` (lines) fit `expected`, where `…` is any lines alone and any text inside a line? */
export function fits(expected: readonly string[], actual: readonly string[]): boolean {
  const pattern = expected
    .map((line) => (line.trim() === '…' ? '(?:[^\\n]*\\n)*?' : `${line.split('…').map(escapeRegExp).join('[^\\n]*')}\\n`))
    .join('')
  return new RegExp(`^${pattern}$`).test(actual.map((line) => `${line}\n`).join(''))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

const MARK = '@@hookrun-readme-step@@'

/** Run a block's steps in one shell in `dir` (also HOME) with `bin` first on PATH; what each step printed, as lines. */
export function runSteps(steps: readonly Step[], dir: string, bin: string, timeout = 30_000): string[][] {
  // The marker between steps must not change `$?`: the status is kept and given back before each command.
  const script = [
    'exec 2>&1',
    'status=0',
    ...steps.flatMap((step) => [`printf '\\n%s\\n' '${MARK}'; (exit $status)`, step.command, 'status=$?']),
  ].join('\n')
  writeFileSync(join(dir, '.steps.sh'), script)
  const env = cliEnvironment(dir, {
    PATH: `${bin}:${process.env.PATH}`,
    XDG_CONFIG_HOME: undefined,
    XDG_CACHE_HOME: undefined,
    XDG_STATE_HOME: undefined,
  })
  const result = spawnSync('sh', ['.steps.sh'], { cwd: dir, env, encoding: 'utf8', timeout })
  // Each part starts after a marker; the newline printed before the next marker is not output.
  return result.stdout
    .split(`\n${MARK}\n`)
    .slice(1)
    .map((part) =>
      part
        .replace(/\n$/, '')
        .split('\n')
        .filter((line, index, all) => !(line === '' && index === all.length - 1)),
    )
}
