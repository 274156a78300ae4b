import { randomId, type Session } from '@hymem/core-store'
import { Hono } from 'hono'
import * as v from 'valibot'
import { HonchoHttpError, notFound } from '../errors'
import { compileFilter } from '../filters/compile'
import { SESSION_FILTERS } from '../filters/resources'
import { workspaceParam } from '../http/auth'
import { jsonBody, queryOf } from '../http/validate'
import { addMembers } from '../services/membership'
import { searchMessages } from '../services/search'
import { sessionContext } from '../services/session-context'
import { sessionSummaries } from '../services/summaries'
import type { HonchoEnv, RouteDeps } from '../types'
import { dropNulls } from '../wire/sanitize'
import {
  ListBodySchema,
  MetadataUpdateSchema,
  PageQuerySchema,
  pageRequest,
  SearchBodySchema,
  SessionCreateSchema,
} from '../wire/schemas'
import { SessionContextQuerySchema } from '../wire/schemas-memory'
import { pageOut, sessionOut } from '../wire/shapes'

export const CloneQuerySchema = v.object({ message_id: v.optional(v.string()) })

/** S1–S8: sessions, context, summaries, search and clone (membership: `session-peers.ts`). */
export function sessionRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const { memory } = deps
  const app = new Hono<HonchoEnv>()

  const activeSession = async (ws: string, id: string): Promise<Session> => {
    const session = await memory.sessions.get(ws, id)
    if (!session?.isActive) throw notFound('Session', id)
    return session
  }

  app.post('/', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, SessionCreateSchema)
    const existing = await memory.sessions.get(ws, body.id)
    if (existing && !existing.isActive) throw notFound('Session', body.id)
    const configuration = body.configuration ? dropNulls(body.configuration) : undefined
    const result = await memory.transaction(async (tx) => {
      const { value, created } = await tx.sessions.getOrCreate(ws, body.id, {
        ...(body.metadata ? { metadata: body.metadata } : {}),
        ...(configuration ? { configuration } : {}),
      })
      let session = value
      if (!created && (body.metadata || configuration)) {
        session = await tx.sessions.update(ws, body.id, {
          ...(body.metadata ? { metadata: body.metadata } : {}),
          ...(configuration ? { configuration } : {}),
        })
      }
      if (body.peers) await addMembers(tx, ws, body.id, body.peers)
      for (const scopeId of body.scopes ?? []) await tx.scopes.addSessions(ws, scopeId, [body.id])
      return { session, created }
    })
    return c.json(sessionOut(result.session), result.created ? 201 : 200)
  })

  app.post('/list', async (c) => {
    const ws = workspaceParam(c)
    const page = pageRequest(queryOf(c, PageQuerySchema))
    const body = await jsonBody(c, ListBodySchema)
    const filter = compileFilter(SESSION_FILTERS, body?.filters)
    return c.json(pageOut(await memory.sessions.list(ws, page, filter ? { filter } : {}), sessionOut))
  })

  app.put('/:s', async (c) => {
    const ws = workspaceParam(c)
    const id = c.req.param('s')
    const body = await jsonBody(c, MetadataUpdateSchema)
    const existing = await memory.sessions.get(ws, id)
    if (existing && !existing.isActive) throw notFound('Session', id)
    if (!existing) await memory.sessions.getOrCreate(ws, id)
    const session = await memory.sessions.update(ws, id, {
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(body.configuration ? { configuration: dropNulls(body.configuration) } : {}),
    })
    return c.json(sessionOut(session))
  })

  app.delete('/:s', async (c) => {
    const ws = workspaceParam(c)
    await activeSession(ws, c.req.param('s'))
    // Forgets the messages and everything derived from them; reads exclude them before the 202.
    await memory.erase.session(c.req.param('s'), { workspaceId: ws })
    return c.json({ message: 'Session deleted successfully' }, 202)
  })

  app.post('/:s/clone', async (c) => {
    const ws = workspaceParam(c)
    const source = await activeSession(ws, c.req.param('s'))
    const { message_id: upTo } = queryOf(c, CloneQuerySchema)
    let lastId: number | undefined
    if (upTo) {
      const message = await memory.messages.getByPublicId(ws, upTo)
      if (!message || message.sessionId !== source.id) throw notFound('Message', upTo)
      lastId = message.id
    }
    const clone = await memory.sessions.clone(ws, source.id, randomId(), { upToId: lastId })
    return c.json(sessionOut(clone), 201)
  })

  app.get('/:s/context', async (c) => {
    const ws = workspaceParam(c)
    const session = await activeSession(ws, c.req.param('s'))
    const q = queryOf(c, SessionContextQuerySchema, ['sessions'])
    if (q.tokens !== undefined && q.tokens > deps.limits.contextTokens) {
      throw new HonchoHttpError('VALIDATION', `tokens must be at most ${deps.limits.contextTokens}`)
    }
    return c.json(
      await sessionContext(memory, session, {
        tokens: q.tokens ?? deps.limits.contextTokens,
        summary: q.summary,
        peerTarget: q.peer_target,
        peerPerspective: q.peer_perspective,
        scope: q.scope,
        sessions: q.sessions,
        limitToSession: q.limit_to_session,
        searchQuery: q.search_query,
        searchTopK: q.search_top_k,
        searchMaxDistance: q.search_max_distance,
        includeMostFrequent: q.include_most_frequent,
        maxConclusions: q.max_conclusions,
      }),
    )
  })

  app.get('/:s/summaries', async (c) => {
    const ws = workspaceParam(c)
    const session = await activeSession(ws, c.req.param('s'))
    const { short, long } = await sessionSummaries(memory, session)
    return c.json({ id: session.id, short_summary: short?.wire ?? null, long_summary: long?.wire ?? null })
  })

  app.post('/:s/search', async (c) => {
    const ws = workspaceParam(c)
    const session = await activeSession(ws, c.req.param('s'))
    const body = await jsonBody(c, SearchBodySchema)
    const hits = await searchMessages(memory, {
      workspaceId: ws,
      query: body.query,
      limit: body.limit,
      filters: body.filters ?? undefined,
      sessionId: session.id,
    })
    return c.json(hits)
  })

  return app
}
