import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely'
import type { EdgeStatus, HyMemDatabase, KnowledgeGraphTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** One edge of the knowledge graph: a typed fact with its evidence counts and validity window. */
export interface Edge {
  readonly id: number
  readonly workspaceId: string
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly posEvidence: number
  readonly negEvidence: number
  readonly confidence: number
  readonly status: EdgeStatus
  /** True for edges written by inference (recomputed from scratch each dream). */
  readonly derived: boolean
  readonly firstSeen: string
  readonly lastSeen: string
  readonly lastReinforced: string
  readonly validFrom: string
  /** Set when a newer fact superseded this one. */
  readonly validTo: string | null
  readonly supersededBy: number | null
}

export function toEdge(row: Selectable<KnowledgeGraphTable>): Edge {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    subject: row.subject,
    predicate: row.predicate,
    object: row.object,
    posEvidence: row.pos_evidence,
    negEvidence: row.neg_evidence,
    confidence: row.confidence,
    status: row.status,
    derived: row.derived === 1,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    lastReinforced: row.last_reinforced,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    supersededBy: row.superseded_by,
  }
}

/** Which edges count as current. Retracted edges never do. */
export interface EdgeValidity {
  /** ISO time: only edges valid then (`validFrom ≤ asOf < validTo`). */
  readonly asOf?: string
  /** Without `asOf`, also keep superseded edges (those with `validTo` set). @default false */
  readonly includeSuperseded?: boolean
}

/** A new edge; omitted evidence counts, confidence and status take the column defaults. */
export interface NewEdge {
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly confidence?: number
  readonly posEvidence?: number
  readonly negEvidence?: number
  readonly status?: EdgeStatus
  readonly derived?: boolean
  /** First seen, last seen, last reinforced and (unless given) valid from. @default now */
  readonly seenAt?: string
  readonly validFrom?: string
  readonly validTo?: string | null
  /** The edge that superseded this one (give `validTo` too). */
  readonly supersededBy?: number | null
}

/** A message n-gram that names a known entity. */
export interface NamedEntity {
  /** The lookup key that matched (an n-gram, lower-cased or canonicalised). */
  readonly key: string
  /** The canonical entity it names. */
  readonly entity: string
}

/** What {@link EdgesRepository.findConflicts} looks for. */
export interface ConflictRules {
  /** Predicates with one object per subject: several current objects conflict. */
  readonly exclusivePredicates: readonly string[]
  /** Predicate pairs that contradict each other on one subject/object pair. */
  readonly opposingPredicates: readonly (readonly [string, string])[]
  readonly limit: number
}

/** A set of current edges that contradict each other. */
export interface EdgeConflict {
  /**
   * `competing_object`: one subject, one exclusive predicate, several objects. `opposing_predicate`: one
   * subject/object pair under contradicting predicates.
   */
  readonly kind: 'competing_object' | 'opposing_predicate'
  readonly subject: string
  /** The exclusive predicate, or the pair joined by `|` (e.g. `prefers|rejects`). */
  readonly predicate: string
  /** The shared object of an opposing pair; null for competing objects. */
  readonly object: string | null
  /** Strongest first. */
  readonly edges: readonly Edge[]
}

/** Edges of the knowledge graph (`knowledge_graph`), including derived (inferred) edges and validity/supersede links. */
export interface EdgesRepository {
  /**
   * The best `perEntity` current edges (by confidence, then last seen) touching each entity as subject or
   * object; an edge touching two entities appears once.
   */
  findBestTouching(
    workspaceId: string,
    entities: readonly string[],
    options: { readonly perEntity: number; readonly validity?: EdgeValidity },
  ): Promise<Edge[]>
  /** Current edges under `predicates` that touch `entities`, best first (confidence, last seen, id). */
  findTouchingWithPredicates(
    workspaceId: string,
    entities: readonly string[],
    predicates: readonly string[],
    options: { readonly limit: number; readonly validity?: EdgeValidity },
  ): Promise<Edge[]>
  /** The strongest current edges under `predicates`, whatever they touch (confidence, last seen, id). */
  findStrongestWithPredicates(
    workspaceId: string,
    predicates: readonly string[],
    options: { readonly limit: number; readonly validity?: EdgeValidity },
  ): Promise<Edge[]>
  /** The given edges that are current, in no particular order. */
  findCurrentByIds(workspaceId: string, ids: readonly number[], validity?: EdgeValidity): Promise<Edge[]>
  /** The most recently seen current edges (then confidence, id). */
  findMostRecent(
    workspaceId: string,
    options: { readonly limit: number; readonly validity?: EdgeValidity },
  ): Promise<Edge[]>
  /** Every entity name that is the subject or object of a non-retracted edge, in no particular order. */
  listEntityNames(workspaceId: string): Promise<string[]>
  /**
   * Which lookup keys name a known entity: an alias surface (naming its canonical), the subject of a
   * non-retracted edge, or the object of one that passes the shape filter (the name is also a subject
   * somewhere, has an entity type, or is the object of more than one edge), so a one-off object such as
   * `working` never counts. A key may name several entities; order is unspecified.
   */
  findNamedEntities(workspaceId: string, keys: readonly string[]): Promise<NamedEntity[]>
  /**
   * Contradictions among current edges (not retracted, not derived, not superseded): competing objects under
   * an exclusive predicate and opposing predicates on one subject/object pair. Strongest conflict first (by
   * its weakest edge's confidence), at most `limit`.
   */
  findConflicts(workspaceId: string, rules: ConflictRules): Promise<EdgeConflict[]>
  /** Inserts one edge as given (no canonicalisation, no merge with an existing triple). */
  insert(workspaceId: string, edge: NewEdge): Promise<Edge>
  /**
   * Edges touching `entities` (as subject or object) that `validity` hides from the current graph: retracted
   * ones, and those whose validity ended (superseded, or closed with no successor) — by `asOf` when given, at
   * all unless `includeSuperseded`. Edges not yet valid at `asOf` are not included. Most recently seen first
   * (then id), at most `limit`. What augment reports as suppressed.
   */
  findHiddenTouching(
    workspaceId: string,
    entities: readonly string[],
    options: { readonly limit: number; readonly validity?: EdgeValidity },
  ): Promise<Edge[]>
}

export function createEdgesRepository(scope: RepositoryScope): EdgesRepository {
  const { db } = scope
  return {
    async findBestTouching(workspaceId, entities, options) {
      requireId(workspaceId, 'workspace id')
      const perEntity = requireCount(options.perEntity, 'perEntity')
      if (entities.length === 0 || perEntity === 0) return []
      return (
        await bestTouchingSqlite(db, workspaceId, entities, perEntity, validityOf(options.validity))
      ).map(toEdge)
    },
    async findTouchingWithPredicates(workspaceId, entities, predicates, options) {
      requireId(workspaceId, 'workspace id')
      const limit = requireCount(options.limit, 'limit')
      if (predicates.length === 0 || entities.length === 0 || limit === 0) return []
      const rows = await touchingWithPredicatesSqlite(
        db,
        workspaceId,
        entities,
        predicates,
        limit,
        validityOf(options.validity),
      )
      return rows.map(toEdge)
    },
    async findStrongestWithPredicates(workspaceId, predicates, options) {
      requireId(workspaceId, 'workspace id')
      const limit = requireCount(options.limit, 'limit')
      if (predicates.length === 0 || limit === 0) return []
      const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
        SELECT k.* FROM knowledge_graph k
        WHERE k.workspace_id = ${workspaceId}
          AND k.predicate IN (SELECT value FROM json_each(${JSON.stringify(predicates)}))
          AND ${validityOf(options.validity)}
        ORDER BY k.confidence DESC, k.last_seen DESC, k.id
        LIMIT ${limit}`.execute(db)
      return rows.map(toEdge)
    },
    async findCurrentByIds(workspaceId, ids, validity) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return []
      // `+k.workspace_id` keeps SQLite on the primary key instead of scanning the workspace's index.
      const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
        SELECT k.* FROM knowledge_graph k
        WHERE k.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
          AND +k.workspace_id = ${workspaceId} AND ${validityOf(validity)}`.execute(db)
      return rows.map(toEdge)
    },
    async findMostRecent(workspaceId, options) {
      requireId(workspaceId, 'workspace id')
      const limit = requireCount(options.limit, 'limit')
      if (limit === 0) return []
      const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
        SELECT k.* FROM knowledge_graph k
        WHERE k.workspace_id = ${workspaceId} AND ${validityOf(options.validity)}
        ORDER BY k.last_seen DESC, k.confidence DESC, k.id
        LIMIT ${limit}`.execute(db)
      return rows.map(toEdge)
    },
    async listEntityNames(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('knowledge_graph')
        .select('subject as name')
        .where('workspace_id', '=', workspaceId)
        .where('status', '!=', 'retracted')
        .union(
          db
            .selectFrom('knowledge_graph')
            .select('object as name')
            .where('workspace_id', '=', workspaceId)
            .where('status', '!=', 'retracted'),
        )
        .execute()
      return rows.map((row) => row.name)
    },
    async findNamedEntities(workspaceId, keys) {
      requireId(workspaceId, 'workspace id')
      if (keys.length === 0) return []
      return namedEntitiesSqlite(db, workspaceId, keys)
    },
    async findConflicts(workspaceId, rules) {
      requireId(workspaceId, 'workspace id')
      const limit = requireCount(rules.limit, 'limit')
      if (limit === 0) return []
      return groupConflicts(await conflictRowsSqlite(db, workspaceId, rules, limit))
    },
    async insert(workspaceId, edge) {
      requireId(workspaceId, 'workspace id')
      for (const field of ['subject', 'predicate', 'object'] as const) requireId(edge[field], field)
      const seen = edge.seenAt ?? scope.context.now()
      const row = await db
        .insertInto('knowledge_graph')
        .values({
          workspace_id: workspaceId,
          subject: edge.subject,
          predicate: edge.predicate,
          object: edge.object,
          ...(edge.confidence !== undefined ? { confidence: edge.confidence } : {}),
          ...(edge.posEvidence !== undefined ? { pos_evidence: edge.posEvidence } : {}),
          ...(edge.negEvidence !== undefined ? { neg_evidence: edge.negEvidence } : {}),
          ...(edge.status !== undefined ? { status: edge.status } : {}),
          derived: edge.derived ? 1 : 0,
          first_seen: seen,
          last_seen: seen,
          last_reinforced: seen,
          valid_from: edge.validFrom ?? seen,
          valid_to: edge.validTo ?? null,
          ...(edge.supersededBy != null ? { superseded_by: edge.supersededBy } : {}),
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toEdge(row)
    },
    async findHiddenTouching(workspaceId, entities, options) {
      requireId(workspaceId, 'workspace id')
      const limit = requireCount(options.limit, 'limit')
      if (entities.length === 0 || limit === 0) return []
      const hidden = hiddenOf(options.validity)
      const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
        WITH a(name) AS (SELECT value FROM json_each(${JSON.stringify(entities)}))
        SELECT k.* FROM a CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.subject = a.name
        WHERE ${hidden}
        UNION
        SELECT k.* FROM a CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.object = a.name
        WHERE ${hidden}
        ORDER BY last_seen DESC, id
        LIMIT ${limit}`.execute(db)
      return rows.map(toEdge)
    },
  }
}

/** The complement of {@link validityOf} (over the alias `k`), leaving out edges not yet valid at `asOf`. */
function hiddenOf(validity: EdgeValidity = {}): RawBuilder<unknown> {
  if (validity.asOf !== undefined)
    return sql`(k.status = 'retracted' OR (k.valid_to IS NOT NULL AND k.valid_to <= ${validity.asOf}))`
  if (validity.includeSuperseded) return sql`k.status = 'retracted'`
  return sql`(k.status = 'retracted' OR k.valid_to IS NOT NULL)`
}

function requireCount(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0)
    throw new StoreError('INVALID_INPUT', `${field} must be a non-negative integer`)
  return value
}

/** The validity filter over the alias `k`. */
function validityOf(validity: EdgeValidity = {}): RawBuilder<unknown> {
  if (validity.asOf !== undefined)
    return sql`k.status != 'retracted' AND k.valid_from <= ${validity.asOf} AND (k.valid_to IS NULL OR k.valid_to > ${validity.asOf})`
  if (validity.includeSuperseded) return sql`k.status != 'retracted'`
  return sql`k.status != 'retracted' AND k.valid_to IS NULL`
}

/** One index seek per entity and end (subject, object), ranked per entity with a window function. */
async function bestTouchingSqlite(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  entities: readonly string[],
  perEntity: number,
  valid: RawBuilder<unknown>,
): Promise<Selectable<KnowledgeGraphTable>[]> {
  const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
    WITH a(name) AS (SELECT value FROM json_each(${JSON.stringify(entities)})),
    touching AS (
      SELECT k.*, a.name AS anchor FROM a
        CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.subject = a.name WHERE ${valid}
      UNION ALL
      SELECT k.*, a.name AS anchor FROM a
        CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.object = a.name WHERE ${valid}
    ),
    ranked AS (
      SELECT *, row_number() OVER (PARTITION BY anchor ORDER BY confidence DESC, last_seen DESC, id) AS rn
      FROM touching
    )
    SELECT DISTINCT ${EDGE_COLUMNS} FROM ranked WHERE rn <= ${perEntity}`.execute(db)
  return rows
}

async function touchingWithPredicatesSqlite(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  entities: readonly string[],
  predicates: readonly string[],
  limit: number,
  valid: RawBuilder<unknown>,
): Promise<Selectable<KnowledgeGraphTable>[]> {
  const routed = JSON.stringify(predicates)
  const { rows } = await sql<Selectable<KnowledgeGraphTable>>`
    WITH a(name) AS (SELECT value FROM json_each(${JSON.stringify(entities)}))
    SELECT k.* FROM a CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.subject = a.name
    WHERE k.predicate IN (SELECT value FROM json_each(${routed})) AND ${valid}
    UNION
    SELECT k.* FROM a CROSS JOIN knowledge_graph k ON k.workspace_id = ${workspaceId} AND k.object = a.name
    WHERE k.predicate IN (SELECT value FROM json_each(${routed})) AND ${valid}
    ORDER BY confidence DESC, last_seen DESC, id
    LIMIT ${limit}`.execute(db)
  return rows
}

/** Every column of `knowledge_graph`, unqualified (for selecting out of a CTE). */
const EDGE_COLUMNS = sql.raw(
  'id, workspace_id, subject, predicate, object, pos_evidence, neg_evidence, confidence, status, derived, first_seen, last_seen, last_reinforced, valid_from, valid_to, superseded_by',
)

async function namedEntitiesSqlite(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  keys: readonly string[],
): Promise<NamedEntity[]> {
  const { rows } = await sql<NamedEntity>`
    WITH q(key) AS (SELECT value FROM json_each(${JSON.stringify(keys)}))
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
              WHERE o.workspace_id = ${workspaceId} AND o.object = q.key AND o.status != 'retracted' LIMIT 2)) > 1
      )`.execute(db)
  return rows.map((row) => ({ key: row.key, entity: row.entity }))
}

type ConflictRow = Selectable<KnowledgeGraphTable> & {
  group_key: string
  kind: EdgeConflict['kind']
  g_subject: string
  g_predicate: string
  g_object: string | null
}

async function conflictRowsSqlite(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  rules: ConflictRules,
  limit: number,
): Promise<ConflictRow[]> {
  const exclusive = JSON.stringify(rules.exclusivePredicates)
  const pairs = JSON.stringify(rules.opposingPredicates.map(([a, b]) => ({ a, b })))
  const { rows } = await sql<ConflictRow>`
    WITH current AS (
      SELECT * FROM knowledge_graph
      WHERE workspace_id = ${workspaceId} AND status != 'retracted' AND derived = 0 AND valid_to IS NULL
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
      SELECT g.group_key, g.kind, g.subject AS g_subject, g.predicate AS g_predicate, g.object AS g_object, e.*
      FROM competing g JOIN current e ON e.subject = g.subject AND e.predicate = g.predicate
      UNION ALL
      SELECT g.group_key, g.kind, g.subject AS g_subject, g.predicate AS g_predicate, g.object AS g_object, e.*
      FROM opposing g JOIN current e ON e.subject = g.subject AND e.object = g.object AND e.predicate IN (g.a, g.b)
    ),
    strength AS (SELECT group_key, min(confidence) AS weakest FROM members GROUP BY group_key
      ORDER BY weakest DESC, group_key LIMIT ${limit})
    SELECT m.*
    FROM members m JOIN strength s ON s.group_key = m.group_key
    ORDER BY s.weakest DESC, m.group_key, m.confidence DESC, m.id`.execute(db)
  return rows
}

function groupConflicts(rows: readonly ConflictRow[]): EdgeConflict[] {
  const groups = new Map<string, { head: ConflictRow; edges: Edge[] }>()
  for (const row of rows) {
    let group = groups.get(row.group_key)
    if (!group) {
      group = { head: row, edges: [] }
      groups.set(row.group_key, group)
    }
    group.edges.push(toEdge(row))
  }
  return [...groups.values()].map(({ head, edges }) => ({
    kind: head.kind,
    subject: head.g_subject,
    predicate: head.g_predicate,
    object: head.g_object,
    edges,
  }))
}
