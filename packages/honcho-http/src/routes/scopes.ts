import { Hono } from 'hono'
import * as v from 'valibot'
import { HonchoHttpError, notFound } from '../errors'
import { workspaceParam } from '../http/auth'
import { jsonBody, queryOf } from '../http/validate'
import type { HonchoEnv, RouteDeps } from '../types'
import { IdSchema, MetadataSchema, PageQuerySchema, pageRequest } from '../wire/schemas'
import { pageOut, scopeOut, sessionOut } from '../wire/shapes'

const ScopeIdSchema = v.pipe(
  IdSchema,
  v.maxLength(506, 'Scope ids have at most 506 characters'),
  v.check((id) => !id.startsWith('scope.'), 'Scope ids must not start with "scope."'),
)
export const ScopeCreateSchema = v.looseObject({ id: ScopeIdSchema, metadata: v.nullish(MetadataSchema) })
export const AddSessionsSchema = v.looseObject({
  session_ids: v.pipe(v.array(IdSchema), v.minLength(1), v.maxLength(100)),
})

/** SC1–SC7: scopes, named sets of sessions that chat, context and search can be restricted to. */
export function scopeRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const { memory } = deps
  const app = new Hono<HonchoEnv>()

  const requireScope = async (ws: string, id: string) => {
    const scope = await memory.scopes.get(ws, id)
    if (!scope) throw notFound('Scope', id)
    return scope
  }

  app.post('/', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, ScopeCreateSchema)
    const clash = await memory.peers.get(ws, `scope.${body.id}`)
    if (clash) throw new HonchoHttpError('CONFLICT', `A peer already uses the id scope.${body.id}`)
    const { value, created } = await memory.scopes.getOrCreate(ws, body.id, {
      metadata: body.metadata ?? {},
    })
    return c.json(scopeOut(value), created ? 201 : 200)
  })

  app.post('/list', async (c) => {
    const ws = workspaceParam(c)
    const page = pageRequest(queryOf(c, PageQuerySchema))
    return c.json(pageOut(await memory.scopes.list(ws, page), scopeOut))
  })

  app.get('/:sc', async (c) => {
    const ws = workspaceParam(c)
    return c.json(scopeOut(await requireScope(ws, c.req.param('sc'))))
  })

  app.post('/:sc/sessions', async (c) => {
    const ws = workspaceParam(c)
    const scopeId = c.req.param('sc')
    const body = await jsonBody(c, AddSessionsSchema)
    await requireScope(ws, scopeId)
    const found = await memory.sessions.list(
      ws,
      { size: body.session_ids.length },
      { includeInactive: true, filter: { op: 'in', field: 'id', values: body.session_ids } },
    )
    const known = new Set(found.items.map((session) => session.id))
    const missing = body.session_ids.find((id) => !known.has(id))
    if (missing) throw notFound('Session', missing)
    await memory.scopes.addSessions(ws, scopeId, body.session_ids)
    return c.body(null, 204)
  })

  app.delete('/:sc/sessions/:s', async (c) => {
    const ws = workspaceParam(c)
    const scopeId = c.req.param('sc')
    await requireScope(ws, scopeId)
    await memory.scopes.removeSession(ws, scopeId, c.req.param('s'))
    return c.body(null, 204)
  })

  app.post('/:sc/sessions/list', async (c) => {
    const ws = workspaceParam(c)
    const scopeId = c.req.param('sc')
    await requireScope(ws, scopeId)
    const page = pageRequest(queryOf(c, PageQuerySchema))
    return c.json(pageOut(await memory.scopes.listSessions(ws, scopeId, page), sessionOut))
  })

  app.get('/:sc/status', async (c) => {
    const ws = workspaceParam(c)
    const scopeId = c.req.param('sc')
    await requireScope(ws, scopeId)
    const backfill: Record<string, { state: 'completed'; updated_at: string; docs_copied: number }> = {}
    for (const member of await memory.scopes.members(ws, scopeId)) {
      backfill[member.sessionId] = {
        state: 'completed',
        updated_at: member.joinedAt,
        docs_copied: member.notes,
      }
    }
    return c.json({ backfill_status: backfill })
  })

  return app
}
