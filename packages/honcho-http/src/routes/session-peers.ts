import { type Context, Hono } from 'hono'
import * as v from 'valibot'
import { HonchoHttpError, notFound } from '../errors'
import { workspaceParam } from '../http/auth'
import { jsonBody, queryOf } from '../http/validate'
import { addMembers, MAX_OBSERVERS } from '../services/membership'
import type { HonchoEnv, RouteDeps } from '../types'
import { dropNulls } from '../wire/sanitize'
import {
  PageQuerySchema,
  PeerIdSchema,
  pageRequest,
  SessionPeerConfigSchema,
  SessionPeersMapSchema,
} from '../wire/schemas'
import { pageOut, peerOut, sessionOut, sessionPeerConfigOut } from '../wire/shapes'

/** The `:s` parameter of the mount path. */
const sessionOf = (c: Context<HonchoEnv>): string => c.req.param('s') ?? ''

export const RemovePeersSchema = v.pipe(v.array(PeerIdSchema), v.maxLength(100))

/** S9–S14: a session's members and their per-session configuration (mounted at `…/sessions/:s/peers`). */
export function sessionPeerRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const { memory } = deps
  const app = new Hono<HonchoEnv>()

  const activeSession = async (ws: string, id: string) => {
    const session = await memory.sessions.get(ws, id)
    if (!session?.isActive) throw notFound('Session', id)
    return session
  }

  const changePeers = (replaceMembers: boolean) => async (c: Context<HonchoEnv>) => {
    const ws = workspaceParam(c)
    const id = sessionOf(c) ?? ''
    const body = await jsonBody(c, SessionPeersMapSchema)
    const existing = await memory.sessions.get(ws, id)
    if (existing && !existing.isActive) throw notFound('Session', id)
    await memory.transaction(async (tx) => {
      await tx.sessions.getOrCreate(ws, id)
      await addMembers(tx, ws, id, body, { replaceMembers })
    })
    return c.json(sessionOut((await memory.sessions.get(ws, id))!))
  }
  app.post('/', changePeers(false))
  app.put('/', changePeers(true))

  app.delete('/', async (c) => {
    const ws = workspaceParam(c)
    const session = await activeSession(ws, sessionOf(c))
    const body = await jsonBody(c, RemovePeersSchema)
    if (body.length > 0) await memory.sessions.removePeers(ws, session.id, body)
    return c.json(sessionOut(session))
  })

  app.get('/', async (c) => {
    const ws = workspaceParam(c)
    const session = await activeSession(ws, sessionOf(c))
    const page = pageRequest(queryOf(c, PageQuerySchema))
    return c.json(pageOut(await memory.sessions.listMemberPeers(ws, session.id, page), peerOut))
  })

  app.get('/:p/config', async (c) => {
    const ws = workspaceParam(c)
    const member = await memory.sessions.getPeer(ws, sessionOf(c), c.req.param('p'))
    if (!member || member.leftAt !== null) throw notFound('Session peer', c.req.param('p'))
    return c.json(sessionPeerConfigOut(member.configuration))
  })

  app.put('/:p/config', async (c) => {
    const ws = workspaceParam(c)
    const sessionId = sessionOf(c)
    const peerId = c.req.param('p')
    const body = await jsonBody(c, SessionPeerConfigSchema)
    const session = await memory.sessions.get(ws, sessionId)
    if (!session?.isActive) throw notFound('Session', sessionId)
    const config = dropNulls(body)
    if (config.observe_others === true) {
      const members = await memory.sessions.listPeers(ws, sessionId)
      const observers = members.filter(
        (m) => m.peerId !== peerId && m.configuration.observe_others === true,
      ).length
      if (observers + 1 > MAX_OBSERVERS)
        throw new HonchoHttpError(
          'BAD_REQUEST',
          `A session may have at most ${MAX_OBSERVERS} peers with observe_others`,
        )
    }
    await memory.transaction(async (tx) => {
      await tx.peers.getOrCreate(ws, peerId)
      await tx.sessions.setPeerConfiguration(ws, sessionId, peerId, config)
    })
    return c.body(null, 204)
  })

  return app
}
