#!/bin/sh
# hookrun policy session-budget: refuse tool calls once a session has made too many
# (HOOKRUN_BUDGET_TOOL_CALLS, default 400) or run too long (HOOKRUN_BUDGET_MINUTES, default 120).
# The count lives in a file per session id under the user's cache folder; files of sessions two
# days old are removed. See policies/session-budget/README.md.
HR_POLICY=session-budget
session=$(printf '%s' "${HOOKRUN_SESSION_ID-}" | tr -c 'A-Za-z0-9_.-' '_')
[ -n "$session" ] || exit 0
dir=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/hookrun/session-budget
mkdir -p "$dir" 2>/dev/null || { echo "session-budget: cannot make $dir (blocked by .hookrun/scripts/session-budget.sh)" >&2; exit 2; }
file=$dir/$session
now=$(date +%s)
if [ ! -f "$file" ]; then
  find "$dir" -type f -mtime +2 -exec rm -f {} + 2>/dev/null
  echo "$now" >"$file"
fi
# One line per call, appended (a line is written whole, so parallel calls each count).
echo . >>"$file" || { echo "session-budget: cannot write $file (blocked by .hookrun/scripts/session-budget.sh)" >&2; exit 2; }
start=$(head -n 1 "$file")
calls=$(($(wc -l <"$file") - 1))
max_calls=${HOOKRUN_BUDGET_TOOL_CALLS:-400}
max_minutes=${HOOKRUN_BUDGET_MINUTES:-120}
if [ "$calls" -gt "$max_calls" ]; then
  echo "session budget spent: $calls tool calls (the limit is $max_calls); start a new session, or raise HOOKRUN_BUDGET_TOOL_CALLS (blocked by .hookrun/scripts/session-budget.sh)" >&2
  exit 2
fi
minutes=$(((now - start) / 60))
if [ "$minutes" -ge "$max_minutes" ]; then
  echo "session budget spent: $minutes minutes (the limit is $max_minutes); start a new session, or raise HOOKRUN_BUDGET_MINUTES (blocked by .hookrun/scripts/session-budget.sh)" >&2
  exit 2
fi
exit 0
