/**
 * The starter hooks `hookrun init` writes: Code-Forge's built-in templates (seed 003, FR-5.3:
 * audit logging, desktop notification, git auto-commit on write) and a gate for dangerous shell
 * commands. Scripts are POSIX sh, read hookrun's HOOKRUN_* variables, and live beside the config
 * (`$HOOKRUN_CONFIG_DIR/scripts`), so the project can be moved or cloned.
 */
export interface Template {
  readonly name: string
  readonly description: string
  /** The hooks.json entry. */
  readonly hook: Record<string, unknown>
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
cmd=$HOOKRUN_BASH_COMMAND
deny() {
  echo "$1 (blocked by .hookrun/scripts/dangerous-commands.sh)" >&2
  exit 2
}
case $cmd in
  *"rm -rf /" | *"rm -rf / "* | *"rm -rf /*"* | *"rm -fr /" | *"rm -fr / "* | *"rm -rf ~" | *"rm -rf ~/" | *"rm -rf ~ "* | *'rm -rf $HOME'*)
    deny "refusing to delete the root or home folder: $cmd" ;;
  sudo\\ * | *[\\;\\&\\|]sudo\\ * | *[\\;\\&\\|]\\ sudo\\ *)
    deny "sudo is not allowed for the agent: $cmd" ;;
  *mkfs* | *"dd "*"of=/dev/"*)
    deny "refusing to write to a disk device: $cmd" ;;
  *":(){"*)
    deny "refusing a fork bomb: $cmd" ;;
  *"chmod -R 777 /"*)
    deny "refusing to open up the whole file system: $cmd" ;;
  *"git push"*"--force"* | *"git push"*" -f"*)
    deny "force-pushing rewrites shared history; push without --force: $cmd" ;;
  *"curl "*"| sh"* | *"curl "*"| bash"* | *"curl "*"|sh"* | *"wget "*"| sh"* | *"wget "*"| bash"*)
    deny "refusing to pipe a download into a shell: $cmd" ;;
esac
exit 0
`

const AUDIT_LOG = `#!/bin/sh
# hookrun template: append one line per event to .hookrun/audit.log (time, event, tool, session,
# and the tool input). It runs with blocking: false, so it never slows the agent down.
log="$HOOKRUN_CONFIG_DIR/audit.log"
args=$(printf '%s' "$HOOKRUN_TOOL_ARGS" | tr '\\n\\t' '  ' | cut -c 1-500)
printf '%s\\t%s\\t%s\\t%s\\t%s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$HOOKRUN_QUALIFIED_EVENT" "\${HOOKRUN_TOOL_NAME:--}" \\
  "\${HOOKRUN_SESSION_ID:--}" "\${args:--}" >> "$log"
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

// The audit log comes first, so it also records what a gate then blocks (it runs in the background).
export const TEMPLATES: readonly Template[] = [
  {
    name: 'audit-log',
    description: 'append every event to .hookrun/audit.log (Code-Forge: logging hooks for audit trails)',
    hook: {
      name: 'audit-log',
      description: 'One line per event in .hookrun/audit.log',
      event: '*',
      command: script('audit-log.sh'),
      blocking: false,
    },
    onByDefault: true,
    files: { 'scripts/audit-log.sh': AUDIT_LOG, '.gitignore': 'audit.log\nhooks.local.json\n' },
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
