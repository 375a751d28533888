/**
 * A fake OpenAI Responses API (`POST /v1/responses`, streamed as server-sent events) for Codex.
 * Codex sends the whole conversation in `input` each time, so the turn is the number of
 * `function_call_output` items it holds: a side request never advances the script.
 */
import type { ServerResponse } from 'node:http'
import { startModelServer, type ModelRequest, type ModelServer, type Turn } from '../lab.ts'

/** The items of a Responses request's `input` (the conversation so far). */
export function inputItems(request: ModelRequest): Record<string, unknown>[] {
  const input = (request.body as { input?: unknown } | undefined)?.input
  return Array.isArray(input) ? (input as Record<string, unknown>[]) : []
}

/** How many tool results the conversation holds: the index of the next turn. */
export function toolResults(request: ModelRequest): number {
  return inputItems(request).filter((item) => item.type === 'function_call_output').length
}

function send(response: ServerResponse, event: Record<string, unknown>): void {
  response.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`)
}

export function startOpenAIResponsesModel(turns: readonly Turn[]): Promise<ModelServer> {
  let served = 0
  return startModelServer((request, response) => {
    if (request.method !== 'POST' || !request.url.endsWith('/responses')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}')
      return
    }
    const index = toolResults(request)
    const turn = turns[Math.min(index, turns.length - 1)]!
    const id = `resp_${++served}`
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    send(response, { type: 'response.created', response: { id } })
    const item =
      'tool' in turn
        ? {
            type: 'function_call',
            id: `fc_${served}`,
            call_id: `call_${served}`,
            ...(turn.namespace !== undefined && { namespace: turn.namespace }),
            name: turn.tool,
            arguments: JSON.stringify(turn.input),
          }
        : { type: 'message', id: `msg_${served}`, role: 'assistant', content: [{ type: 'output_text', text: turn.text, annotations: [] }] }
    send(response, { type: 'response.output_item.added', output_index: 0, item })
    send(response, { type: 'response.output_item.done', output_index: 0, item })
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    }
    send(response, { type: 'response.completed', response: { id, usage } })
    response.end()
  })
}
