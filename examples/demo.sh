#!/bin/sh
# Fire a few events through examples/hooks.json with the compiled binary: for each, the payload
# sent, the exact command, and the answer (--pretty; drop it to see the JSON an agent reads).
set -u
cd "$(dirname "$0")/.." || exit 1
HOOKRUN=${HOOKRUN:-./dist/hookrun}

# Bold titles on a terminal only: piped or with NO_COLOR set, plain text.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$(printf '\033[1m'); plain=$(printf '\033[0m'); else bold=''; plain=''; fi

fire() {
  title=$1
  payload=$2
  event=$3
  printf '\n%s# %s%s\n' "$bold" "$title" "$plain"
  printf "$ echo '%s' \\\\\n    | hookrun fire %s --config examples/hooks.json --payload - --pretty\n" "$payload" "$event"
  printf '%s' "$payload" | "$HOOKRUN" fire "$event" --config examples/hooks.json --payload - --pretty
  printf 'exit code: %s\n' "$?"
}

fire "allowed: a plain shell command" '{"tool_name":"Bash","tool_input":{"command":"ls -la"}}' tool:pre_execute
fire "blocked: sudo (exit 2 from no-sudo.sh)" '{"tool_name":"Bash","tool_input":{"command":"sudo rm -rf /tmp/x"}}' tool:pre_execute
fire "blocked: a JSON deny from protect-secrets.sh" '{"tool_name":"Write","tool_input":{"file_path":"/app/.env","content":"KEY=1"}}' tool:pre_execute
fire "context for the model at session start" '{"session_id":"demo"}' session:start
