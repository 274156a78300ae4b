import { type ExpressionBuilder, type Kysely, sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import { parseIsoTime } from '../kernel/iso-time'
import type { HyMemDatabase } from '../kernel/tables'
import { type Edge, toEdge } from './edge-model'
import { requireId } from './json'
import { selectInWorkspace } from './workspace-rows'

/** Which edges {@link EdgesRepository.listForGraph} draws. Names are canonical (already normalised). */
export interface EdgeGraphFilter {
  /** Only edges touching this entity (as subject or object). */
  readonly entity?: string
  readonly predicate?: string
  /** Only edges whose subject, predicate or object contains this text (case-insensitive). */
  readonly text?: string
  /** Only edges with evidence from this session. */
  readonly sessionId?: string
  /** Only edges about this peer (its subject) or with evidence from a message it wrote. */
  readonly peerId?: string
  /** Also stale, superseded and retracted edges. @default false */
  readonly includeInactive?: boolean
  /** Only edges valid at this ISO time (`valid_from ≤ asOf < valid_to`), as `augment({ asOf })` sees them. */
  readonly asOf?: string
  /** Most edges returned, highest confidence first. @default 200 */
  readonly limit?: number
}

/** The edges of one graph picture, and how many matched before the limit. */
export interface EdgeGraphPage {
  readonly edges: Edge[]
  readonly total: number
}

/** Edge counts of one UTC day of the graph's history. */
export interface EdgeHistoryDay {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string
  /** Direct edges whose validity began that day. */
  readonly appeared: number
  /** Direct edges a newer fact closed that day. */
  readonly superseded: number
}

const DEFAULT_GRAPH_LIMIT = 200
export const MAX_GRAPH_LIMIT = 5_000

type Eb = ExpressionBuilder<HyMemDatabase, 'knowledge_graph'>

function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Validates a graph filter; returns the limit and the as-of time in stored form. */
function checkFilter(filter: EdgeGraphFilter): { limit: number; asOf: string | undefined } {
  const limit = filter.limit ?? DEFAULT_GRAPH_LIMIT
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_GRAPH_LIMIT)
    throw new StoreError('INVALID_INPUT', `limit must be an integer from 1 to ${MAX_GRAPH_LIMIT}`)
  for (const key of ['entity', 'predicate', 'text', 'sessionId', 'peerId'] as const) {
    const value = filter[key]
    if (value !== undefined && (typeof value !== 'string' || value.trim() === ''))
      throw new StoreError('INVALID_INPUT', `${key} must be a non-empty string when given`)
  }
  if (filter.asOf === undefined) return { limit, asOf: undefined }
  const asOf = parseIsoTime(filter.asOf)
  if (asOf === null) throw new StoreError('INVALID_INPUT', 'asOf must be an ISO-8601 time')
  return { limit, asOf }
}

function filtered(db: Kysely<HyMemDatabase>, workspaceId: string, filter: EdgeGraphFilter, asOf?: string) {
  let query = db.selectFrom('knowledge_graph').where('knowledge_graph.workspace_id', '=', workspaceId)
  if (asOf !== undefined) {
    query = query
      .where('valid_from', '<=', asOf)
      .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', asOf)]))
    if (!filter.includeInactive) query = query.where('status', '!=', 'retracted')
  } else if (!filter.includeInactive) {
    query = query.where('status', '=', 'active').where('valid_to', 'is', null)
  }
  const { entity, predicate, text, sessionId, peerId } = filter
  if (entity !== undefined)
    query = query.where((eb) => eb.or([eb('subject', '=', entity), eb('object', '=', entity)]))
  if (predicate !== undefined) query = query.where('predicate', '=', predicate)
  if (text !== undefined) {
    const patterns = [...new Set([text.trim(), text.trim().replace(/\s+/g, '_')])].map(likePattern)
    query = query.where((eb) =>
      eb.or(
        patterns.flatMap((pattern) =>
          (['subject', 'predicate', 'object'] as const).map(
            (column) => sql<boolean>`lower(${eb.ref(column)}) LIKE ${pattern} ESCAPE '\\'`,
          ),
        ),
      ),
    )
  }
  if (sessionId !== undefined) query = query.where((eb) => evidenceFromSession(eb, sessionId))
  if (peerId !== undefined)
    query = query.where((eb) => eb.or([eb('subject', '=', peerId), evidenceFromPeer(eb, peerId)]))
  return query
}

function evidenceFromSession(eb: Eb, sessionId: string) {
  return eb.exists(
    eb
      .selectFrom('kg_evidence')
      .innerJoin('chunks', 'chunks.id', 'kg_evidence.chunk_id')
      .select(sql`1`.as('one'))
      .whereRef('kg_evidence.edge_id', '=', 'knowledge_graph.id')
      .where('chunks.session_id', '=', sessionId),
  )
}

/** A chunk spans its session's messages from `first_message_id` to `last_message_id`. */
function evidenceFromPeer(eb: Eb, peerId: string) {
  return eb.exists(
    eb
      .selectFrom('kg_evidence')
      .innerJoin('chunks', 'chunks.id', 'kg_evidence.chunk_id')
      .innerJoin('messages', (join) =>
        join
          .onRef('messages.workspace_id', '=', 'chunks.workspace_id')
          .onRef('messages.session_id', '=', 'chunks.session_id')
          .onRef('messages.id', '>=', 'chunks.first_message_id')
          .onRef('messages.id', '<=', 'chunks.last_message_id'),
      )
      .select(sql`1`.as('one'))
      .whereRef('kg_evidence.edge_id', '=', 'knowledge_graph.id')
      .where('messages.peer_id', '=', peerId),
  )
}

/** The highest-confidence edges matching `filter`, and how many matched in all. */
export async function listEdgesForGraph(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  filter: EdgeGraphFilter,
): Promise<EdgeGraphPage> {
  requireId(workspaceId, 'workspace id')
  const { limit, asOf } = checkFilter(filter)
  const [rows, count] = await Promise.all([
    filtered(db, workspaceId, filter, asOf)
      .selectAll('knowledge_graph')
      .orderBy('confidence', 'desc')
      .orderBy('pos_evidence', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute(),
    filtered(db, workspaceId, filter, asOf)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { edges: rows.map(toEdge), total: Number(count.n) }
}

/** Per-day counts of direct edges appearing and being superseded, oldest day first. */
export async function edgeHistoryByDay(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
): Promise<EdgeHistoryDay[]> {
  const day = (column: 'valid_from' | 'valid_to') => sql<string>`substr(${sql.ref(column)}, 1, 10)`
  const [appeared, superseded] = await Promise.all([
    db
      .selectFrom('knowledge_graph')
      .select([day('valid_from').as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('workspace_id', '=', workspaceId)
      .where('derived', '=', 0)
      .groupBy(day('valid_from'))
      .execute(),
    db
      .selectFrom('knowledge_graph')
      .select([day('valid_to').as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('workspace_id', '=', workspaceId)
      .where('derived', '=', 0)
      .where('valid_to', 'is not', null)
      .groupBy(day('valid_to'))
      .execute(),
  ])
  const days = new Map<string, { appeared: number; superseded: number }>()
  const at = (d: string) => days.get(d) ?? days.set(d, { appeared: 0, superseded: 0 }).get(d)!
  for (const row of appeared) at(row.day).appeared += Number(row.n)
  for (const row of superseded) at(row.day).superseded += Number(row.n)
  return [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([d, counts]) => ({ day: d, ...counts }))
}

/** The direct edges that most recently appeared or were superseded (by the later of the two times). */
export async function recentlyChangedEdges(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  limit: number,
): Promise<Edge[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
  const changedAt = sql<string>`coalesce(valid_to, valid_from)`
  const rows = await selectInWorkspace(db, 'knowledge_graph', workspaceId)
    .where('derived', '=', 0)
    .orderBy(changedAt, 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(toEdge)
}
