/**
 * A fake Gemini API (generativelanguage) for Gemini CLI: `streamGenerateContent?alt=sse` answers
 * the scripted turn, `generateContent` (side requests: next-speaker checks, summaries) a short
 * text, `countTokens` a small count. The turn is picked by how many `functionResponse` parts the
 * request's contents hold, so side requests never advance the script.
 */
import type { ServerResponse } from 'node:http'
import { type ModelRequest, type ModelServer, startModelServer, type Turn } from '../lab.ts'

interface Content {
  readonly role?: string
  readonly parts?: readonly Record<string, unknown>[]
}

/** How many tool results the conversation holds: the scripted turn's index. */
export function geminiToolResults(body: unknown): number {
  const contents = ((body as { contents?: Content[] } | undefined)?.contents ?? []) as Content[]
  return contents.flatMap((content) => content.parts ?? []).filter((part) => 'functionResponse' in part).length
}

/** The text of every part of the request's contents (what the model was told), joined. */
export function geminiText(body: unknown): string {
  return JSON.stringify((body as { contents?: unknown } | undefined)?.contents ?? [])
}

/** The conversation requests (not side requests) the agent sent. */
export const isGeminiTurn = (request: ModelRequest) => request.url.includes(':streamGenerateContent')

function candidate(turn: Turn, index: number) {
  const parts = 'text' in turn ? [{ text: turn.text }] : [{ functionCall: { id: `call-${index}`, name: turn.tool, args: turn.input } }]
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-2.5-flash',
  }
}

export function startGeminiModel(turns: readonly Turn[]): Promise<ModelServer> {
  return startModelServer((request: ModelRequest, response: ServerResponse) => {
    if (request.url.includes(':countTokens')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }))
      return
    }
    const index = geminiToolResults(request.body)
    const turn = turns[Math.min(index, turns.length - 1)] ?? { text: 'Done.' }
    if (request.url.includes(':streamGenerateContent')) {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(`data: ${JSON.stringify(candidate(turn, index))}\r\n\r\n`)
      return
    }
    if (request.url.includes(':generateContent')) {
      // A side request (a check or summary): a plain answer that moves nothing on.
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(candidate({ text: '{"reasoning":"done","next_speaker":"user"}' }, index)))
      return
    }
    response
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: 404, message: `fake model: no ${request.url}` } }))
  })
}
