#!/usr/bin/env node
/**
 * The lab's own MCP server (stdio, newline-delimited JSON-RPC, no dependencies): two tools,
 * `lab_read` (a gate lets it through) and `lab_wipe` (a gate stops it). Every call it really
 * receives is appended to the file named by its first argument, so a scenario can tell a call
 * the gate stopped from one that ran.
 */
import { appendFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const callLog = process.argv[2]
const TOOLS = [
  { name: 'lab_read', description: 'Read the lab note. Always safe.', inputSchema: { type: 'object', properties: { note: { type: 'string' } } } },
  { name: 'lab_wipe', description: 'Wipe the lab note.', inputSchema: { type: 'object', properties: { note: { type: 'string' } } } },
]

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)

function answer(request) {
  switch (request.method) {
    case 'initialize':
      return {
        protocolVersion: request.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'labmcp', version: '1.0.0' },
      }
    case 'ping':
      return {}
    case 'tools/list':
      return { tools: TOOLS }
    case 'tools/call': {
      const name = request.params?.name
      if (!TOOLS.some((tool) => tool.name === name)) return undefined
      if (callLog) appendFileSync(callLog, `${JSON.stringify({ tool: name, arguments: request.params?.arguments ?? {} })}\n`)
      return { content: [{ type: 'text', text: `LAB-MCP-RESULT ${name}` }] }
    }
    case 'resources/list':
      return { resources: [] }
    case 'prompts/list':
      return { prompts: [] }
    default:
      return undefined
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let request
  try {
    request = JSON.parse(line)
  } catch {
    return
  }
  // A notification (no id) needs no answer.
  if (request.id === undefined || request.id === null) return
  const result = answer(request)
  if (result === undefined) send({ id: request.id, error: { code: -32601, message: `unknown method or tool: ${request.method}` } })
  else send({ id: request.id, result })
})
