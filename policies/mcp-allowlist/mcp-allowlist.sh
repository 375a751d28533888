#!/bin/sh
# hookrun policy mcp-allowlist: refuse MCP tools whose server (or server and tool) is not on the
# project's allow-list: .hookrun/mcp-allowlist (one per line: `github`, `github__get_issue`,
# `github__get_*`) or HOOKRUN_MCP_ALLOW (space-separated). The server and tool are hookrun's reading
# of the call in every agent (HOOKRUN_MCP_SERVER, HOOKRUN_MCP_TOOL: docs/events.md "MCP tools").
# See policies/mcp-allowlist/README.md.
HR_POLICY=mcp-allowlist
server=${HOOKRUN_MCP_SERVER-}
rest=${HOOKRUN_MCP_TOOL-}
[ -n "$server" ] || exit 0
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
