#!/bin/sh
# Fire a few events through examples/hooks.json with the compiled binary and show the answers.
set -u
cd "$(dirname "$0")/.." || exit 1
HOOKRUN=${HOOKRUN:-./dist/hookrun}

fire() {
  title=$1; shift
  payload=$1; shift
  printf '\n\033[1m$ hookrun fire %s\033[0m   # %s\n' "$*" "$title"
  printf '%s' "$payload" | "$HOOKRUN" fire "$@" --config examples/hooks.json --payload -
  printf 'exit code: %s\n' "$?"
}

fire "allowed: a plain shell command" '{"tool_name":"Bash","tool_input":{"command":"ls -la"}}' tool:pre_execute
fire "blocked: sudo (exit 2 from no-sudo.sh)" '{"tool_name":"Bash","tool_input":{"command":"sudo rm -rf /tmp/x"}}' tool:pre_execute
fire "blocked: a JSON deny from protect-secrets.sh" '{"tool_name":"Write","tool_input":{"file_path":"/app/.env","content":"KEY=1"}}' tool:pre_execute
fire "context for the model at session start" '{"session_id":"demo"}' session:start
