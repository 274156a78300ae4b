import { isoTimeSchema } from '@hymem/core-store'
import { Hono } from 'hono'
import * as v from 'valibot'
import { notFound } from '../errors'
import { workspaceParam } from '../http/auth'
import { jsonBody, queryOf } from '../http/validate'
import type { HonchoEnv, RouteDeps } from '../types'
import { IdSchema, PageQuerySchema, pageRequest } from '../wire/schemas'
import { pageOut } from '../wire/shapes'

/** Every HyMem extension route lives under this prefix of a workspace, apart from Honcho's own routes. */
export const HYMEM_ROUTE_PREFIX = '/hymem'

export const NotesQuerySchema = v.object({
  ...PageQuerySchema.entries,
  archived: v.optional(v.picklist(['true', 'false', '1', '0']), 'false'),
})
export const NoteQuerySchema = v.object({
  archived: v.optional(v.picklist(['true', 'false', '1', '0']), 'false'),
})
export const MessageIdsSchema = v.object({
  ids: v.pipe(v.array(IdSchema), v.minLength(1), v.maxLength(10_000)),
})
export const DeletionsQuerySchema = v.object({
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(100)), '20'),
})

const isTrue = (flag: string) => flag === 'true' || flag === '1'

export const AugmentSchema = v.object({
  query: v.pipe(v.string(), v.minLength(1), v.maxLength(100_000)),
  as_of: v.optional(isoTimeSchema),
  peer_id: v.optional(IdSchema),
  session_ids: v.optional(v.array(IdSchema)),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))),
})
export const HistoryQuerySchema = v.object({ subject: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) })

/**
 * HyMem's own routes for HTTP clients, under `/v3/workspaces/{ws}/hymem/...` (never colliding with
 * Honcho's); bodies are HyMem's library types as JSON. Forgetting single messages and a peer's messages,
 * deletion receipts, notes, augment (with `as_of`), an entity's history and the conflicts.
 */
export function hymemRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const { memory } = deps
  const app = new Hono<HonchoEnv>()

  app.delete('/messages/:m', async (c) => {
    const ws = workspaceParam(c)
    const receipt = await memory.erase.messages([c.req.param('m')], { workspaceId: ws })
    if (receipt.messageCount === 0) throw notFound('Message', c.req.param('m'))
    return c.json(receipt, 202)
  })

  app.post('/messages/delete', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, MessageIdsSchema)
    return c.json(await memory.erase.messages(body.ids, { workspaceId: ws }), 202)
  })

  app.delete('/peers/:p/messages', async (c) => {
    const ws = workspaceParam(c)
    const receipt = await memory.erase.peerMessages(c.req.param('p'), { workspaceId: ws })
    return c.json(receipt, 202)
  })

  app.get('/deletions', async (c) => {
    const ws = workspaceParam(c)
    const { limit } = queryOf(c, DeletionsQuerySchema)
    return c.json(await memory.erase.receipts({ workspaceId: ws, limit }))
  })

  app.get('/notes', async (c) => {
    const ws = workspaceParam(c)
    const query = queryOf(c, NotesQuerySchema)
    const page = pageRequest(query)
    const notes = await memory.notes.list({ workspaceId: ws, archived: isTrue(query.archived), ...page })
    return c.json(pageOut(notes, (note) => note))
  })

  app.get('/notes/:n', async (c) => {
    const ws = workspaceParam(c)
    const { archived } = queryOf(c, NoteQuerySchema)
    const note = await memory.notes.get(c.req.param('n'), {
      workspaceId: ws,
      includeArchived: isTrue(archived),
    })
    if (!note) throw notFound('Note', c.req.param('n'))
    return c.json(note)
  })

  app.delete('/notes/:n', async (c) => {
    const ws = workspaceParam(c)
    const receipt = await memory.erase.note(c.req.param('n'), { workspaceId: ws })
    if (!receipt) throw notFound('Note', c.req.param('n'))
    return c.json(receipt, 202)
  })

  app.post('/augment', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, AugmentSchema)
    const limit = body.limit
    return c.json(
      await memory.augment(body.query, {
        workspaceId: ws,
        ...(body.as_of ? { asOf: body.as_of } : {}),
        ...(body.peer_id ? { peerId: body.peer_id } : {}),
        ...(body.session_ids ? { sessionIds: body.session_ids } : {}),
        ...(limit
          ? { limits: { hits: limit, graph: limit, episodes: limit, procedures: limit, notes: limit } }
          : {}),
      }),
    )
  })

  app.get('/history', async (c) => {
    const ws = workspaceParam(c)
    const { subject } = queryOf(c, HistoryQuerySchema)
    return c.json(await memory.history(subject, { workspaceId: ws }))
  })

  app.get('/conflicts', async (c) => c.json(await memory.conflicts({ workspaceId: workspaceParam(c) })))

  return app
}

/** `GET /v3/workspaces/{ws}/conflicts`: the contradicting facts (also under the HyMem prefix). */
export function conflictRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const app = new Hono<HonchoEnv>()
  app.get('/', async (c) => c.json(await deps.memory.conflicts({ workspaceId: workspaceParam(c) })))
  return app
}
