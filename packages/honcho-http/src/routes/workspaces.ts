import type { WorkspaceFilterField } from '@hymem/core-store'
import { Hono } from 'hono'
import * as v from 'valibot'
import { HonchoHttpError, notFound } from '../errors'
import { andAll, compileFilter } from '../filters/compile'
import { WORKSPACE_FILTERS } from '../filters/resources'
import { mayUse, workspaceParam } from '../http/auth'
import { jsonBody, queryOf } from '../http/validate'
import { dialecticRoute } from '../services/dialectic-route'
import { queueStatus } from '../services/queue'
import { searchMessages } from '../services/search'
import type { HonchoEnv, RouteDeps } from '../types'
import { dropNulls } from '../wire/sanitize'
import {
  IdSchema,
  ListBodySchema,
  MetadataUpdateSchema,
  PageQuerySchema,
  pageRequest,
  SearchBodySchema,
  WorkspaceCreateSchema,
} from '../wire/schemas'
import { pageOut, workspaceOut } from '../wire/shapes'

export const QueueQuerySchema = v.object({
  observer_id: v.optional(v.string()),
  sender_id: v.optional(v.string()),
  session_id: v.optional(v.string()),
})

export const ScheduleDreamSchema = v.looseObject({
  observer: IdSchema,
  observed: v.nullish(IdSchema),
  session_id: v.nullish(IdSchema),
  dream_type: v.optional(v.picklist(['omni', 'card_refresh']), 'omni'),
  rebuild: v.optional(v.boolean(), false),
})

/** W1–W8: workspaces, workspace search, queue status, dreams and workspace chat. */
export function workspaceRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const { memory } = deps
  const app = new Hono<HonchoEnv>()

  app.post('/', async (c) => {
    const body = await jsonBody(c, WorkspaceCreateSchema)
    if (!mayUse(c, body.id)) throw notFound('Workspace', body.id)
    const { value, created } = await memory.workspaces.getOrCreate(body.id, {
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(body.configuration ? { configuration: dropNulls(body.configuration) } : {}),
    })
    return c.json(workspaceOut(value), created ? 201 : 200)
  })

  app.post('/list', async (c) => {
    const page = pageRequest(queryOf(c, PageQuerySchema))
    const body = await jsonBody(c, ListBodySchema)
    const allowed = c.get('allowed')
    const filter = andAll<WorkspaceFilterField>([
      compileFilter(WORKSPACE_FILTERS, body?.filters),
      allowed === '*' ? null : { op: 'in', field: 'id', values: [...allowed] },
    ])
    return c.json(pageOut(await memory.workspaces.list(page, filter), workspaceOut))
  })

  app.put('/:ws', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, MetadataUpdateSchema)
    const workspace = await memory.workspaces.update(ws, {
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(body.configuration ? { configuration: dropNulls(body.configuration) } : {}),
    })
    return c.json(workspaceOut(workspace))
  })

  app.delete('/:ws', async (c) => {
    const ws = workspaceParam(c)
    const existing = await memory.workspaces.get(ws)
    if (!existing) throw notFound('Workspace', ws)
    const active = await memory.sessions.list(ws, { size: 1 })
    if (active.total > 0) {
      throw new HonchoHttpError('CONFLICT', `Workspace ${ws} still has active sessions; delete them first`)
    }
    await memory.erase.workspace(ws)
    return c.json({ message: 'Workspace deletion accepted' }, 202)
  })

  app.post('/:ws/search', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, SearchBodySchema)
    if (body.scope && body.filters && 'session_id' in body.filters) {
      throw new HonchoHttpError('VALIDATION', 'scope and filters.session_id cannot be combined')
    }
    let sessionIds: string[] | undefined
    if (body.scope) {
      sessionIds = await memory.scopes.sessionIds(ws, [body.scope])
      if (sessionIds.length === 0) return c.json([])
    }
    const hits = await searchMessages(memory, {
      workspaceId: ws,
      query: body.query,
      limit: body.limit,
      filters: body.filters ?? undefined,
      ...(sessionIds ? { sessionIds } : {}),
    })
    return c.json(hits)
  })

  app.get('/:ws/queue/status', async (c) => {
    const ws = workspaceParam(c)
    const query = queryOf(c, QueueQuerySchema)
    return c.json(
      await queueStatus(memory, deps.queue, ws, {
        sessionId: query.session_id || undefined,
        kick: deps.backgroundDreaming,
        dreaming: deps.dreams.has(ws),
      }),
    )
  })

  app.post('/:ws/schedule_dream', async (c) => {
    const ws = workspaceParam(c)
    await jsonBody(c, ScheduleDreamSchema)
    if (!(await memory.workspaces.get(ws))) throw notFound('Workspace', ws)
    if (!deps.dreamsElsewhere && !deps.dreams.has(ws)) {
      const dream = memory
        .dream({ workspaceId: ws })
        .then(
          () => undefined,
          (error: unknown) => deps.log({ kind: 'dream-failed', workspaceId: ws, error }),
        )
        .finally(() => deps.dreams.delete(ws))
      deps.dreams.set(ws, dream)
    }
    return c.body(null, 204)
  })

  app.post('/:ws/chat', async (c) => {
    const ws = workspaceParam(c)
    if (!(await memory.workspaces.get(ws))) throw notFound('Workspace', ws)
    return dialecticRoute(c, deps, { workspaceId: ws, peerId: null })
  })

  return app
}
