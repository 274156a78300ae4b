import { Hono } from 'hono'
import { notFound } from '../errors'
import { compileFilter } from '../filters/compile'
import { PEER_FILTERS, SESSION_FILTERS } from '../filters/resources'
import { workspaceParam } from '../http/auth'
import { jsonBody, queryOf } from '../http/validate'
import { dialecticRoute } from '../services/dialectic-route'
import { peerCard } from '../services/peer-card'
import { buildRepresentation } from '../services/representation'
import { searchMessages } from '../services/search'
import { resolveSessionScope } from '../services/session-scope'
import type { HonchoEnv, RouteDeps } from '../types'
import { dropNulls } from '../wire/sanitize'
import {
  ListBodySchema,
  PageQuerySchema,
  PeerCreateSchema,
  PeerUpdateSchema,
  pageRequest,
  SearchBodySchema,
} from '../wire/schemas'
import {
  CardBodySchema,
  CardQuerySchema,
  PeerContextQuerySchema,
  RepresentationBodySchema,
} from '../wire/schemas-memory'
import { pageOut, peerOut, sessionOut } from '../wire/shapes'

/** P1–P10: peers, their sessions, chat, search, representation, context and card. */
export function peerRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const { memory } = deps
  const app = new Hono<HonchoEnv>()

  const requirePeer = async (ws: string, id: string) => {
    const peer = await memory.peers.get(ws, id)
    if (!peer) throw notFound('Peer', id)
    return peer
  }

  app.post('/', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, PeerCreateSchema)
    const configuration = body.configuration ? dropNulls(body.configuration) : undefined
    const { value, created } = await memory.peers.getOrCreate(ws, body.id, {
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(configuration ? { configuration } : {}),
    })
    if (created || (!body.metadata && !configuration)) return c.json(peerOut(value), created ? 201 : 200)
    const updated = await memory.peers.update(ws, body.id, {
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(configuration ? { configuration } : {}),
    })
    return c.json(peerOut(updated), 200)
  })

  app.post('/list', async (c) => {
    const ws = workspaceParam(c)
    const page = pageRequest(queryOf(c, PageQuerySchema))
    const body = await jsonBody(c, ListBodySchema)
    const filter = compileFilter(PEER_FILTERS, body?.filters) ?? undefined
    return c.json(pageOut(await memory.peers.list(ws, page, filter), peerOut))
  })

  app.put('/:p', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, PeerUpdateSchema)
    const peer = await memory.peers.update(ws, c.req.param('p'), {
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(body.configuration ? { configuration: dropNulls(body.configuration) } : {}),
    })
    return c.json(peerOut(peer))
  })

  app.post('/:p/sessions', async (c) => {
    const ws = workspaceParam(c)
    const page = pageRequest(queryOf(c, PageQuerySchema))
    const body = await jsonBody(c, ListBodySchema)
    const filter = compileFilter(SESSION_FILTERS, body?.filters)
    const sessions = await memory.sessions.list(ws, page, {
      memberId: c.req.param('p'),
      includeInactive: true,
      ...(filter ? { filter } : {}),
    })
    return c.json(pageOut(sessions, sessionOut))
  })

  app.post('/:p/chat', async (c) => {
    const ws = workspaceParam(c)
    const peerId = c.req.param('p')
    await memory.peers.getOrCreate(ws, peerId)
    return dialecticRoute(c, deps, { workspaceId: ws, peerId })
  })

  app.post('/:p/search', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, SearchBodySchema)
    const hits = await searchMessages(memory, {
      workspaceId: ws,
      query: body.query,
      limit: body.limit,
      filters: body.filters ?? undefined,
      peerId: c.req.param('p'),
    })
    return c.json(hits)
  })

  app.post('/:p/representation', async (c) => {
    const ws = workspaceParam(c)
    const observer = c.req.param('p')
    const body = await jsonBody(c, RepresentationBodySchema)
    const sessionIds = await resolveSessionScope(memory, ws, {
      sessionId: body.session_id,
      filters: body.filters,
      scope: body.scope,
    })
    const representation = await buildRepresentation(memory, {
      workspaceId: ws,
      observer,
      observed: body.target ?? observer,
      ...(sessionIds ? { sessionIds } : {}),
      ...(body.search_query ? { searchQuery: body.search_query } : {}),
      ...(body.search_top_k ? { searchTopK: body.search_top_k } : {}),
      ...(body.search_max_distance != null ? { searchMaxDistance: body.search_max_distance } : {}),
      includeMostFrequent: body.include_most_frequent,
      maxConclusions: body.max_conclusions,
    })
    return c.json({ representation })
  })

  app.get('/:p/context', async (c) => {
    const ws = workspaceParam(c)
    const observer = c.req.param('p')
    const query = queryOf(c, PeerContextQuerySchema)
    await requirePeer(ws, observer)
    const target = query.target ?? observer
    const [representation, card] = await Promise.all([
      buildRepresentation(memory, {
        workspaceId: ws,
        observer,
        observed: target,
        ...(query.search_query ? { searchQuery: query.search_query } : {}),
        ...(query.search_top_k ? { searchTopK: query.search_top_k } : {}),
        ...(query.search_max_distance !== undefined ? { searchMaxDistance: query.search_max_distance } : {}),
        includeMostFrequent: query.include_most_frequent,
        maxConclusions: query.max_conclusions,
      }),
      peerCard(memory, ws, observer, target),
    ])
    return c.json({
      peer_id: observer,
      target_id: target,
      representation: representation || null,
      peer_card: card,
    })
  })

  app.get('/:p/card', async (c) => {
    const ws = workspaceParam(c)
    const observer = c.req.param('p')
    const query = queryOf(c, CardQuerySchema)
    await requirePeer(ws, observer)
    return c.json({ peer_card: await peerCard(memory, ws, observer, query.target ?? observer) })
  })

  app.put('/:p/card', async (c) => {
    const ws = workspaceParam(c)
    const observer = c.req.param('p')
    const query = queryOf(c, CardQuerySchema)
    const body = await jsonBody(c, CardBodySchema)
    await memory.peerCards.set(ws, observer, query.target ?? observer, body.peer_card)
    return c.json({ peer_card: body.peer_card })
  })

  return app
}
