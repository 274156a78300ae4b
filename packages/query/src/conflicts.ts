import type { Store } from '@hymem/core-store'
import { sql } from 'kysely'
import type { QueryConfig } from './config'
import { QueryError } from './errors'
import type { Conflict, ConflictEdge, ConflictsOptions } from './types'

interface Row {
  group_key: string
  kind: Conflict['kind']
  subject: string
  predicate: string
  object: string | null
  id: number
  e_subject: string
  e_predicate: string
  e_object: string
  confidence: number
  pos_evidence: number
  neg_evidence: number
  last_seen: string
}

const DEFAULT_LIMIT = 100

/**
 * Contradictions in the current graph, in pure SQL: competing objects under an exclusive predicate (`atta
 * prefers english` vs `atta prefers dutch`) and opposing predicates on one subject/object pair (`team prefers
 * docker` vs `team rejects docker`). Retracted, derived and superseded edges are ignored. Strongest first
 * (by the weakest edge's confidence).
 */
export async function findConflicts(
  store: Store,
  config: QueryConfig,
  options: ConflictsOptions,
): Promise<Conflict[]> {
  if (typeof options.workspaceId !== 'string' || options.workspaceId === '')
    throw new QueryError('INVALID_INPUT', 'conflicts() needs a workspaceId')
  const limit = options.limit ?? DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1)
    throw new QueryError('INVALID_INPUT', 'conflicts() limit must be a positive integer')
  const ws = options.workspaceId
  const exclusive = JSON.stringify(config.exclusivePredicates)
  const pairs = JSON.stringify(config.opposingPredicates.map(([a, b]) => ({ a, b })))
  const { rows } = await sql<Row>`
    WITH current AS (
      SELECT * FROM knowledge_graph
      WHERE workspace_id = ${ws} AND status != 'retracted' AND derived = 0 AND valid_to IS NULL
    ),
    competing AS (
      SELECT 'competing_object' AS kind, subject, predicate, NULL AS object,
        'c|' || subject || '|' || predicate AS group_key
      FROM current WHERE predicate IN (SELECT value FROM json_each(${exclusive}))
      GROUP BY subject, predicate HAVING count(DISTINCT object) > 1
    ),
    pair AS (
      SELECT json_extract(value, '$.a') AS a, json_extract(value, '$.b') AS b FROM json_each(${pairs})
    ),
    opposing AS (
      SELECT DISTINCT 'opposing_predicate' AS kind, x.subject, pair.a || '|' || pair.b AS predicate, x.object,
        'o|' || x.subject || '|' || x.object || '|' || pair.a || '|' || pair.b AS group_key, pair.a, pair.b
      FROM pair
      JOIN current x ON x.predicate = pair.a
      JOIN current y ON y.subject = x.subject AND y.object = x.object AND y.predicate = pair.b
    ),
    members AS (
      SELECT g.group_key, g.kind, g.subject, g.predicate, g.object, e.id, e.subject AS e_subject, e.predicate AS e_predicate, e.object AS e_object, e.confidence,
        e.pos_evidence, e.neg_evidence, e.last_seen
      FROM competing g JOIN current e ON e.subject = g.subject AND e.predicate = g.predicate
      UNION ALL
      SELECT g.group_key, g.kind, g.subject, g.predicate, g.object, e.id, e.subject AS e_subject, e.predicate AS e_predicate, e.object AS e_object, e.confidence,
        e.pos_evidence, e.neg_evidence, e.last_seen
      FROM opposing g JOIN current e ON e.subject = g.subject AND e.object = g.object AND e.predicate IN (g.a, g.b)
    ),
    strength AS (SELECT group_key, min(confidence) AS weakest FROM members GROUP BY group_key
      ORDER BY weakest DESC, group_key LIMIT ${limit})
    SELECT m.*
    FROM members m JOIN strength s ON s.group_key = m.group_key
    ORDER BY s.weakest DESC, m.group_key, m.confidence DESC, m.id`.execute(store.db)
  return groupRows(rows)
}

function groupRows(rows: readonly Row[]): Conflict[] {
  const groups = new Map<string, { head: Row; edges: ConflictEdge[] }>()
  for (const row of rows) {
    let group = groups.get(row.group_key)
    if (!group) {
      group = { head: row, edges: [] }
      groups.set(row.group_key, group)
    }
    group.edges.push({
      id: row.id,
      subject: row.e_subject,
      predicate: row.e_predicate,
      object: row.e_object,
      confidence: row.confidence,
      posEvidence: row.pos_evidence,
      negEvidence: row.neg_evidence,
      lastSeen: row.last_seen,
    })
  }
  return [...groups.values()].map(({ head, edges }) => ({
    kind: head.kind,
    subject: head.subject,
    predicate: head.predicate,
    object: head.object,
    edges,
  }))
}
