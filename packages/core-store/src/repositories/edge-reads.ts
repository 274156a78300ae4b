import { requireIntegers, requireText } from './checks'
import { type NamedEntity, namedEntities } from './edge-lookups'
import { type Edge, type EdgeKey, requireTriple, toEdge } from './edge-model'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

/** Reads of single edges and whole-graph listings of the knowledge graph (`knowledge_graph`). */
export interface EdgeReads {
  /** Every edge of the workspace, ordered by subject, predicate, object, then stated before derived. */
  listAll(workspaceId: string): Promise<Edge[]>
  /** The workspace's edges among `ids`, whatever their status, by id (unknown ids are absent). */
  getByIds(workspaceId: string, ids: readonly number[]): Promise<Edge[]>
  /** The edge with this triple, direct unless `derived` says otherwise, whatever its status, or null. */
  findByKey(workspaceId: string, key: EdgeKey): Promise<Edge | null>
  /** Direct edges under any of `predicates`, any status, by id. */
  findDirectWithPredicates(workspaceId: string, predicates: readonly string[]): Promise<Edge[]>
  /** Active direct edges last reinforced before `before` (candidates for decay). */
  findStaleDirect(workspaceId: string, before: string): Promise<Edge[]>
  /** Subject and object of every direct edge, any status (the entity names the graph knows). */
  listDirectEndpoints(workspaceId: string): Promise<{ subject: string; object: string }[]>
  /** Every entity name that is the subject or object of a non-retracted edge, in no particular order. */
  listEntityNames(workspaceId: string): Promise<string[]>
  /**
   * Which lookup keys name a known entity: an alias surface (naming its canonical), the subject of a
   * non-retracted edge, or the object of one that passes the shape filter (the name is also a subject
   * somewhere, has an entity type, or is the object of more than one edge), so a one-off object such as
   * `working` never counts. A key may name several entities; order is unspecified.
   */
  findNamedEntities(workspaceId: string, keys: readonly string[]): Promise<NamedEntity[]>
  /** Stated edges by status, and derived edges (any status) apart. */
  countByState(
    workspaceId: string,
  ): Promise<{ active: number; stale: number; retracted: number; derived: number }>
  /** Ids of the workspace's derived edges. */
  listDerivedIds(workspaceId: string): Promise<number[]>
}

/** Ids per `IN (...)` list. */
export function createEdgeReads(scope: RepositoryScope): EdgeReads {
  const { db } = scope
  return {
    async listAll(workspaceId) {
      const rows = await selectInWorkspace(db, 'knowledge_graph', workspaceId)
        .orderBy('subject')
        .orderBy('predicate')
        .orderBy('object')
        .orderBy('derived')
        .execute()
      return rows.map(toEdge)
    },
    async getByIds(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(ids, 'edge ids')
      if (ids.length === 0) return []
      const rows = await db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where(scope.engine.inIdList('id', ids))
        .where(scope.engine.notIndexed('workspace_id'), '=', workspaceId)
        .orderBy('id')
        .execute()
      return rows.map(toEdge)
    },
    async findByKey(workspaceId, key) {
      requireId(workspaceId, 'workspace id')
      const triple = requireTriple(key)
      const row = await selectInWorkspace(db, 'knowledge_graph', workspaceId)
        .where('subject', '=', triple.subject)
        .where('predicate', '=', triple.predicate)
        .where('object', '=', triple.object)
        .where('derived', '=', key.derived === true ? 1 : 0)
        .executeTakeFirst()
      return row ? toEdge(row) : null
    },
    async findDirectWithPredicates(workspaceId, predicates) {
      requireId(workspaceId, 'workspace id')
      if (predicates.length === 0) return []
      const rows = await selectInWorkspace(db, 'knowledge_graph', workspaceId)
        .where('derived', '=', 0)
        .where('predicate', 'in', predicates)
        .orderBy('id')
        .execute()
      return rows.map(toEdge)
    },
    async findStaleDirect(workspaceId, before) {
      requireId(workspaceId, 'workspace id')
      requireText(before, 'before')
      const rows = await selectInWorkspace(db, 'knowledge_graph', workspaceId)
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
      return namedEntities(scope.engine, db, workspaceId, keys)
    },
    async countByState(workspaceId) {
      requireId(workspaceId, 'workspace id')
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
