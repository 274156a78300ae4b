import { requireLimit, requireNumber, requireText } from './checks'
import { type ConflictRules, type EdgeConflict, findConflicts } from './edge-conflicts'
import {
  bestTouching,
  currentByIds,
  hiddenTouching,
  mostRecent,
  strongestWithPredicates,
  touchingWithPredicates,
  validityOf,
} from './edge-lookups'
import { currentEdges, type Edge, type EdgeValidity, type Triple, toEdge } from './edge-model'
import { parseArray, requireId } from './json'
import type { RepositoryScope } from './scope'

/** A chunk that mentions an edge's subject or object without evidencing the edge. */
export interface SoftContradiction {
  readonly edgeId: number
  readonly chunkId: number
  /** The chunk's `messages.id`. */
  readonly messageIds: readonly number[]
  readonly occurredAt: string
}

/** Reads of the current graph: edges that are not retracted and (unless asked) not superseded. */
export interface EdgeCurrentReads {
  /**
   * Current direct edges (active, not superseded, not derived) matching every given part of the triple, by
   * id.
   */
  findCurrentDirect(workspaceId: string, filter: Partial<Triple>): Promise<Edge[]>
  /**
   * Current direct `depends_on` edges above `minConfidence` (exclusive), by object then subject: the sources
   * of dependency hubs.
   */
  findConfidentDependencies(workspaceId: string, minConfidence: number): Promise<Edge[]>
  /** Current direct edges under `predicates` above `minConfidence` (exclusive), most confident first. */
  findConfidentWithPredicates(
    workspaceId: string,
    predicates: readonly string[],
    minConfidence: number,
  ): Promise<Edge[]>
  /** Current direct edges with evidence both for and against, most contested first. */
  findContested(workspaceId: string): Promise<Edge[]>
  /**
   * Every (stale edge, chunk) pair where a processed chunk that occurred at or after `since` mentions the
   * subject or object of an active direct edge last reinforced before `since`, and holds no evidence of its
   * own for that edge. By edge id, then chunk id.
   */
  findSoftContradictions(workspaceId: string, since: string): Promise<SoftContradiction[]>
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
  /**
   * Contradictions among current edges (not retracted, not derived, not superseded): competing objects under
   * an exclusive predicate and opposing predicates on one subject/object pair. Strongest conflict first (by
   * its weakest edge's confidence), at most `limit`.
   */
  findConflicts(workspaceId: string, rules: ConflictRules): Promise<EdgeConflict[]>
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

export function createEdgeCurrentReads(scope: RepositoryScope): EdgeCurrentReads {
  const { db } = scope
  return {
    async findCurrentDirect(workspaceId, filter) {
      requireId(workspaceId, 'workspace id')
      let query = currentEdges(db, workspaceId).where('derived', '=', 0)
      if (filter.subject !== undefined) query = query.where('subject', '=', filter.subject)
      if (filter.predicate !== undefined) query = query.where('predicate', '=', filter.predicate)
      if (filter.object !== undefined) query = query.where('object', '=', filter.object)
      return (await query.orderBy('id').execute()).map(toEdge)
    },
    async findConfidentDependencies(workspaceId, minConfidence) {
      requireId(workspaceId, 'workspace id')
      const rows = await currentEdges(db, workspaceId)
        .where('predicate', '=', 'depends_on')
        .where('derived', '=', 0)
        .where('confidence', '>', requireNumber(minConfidence, 'minConfidence'))
        .orderBy('object')
        .orderBy('subject')
        .execute()
      return rows.map(toEdge)
    },
    async findConfidentWithPredicates(workspaceId, predicates, minConfidence) {
      requireId(workspaceId, 'workspace id')
      if (predicates.length === 0) return []
      const rows = await currentEdges(db, workspaceId)
        .where('predicate', 'in', predicates)
        .where('derived', '=', 0)
        .where('confidence', '>', requireNumber(minConfidence, 'minConfidence'))
        .orderBy('confidence', 'desc')
        .orderBy('subject')
        .orderBy('object')
        .execute()
      return rows.map(toEdge)
    },
    async findContested(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await currentEdges(db, workspaceId)
        .where('derived', '=', 0)
        .where('pos_evidence', '>', 0)
        .where('neg_evidence', '>', 0)
        .orderBy('neg_evidence', 'desc')
        .orderBy('subject')
        .orderBy('object')
        .execute()
      return rows.map(toEdge)
    },
    async findSoftContradictions(workspaceId, since) {
      requireId(workspaceId, 'workspace id')
      requireText(since, 'since')
      const rows = await db
        .selectFrom('knowledge_graph as kg')
        .innerJoin('entity_mentions as em', (j) =>
          j
            .onRef('em.workspace_id', '=', 'kg.workspace_id')
            .on((eb) =>
              eb.or([eb('em.entity', '=', eb.ref('kg.subject')), eb('em.entity', '=', eb.ref('kg.object'))]),
            ),
        )
        .innerJoin('chunks as c', 'c.id', 'em.chunk_id')
        .select(['kg.id as edge_id', 'c.id as chunk_id', 'c.message_ids', 'c.occurred_at'])
        .distinct()
        .where('kg.workspace_id', '=', workspaceId)
        .where('kg.status', '=', 'active')
        .where('kg.derived', '=', 0)
        .where('kg.last_reinforced', '<', since)
        .where('c.occurred_at', '>=', since)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('processed_chunks as pc').select('pc.chunk_id').whereRef('pc.chunk_id', '=', 'c.id'),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('kg_evidence as ev')
                .select('ev.id')
                .whereRef('ev.chunk_id', '=', 'c.id')
                .whereRef('ev.edge_id', '=', 'kg.id'),
            ),
          ),
        )
        .orderBy('kg.id')
        .orderBy('c.id')
        .execute()
      return rows.map((row) => ({
        edgeId: row.edge_id,
        chunkId: row.chunk_id,
        messageIds: parseArray<number>(row.message_ids),
        occurredAt: row.occurred_at,
      }))
    },
    async findBestTouching(workspaceId, entities, options) {
      requireId(workspaceId, 'workspace id')
      const perEntity = requireLimit(options.perEntity, 'perEntity')
      if (entities.length === 0 || perEntity === 0) return []
      return (
        await bestTouching(scope.engine, db, workspaceId, entities, perEntity, validityOf(options.validity))
      ).map(toEdge)
    },
    async findTouchingWithPredicates(workspaceId, entities, predicates, options) {
      requireId(workspaceId, 'workspace id')
      const limit = requireLimit(options.limit, 'limit')
      if (predicates.length === 0 || entities.length === 0 || limit === 0) return []
      const rows = await touchingWithPredicates(
        scope.engine,
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
      const limit = requireLimit(options.limit, 'limit')
      if (predicates.length === 0 || limit === 0) return []
      return (
        await strongestWithPredicates(
          scope.engine,
          db,
          workspaceId,
          predicates,
          limit,
          validityOf(options.validity),
        )
      ).map(toEdge)
    },
    async findCurrentByIds(workspaceId, ids, validity) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return []
      return (await currentByIds(scope.engine, db, workspaceId, ids, validityOf(validity))).map(toEdge)
    },
    async findMostRecent(workspaceId, options) {
      requireId(workspaceId, 'workspace id')
      const limit = requireLimit(options.limit, 'limit')
      if (limit === 0) return []
      return (await mostRecent(db, workspaceId, limit, validityOf(options.validity))).map(toEdge)
    },
    async findConflicts(workspaceId, rules) {
      requireId(workspaceId, 'workspace id')
      const limit = requireLimit(rules.limit, 'limit')
      if (limit === 0) return []
      return findConflicts(scope.engine, db, workspaceId, rules, limit)
    },
    async findHiddenTouching(workspaceId, entities, options) {
      requireId(workspaceId, 'workspace id')
      const limit = requireLimit(options.limit, 'limit')
      if (entities.length === 0 || limit === 0) return []
      return (await hiddenTouching(scope.engine, db, workspaceId, entities, limit, options.validity)).map(
        toEdge,
      )
    },
  }
}
