/**
 * A fake Anthropic Messages API for Claude Code: `POST /v1/messages` (Claude sends `?beta=true`)
 * answered as a stream of server-sent events, scripted by Turn[]. The turn is picked by how many
 * `tool_result` blocks the request's messages hold, so a side request never advances the script;
 * `count_tokens` and anything else get a minimal answer.
 */
import type { ServerResponse } from 'node:http'
import { type ModelRequest, type ModelServer, startModelServer, type Turn } from '../lab.ts'

interface MessageBlock {
  readonly type?: string
  readonly text?: string
  readonly content?: unknown
  readonly tool_use_id?: string
  readonly is_error?: boolean
}

interface Message {
  readonly role?: string
  readonly content?: string | readonly MessageBlock[]
}

/** The request's conversation (empty for anything that is not a Messages request). */
export function messagesOf(request: ModelRequest): readonly Message[] {
  const body = request.body as { messages?: readonly Message[] } | undefined
  return Array.isArray(body?.messages) ? body.messages : []
}

/** The tool_result blocks of a conversation, in order. */
export function toolResultsOf(request: ModelRequest): MessageBlock[] {
  return messagesOf(request).flatMap((message) =>
    Array.isArray(message.content) ? message.content.filter((block) => block.type === 'tool_result') : [],
  )
}

/** The text a tool_result block carries (a string, or text blocks). */
export function toolResultText(block: MessageBlock): string {
  if (typeof block.content === 'string') return block.content
  if (Array.isArray(block.content)) return block.content.map((part: MessageBlock) => part.text ?? '').join('')
  return ''
}

/** Everything the model was sent as text: system prompt and every message, for "did the context arrive" checks. */
export function requestText(request: ModelRequest): string {
  return JSON.stringify(request.body ?? '')
}

/** The conversation requests (the ones carrying tools), not side requests. */
export function conversationRequests(server: ModelServer): ModelRequest[] {
  return server.requests.filter(
    (request) =>
      request.url.startsWith('/v1/messages') &&
      !request.url.includes('count_tokens') &&
      Array.isArray((request.body as { tools?: unknown })?.tools),
  )
}

function sse(response: ServerResponse, events: readonly Record<string, unknown>[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  for (const event of events) response.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`)
  response.end()
}

let ids = 0

/** The SSE events of one assistant message doing `turn`. */
function turnEvents(turn: Turn, model: string): Record<string, unknown>[] {
  const id = ++ids
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
  const start = {
    type: 'message_start',
    message: { id: `msg_lab${id}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  }
  const end = (stop: string) => [
    { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ]
  if ('text' in turn) {
    return [
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } },
      { type: 'content_block_stop', index: 0 },
      ...end('end_turn'),
    ]
  }
  const json = JSON.stringify(turn.input)
  const half = Math.floor(json.length / 2)
  return [
    start,
    { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_lab${id}`, name: turn.tool, input: {} } },
    // Two partial-JSON pieces, as the real API streams them.
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json.slice(half) } },
    { type: 'content_block_stop', index: 0 },
    ...end('tool_use'),
  ]
}

/**
 * Starts the fake model: conversation request with k tool results → turns[k] (the last turn once
 * the script runs out).
 */
export async function startAnthropicModel(turns: readonly Turn[]): Promise<ModelServer & { readonly arrivals: number[] }> {
  // When each conversation request came (performance.now()): the time between two is one tool call's whole cycle.
  const arrivals: number[] = []
  const server = await startModelServer((request, response) => {
    if (request.method !== 'POST' || !request.url.startsWith('/v1/messages')) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}')
      return
    }
    if (request.url.includes('count_tokens')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}')
      return
    }
    const body = request.body as { model?: string; stream?: boolean; tools?: unknown } | undefined
    if (Array.isArray(body?.tools)) arrivals.push(performance.now())
    const turn = turns[Math.min(toolResultsOf(request).length, turns.length - 1)]!
    const events = turnEvents(turn, body?.model ?? 'claude-lab')
    if (body?.stream === false) {
      // A non-streaming side request: the same message as one JSON object.
      const text = 'text' in turn ? turn.text : 'ok'
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'msg_side',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      )
      return
    }
    sse(response, events)
  })
  return Object.assign(server, { arrivals })
}
