// `hookrun completion bash|zsh|fish`: tab completion of commands, options and their values, from the CLI's own tables.
import { HookrunError } from '../core/errors.ts'
import { didYouMean } from '../core/suggest.ts'
import { DIALECTS } from '../agents/registry.ts'
import { FORMAT_NAMES } from '../dialect.ts'
import { CANONICAL_EVENTS } from '../event/events.ts'
import { AGENTS } from '../install/agents.ts'
import { PLUGIN_AGENTS } from '../install/plugin-agents.ts'
import { IMPORT_AGENTS } from '../install/import.ts'
import { TEMPLATES } from './templates.ts'

interface CompletionCommand {
  readonly name: string
  readonly description: string
  readonly options: readonly string[]
  /** What its positional argument may be (`fire EVENT`, `completion SHELL`). */
  readonly args?: readonly string[]
  /** What a flag's value may be (`--agent claude`), by flag. */
  readonly values?: Readonly<Record<string, readonly string[]>>
  /** Its flags that take a value (a flag with no list of values completes files). */
  readonly valueFlags?: readonly string[]
}

const SHELLS = ['bash', 'zsh', 'fish'] as const

/** The values commands take, from the tables hookrun runs on (never a list written here). */
export function completionValues(): Record<string, Pick<CompletionCommand, 'args' | 'values'>> {
  const events = CANONICAL_EVENTS.map((event) => event.name)
  const installable = [...AGENTS.map((agent) => agent.name), ...PLUGIN_AGENTS.map((agent) => agent.name)]
  const fire = { args: events, values: { '--format': FORMAT_NAMES } }
  return {
    fire,
    explain: fire,
    list: { args: events },
    install: { values: { '--agent': installable } },
    uninstall: { values: { '--agent': installable } },
    import: { values: { '--agent': IMPORT_AGENTS } },
    init: { values: { '--template': TEMPLATES.map((template) => template.name) } },
    log: { values: { '--agent': DIALECTS.map((dialect) => dialect.name) } },
    completion: { args: SHELLS },
  }
}

/** The script for one shell; sourced from the shell's startup file (docs/cli.md). */
export function completionScript(shell: string, commands: readonly CompletionCommand[]): string {
  if (shell === 'bash') return bash(commands)
  if (shell === 'zsh')
    return `# hookrun completion for zsh: eval "$(hookrun completion zsh)" in ~/.zshrc\nautoload -U +X bashcompinit && bashcompinit\n${bash(commands)}`
  if (shell === 'fish') return fish(commands)
  throw new HookrunError(`completion ${shell}: no such shell${didYouMean(shell, SHELLS)}; use bash, zsh or fish`)
}

/** The word is read from COMP_LINE: COMP_WORDS splits at `:` and `=`; a word's part before its last colon is dropped, as bash keeps it. */
function bash(commands: readonly CompletionCommand[]): string {
  const words = (list: readonly string[]) => list.join(' ')
  const options = commands.map((command) => `    ${command.name}) words="${words(command.options)}" ;;`).join('\n')
  const flagValues = commands
    .flatMap((command) => [
      ...Object.entries(command.values ?? {}).map(
        ([flag, values]) => `    ${command.name}:${flag}) COMPREPLY=($(compgen -W "${words(values)}" -- "$cur")); return ;;`,
      ),
      ...(command.valueFlags ?? [])
        .filter((flag) => command.values?.[flag] === undefined)
        .map((flag) => `    ${command.name}:${flag}) COMPREPLY=(); return ;;`),
    ])
    .join('\n')
  const args = commands
    .filter((command) => command.args !== undefined)
    .map((command) => `    ${command.name}) values="${words(command.args!)}" ;;`)
    .join('\n')
  return `# hookrun completion for bash: eval "$(hookrun completion bash)" in ~/.bashrc
_hookrun() {
  local line=\${COMP_LINE:0:COMP_POINT} cur before prev words values="" flag="" command=\${COMP_WORDS[1]}
  cur=\${line##*[[:space:]]}
  before=\${line%"$cur"}
  before=\${before%"\${before##*[![:space:]]}"}
  prev=\${before##*[[:space:]]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${words(commands.map((command) => command.name))} --help --version" -- "$cur"))
    return
  fi
  case "$cur" in
    --*=*) flag=\${cur%%=*}; cur=\${cur#*=} ;;
    -*) ;;
    *) case "$prev" in --*) flag=$prev ;; esac ;;
  esac
  # A flag's value: its list, or files (complete -o default) for one with no list.
  case "$command:$flag" in
${flagValues}
  esac
  case "$command" in
${options}
    *) words="" ;;
  esac
  case "$cur" in
    -*) COMPREPLY=($(compgen -W "$words --help" -- "$cur")) ;;
    *)
      case "$command" in
${args}
      esac
      COMPREPLY=($(compgen -W "$values" -- "$cur"))
      case "$cur" in *:*) local colon=\${cur%:*}: i; for i in "\${!COMPREPLY[@]}"; do COMPREPLY[i]=\${COMPREPLY[i]#"$colon"}; done ;; esac
      ;;
  esac
}
complete -o default -F _hookrun hookrun
`
}

function fish(commands: readonly CompletionCommand[]): string {
  const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
  const lines = [
    '# hookrun completion for fish: hookrun completion fish > ~/.config/fish/completions/hookrun.fish',
    'complete -c hookrun -f',
  ]
  for (const command of commands)
    lines.push(`complete -c hookrun -n __fish_use_subcommand -a ${command.name} -d ${quote(command.description)}`)
  for (const command of commands) {
    const seen = `-n '__fish_seen_subcommand_from ${command.name}'`
    for (const option of command.options) {
      const values = command.values?.[option]
      lines.push(
        `complete -c hookrun ${seen} -l ${option.replace(/^--/, '')}${values === undefined ? '' : ` -x -a ${quote(values.join(' '))}`}`,
      )
    }
    if (command.args !== undefined) lines.push(`complete -c hookrun ${seen} -a ${quote(command.args.join(' '))}`)
  }
  return `${lines.join('\n')}\n`
}
