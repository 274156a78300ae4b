import { Hono } from 'hono'
import * as v from 'valibot'
import { notFound } from '../errors'
import { workspaceParam } from '../http/auth'
import { pageEnvelope } from '../http/paginate'
import { jsonBody, queryOf } from '../http/validate'
import type { HonchoEnv, RouteDeps } from '../types'
import { noteOut, receiptOut } from '../wire/hymem-shapes'
import { IdSchema, PageQuerySchema, pageRequest } from '../wire/schemas'

/** Every HyMem extension route lives under this prefix of a workspace, apart from Honcho's own routes. */
export const HYMEM_ROUTE_PREFIX = '/hymem'

const NotesQuerySchema = v.object({
  ...PageQuerySchema.entries,
  archived: v.optional(v.picklist(['true', 'false', '1', '0']), 'false'),
})
const NoteQuerySchema = v.object({ archived: v.optional(v.picklist(['true', 'false', '1', '0']), 'false') })
const MessageIdsSchema = v.object({ ids: v.pipe(v.array(IdSchema), v.minLength(1), v.maxLength(10_000)) })
const DeletionsQuerySchema = v.object({
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(100)), '20'),
})

const isTrue = (flag: string) => flag === 'true' || flag === '1'

/**
 * HyMem's own routes for HTTP clients, under `/v3/workspaces/{ws}/hymem/...` (never colliding with
 * Honcho's): forgetting single messages and a peer's messages, deletion receipts, and notes.
 */
export function hymemRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const { memory } = deps
  const app = new Hono<HonchoEnv>()

  app.delete('/messages/:m', async (c) => {
    const ws = workspaceParam(c)
    const receipt = await memory.forgetMessages([c.req.param('m')], { workspaceId: ws })
    if (receipt.messageCount === 0) throw notFound('Message', c.req.param('m'))
    return c.json(receiptOut(receipt), 202)
  })

  app.post('/messages/delete', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, MessageIdsSchema)
    return c.json(receiptOut(await memory.forgetMessages(body.ids, { workspaceId: ws })), 202)
  })

  app.delete('/peers/:p/messages', async (c) => {
    const ws = workspaceParam(c)
    const receipt = await memory.forgetPeerMessages(c.req.param('p'), { workspaceId: ws })
    return c.json(receiptOut(receipt), 202)
  })

  app.get('/deletions', async (c) => {
    const ws = workspaceParam(c)
    const { limit } = queryOf(c, DeletionsQuerySchema)
    return c.json((await memory.deletionReceipts({ workspaceId: ws, limit })).map(receiptOut))
  })

  app.get('/notes', async (c) => {
    const ws = workspaceParam(c)
    const query = queryOf(c, NotesQuerySchema)
    const page = pageRequest(query)
    const notes = await memory.listNotes({ workspaceId: ws, archived: isTrue(query.archived), ...page })
    return c.json(pageEnvelope(notes.items.map(noteOut), notes.total, page))
  })

  app.get('/notes/:n', async (c) => {
    const ws = workspaceParam(c)
    const { archived } = queryOf(c, NoteQuerySchema)
    const note = await memory.getNote(c.req.param('n'), {
      workspaceId: ws,
      includeArchived: isTrue(archived),
    })
    if (!note) throw notFound('Note', c.req.param('n'))
    return c.json(noteOut(note))
  })

  app.delete('/notes/:n', async (c) => {
    const ws = workspaceParam(c)
    const receipt = await memory.forgetNote(c.req.param('n'), { workspaceId: ws })
    if (!receipt) throw notFound('Note', c.req.param('n'))
    return c.json(receiptOut(receipt), 202)
  })

  return app
}
