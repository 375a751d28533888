#!/bin/sh
# hookrun policy git-commit: commit each file the agent writes or edits, one commit per change, so every
# step can be reviewed and undone with git. Only the written file is committed.
cd "${HOOKRUN_PROJECT_DIR:-.}" || exit 0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0
file=$(printf '%s' "$HOOKRUN_TOOL_ARGS" | sed -n 's/.*"file_path" *: *"\([^"]*\)".*/\1/p')
[ -n "$file" ] || file=$(printf '%s' "$HOOKRUN_TOOL_ARGS" | sed -n 's/.*"path" *: *"\([^"]*\)".*/\1/p')
[ -n "$file" ] && [ -e "$file" ] || exit 0
git add -- "$file" || exit 1
git diff --cached --quiet -- "$file" && exit 0
git commit -q -m "agent: ${HOOKRUN_TOOL_NAME:-edit} $(basename "$file")" -- "$file"
