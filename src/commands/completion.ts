// `hookrun completion bash|zsh|fish`: tab completion of commands and options, from the CLI's own table.
import { HookrunError } from '../core/errors.ts'
import { didYouMean } from '../core/suggest.ts'

export interface CompletionCommand {
  readonly name: string
  readonly description: string
  readonly options: readonly string[]
}

const SHELLS = ['bash', 'zsh', 'fish'] as const

/** The script for one shell; sourced from the shell's startup file (docs/cli.md). */
export function completionScript(shell: string, commands: readonly CompletionCommand[]): string {
  if (shell === 'bash') return bash(commands)
  if (shell === 'zsh') return `# hookrun completion for zsh: eval "$(hookrun completion zsh)" in ~/.zshrc\nautoload -U +X bashcompinit && bashcompinit\n${bash(commands)}`
  if (shell === 'fish') return fish(commands)
  throw new HookrunError(`completion ${shell}: no such shell${didYouMean(shell, SHELLS)}; use bash, zsh or fish`)
}

function bash(commands: readonly CompletionCommand[]): string {
  const cases = commands.map((command) => `    ${command.name}) words="${command.options.join(' ')}" ;;`).join('\n')
  return `# hookrun completion for bash: eval "$(hookrun completion bash)" in ~/.bashrc
_hookrun() {
  local cur=\${COMP_WORDS[COMP_CWORD]} words
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${commands.map((command) => command.name).join(' ')} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
    *) words="" ;;
  esac
  case "$cur" in
    -*) COMPREPLY=($(compgen -W "$words --help" -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
}
complete -o default -F _hookrun hookrun
`
}

function fish(commands: readonly CompletionCommand[]): string {
  const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
  const lines = ['# hookrun completion for fish: hookrun completion fish > ~/.config/fish/completions/hookrun.fish', 'complete -c hookrun -f']
  for (const command of commands) lines.push(`complete -c hookrun -n __fish_use_subcommand -a ${command.name} -d ${quote(command.description)}`)
  for (const command of commands) {
    for (const option of command.options) lines.push(`complete -c hookrun -n '__fish_seen_subcommand_from ${command.name}' -l ${option.replace(/^--/, '')}`)
  }
  return `${lines.join('\n')}\n`
}
