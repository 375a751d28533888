/**
 * The starter hooks `hookrun init` writes: Code-Forge's built-in templates (seed 003, FR-5.3:
 * audit logging, desktop notification, git auto-commit on write) and a gate for dangerous shell
 * commands. Scripts are POSIX sh, read hookrun's HOOKRUN_* variables, and live beside the config
 * (`$HOOKRUN_CONFIG_DIR/scripts`), so the project can be moved or cloned.
 */
export interface Template {
  readonly name: string
  readonly description: string
  /** The hooks.json entry, if the template is a hook. */
  readonly hook?: Record<string, unknown>
  /** Settings for the user's own hooks.json, if the template is one (some settings are user config only). */
  readonly userSettings?: Readonly<Record<string, unknown>>
  /** Enabled when `init` writes every template at once (intrusive ones start switched off). */
  readonly onByDefault: boolean
  /** Files relative to `.hookrun/`; `.sh` files are made executable. */
  readonly files: Readonly<Record<string, string>>
}

const script = (name: string) => `"$HOOKRUN_CONFIG_DIR/scripts/${name}"`

const DANGEROUS_COMMANDS = `#!/bin/sh
# hookrun template: refuse shell commands that destroy data or take over the machine.
# Runs on tool:pre_execute:bash, which is every agent's shell tool (Claude Code's Bash, Cursor's
# Shell, Gemini CLI's run_shell_command, Codex's Bash, Copilot's bash). Exit 2 blocks; the message
# on stderr goes back to the agent as the reason.
#
# It reads the command as the shell would, roughly: split into simple commands at ; & | && || and
# newlines, each into words (quotes dropped, no globbing), so \`rm -Rf /\`, \`rm -r -f  /\`,
# \`rm --recursive --force /\` and \`cd / && rm -rf *\` are one and the same. It guards against
# accidents, not against an adversary: a command built at run time (eval, sh -c "$(...)", an
# encoded script) is beyond what any pattern can see.
cmd=\${HOOKRUN_BASH_COMMAND-}
[ -n "$cmd" ] || exit 0
deny() {
  echo "$1 (blocked by .hookrun/scripts/dangerous-commands.sh)" >&2
  exit 2
}
case $cmd in *':(){'*) deny "refusing a fork bomb: $cmd" ;; esac
set -f
at_root=no
is_everything() { # a path that means the root or the home folder (or all of it)
  case $1 in
    # Quoted: these are the words as written, not patterns (nor ~ expanded).
    '/' | '//' | '/.' | '/*' | '~' | '~/' | '~/.' | '~/*' | '$HOME' | '$HOME/' | '$HOME/*' | '\${HOME}' | '\${HOME}/' | '\${HOME}/*') return 0 ;;
    '*' | '.' | './' | './*') [ "$at_root" = yes ] && return 0 ;;
  esac
  return 1
}
# The one simple command in "$@": its name after wrappers and assignments, then its arguments.
check() {
  while [ $# -gt 0 ]; do
    case $1 in
      *=*) shift ;;
      sudo | doas) deny "sudo is not allowed for the agent: $cmd" ;;
      env | command | exec | nohup | time | nice | builtin) shift ;;
      *) break ;;
    esac
  done
  [ $# -gt 0 ] || return 0
  name=\${1##*/}
  shift
  case $name in
    cd)
      case \${1-'~'} in '/' | '~' | '~/' | '$HOME' | '\${HOME}') at_root=yes ;; *) at_root=no ;; esac ;;
    rm)
      recursive=no
      targets=
      for word in "$@"; do
        case $word in
          --recursive) recursive=yes ;;
          --no-preserve-root) deny "refusing to delete the root or home folder: $cmd" ;;
          --*) ;;
          -*[rR]*) recursive=yes ;;
          -*) ;;
          *) is_everything "$word" && targets=yes ;;
        esac
      done
      [ "$recursive" = yes ] && [ "$targets" = yes ] && deny "refusing to delete the root or home folder: $cmd" ;;
    mkfs | mkfs.*) deny "refusing to write to a disk device: $cmd" ;;
    dd)
      for word in "$@"; do case $word in of=/dev/*) deny "refusing to write to a disk device: $cmd" ;; esac; done ;;
    chmod | chown)
      recursive=no
      targets=
      for word in "$@"; do
        case $word in
          -R | --recursive | -*R*) recursive=yes ;;
          *) is_everything "$word" && targets=yes ;;
        esac
      done
      [ "$recursive" = yes ] && [ "$targets" = yes ] && deny "refusing to open up the whole file system: $cmd" ;;
    git)
      [ "\${1-}" = push ] || return 0
      shift
      for word in "$@"; do
        case $word in
          --force | --force-with-lease* | --force-if-includes | --mirror | -f | -[a-z]*f*) deny "force-pushing rewrites shared history; push without --force: $cmd" ;;
          +*) deny "force-pushing rewrites shared history; push without --force (a +refspec forces): $cmd" ;;
        esac
      done ;;
  esac
}
# One pipeline: each stage checked, and a download piped into a shell refused.
pipeline() {
  rest=$1
  fetched=no
  while :; do
    stage=\${rest%%|*}
    # shellcheck disable=SC2086 # word splitting is the point: the stage's words, without globbing
    set -- $(printf '%s' "$stage" | tr -d "\\"'")
    words=$*
    first=
    for word in "$@"; do case $word in *=* | sudo | doas | env | command | exec | nohup) ;; *) first=\${word##*/}; break ;; esac; done
    case $first in
      sh | bash | zsh | dash | ksh | fish | python | python3 | perl | ruby | node)
        [ "$fetched" = yes ] && deny "refusing to pipe a download into a shell: $cmd" ;;
    esac
    case $first in curl | wget | fetch) fetched=yes ;; *) fetched=no ;; esac
    check $words
    [ "$rest" = "$stage" ] && break
    rest=\${rest#*|}
  done
}
commands=$(printf '%s\\n' "$cmd" | sed -e 's/||/;/g' -e 's/&&/;/g' -e 's/|&/|/g' | tr ';&' '\\n\\n')
while IFS= read -r line; do
  pipeline "$line"
done <<LINES
$commands
LINES
exit 0
`

const NOTIFY = `#!/bin/sh
# hookrun template: a desktop notification when the agent finishes or wants your attention.
# Uses notify-send (Linux) or osascript (macOS); does nothing where neither exists.
case $HOOKRUN_EVENT in
  agent:stop) message="The agent has finished." ;;
  *) message=$(sed -n 's/.*"message" *: *"\\([^"]*\\)".*/\\1/p' | head -n 1)
     message=\${message:-"The agent needs your attention."} ;;
esac
if command -v notify-send >/dev/null 2>&1; then
  notify-send "Coding agent" "$message"
elif command -v osascript >/dev/null 2>&1; then
  osascript -e 'on run argv' -e 'display notification (item 1 of argv) with title "Coding agent"' -e 'end run' "$message"
fi
exit 0
`

const GIT_COMMIT = `#!/bin/sh
# hookrun template: commit each file the agent writes or edits, one commit per change, so every
# step can be reviewed and undone with git. Only the written file is committed.
cd "\${HOOKRUN_PROJECT_DIR:-.}" || exit 0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0
file=$(printf '%s' "$HOOKRUN_TOOL_ARGS" | sed -n 's/.*"file_path" *: *"\\([^"]*\\)".*/\\1/p')
[ -n "$file" ] || file=$(printf '%s' "$HOOKRUN_TOOL_ARGS" | sed -n 's/.*"path" *: *"\\([^"]*\\)".*/\\1/p')
[ -n "$file" ] && [ -e "$file" ] || exit 0
git add -- "$file" || exit 1
git diff --cached --quiet -- "$file" && exit 0
git commit -q -m "agent: \${HOOKRUN_TOOL_NAME:-edit} $(basename "$file")" -- "$file"
`

const GATE_TESTS = `${JSON.stringify(
  {
    cases: [
      {
        name: 'blocks deleting the root folder (Claude Code payload)',
        format: 'claude',
        payload: { hook_event_name: 'PreToolUse', session_id: 's1', cwd: '/tmp', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } },
        expect: { decision: 'deny', reason: 'root or home folder', output: { hookSpecificOutput: { permissionDecision: 'deny' } } },
      },
      {
        name: "blocks sudo in Gemini CLI's shell tool",
        event: 'tool:pre_execute',
        payload: { tool_name: 'run_shell_command', tool_input: { command: 'sudo apt-get install x' } },
        expect: { decision: 'deny', reason: 'sudo', exitCode: 2 },
      },
      {
        name: 'lets ordinary commands through',
        event: 'tool:pre_execute',
        payload: { tool_name: 'Bash', tool_input: { command: 'ls -la && git status' } },
        expect: { decision: 'allow', decidedBy: null, exitCode: 0 },
      },
    ],
  },
  null,
  2,
)}
`

export const TEMPLATES: readonly Template[] = [
  // hookrun's own audit log, not a hook on every event: a hook on '*' would make every agent start
  // hookrun and a shell for every event, and no install could route less.
  {
    name: 'audit-log',
    description: "turn on hookrun's own audit log: a JSON line per fire, secrets redacted, in your user config (no hook runs)",
    userSettings: { log: { path: '~/.local/state/hookrun/audit.jsonl' } },
    onByDefault: true,
    files: { '.gitignore': 'hooks.local.json\n' },
  },
  {
    name: 'dangerous-commands',
    description: 'block shell commands that destroy data or take over the machine (rm -rf /, sudo, mkfs, force-push, curl | sh)',
    hook: {
      name: 'dangerous-commands',
      description: 'Refuse shell commands that destroy data or take over the machine',
      event: 'tool:pre_execute:bash',
      command: script('dangerous-commands.sh'),
      timeout: 5,
    },
    onByDefault: true,
    files: { 'scripts/dangerous-commands.sh': DANGEROUS_COMMANDS, 'tests/dangerous-commands.json': GATE_TESTS },
  },
  {
    name: 'notify',
    description: 'desktop notification when the agent finishes or needs you (Code-Forge: notification hooks)',
    hook: {
      name: 'notify',
      description: 'Desktop notification when the agent finishes or needs attention',
      event: ['agent:stop', 'notification'],
      command: script('notify.sh'),
      blocking: false,
    },
    onByDefault: false,
    files: { 'scripts/notify.sh': NOTIFY },
  },
  {
    name: 'git-commit',
    description: 'commit each file the agent writes or edits (Code-Forge: git hooks, auto-commit on write)',
    hook: {
      name: 'git-commit',
      description: 'Commit each file the agent writes or edits',
      event: 'tool:post_execute:write|edit',
      command: script('git-commit.sh'),
      timeout: 30,
    },
    onByDefault: false,
    files: { 'scripts/git-commit.sh': GIT_COMMIT },
  },
]
