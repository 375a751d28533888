import { afterAll, describe, expect, test, vi } from 'vitest'
import { COMMAND_GROUPS, helpWidth, wrap } from '../../src/commands/help.ts'
import { createCli } from '../../src/commands/program.ts'
import { makeProject, removeProject, runCli } from '../helpers.ts'

const folders: string[] = []
afterAll(() => folders.forEach(removeProject))

const io = (env: Record<string, string> = {}, stdoutColumns?: number) => ({
  stdout: () => undefined,
  stderr: () => undefined,
  env,
  stdin: (async function* () {})(),
  stdoutColumns,
})

/** What cac's help prints for this command line (it prints with console.info). */
function helpOf(args: string[], env: Record<string, string> = {}, columns?: number): string {
  const cli = createCli(io(env, columns), () => undefined)
  const printed: string[] = []
  const spy = vi.spyOn(console, 'info').mockImplementation((text: string) => void printed.push(text))
  try {
    cli.parse(['hookrun', 'hookrun', ...args], { run: false })
  } finally {
    spy.mockRestore()
  }
  return printed.join('\n')
}

const commands = createCli(io(), () => undefined).commands.filter((command) => command.name !== '')
const flat = (text: string) => text.replace(/\s+/g, ' ')
const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length))

describe('wrap', () => {
  test('greedy, with a hanging indent; a word longer than the line stays whole', () => {
    expect(wrap('one two three four five six seven eight nine', 24, 4)).toBe('one two three four\n    five six seven eight\n    nine')
    expect(wrap('a https://example.com/a/very/long/address b', 25, 0)).toBe('a\nhttps://example.com/a/very/long/address\nb')
  })
  test('the width: COLUMNS, else the terminal, else 80; never under 40', () => {
    expect(helpWidth({ COLUMNS: '120' }, 100)).toBe(120)
    expect(helpWidth({}, 100)).toBe(100)
    expect(helpWidth({}, undefined)).toBe(80)
    expect(helpWidth({ COLUMNS: 'wide' }, undefined)).toBe(80)
    expect(helpWidth({ COLUMNS: '20' }, undefined)).toBe(40)
  })
})

describe('hookrun --help', () => {
  const help = helpOf(['--help'])
  test('lists every command once, in its group, with its description and its required flags', () => {
    const titles = help.split('\n').filter((line) => /^[A-Z][\w ]+:$/.test(line))
    expect(titles).toEqual(['Usage:', ...COMMAND_GROUPS.map(([title]) => `${title}:`), 'Other:', 'Options:'])
    const rows = help.split('\n').filter((line) => /^ {2}[a-z]/.test(line))
    for (const command of commands) {
      expect(
        rows.filter((row) => row.startsWith(`  ${command.rawName} `) || row === `  ${command.rawName}`),
        command.name,
      ).toHaveLength(1)
      expect(flat(help)).toContain(flat(command.description))
    }
    expect(rows.filter((row) => /^ {2}\S/.test(row))).toHaveLength(commands.length)
    expect(help).toMatch(/^ {2}install --agent <name> +Add hookrun's router entries/m)
    expect(help).toMatch(/^ {2}import --agent <name> +Move the hooks/m)
    // --key is needed by `policy sign` only: not shown as the command's usual form.
    expect(help).toMatch(/^ {2}policy <action> \[file\] +The managed/m)
  })
  test('wraps to 80 when not a terminal, to the terminal, or to COLUMNS', () => {
    expect(widest(help)).toBeLessThanOrEqual(80)
    expect(widest(help)).toBeGreaterThan(70)
    const terminal = helpOf(['--help'], {}, 120)
    expect(widest(terminal)).toBeLessThanOrEqual(120)
    expect(terminal.split('\n').length).toBeLessThan(help.split('\n').length)
    expect(helpOf(['--help'], { COLUMNS: '60' }, 120)).toBe(helpOf(['--help'], { COLUMNS: '60' }))
    expect(widest(helpOf(['--help'], { COLUMNS: '60' }))).toBeLessThanOrEqual(60)
  })
})

describe('hookrun help COMMAND', () => {
  test.each(commands.map((command) => [command.name, command]))('%s: its usage, description, options and examples', (name, command) => {
    const help = helpOf([name, '--help'])
    expect(help).toMatch(new RegExp(`^Usage:\\n {2}\\$ hookrun ${name}\\b`))
    expect(flat(help)).toContain(flat(command.description))
    for (const option of command.options) expect(help).toContain(`  ${option.rawName}  `)
    expect(help).toContain('\nExamples:\n  $ ')
    const examples = help.slice(help.indexOf('\nExamples:\n'))
    // Examples stay whole lines, to be copied; everything else wraps.
    expect(widest(help.slice(0, help.length - examples.length))).toBeLessThanOrEqual(80)
  })
  test('required flags are marked, and a usual one is in the usage line', () => {
    const install = helpOf(['install', '--help'])
    expect(install).toContain('  $ hookrun install --agent <name> [options]\n')
    expect(install).toMatch(/^ {2}--agent <name> +\(required unless --sync\) claude/m)
    // Required flags come first.
    expect(install.indexOf('--agent <name>  ')).toBeLessThan(install.indexOf('--user  '))
    expect(helpOf(['uninstall', '--help'])).toMatch(/^ {2}--agent <name> +\(required\) claude/m)
    expect(helpOf(['import', '--help'])).toMatch(/^ {2}--agent <name> +\(required\) claude/m)
    const policy = helpOf(['policy', '--help'])
    expect(policy).toContain('  $ hookrun policy <action> [file] [options]\n')
    expect(policy).toMatch(/^ {2}--key <file> +\(required for sign\) sign:/m)
    expect(helpOf(['list', '--help'])).not.toContain('(required')
  })
})

describe('the built CLI', () => {
  test('`help X` is `X --help`; `--help` is what the in-process help says', async () => {
    const [viaHelp, viaFlag, all] = await Promise.all([runCli(['help', 'install']), runCli(['install', '--help']), runCli(['--help'])])
    expect(viaHelp.exitCode).toBe(0)
    expect(viaHelp.stdout).toBe(viaFlag.stdout)
    expect(viaHelp.stdout).toBe(`${helpOf(['install', '--help'])}\n`)
    expect(all.stdout).toBe(`${helpOf(['--help'])}\n`)
    expect((await runCli(['--help'], { env: { COLUMNS: '100' } })).stdout).toBe(`${helpOf(['--help'], { COLUMNS: '100' })}\n`)
  })
  test('every flag help marks required is refused when missing, naming it', async () => {
    const dir = makeProject({ 'policy.json': '{"hooks": []}' })
    folders.push(dir)
    const marked = commands.flatMap((command) =>
      command.options.flatMap((option) => {
        const requirement = (option.config as { requiredFlag?: { for?: string } }).requiredFlag
        return requirement === undefined
          ? []
          : [{ line: [command.name, ...(requirement.for === undefined ? [] : [requirement.for, 'policy.json'])], flag: `--${option.name}` }]
      }),
    )
    expect(marked.map((each) => each.line[0])).toEqual(['install', 'uninstall', 'import', 'policy'])
    for (const { line, flag } of marked) {
      const result = await runCli(line, { cwd: dir, env: { HOME: dir } })
      expect([line.join(' '), result.exitCode]).toEqual([line.join(' '), 1])
      expect(result.stderr).toContain(flag)
    }
  })
})
