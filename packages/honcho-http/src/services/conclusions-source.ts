import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { HonchoMemory } from '../types'
import type { WireConclusion } from '../wire/shapes'

/** Prefix of the ids of graph-derived conclusions (`kg-<edge id>`); note ids are 21-char nanoids. */
export const GRAPH_ID_PREFIX = 'kg-'

/** The edge id of a graph-derived conclusion id, or null for a note id. */
export function graphEdgeId(id: string): number | null {
  const match = /^kg-(\d{1,15})$/.exec(id)
  return match ? Number(match[1]) : null
}

export interface ConclusionRow {
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

/**
 * The `conclusions` relation: explicit notes with an observer/observed pair, united with active graph facts
 * attributed to the peers whose messages evidence them (as self-observations, `observer = observed`).
 * Filters compiled against `CONCLUSION_FILTERS` reference it as `conclusions`.
 */
export function conclusionsRelation(workspaceId: string): RawBuilder<ConclusionRow> {
  return sql<ConclusionRow>`(
    SELECT n.id AS id, n.content AS content, n.observer_id AS observer_id, n.observed_id AS observed_id,
      n.session_id AS session_id, n.level AS level, n.source_ids AS source_ids, n.times_derived AS times_derived,
      n.metadata AS metadata, n.created_at AS created_at
    FROM notes n
    WHERE n.workspace_id = ${workspaceId} AND n.archived_at IS NULL
      AND n.observer_id IS NOT NULL AND n.observed_id IS NOT NULL
    UNION ALL
    SELECT ${GRAPH_ID_PREFIX} || kg.id, kg.subject || ' ' || replace(kg.predicate, '_', ' ') || ' ' || kg.object,
      a.peer_id, a.peer_id, NULL,
      CASE WHEN kg.derived = 1 THEN 'deductive' ELSE 'explicit' END, '[]', max(kg.pos_evidence, 1),
      json_object('source', 'graph', 'confidence', kg.confidence), kg.first_seen
    FROM knowledge_graph kg
    JOIN (
      SELECT DISTINCT e.edge_id AS edge_id, m.peer_id AS peer_id
      FROM kg_evidence e, json_each(e.message_ids) j
      JOIN messages m ON m.id = j.value
      WHERE e.workspace_id = ${workspaceId} AND e.polarity = 1
    ) a ON a.edge_id = kg.id
    WHERE kg.workspace_id = ${workspaceId} AND kg.status = 'active' AND kg.valid_to IS NULL
  ) AS conclusions`
}

export function conclusionOut(row: ConclusionRow): WireConclusion {
  let sourceIds: string[] | null = null
  try {
    const parsed: unknown = JSON.parse(row.source_ids)
    sourceIds = Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : null
  } catch {
    sourceIds = null
  }
  return {
    id: row.id,
    content: row.content,
    observer_id: row.observer_id,
    observed_id: row.observed_id,
    session_id: row.session_id,
    level: row.level,
    source_ids: sourceIds,
    times_derived: Number(row.times_derived),
    created_at: row.created_at,
  }
}

export interface ConclusionQuery {
  readonly where?: RawBuilder<SqlBool> | null
  readonly orderBy?: 'newest' | 'oldest' | 'most-derived'
  readonly limit?: number
  readonly offset?: number
}

export async function selectConclusions(
  memory: HonchoMemory,
  workspaceId: string,
  query: ConclusionQuery,
): Promise<ConclusionRow[]> {
  const order =
    query.orderBy === 'oldest'
      ? sql`conclusions.created_at ASC, conclusions.id ASC`
      : query.orderBy === 'most-derived'
        ? sql`conclusions.times_derived DESC, conclusions.created_at DESC`
        : sql`conclusions.created_at DESC, conclusions.id DESC`
  const result = await sql<ConclusionRow>`SELECT * FROM ${conclusionsRelation(workspaceId)}
    WHERE ${query.where ?? sql`1`} ORDER BY ${order}
    LIMIT ${query.limit ?? -1} OFFSET ${query.offset ?? 0}`.execute(memory.store.db)
  return result.rows
}

export async function countConclusions(
  memory: HonchoMemory,
  workspaceId: string,
  where: RawBuilder<SqlBool> | null,
): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*) AS n FROM ${conclusionsRelation(workspaceId)}
    WHERE ${where ?? sql`1`}`.execute(memory.store.db)
  return Number(result.rows[0]?.n ?? 0)
}

export function pairCondition(
  observer: string,
  observed: string,
  sessionId?: string | null,
): RawBuilder<SqlBool> {
  return sessionId
    ? sql<SqlBool>`(conclusions.observer_id = ${observer} AND conclusions.observed_id = ${observed} AND conclusions.session_id = ${sessionId})`
    : sql<SqlBool>`(conclusions.observer_id = ${observer} AND conclusions.observed_id = ${observed})`
}
