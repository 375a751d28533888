/**
 * A fake OpenAI chat-completions API (`POST /v1/chat/completions`), for any agent that speaks it
 * (Qwen Code, Copilot CLI with its own provider, ...). A streaming request gets the scripted turn
 * as SSE chunks (`delta.content`, or `delta.tool_calls` with the arguments as a JSON string); a
 * non-streaming one a `chat.completion`. The turn is picked by how many `role: "tool"` messages
 * the conversation holds, so side requests (titles, summaries) never advance the script.
 * `GET /v1/models` lists one model.
 */
import type { ServerResponse } from 'node:http'
import { type ModelRequest, type ModelServer, startModelServer, type Turn } from '../lab.ts'

interface ChatMessage {
  readonly role?: string
  readonly content?: unknown
}

/** The request's messages (the conversation so far). */
export function chatMessages(request: ModelRequest): Record<string, unknown>[] {
  const messages = (request.body as { messages?: unknown } | undefined)?.messages
  return Array.isArray(messages) ? (messages as Record<string, unknown>[]) : []
}

/** The conversation's tool results. */
export function toolMessages(request: ModelRequest): Record<string, unknown>[] {
  return chatMessages(request).filter((message) => message.role === 'tool')
}

/** How many tool results the conversation holds: the scripted turn's index. */
export function chatToolResults(body: unknown): number {
  const messages = ((body as { messages?: ChatMessage[] } | undefined)?.messages ?? []) as ChatMessage[]
  return messages.filter((message) => message.role === 'tool').length
}

/** The whole conversation the request sent, as text (to look for a reason or added context). */
export function chatText(body: unknown): string {
  return JSON.stringify((body as { messages?: unknown } | undefined)?.messages ?? [])
}

/** The conversation requests: the ones that offered the model tools. */
export const isChatTurn = (request: ModelRequest) =>
  request.url.endsWith('/chat/completions') && Array.isArray((request.body as { tools?: unknown[] } | undefined)?.tools)

function sse(response: ServerResponse, chunks: readonly unknown[]) {
  response.writeHead(200, { 'content-type': 'text/event-stream' })
  for (const chunk of chunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`)
  response.end('data: [DONE]\n\n')
}

/**
 * `turns` may be a function of the request: a script per conversation (OpenCode's subagent gets a
 * conversation of its own, told apart by its prompt).
 */
export function startOpenAIChatModel(turns: readonly Turn[] | ((request: ModelRequest) => readonly Turn[])): Promise<ModelServer> {
  return startModelServer((request: ModelRequest, response: ServerResponse) => {
    if (request.method === 'GET' && request.url.endsWith('/models')) {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'lab' }] }))
      return
    }
    if (!request.url.endsWith('/chat/completions')) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `fake model: no ${request.url}` } }))
      return
    }
    const body = request.body as { stream?: boolean; model?: string; tools?: unknown[] } | undefined
    const index = chatToolResults(body)
    // A request without tools is a side request (a title, a summary): it gets text.
    const script = typeof turns === 'function' ? turns(request) : turns
    const turn: Turn = isChatTurn(request) ? (script[Math.min(index, script.length - 1)] ?? { text: 'Done.' }) : { text: 'Lab session' }
    const id = `chatcmpl-lab-${request.url.length}-${index}`
    const base = { id, object: 'chat.completion.chunk', created: 1_700_000_000, model: body?.model ?? 'fake-model' }
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
    const toolCall =
      'tool' in turn
        ? { id: `call_${index}`, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.input) } }
        : undefined
    if (body?.stream !== true) {
      const message = toolCall
        ? { role: 'assistant', content: null, tool_calls: [toolCall] }
        : { role: 'assistant', content: 'text' in turn ? turn.text : '' }
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: toolCall ? 'tool_calls' : 'stop' }],
          usage,
        }),
      )
      return
    }
    const delta = toolCall
      ? { role: 'assistant', tool_calls: [{ index: 0, ...toolCall }] }
      : { role: 'assistant', content: 'text' in turn ? turn.text : '' }
    sse(response, [
      { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: toolCall ? 'tool_calls' : 'stop' }] },
      { ...base, choices: [], usage },
    ])
  })
}
