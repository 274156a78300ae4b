import { requireInteger, requireNumber, requireText } from './checks'
import { currentEdges, type Edge, requireTriple, type Triple, toEdge } from './edge-model'
import { _selectDirectEdgeSqlite } from './graph-statements'
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

/** Reads of the knowledge graph (`knowledge_graph`). */
export interface EdgeReads {
  /** Every edge of the workspace, ordered by subject, predicate, object, then stated before derived. */
  listAll(workspaceId: string): Promise<Edge[]>
  /** One edge of the workspace by id, whatever its status, or null. */
  get(workspaceId: string, id: number): Promise<Edge | null>
  /** The direct (not derived) edge of a triple, whatever its status. */
  findDirect(workspaceId: string, triple: Triple): Promise<Edge | null>
  /** Direct edges under any of `predicates`, any status, by id. */
  findDirectWithPredicates(workspaceId: string, predicates: readonly string[]): Promise<Edge[]>
  /**
   * Current direct edges (active, not superseded, not derived) matching every given part of the triple, by
   * id.
   */
  findCurrentDirect(workspaceId: string, filter: Partial<Triple>): Promise<Edge[]>
  /** Active direct edges last reinforced before `before` (candidates for decay). */
  findStaleDirect(workspaceId: string, before: string): Promise<Edge[]>
  /** Subject and object of every direct edge, any status (the entity names the graph knows). */
  listDirectEndpoints(workspaceId: string): Promise<{ subject: string; object: string }[]>
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
  /** Ids of the workspace's derived edges. */
  listDerivedIds(workspaceId: string): Promise<number[]>
}

export function createEdgeReads(scope: RepositoryScope): EdgeReads {
  const { db } = scope
  return {
    async listAll(workspaceId) {
      requireId(workspaceId, 'workspace id')
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
    async get(workspaceId, id) {
      requireId(workspaceId, 'workspace id')
      requireInteger(id, 'edge id')
      const row = await db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toEdge(row) : null
    },
    async findDirect(workspaceId, triple) {
      requireId(workspaceId, 'workspace id')
      const key = requireTriple(triple)
      const row = await scope.read(() => _selectDirectEdgeSqlite(scope.statements, workspaceId, key))
      return row ? toEdge(row) : null
    },
    async findDirectWithPredicates(workspaceId, predicates) {
      requireId(workspaceId, 'workspace id')
      if (predicates.length === 0) return []
      const rows = await db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('derived', '=', 0)
        .where('predicate', 'in', predicates)
        .orderBy('id')
        .execute()
      return rows.map(toEdge)
    },
    async findCurrentDirect(workspaceId, filter) {
      requireId(workspaceId, 'workspace id')
      let query = currentEdges(db, workspaceId).where('derived', '=', 0)
      if (filter.subject !== undefined) query = query.where('subject', '=', filter.subject)
      if (filter.predicate !== undefined) query = query.where('predicate', '=', filter.predicate)
      if (filter.object !== undefined) query = query.where('object', '=', filter.object)
      return (await query.orderBy('id').execute()).map(toEdge)
    },
    async findStaleDirect(workspaceId, before) {
      requireId(workspaceId, 'workspace id')
      requireText(before, 'before')
      const rows = await db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('status', '=', 'active')
        .where('derived', '=', 0)
        .where('last_reinforced', '<', before)
        .execute()
      return rows.map(toEdge)
    },
    async listDirectEndpoints(workspaceId) {
      requireId(workspaceId, 'workspace id')
      return db
        .selectFrom('knowledge_graph')
        .select(['subject', 'object'])
        .where('workspace_id', '=', workspaceId)
        .where('derived', '=', 0)
        .execute()
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
    async listDerivedIds(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('knowledge_graph')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('derived', '=', 1)
        .execute()
      return rows.map((row) => row.id)
    },
  }
}
