import {
  type Conclusion,
  type ConclusionFilter,
  conclusionIdOfEdge,
  edgeIdOfConclusion,
} from '@hymem/core-store'
import { Hono } from 'hono'
import { notFound } from '../errors'
import { andAll, compileFilter } from '../filters/compile'
import { CONCLUSION_FILTERS } from '../filters/resources'
import { workspaceParam } from '../http/auth'
import { jsonBody, parseWith, queryOf, readJson } from '../http/validate'
import type { HonchoEnv, RouteDeps } from '../types'
import { isPlainObject } from '../wire/sanitize'
import { ListBodySchema, PageQuerySchema, pageRequest } from '../wire/schemas'
import { ConclusionCreateSchema, ConclusionQuerySchema } from '../wire/schemas-memory'
import { conclusionOut, pageOut } from '../wire/shapes'

const RRF_K = 60

function withIds(ids: readonly string[]): ConclusionFilter {
  return { op: 'in', field: 'id', values: ids }
}

function stringFilter(
  filters: Record<string, unknown> | null | undefined,
  ...keys: string[]
): string | undefined {
  for (const key of keys) {
    const value = filters?.[key]
    if (typeof value === 'string' && value !== '*') return value
  }
  return undefined
}

/** C1–C5: conclusions, backed by explicit notes and by graph facts (ids `kg-<edge id>`). */
export function conclusionRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const { memory } = deps
  const app = new Hono<HonchoEnv>()

  const getOne = async (ws: string, id: string): Promise<Conclusion | undefined> =>
    (await memory.conclusions.find(ws, { filter: withIds([id]), limit: 1 }))[0]

  app.post('/', async (c) => {
    const ws = workspaceParam(c)
    const raw = await readJson(c)
    const input =
      isPlainObject(raw) && raw.conclusions === undefined ? { ...raw, conclusions: raw.observations } : raw
    const body = parseWith(ConclusionCreateSchema, input ?? {}, 'body')
    for (const item of body.conclusions) {
      if (!item.session_id) continue
      const session = await memory.sessions.get(ws, item.session_id)
      if (!session) throw notFound('Session', item.session_id)
    }
    await memory.transaction(async (tx) => {
      await tx.workspaces.getOrCreate(ws)
      const peers = new Set(body.conclusions.flatMap((item) => [item.observer_id, item.observed_id]))
      for (const peerId of peers) await tx.peers.getOrCreate(ws, peerId)
    })
    // Created as given: only an exact re-statement (same normalised content, peers and session) is dropped.
    const created: string[] = []
    for (const item of body.conclusions) {
      const { note, deduplicated } = await memory.notes.remember(
        {
          description: item.content.slice(0, 200),
          content: item.content,
          observerId: item.observer_id,
          observedId: item.observed_id,
          ...(item.session_id ? { sessionId: item.session_id } : {}),
          level: 'explicit',
          dedupe: 'exact',
        },
        { workspaceId: ws },
      )
      if (!deduplicated) created.push(note.id)
    }
    const rows = await memory.conclusions.find(ws, { filter: withIds(created) })
    const byId = new Map(rows.map((row) => [row.id, conclusionOut(row)]))
    return c.json(
      created.map((id) => byId.get(id)).filter((row) => row !== undefined),
      201,
    )
  })

  app.post('/list', async (c) => {
    const ws = workspaceParam(c)
    const page = pageRequest(queryOf(c, PageQuerySchema))
    const body = await jsonBody(c, ListBodySchema)
    const filter = compileFilter(CONCLUSION_FILTERS, body?.filters) ?? undefined
    return c.json(pageOut(await memory.conclusions.list(ws, page, filter), conclusionOut))
  })

  app.post('/query', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, ConclusionQuerySchema)
    const filter = compileFilter(CONCLUSION_FILTERS, body.filters)
    const observerId = stringFilter(body.filters, 'observer_id', 'observer')
    const observedId = stringFilter(body.filters, 'observed_id', 'observed')
    const [notes, context] = await Promise.all([
      memory.notes.search(body.query, {
        workspaceId: ws,
        limit: body.top_k * 3,
        ...(observerId ? { observerId } : {}),
        ...(observedId ? { observedId } : {}),
        ...(body.distance != null ? { minSimilarity: 1 - body.distance } : {}),
      }),
      memory.augment(body.query, { workspaceId: ws, ...(observedId ? { peerId: observedId } : {}) }),
    ])
    const scores = new Map<string, number>()
    const add = (id: string, rank: number) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1))
    for (const [rank, hit] of notes.entries()) add(hit.note.id, rank)
    for (const [rank, fact] of context.graphFacts.entries()) add(conclusionIdOfEdge(fact.id), rank)
    if (scores.size === 0) return c.json([])
    const rows = await memory.conclusions.find(ws, { filter: andAll([withIds([...scores.keys()]), filter]) })
    const unique = new Map(rows.map((row) => [`${row.id}|${row.observerId}|${row.observedId}`, row]))
    const ranked = [...unique.values()]
      .sort((a, b) => (scores.get(b.id) ?? 0) - (scores.get(a.id) ?? 0))
      .slice(0, body.top_k)
    return c.json(ranked.map(conclusionOut))
  })

  app.get('/:c', async (c) => {
    const ws = workspaceParam(c)
    const row = await getOne(ws, c.req.param('c'))
    if (!row) throw notFound('Conclusion', c.req.param('c'))
    return c.json(conclusionOut(row))
  })

  app.delete('/:c', async (c) => {
    const ws = workspaceParam(c)
    const id = c.req.param('c')
    const row = await getOne(ws, id)
    if (!row) throw notFound('Conclusion', id)
    const edgeId = edgeIdOfConclusion(id)
    // A graph conclusion is forgotten with its evidence and vector; a note with the notes derived from it.
    const receipt =
      edgeId !== null
        ? await memory.erase.fact(edgeId, { workspaceId: ws })
        : await memory.erase.note(id, { workspaceId: ws })
    if (!receipt) throw notFound('Conclusion', id)
    return c.body(null, 204)
  })

  return app
}
