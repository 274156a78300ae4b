import type { Store } from '@hymem/core-store'
import { type RawBuilder, sql } from 'kysely'
import { parseIdList } from '../search/json'
import type { EdgeRecord } from './edge'

/** Which edges count as current: not retracted, and valid now (or at `asOf`). */
export interface Validity {
  /** ISO time; keeps edges with `valid_from ≤ asOf < valid_to`. */
  readonly asOf?: string
  /** Without `asOf`, also keep superseded edges. */
  readonly includeSuperseded?: boolean
}

interface EdgeRow {
  id: number
  subject: string
  predicate: string
  object: string
  confidence: number
  pos_evidence: number
  neg_evidence: number
  derived: number
  status: string
  valid_from: string
  valid_to: string | null
  last_seen: string
}

const COLUMNS = sql.raw(
  'k.id, k.subject, k.predicate, k.object, k.confidence, k.pos_evidence, k.neg_evidence, k.derived, k.status, k.valid_from, k.valid_to, k.last_seen',
)

function validityOf(validity: Validity): RawBuilder<unknown> {
  if (validity.asOf !== undefined)
    return sql`k.status != 'retracted' AND k.valid_from <= ${validity.asOf} AND (k.valid_to IS NULL OR k.valid_to > ${validity.asOf})`
  if (validity.includeSuperseded) return sql`k.status != 'retracted'`
  return sql`k.status != 'retracted' AND k.valid_to IS NULL`
}

function toRecord(row: EdgeRow): EdgeRecord {
  return {
    id: row.id,
    subject: row.subject,
    predicate: row.predicate,
    object: row.object,
    confidence: row.confidence,
    posEvidence: row.pos_evidence,
    negEvidence: row.neg_evidence,
    derived: row.derived !== 0,
    status: row.status,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    lastSeen: row.last_seen,
  }
}

/** The best `perEntity` edges (confidence, then last seen) touching each entity as subject or object. */
export async function edgesAnchoredAt(
  store: Store,
  workspaceId: string,
  entities: readonly string[],
  perEntity: number,
  validity: Validity,
): Promise<EdgeRecord[]> {
  if (entities.length === 0) return []
  const valid = validityOf(validity)
  const { rows } = await sql<EdgeRow>`
    WITH a(name) AS (SELECT value FROM json_each(${JSON.stringify(entities)})),
    touching AS (
      SELECT ${COLUMNS}, a.name AS anchor FROM a
        CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.subject = a.name WHERE ${valid}
      UNION ALL
      SELECT ${COLUMNS}, a.name AS anchor FROM a
        CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.object = a.name WHERE ${valid}
    ),
    ranked AS (
      SELECT *, row_number() OVER (PARTITION BY anchor ORDER BY confidence DESC, last_seen DESC, id) AS rn
      FROM touching
    )
    SELECT DISTINCT id, subject, predicate, object, confidence, pos_evidence, neg_evidence, derived, status,
      valid_from, valid_to, last_seen
    FROM ranked WHERE rn <= ${perEntity}`.execute(store.db)
  return rows.map(toRecord)
}

/** Edges under the routed predicates that touch `entities` (index lookups from each entity), best first. */
export async function anchoredEdgesWithPredicates(
  store: Store,
  workspaceId: string,
  predicates: readonly string[],
  entities: readonly string[],
  limit: number,
  validity: Validity,
): Promise<EdgeRecord[]> {
  if (predicates.length === 0 || entities.length === 0) return []
  const valid = validityOf(validity)
  const routed = JSON.stringify(predicates)
  const { rows } = await sql<EdgeRow>`
    WITH a(name) AS (SELECT value FROM json_each(${JSON.stringify(entities)}))
    SELECT ${COLUMNS} FROM a CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.subject = a.name
    WHERE k.predicate IN (SELECT value FROM json_each(${routed})) AND ${valid}
    UNION
    SELECT ${COLUMNS} FROM a CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.object = a.name
    WHERE k.predicate IN (SELECT value FROM json_each(${routed})) AND ${valid}
    ORDER BY confidence DESC, last_seen DESC, id
    LIMIT ${limit}`.execute(store.db)
  return rows.map(toRecord)
}

/** The strongest edges under the routed predicates (confidence, then recency), whatever they touch. */
export async function topEdgesWithPredicates(
  store: Store,
  workspaceId: string,
  predicates: readonly string[],
  limit: number,
  validity: Validity,
): Promise<EdgeRecord[]> {
  if (predicates.length === 0) return []
  const { rows } = await sql<EdgeRow>`
    SELECT ${COLUMNS} FROM knowledge_graph k
    WHERE k.workspace_id = ${workspaceId}
      AND k.predicate IN (SELECT value FROM json_each(${JSON.stringify(predicates)})) AND ${validityOf(validity)}
    ORDER BY k.confidence DESC, k.last_seen DESC, k.id
    LIMIT ${limit}`.execute(store.db)
  return rows.map(toRecord)
}

/** The given edges that are still current, in no particular order. */
export async function edgesByIds(
  store: Store,
  workspaceId: string,
  ids: readonly number[],
  validity: Validity,
): Promise<EdgeRecord[]> {
  if (ids.length === 0) return []
  const { rows } = await sql<EdgeRow>`
    SELECT ${COLUMNS} FROM knowledge_graph k
    WHERE k.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
      AND +k.workspace_id = ${workspaceId} AND ${validityOf(validity)}`.execute(store.db)
  return rows.map(toRecord)
}

/** The most recently seen current edges (the `fallback:recency` seed). */
export async function recentEdges(
  store: Store,
  workspaceId: string,
  limit: number,
  validity: Validity,
): Promise<EdgeRecord[]> {
  const { rows } = await sql<EdgeRow>`
    SELECT ${COLUMNS} FROM knowledge_graph k
    WHERE k.workspace_id = ${workspaceId} AND ${validityOf(validity)}
    ORDER BY k.last_seen DESC, k.confidence DESC, k.id
    LIMIT ${limit}`.execute(store.db)
  return rows.map(toRecord)
}

/** Source message ids per edge: each evidence row's own ids plus its chunk's. Sorted, de-duplicated. */
export async function edgeMessageIds(
  store: Store,
  edgeIds: readonly number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>()
  if (edgeIds.length === 0) return out
  const { rows } = await sql<{ edge_id: number; message_ids: string; chunk_message_ids: string | null }>`
    SELECT e.edge_id, e.message_ids, c.message_ids AS chunk_message_ids
    FROM kg_evidence e LEFT JOIN chunks c ON c.id = e.chunk_id
    WHERE e.edge_id IN (SELECT value FROM json_each(${JSON.stringify(edgeIds)}))`.execute(store.db)
  const sets = new Map<number, Set<number>>()
  for (const row of rows) {
    let set = sets.get(row.edge_id)
    if (!set) {
      set = new Set()
      sets.set(row.edge_id, set)
    }
    for (const id of parseIdList(row.message_ids)) set.add(id)
    for (const id of parseIdList(row.chunk_message_ids)) set.add(id)
  }
  for (const [edgeId, set] of sets)
    out.set(
      edgeId,
      [...set].sort((a, b) => a - b),
    )
  return out
}

/** Every canonical name on a current edge (the token-overlap index source). */
export async function graphCanonicals(store: Store, workspaceId: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT subject AS name FROM knowledge_graph WHERE workspace_id = ${workspaceId} AND status != 'retracted'
    UNION
    SELECT object FROM knowledge_graph WHERE workspace_id = ${workspaceId} AND status != 'retracted'`.execute(
    store.db,
  )
  return rows.map((row) => row.name)
}
