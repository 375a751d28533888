/**
 * The lab's MCP scenario, the same in every agent that can load an MCP server headless: the lab's
 * own stdio server (mcp-server.mjs, server `labmcp`, tools `lab_read` and `lab_wipe`), and one gate
 * written once in hookrun's vocabulary, `tool:pre_execute:mcp__labmcp__lab_wipe`, whatever the
 * agent calls the tool. A second hook on every MCP call records what hookrun told it, so a
 * scenario sees the server and tool each agent's call was read as.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { LabRun } from './lab.ts'

export const MCP_SERVER_NAME = 'labmcp'

/** The gate's reason, which must reach the model in place of the tool's result. */
export const MCP_GATE_REASON = 'lab mcp gate: labmcp lab_wipe is not allowed'

/** The marker the server's answer holds: in the model's next request only when the tool really ran. */
export const MCP_RESULT_MARKER = 'LAB-MCP-RESULT'

/** The command that starts the lab's MCP server for this run, and the file its calls are written to. */
export function labMcpServer(run: LabRun): { command: string; args: string[]; calls: string } {
  const calls = join(run.root, 'mcp-calls.jsonl')
  return { command: process.execPath, args: [join(import.meta.dirname, 'mcp-server.mjs'), calls], calls }
}

/** The project's hooks.json: the gate on one MCP tool and the recorder on all of them. */
export function mcpHooks(run: LabRun): unknown {
  const seen = join(run.root, 'mcp-seen.jsonl')
  return {
    hooks: [
      {
        name: 'lab-mcp-seen',
        event: 'tool:pre_execute:mcp__*',
        command: `printf '%s %s %s\\n' "$HOOKRUN_MCP_SERVER" "$HOOKRUN_MCP_TOOL" "$HOOKRUN_TOOL_NAME" >> '${seen}'`,
      },
      {
        name: 'lab-mcp-gate',
        event: 'tool:pre_execute:mcp__labmcp__lab_wipe',
        command: `echo "lab mcp gate: $HOOKRUN_MCP_SERVER $HOOKRUN_MCP_TOOL is not allowed" >&2; exit 2`,
      },
    ],
  }
}

/** The tools the server really ran, in order. */
export function mcpCalls(run: LabRun): string[] {
  const file = labMcpServer(run).calls
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { tool: string }).tool)
}

/** What hookrun's recorder hook saw on each MCP call: `server tool agent's-name`. */
export function mcpSeen(run: LabRun): string[] {
  const file = join(run.root, 'mcp-seen.jsonl')
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : []
}

/**
 * The gate held: the server ran lab_read only, hookrun read both calls (the agent's names for them
 * given) as server labmcp, the gate's reason reached the model for lab_wipe and lab_read's result did.
 */
export function expectMcpGateHeld(
  run: LabRun,
  names: readonly [wipe: string, read: string],
  model: { wiped?: string; read?: string },
): void {
  expect(mcpCalls(run)).toEqual(['lab_read'])
  expect(mcpSeen(run)).toEqual([`labmcp lab_wipe ${names[0]}`, `labmcp lab_read ${names[1]}`])
  expect(model.wiped).toContain(MCP_GATE_REASON)
  expect(model.read).toContain(MCP_RESULT_MARKER)
}
