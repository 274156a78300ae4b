import type { EdgeStatus } from '../schema/tables'
import { StoreError } from '../store/errors'
import { type ConflictRules, type EdgeConflict, findConflictsSqlite } from './edge-conflicts'
import {
  type Edge,
  type EdgeKey,
  type EdgeValidity,
  type ImportedEdge,
  type NewEdge,
  toEdge,
} from './edge-values'
import {
  bestTouchingSqlite,
  currentByIdsSqlite,
  mostRecentSqlite,
  type NamedEntity,
  namedEntitiesSqlite,
  strongestWithPredicatesSqlite,
  touchingWithPredicatesSqlite,
  validityOf,
} from './edges-sqlite'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

export type { ConflictRules, EdgeConflict } from './edge-conflicts'
export {
  type Edge,
  type EdgeKey,
  type EdgeValidity,
  type ImportedEdge,
  type NewEdge,
  toEdge,
} from './edge-values'
export type { NamedEntity } from './edges-sqlite'

const EDGE_STATUSES: readonly EdgeStatus[] = ['active', 'stale', 'retracted']

/** Edges of the knowledge graph (`knowledge_graph`), including derived (inferred) edges and validity/supersede links. */
export interface EdgesRepository {
  /** Every edge of the workspace, ordered by subject, predicate, object, then stated before derived. */
  listAll(workspaceId: string): Promise<Edge[]>
  /** Edges by id in any workspace (unknown ids are absent). */
  getByIds(ids: readonly number[]): Promise<Edge[]>
  /** The edge with this triple and derivation, or null. */
  findByKey(workspaceId: string, key: EdgeKey): Promise<Edge | null>
  /**
   * Stores an edge as given (an import; the workspace must exist) with no supersede link. Returns its id, or
   * null when the workspace already has this triple and derivation (left untouched).
   */
  insertIfAbsent(edge: ImportedEdge): Promise<number | null>
  /** Links an edge to the edge that superseded it (null clears the link). */
  setSupersededBy(workspaceId: string, id: number, supersededBy: number | null): Promise<void>
  /** Stated edges by status, and derived edges (any status) apart. */
  countByState(
    workspaceId: string,
  ): Promise<{ active: number; stale: number; retracted: number; derived: number }>
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
}

const IN_LIST_CHUNK = 500

export function createEdgesRepository(scope: RepositoryScope): EdgesRepository {
  const { db } = scope
  return {
    async listAll(workspaceId) {
      const rows = await db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('subject')
        .orderBy('predicate')
        .orderBy('object')
        .orderBy('derived')
        .execute()
      return rows.map(toEdge)
    },
    async getByIds(ids) {
      const out: Edge[] = []
      for (let start = 0; start < ids.length; start += IN_LIST_CHUNK) {
        const rows = await db
          .selectFrom('knowledge_graph')
          .selectAll()
          .where('id', 'in', ids.slice(start, start + IN_LIST_CHUNK))
          .orderBy('id')
          .execute()
        out.push(...rows.map(toEdge))
      }
      return out
    },
    async findByKey(workspaceId, key) {
      const row = await db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('subject', '=', key.subject)
        .where('predicate', '=', key.predicate)
        .where('object', '=', key.object)
        .where('derived', '=', key.derived ? 1 : 0)
        .executeTakeFirst()
      return row ? toEdge(row) : null
    },
    async insertIfAbsent(edge) {
      requireId(edge.workspaceId, 'workspace id')
      for (const field of ['subject', 'predicate', 'object'] as const) requireId(edge[field], field)
      if (!EDGE_STATUSES.includes(edge.status))
        throw new StoreError('INVALID_INPUT', `status must be one of ${EDGE_STATUSES.join(', ')}`)
      const values = {
        workspace_id: edge.workspaceId,
        subject: edge.subject,
        predicate: edge.predicate,
        object: edge.object,
        derived: edge.derived ? 1 : 0,
        pos_evidence: edge.posEvidence,
        neg_evidence: edge.negEvidence,
        confidence: edge.confidence,
        status: edge.status,
        first_seen: edge.firstSeen,
        last_seen: edge.lastSeen,
        last_reinforced: edge.lastReinforced,
        valid_from: edge.validFrom,
        valid_to: edge.validTo,
        learned_at: edge.learnedAt ?? null,
      }
      const row = await scope.write((tx) =>
        tx
          .insertInto('knowledge_graph')
          .values(values)
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .executeTakeFirst(),
      )
      return row ? row.id : null
    },
    async setSupersededBy(workspaceId, id, supersededBy) {
      await scope.write((tx) =>
        tx
          .updateTable('knowledge_graph')
          .set({ superseded_by: supersededBy })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .execute(),
      )
    },
    async countByState(workspaceId) {
      const rows = await db
        .selectFrom('knowledge_graph')
        .where('workspace_id', '=', workspaceId)
        .select(['status', 'derived', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['status', 'derived'])
        .execute()
      const counts = { active: 0, stale: 0, retracted: 0, derived: 0 }
      for (const row of rows) {
        if (row.derived) counts.derived += Number(row.n)
        else counts[row.status] += Number(row.n)
      }
      return counts
    },
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
      return (
        await strongestWithPredicatesSqlite(db, workspaceId, predicates, limit, validityOf(options.validity))
      ).map(toEdge)
    },
    async findCurrentByIds(workspaceId, ids, validity) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return []
      return (await currentByIdsSqlite(db, workspaceId, ids, validityOf(validity))).map(toEdge)
    },
    async findMostRecent(workspaceId, options) {
      requireId(workspaceId, 'workspace id')
      const limit = requireCount(options.limit, 'limit')
      if (limit === 0) return []
      return (await mostRecentSqlite(db, workspaceId, limit, validityOf(options.validity))).map(toEdge)
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
      return findConflictsSqlite(db, workspaceId, rules, limit)
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
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toEdge(row)
    },
  }
}

function requireCount(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0)
    throw new StoreError('INVALID_INPUT', `${field} must be a non-negative integer`)
  return value
}
