import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { _filterFor, CONCLUSION_FILTER_FIELDS, type ConclusionFilter, type FilterTarget } from '../filter'
import { StoreError } from '../store/errors'
import type { RepositoryBackend } from './backend'
import { parseArray, parseObject } from './json'
import { pageWindow, toPage } from './pagination'
import type { RepositoryScope } from './scope'
import type { JsonObject, Page, PageRequest } from './types'

/**
 * What one peer concluded about another: an explicit note with an observer/observed pair, or an active graph
 * fact attributed to each peer whose messages evidence it (as a self-observation, observer = observed).
 */
export interface Conclusion {
  /** A note id, or `kg-<edge id>` for a graph fact (see {@link conclusionIdOfEdge}). */
  readonly id: string
  readonly content: string
  readonly observerId: string
  readonly observedId: string
  readonly sessionId: string | null
  /** `explicit`, `deductive`, `inductive` or `contradiction`; derived graph facts are `deductive`. */
  readonly level: string
  /** Ids of the conclusions a deductive one was drawn from. */
  readonly sourceIds: readonly string[]
  readonly timesDerived: number
  readonly metadata: JsonObject
  readonly createdAt: string
}

export type ConclusionOrder = 'newest' | 'oldest' | 'most-derived'

export interface ConclusionQuery {
  readonly filter?: ConclusionFilter
  /** @default 'newest' */
  readonly order?: ConclusionOrder
  /** @default no limit */
  readonly limit?: number
}

/** Conclusions (explicit notes about peers, and graph facts attributed to peers), read-only. */
export interface ConclusionsRepository {
  /** One page of the conclusions `filter` matches, newest first unless `reverse`. */
  list(workspaceId: string, page?: PageRequest, filter?: ConclusionFilter): Promise<Page<Conclusion>>
  /** The conclusions the query's filter matches, in its order. */
  find(workspaceId: string, query?: ConclusionQuery): Promise<Conclusion[]>
}

const GRAPH_PREFIX = 'kg-'

/** The id of the conclusion a graph edge stands for. */
export function conclusionIdOfEdge(edgeId: number): string {
  return `${GRAPH_PREFIX}${edgeId}`
}

/** The edge id behind a graph conclusion id, or null for a note id. */
export function edgeIdOfConclusion(id: string): number | null {
  const match = /^kg-(\d{1,15})$/.exec(id)
  return match ? Number(match[1]) : null
}

const CONCLUSION_TARGET: FilterTarget<keyof typeof CONCLUSION_FILTER_FIELDS> = {
  name: 'conclusions',
  kinds: CONCLUSION_FILTER_FIELDS,
  columns: {
    id: 'conclusions.id',
    content: 'conclusions.content',
    level: 'conclusions.level',
    sessionId: 'conclusions.session_id',
    observerId: 'conclusions.observer_id',
    observedId: 'conclusions.observed_id',
    createdAt: 'conclusions.created_at',
    sourceIds: 'conclusions.source_ids',
    timesDerived: 'conclusions.times_derived',
    metadata: 'conclusions.metadata',
  },
}

interface ConclusionRow {
  id: string
  content: string
  observer_id: string
  observed_id: string
  session_id: string | null
  level: string
  source_ids: string
  times_derived: number
  metadata: string
  created_at: string
}

function toConclusion(row: ConclusionRow): Conclusion {
  return {
    id: row.id,
    content: row.content,
    observerId: row.observer_id,
    observedId: row.observed_id,
    sessionId: row.session_id,
    level: row.level,
    sourceIds: parseArray(row.source_ids).filter((id): id is string => typeof id === 'string'),
    timesDerived: Number(row.times_derived),
    metadata: parseObject(row.metadata),
    createdAt: row.created_at,
  }
}

const ORDERS: Record<ConclusionOrder, RawBuilder<unknown>> = {
  newest: sql`conclusions.created_at DESC, conclusions.id DESC`,
  oldest: sql`conclusions.created_at ASC, conclusions.id ASC`,
  'most-derived': sql`conclusions.times_derived DESC, conclusions.created_at DESC`,
}

export function createConclusionsRepository(scope: RepositoryScope): ConclusionsRepository {
  const { db } = scope
  const select = async (
    workspaceId: string,
    where: RawBuilder<SqlBool>,
    order: ConclusionOrder,
    limit: number,
    offset: number,
  ): Promise<Conclusion[]> => {
    const orderBy = ORDERS[order] ?? invalid(`unknown conclusion order '${String(order)}'`)
    const result = await sql<ConclusionRow>`SELECT * FROM ${conclusionsRelation(scope.backend, workspaceId)}
      WHERE ${where} ORDER BY ${orderBy} ${limitClause(scope.backend, limit)} OFFSET ${offset}`.execute(db)
    return result.rows.map(toConclusion)
  }
  const count = async (workspaceId: string, where: RawBuilder<SqlBool>): Promise<number> => {
    const result = await sql<{
      n: number
    }>`SELECT count(*) AS n FROM ${conclusionsRelation(scope.backend, workspaceId)}
      WHERE ${where}`.execute(db)
    return Number(result.rows[0]?.n ?? 0)
  }

  return {
    async list(workspaceId, request, filter) {
      const window = pageWindow(request)
      const where = _filterFor(scope.backend, CONCLUSION_TARGET, filter)
      const [items, total] = await Promise.all([
        select(workspaceId, where, window.reverse ? 'oldest' : 'newest', window.size, window.offset),
        count(workspaceId, where),
      ])
      return toPage(items, total, window)
    },
    async find(workspaceId, query = {}) {
      const limit = query.limit ?? -1
      if (query.limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        invalid('limit must be a non-negative integer')
      }
      return select(
        workspaceId,
        _filterFor(scope.backend, CONCLUSION_TARGET, query.filter),
        query.order ?? 'newest',
        limit,
        0,
      )
    },
  }
}

/**
 * The `conclusions` relation: active notes with both peers set, united with active, current graph edges
 * joined (through the evidence's message ids) to the authors of their supporting messages. The JSON parts
 * are each engine's (`json_each` / `json_object` on SQLite, `jsonb_array_elements_text` /
 * `jsonb_build_object` on PostgreSQL).
 */
function conclusionsRelation(backend: RepositoryBackend, workspaceId: string): RawBuilder<ConclusionRow> {
  const postgres = backend.name === 'postgres'
  const graphMetadata = postgres
    ? sql`jsonb_build_object('source', 'graph', 'confidence', kg.confidence)`
    : sql`json_object('source', 'graph', 'confidence', kg.confidence)`
  const evidenceAuthors = postgres
    ? sql`FROM kg_evidence e CROSS JOIN LATERAL jsonb_array_elements_text(e.message_ids) AS j(value)
      JOIN messages m ON m.id = CAST(j.value AS bigint)`
    : sql`FROM kg_evidence e, json_each(e.message_ids) j
      JOIN messages m ON m.id = j.value`
  return sql<ConclusionRow>`(
    SELECT n.id AS id, n.content AS content, n.observer_id AS observer_id, n.observed_id AS observed_id,
      n.session_id AS session_id, n.level AS level, n.source_ids AS source_ids, n.times_derived AS times_derived,
      n.metadata AS metadata, n.created_at AS created_at
    FROM notes n
    WHERE n.workspace_id = ${workspaceId} AND n.archived_at IS NULL
      AND n.observer_id IS NOT NULL AND n.observed_id IS NOT NULL
    UNION ALL
    SELECT CAST(${GRAPH_PREFIX} AS text) || kg.id, kg.subject || ' ' || replace(kg.predicate, '_', ' ') || ' ' || kg.object,
      a.peer_id, a.peer_id, NULL,
      CASE WHEN kg.derived = 1 THEN 'deductive' ELSE 'explicit' END, '[]',
      CASE WHEN kg.pos_evidence > 1 THEN kg.pos_evidence ELSE 1 END,
      ${graphMetadata}, kg.first_seen
    FROM knowledge_graph kg
    JOIN (
      SELECT DISTINCT e.edge_id AS edge_id, m.peer_id AS peer_id
      ${evidenceAuthors}
      WHERE e.workspace_id = ${workspaceId} AND e.polarity = 1
    ) a ON a.edge_id = kg.id
    WHERE kg.workspace_id = ${workspaceId} AND kg.status = 'active' AND kg.valid_to IS NULL
  ) AS conclusions`
}

/** `limit` < 0 means no limit: `LIMIT -1` on SQLite (which needs a LIMIT before OFFSET), `LIMIT ALL` on PostgreSQL. */
function limitClause(backend: RepositoryBackend, limit: number): RawBuilder<unknown> {
  if (limit >= 0) return sql`LIMIT ${limit}`
  return backend.name === 'postgres' ? sql`LIMIT ALL` : sql`LIMIT -1`
}

function invalid(message: string): never {
  throw new StoreError('INVALID_INPUT', message)
}
