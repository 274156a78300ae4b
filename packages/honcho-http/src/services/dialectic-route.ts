import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import { jsonBody } from '../http/validate'
import type { HonchoEnv, RouteDeps } from '../types'
import { ChatBodySchema } from '../wire/schemas-memory'
import { answerQuestion } from './dialectic'
import { resolveSessionScope } from './session-scope'

/** Words per SSE chunk when streaming an answer. */
const WORDS_PER_CHUNK = 8

/** Splits an answer into SSE deltas that concatenate back to exactly the answer. */
export function deltas(text: string): string[] {
  const tokens = text.match(/\S+\s*|\s+/g) ?? []
  const out: string[] = []
  for (let i = 0; i < tokens.length; i += WORDS_PER_CHUNK)
    out.push(tokens.slice(i, i + WORDS_PER_CHUNK).join(''))
  return out
}

/**
 * P5 / W8: validates the chat body, answers from memory, and replies with `{content, evidence?, facts}` or,
 * with `stream: true`, with Honcho's SSE events (`data: {"delta": {"content": …}, "done": false}` … `{"done": true}`).
 */
export async function dialecticRoute(
  c: Context<HonchoEnv>,
  deps: RouteDeps,
  where: { workspaceId: string; peerId: string | null },
): Promise<Response> {
  const body = await jsonBody(c, ChatBodySchema)
  const sessionIds = await resolveSessionScope(deps.memory, where.workspaceId, {
    sessionId: body.session_id,
    filters: body.filters,
    scope: body.scope,
  })
  const request = {
    workspaceId: where.workspaceId,
    query: body.query,
    observed: body.target ?? where.peerId,
    observer: where.peerId,
    sessionId: body.session_id ?? null,
    responseFormat: body.response_format ?? null,
    signal: c.req.raw.signal,
    ...(sessionIds ? { sessionIds } : {}),
  }
  const onLlmError = (error: unknown) =>
    deps.log({ kind: 'error', method: c.req.method, path: c.req.path, error })
  if (!body.stream) {
    const answer = await answerQuestion(deps.memory, request, onLlmError)
    return c.json({
      content: answer.content,
      ...(body.include_evidence ? { evidence: answer.evidence } : {}),
      facts: answer.facts,
    })
  }
  return streamSSE(c, async (stream) => {
    try {
      const answer = await answerQuestion(deps.memory, request, onLlmError)
      for (const content of deltas(answer.content ?? '')) {
        await stream.writeSSE({ data: JSON.stringify({ delta: { content }, done: false }) })
      }
      await stream.writeSSE({
        data: JSON.stringify({ done: true, ...(body.include_evidence ? { evidence: answer.evidence } : {}) }),
      })
    } catch (error) {
      deps.log({ kind: 'error', method: c.req.method, path: c.req.path, error })
      await stream.writeSSE({ data: JSON.stringify({ error: 'An unexpected error occurred', done: true }) })
    }
  })
}
