#!/bin/sh
# hookrun policy mcp-allowlist: refuse MCP tools whose server (or server and tool) is not on the
# project's allow-list: .hookrun/mcp-allowlist (one per line: `github`, `github__get_issue`,
# `github__get_*`) or HOOKRUN_MCP_ALLOW (space-separated). Tool names as Claude Code, Codex and
# Gemini CLI spell them: mcp__server__tool. See policies/mcp-allowlist/README.md.
HR_POLICY=mcp-allowlist
tool=${HOOKRUN_TOOL_NAME-}
case $tool in
  mcp__*__*) server=${tool#mcp__}; rest=${server#*__}; server=${server%%__*} ;;
  mcp_*) server=${tool#mcp_}; rest=${server#*_}; server=${server%%_*} ;;
  *) exit 0 ;;
esac
allow=${HOOKRUN_MCP_ALLOW-}
list=${HOOKRUN_PROJECT_DIR:-.}/.hookrun/mcp-allowlist
[ -f "$list" ] && allow="$allow $(sed -e 's/#.*//' "$list" | tr '\n' ' ')"
set -f
for entry in $allow; do
  # shellcheck disable=SC2254 # entries are globs
  case $server in $entry) exit 0 ;; esac
  case ${server}__$rest in $entry) exit 0 ;; esac
done
echo "refusing the MCP tool $rest of server $server: not on the allow-list; add '$server' (or '${server}__$rest') to .hookrun/mcp-allowlist (blocked by .hookrun/scripts/mcp-allowlist.sh)" >&2
exit 2
