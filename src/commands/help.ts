// The help text (cac's help callback): commands in groups, required flags marked, examples, wrapped to the terminal.
import type { CAC, Command } from 'cac'

/** When a flag is required: always, `unless` another flag is given, or only `for` one action. */
interface Requirement {
  readonly unless?: string
  readonly for?: string
}

type Option = Command['options'][number]
type MarkedConfig = NonNullable<Parameters<Command['option']>[2]> & { readonly requiredFlag?: Requirement }

/** An option's config marking the flag required, for help only: each command checks its own flags (test/unit/help.test.ts). */
export function required(requirement: Requirement = {}): MarkedConfig {
  return { requiredFlag: requirement }
}

function requirementOf(option: Option): Requirement | undefined {
  return (option.config as MarkedConfig).requiredFlag
}

/** `(required)`, `(required unless --sync)`, `(required for sign)`. */
function requirementText(requirement: Requirement): string {
  return `(required${requirement.unless === undefined ? '' : ` unless ${requirement.unless}`}${requirement.for === undefined ? '' : ` for ${requirement.for}`})`
}

/** The groups `hookrun --help` lists commands in; a command in none is listed under Other. */
export const COMMAND_GROUPS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['Agents run', ['fire', 'serve']],
  ['Set up', ['init', 'install', 'uninstall', 'import', 'plugin']],
  ['See and test', ['list', 'explain', 'test', 'validate', 'events', 'agents', 'log', 'doctor']],
  ['Trust and policy', ['scan', 'trust', 'untrust', 'policy']],
]

/** The width help wraps to: COLUMNS, else the terminal's, else 80 (piped output is the same everywhere). */
export function helpWidth(env: Readonly<Record<string, string | undefined>>, terminalColumns: number | undefined): number {
  const given = Number(env.COLUMNS)
  const width = Number.isInteger(given) && given > 0 ? given : (terminalColumns ?? 80)
  return Math.max(40, width)
}

/** Greedy word wrap of `text` to `width`, every line after the first indented by `indent`. */
export function wrap(text: string, width: number, indent: number): string {
  const room = Math.max(20, width - indent)
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter((each) => each !== '')) {
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  lines.push(line)
  return lines.join(`\n${' '.repeat(indent)}`)
}

/** Rows of `name  description`, names padded to one column, descriptions wrapped beside them (or below, when the column leaves too little room). */
function table(
  rows: ReadonlyArray<readonly [string, string]>,
  width: number,
  column = Math.max(...rows.map(([name]) => name.length)),
): string {
  const beside = width - (2 + column + 2) >= 30
  return rows
    .map(([name, description]) =>
      beside
        ? `  ${name.padEnd(column)}  ${wrap(description, width, 2 + column + 2)}`.trimEnd()
        : `  ${name}\n      ${wrap(description, width, 6)}`,
    )
    .join('\n')
}

/** The flags a command needs in its usual form (not those needed for one action only). */
function usualFlags(command: Command): string[] {
  return command.options
    .filter((option) => requirementOf(option) !== undefined && requirementOf(option)!.for === undefined)
    .map((option) => option.rawName)
}

function optionRows(options: readonly Option[]): Array<[string, string]> {
  const ordered = [
    ...options.filter((option) => requirementOf(option) !== undefined),
    ...options.filter((option) => requirementOf(option) === undefined),
  ]
  return ordered.map((option) => {
    const requirement = requirementOf(option)
    const parts = [
      requirement === undefined ? '' : requirementText(requirement),
      option.description,
      option.config.default === undefined ? '' : `(default: ${option.config.default})`,
    ]
    return [option.rawName, parts.filter((part) => part !== '').join(' ')]
  })
}

/** cac's help callback: the sections of `hookrun --help` and of `hookrun help COMMAND`, from cac's command table. */
export function helpSections(
  cli: CAC,
  context: { readonly width: number; readonly summary: string },
): Array<{ title?: string; body: string }> {
  const command = cli.matchedCommand
  const globalOptions = cli.globalCommand.options
  if (command === undefined || command.name === '') {
    const commands = cli.commands.filter((each) => each.name !== '')
    const grouped = new Set(COMMAND_GROUPS.flatMap(([, names]) => names))
    const groups = [...COMMAND_GROUPS, ['Other', commands.map((each) => each.name).filter((name) => !grouped.has(name))] as const]
    const rows = (names: readonly string[]) =>
      names
        .flatMap((name) => commands.filter((each) => each.name === name))
        .map((each): [string, string] => [[each.rawName, ...usualFlags(each)].join(' '), each.description])
    // One column for every group, so the descriptions line up down the page.
    const column = Math.max(...commands.map((each) => [each.rawName, ...usualFlags(each)].join(' ').length))
    return [
      { body: wrap(context.summary, context.width, 0) },
      { title: 'Usage', body: '  $ hookrun <command> [options]' },
      ...groups
        .filter(([, names]) => rows(names).length > 0)
        .map(([title, names]) => ({ title, body: table(rows(names), context.width, column) })),
      { title: 'Options', body: table(optionRows(globalOptions), context.width) },
      { body: wrap("Run 'hookrun help <command>' for a command's options and examples.", context.width, 0) },
    ]
  }
  const options = [...command.options, ...globalOptions.filter((option) => option.name !== 'version')]
  const usage = ['hookrun', command.rawName, ...usualFlags(command), ...(options.length > 0 ? ['[options]'] : [])].join(' ')
  const examples = command.examples.map((example) => `  $ ${typeof example === 'function' ? example('hookrun') : example}`)
  return [
    { title: 'Usage', body: `  $ ${usage}` },
    { body: wrap(command.description, context.width, 0) },
    { title: 'Options', body: table(optionRows(options), context.width) },
    ...(examples.length > 0 ? [{ title: 'Examples', body: examples.join('\n') }] : []),
  ]
}
