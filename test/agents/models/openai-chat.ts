/**
 * A fake OpenAI chat-completions API (`POST /v1/chat/completions`, streamed with `delta.tool_calls`
 * or answered whole when `stream` is off). The turn is the number of `role: "tool"` messages the
 * conversation holds, so side requests (titles, summaries) never advance the script.
 */
import type { ServerResponse } from 'node:http'
import { startModelServer, type ModelRequest, type ModelServer, type Turn } from '../lab.ts'

/** The request's messages (the conversation so far). */
export function chatMessages(request: ModelRequest): Record<string, unknown>[] {
  const messages = (request.body as { messages?: unknown } | undefined)?.messages
  return Array.isArray(messages) ? (messages as Record<string, unknown>[]) : []
}

/** How many tool results the conversation holds: the index of the next turn. */
export function toolMessages(request: ModelRequest): Record<string, unknown>[] {
  return chatMessages(request).filter((message) => message.role === 'tool')
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }

export function startOpenAIChatModel(turns: readonly Turn[]): Promise<ModelServer> {
  let served = 0
  return startModelServer((request, response) => {
    if (request.method === 'GET' && request.url.endsWith('/models')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'lab' }] }))
      return
    }
    if (request.method !== 'POST' || !request.url.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}')
      return
    }
    const turn = turns[Math.min(toolMessages(request).length, turns.length - 1)]!
    const id = `chatcmpl-${++served}`
    const model = String((request.body as { model?: unknown }).model ?? 'fake-model')
    const call = 'tool' in turn ? { id: `call_${served}`, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.input) } } : undefined
    const finish = call === undefined ? 'stop' : 'tool_calls'
    if ((request.body as { stream?: unknown }).stream !== true) {
      const message = call === undefined ? { role: 'assistant', content: (turn as { text: string }).text } : { role: 'assistant', content: null, tool_calls: [call] }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, object: 'chat.completion', created: 0, model, choices: [{ index: 0, message, finish_reason: finish }], usage }))
      return
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}) =>
      streamed(response, { id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })
    chunk(call === undefined ? { role: 'assistant', content: (turn as { text: string }).text } : { role: 'assistant', content: null, tool_calls: [{ index: 0, ...call }] }, null)
    chunk({}, finish, { usage })
    response.end('data: [DONE]\n\n')
  })
}

function streamed(response: ServerResponse, data: Record<string, unknown>): void {
  response.write(`data: ${JSON.stringify(data)}\n\n`)
}
