import { Hono } from 'hono'
import * as v from 'valibot'
import { HonchoHttpError, notFound } from '../errors'
import { workspaceParam } from '../http/auth'
import { paginate } from '../http/paginate'
import { jsonBody, queryOf } from '../http/validate'
import { sessionFromRow } from '../services/rows'
import type { HonchoEnv, RouteDeps } from '../types'
import { IdSchema, MetadataSchema, PageQuerySchema, pageRequest } from '../wire/schemas'
import { jsonObject, sessionOut } from '../wire/shapes'

const ScopeIdSchema = v.pipe(
  IdSchema,
  v.maxLength(506, 'Scope ids have at most 506 characters'),
  v.check((id) => !id.startsWith('scope.'), 'Scope ids must not start with "scope."'),
)
const ScopeCreateSchema = v.looseObject({ id: ScopeIdSchema, metadata: v.nullish(MetadataSchema) })
const AddSessionsSchema = v.looseObject({
  session_ids: v.pipe(v.array(IdSchema), v.minLength(1), v.maxLength(100)),
})

function scopeOut(row: { id: string; metadata: string; created_at: string }) {
  let metadata: Record<string, unknown> = {}
  try {
    metadata = jsonObject(JSON.parse(row.metadata))
  } catch {
    metadata = {}
  }
  return { id: row.id, metadata, created_at: row.created_at }
}

/** SC1–SC7: scopes, named sets of sessions that chat, context and search can be restricted to. */
export function scopeRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const store = deps.memory.store
  const db = store.db
  const app = new Hono<HonchoEnv>()

  const getScope = (ws: string, id: string) =>
    db.selectFrom('scopes').selectAll().where('workspace_id', '=', ws).where('id', '=', id).executeTakeFirst()
  const requireScope = async (ws: string, id: string) => {
    const scope = await getScope(ws, id)
    if (!scope) throw notFound('Scope', id)
    return scope
  }

  app.post('/', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, ScopeCreateSchema)
    const clash = await store.peers.get(ws, `scope.${body.id}`)
    if (clash) throw new HonchoHttpError('CONFLICT', `A peer already uses the id scope.${body.id}`)
    const existing = await getScope(ws, body.id)
    if (existing) return c.json(scopeOut(existing), 200)
    const now = store.context.now()
    await store.transaction(async (tx) => {
      await tx.workspaces.getOrCreate(ws)
      await tx.db
        .insertInto('scopes')
        .values({
          workspace_id: ws,
          id: body.id,
          metadata: JSON.stringify(body.metadata ?? {}),
          created_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .execute()
    })
    return c.json(scopeOut(await requireScope(ws, body.id)), 201)
  })

  app.post('/list', async (c) => {
    const ws = workspaceParam(c)
    const page = pageRequest(queryOf(c, PageQuerySchema))
    const query = db.selectFrom('scopes').where('workspace_id', '=', ws)
    return c.json(
      await paginate(query, page, {
        select: (q) => q.selectAll(),
        orderBy: ['created_at', 'id'],
        map: scopeOut,
      }),
    )
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
    const found = await db
      .selectFrom('sessions')
      .select('id')
      .where('workspace_id', '=', ws)
      .where('id', 'in', body.session_ids)
      .execute()
    const known = new Set(found.map((row) => row.id))
    const missing = body.session_ids.find((id) => !known.has(id))
    if (missing) throw notFound('Session', missing)
    const now = store.context.now()
    await store.transaction(async (tx) => {
      for (const sessionId of new Set(body.session_ids)) {
        await tx.db
          .insertInto('scope_sessions')
          .values({ workspace_id: ws, scope_id: scopeId, session_id: sessionId, joined_at: now })
          .onConflict((oc) => oc.doNothing())
          .execute()
      }
    })
    return c.body(null, 204)
  })

  app.delete('/:sc/sessions/:s', async (c) => {
    const ws = workspaceParam(c)
    const scopeId = c.req.param('sc')
    await requireScope(ws, scopeId)
    await db
      .deleteFrom('scope_sessions')
      .where('workspace_id', '=', ws)
      .where('scope_id', '=', scopeId)
      .where('session_id', '=', c.req.param('s'))
      .execute()
    return c.body(null, 204)
  })

  app.post('/:sc/sessions/list', async (c) => {
    const ws = workspaceParam(c)
    const scopeId = c.req.param('sc')
    await requireScope(ws, scopeId)
    const page = pageRequest(queryOf(c, PageQuerySchema))
    const query = db
      .selectFrom('scope_sessions')
      .innerJoin('sessions', (join) =>
        join
          .onRef('sessions.workspace_id', '=', 'scope_sessions.workspace_id')
          .onRef('sessions.id', '=', 'scope_sessions.session_id'),
      )
      .where('scope_sessions.workspace_id', '=', ws)
      .where('scope_sessions.scope_id', '=', scopeId)
    return c.json(
      await paginate(query, page, {
        select: (q) => q.selectAll('sessions'),
        orderBy: ['scope_sessions.joined_at', 'sessions.id'],
        map: (row) => sessionOut(sessionFromRow(row)),
      }),
    )
  })

  app.get('/:sc/status', async (c) => {
    const ws = workspaceParam(c)
    const scopeId = c.req.param('sc')
    await requireScope(ws, scopeId)
    const rows = await db
      .selectFrom('scope_sessions')
      .select(['session_id', 'joined_at'])
      .select((eb) =>
        eb
          .selectFrom('notes')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .where('notes.workspace_id', '=', ws)
          .whereRef('notes.session_id', '=', 'scope_sessions.session_id')
          .where('notes.archived_at', 'is', null)
          .as('docs'),
      )
      .where('workspace_id', '=', ws)
      .where('scope_id', '=', scopeId)
      .execute()
    const backfill: Record<string, { state: 'completed'; updated_at: string; docs_copied: number }> = {}
    for (const row of rows) {
      backfill[row.session_id] = {
        state: 'completed',
        updated_at: row.joined_at,
        docs_copied: Number(row.docs ?? 0),
      }
    }
    return c.json({ backfill_status: backfill })
  })

  return app
}
