import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely'
import type { StoreEngine } from '../engine/types'
import type { HyMemDatabase, KnowledgeGraphTable } from '../kernel/tables'
import type { EdgeValidity } from './edge-model'

// The graph lookups of the edges repository, written as SQL both engines run: entity and predicate lists
// travel as one parameter each (`_textRows`, `_inIdList`), and a window function ranks the edges per entity.

/** A message n-gram that names a known entity. */
export interface NamedEntity {
  /** The lookup key that matched (an n-gram, lower-cased or canonicalised). */
  readonly key: string
  /** The canonical entity it names. */
  readonly entity: string
}

/** The validity filter over the alias `k`. */
export function validityOf(validity: EdgeValidity = {}): RawBuilder<unknown> {
  if (validity.asOf !== undefined)
    return sql`k.status != 'retracted' AND k.valid_from <= ${validity.asOf} AND (k.valid_to IS NULL OR k.valid_to > ${validity.asOf}) AND coalesce(k.learned_at, k.valid_from) <= ${validity.asOf}`
  if (validity.includeSuperseded) return sql`k.status != 'retracted'`
  return sql`k.status != 'retracted' AND k.valid_to IS NULL`
}

/** The complement of {@link validityOf} (over the alias `k`), leaving out edges not yet valid at `asOf`. */
function hiddenOf(validity: EdgeValidity = {}): RawBuilder<unknown> {
  if (validity.asOf !== undefined)
    return sql`(k.status = 'retracted' OR (k.valid_to IS NOT NULL AND k.valid_to <= ${validity.asOf}))`
  if (validity.includeSuperseded) return sql`k.status = 'retracted'`
  return sql`(k.status = 'retracted' OR k.valid_to IS NOT NULL)`
}

/** Edges touching `entities` that `validity` hides, most recently seen first (then id). */
export async function hiddenTouching(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  entities: readonly string[],
  limit: number,
  validity: EdgeValidity | undefined,
): Promise<Selectable<KnowledgeGraphTable>[]> {
  const hidden = hiddenOf(validity)
  const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
    WITH a(name) AS (${engine.textRows(entities)})
    SELECT k.* FROM a ${engine.orderedJoin()} knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.subject = a.name
    WHERE ${hidden}
    UNION
    SELECT k.* FROM a ${engine.orderedJoin()} knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.object = a.name
    WHERE ${hidden}
    ORDER BY last_seen DESC, id
    LIMIT ${limit}`.execute(db)
  return rows
}

/** One index seek per entity and end (subject, object), ranked per entity with a window function. */
export async function bestTouching(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  entities: readonly string[],
  perEntity: number,
  valid: RawBuilder<unknown>,
): Promise<Selectable<KnowledgeGraphTable>[]> {
  const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
    WITH a(name) AS (${engine.textRows(entities)}),
    touching AS (
      SELECT k.*, a.name AS anchor FROM a
        ${engine.orderedJoin()} knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.subject = a.name WHERE ${valid}
      UNION ALL
      SELECT k.*, a.name AS anchor FROM a
        ${engine.orderedJoin()} knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.object = a.name WHERE ${valid}
    ),
    ranked AS (
      SELECT *, row_number() OVER (PARTITION BY anchor ORDER BY confidence DESC, last_seen DESC, id) AS rn
      FROM touching
    )
    SELECT DISTINCT ${EDGE_COLUMNS} FROM ranked WHERE rn <= ${perEntity}`.execute(db)
  return rows
}

export async function touchingWithPredicates(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  entities: readonly string[],
  predicates: readonly string[],
  limit: number,
  valid: RawBuilder<unknown>,
): Promise<Selectable<KnowledgeGraphTable>[]> {
  const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
    WITH a(name) AS (${engine.textRows(entities)})
    SELECT k.* FROM a ${engine.orderedJoin()} knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.subject = a.name
    WHERE ${engine.inIdList('k.predicate', predicates)} AND ${valid}
    UNION
    SELECT k.* FROM a ${engine.orderedJoin()} knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.object = a.name
    WHERE ${engine.inIdList('k.predicate', predicates)} AND ${valid}
    ORDER BY confidence DESC, last_seen DESC, id
    LIMIT ${limit}`.execute(db)
  return rows
}

/** Every column of `knowledge_graph`, unqualified (for selecting out of a CTE). */
const EDGE_COLUMNS = sql.raw(
  'id, workspace_id, subject, predicate, object, pos_evidence, neg_evidence, confidence, status, derived, first_seen, last_seen, last_reinforced, valid_from, valid_to, superseded_by, learned_at',
)

export async function namedEntities(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  keys: readonly string[],
): Promise<NamedEntity[]> {
  const { rows } = await sql<NamedEntity>`
    WITH q(key) AS (${engine.textRows(keys)})
    SELECT a.canonical AS entity, q.key FROM q
      JOIN entity_aliases a ON a.workspace_id = ${workspaceId} AND a.surface = q.key
    UNION
    SELECT q.key AS entity, q.key FROM q
      WHERE EXISTS (SELECT 1 FROM knowledge_graph k
        WHERE k.workspace_id = ${workspaceId} AND k.subject = q.key AND k.status != 'retracted')
    UNION
    SELECT q.key AS entity, q.key FROM q
      WHERE EXISTS (SELECT 1 FROM knowledge_graph k
        WHERE k.workspace_id = ${workspaceId} AND k.object = q.key AND k.status != 'retracted')
      AND (
        EXISTS (SELECT 1 FROM knowledge_graph s WHERE s.workspace_id = ${workspaceId} AND s.subject = q.key)
        OR EXISTS (SELECT 1 FROM entity_types t WHERE t.workspace_id = ${workspaceId} AND t.entity = q.key)
        OR (SELECT count(*) FROM (SELECT 1 FROM knowledge_graph o
              WHERE o.workspace_id = ${workspaceId} AND o.object = q.key AND o.status != 'retracted' LIMIT 2) AS two) > 1
      )`.execute(db)
  return rows.map((row) => ({ key: row.key, entity: row.entity }))
}

export async function strongestWithPredicates(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  predicates: readonly string[],
  limit: number,
  valid: RawBuilder<unknown>,
): Promise<Selectable<KnowledgeGraphTable>[]> {
  const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
    SELECT k.* FROM knowledge_graph k
    WHERE k.workspace_id = ${workspaceId}
      AND ${engine.inIdList('k.predicate', predicates)}
      AND ${valid}
    ORDER BY k.confidence DESC, k.last_seen DESC, k.id
    LIMIT ${limit}`.execute(db)
  return rows
}

/** `+k.workspace_id` keeps SQLite on the primary key instead of scanning the workspace's index. */
export async function currentByIds(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  ids: readonly number[],
  valid: RawBuilder<unknown>,
): Promise<Selectable<KnowledgeGraphTable>[]> {
  const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
    SELECT k.* FROM knowledge_graph k
    WHERE ${engine.inIdList('k.id', ids)}
      AND ${engine.notIndexed('k.workspace_id')} = ${workspaceId} AND ${valid}`.execute(db)
  return rows
}

export async function mostRecent(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  limit: number,
  valid: RawBuilder<unknown>,
): Promise<Selectable<KnowledgeGraphTable>[]> {
  const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
    SELECT k.* FROM knowledge_graph k
    WHERE k.workspace_id = ${workspaceId} AND ${valid}
    ORDER BY k.last_seen DESC, k.confidence DESC, k.id
    LIMIT ${limit}`.execute(db)
  return rows
}
