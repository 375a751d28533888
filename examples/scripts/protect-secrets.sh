#!/bin/sh
# Gate for writes and edits: answers with JSON instead of an exit code.
# HOOKRUN_TOOL_ARGS is the tool input as JSON, e.g. {"file_path":"/app/.env","content":"..."}.
case "$HOOKRUN_TOOL_ARGS" in
  *'.env"'*|*'.env.'*|*id_rsa*|*'.pem"'*)
    echo '{"decision":"deny","reason":"secrets files (.env, keys) are protected; ask the user to edit them"}'
    ;;
  *)
    echo '{"decision":"allow"}'
    ;;
esac
