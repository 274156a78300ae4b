import type { Selectable } from 'kysely'
import type { EdgeStatus, KnowledgeGraphTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import {
  type EdgeGraphFilter,
  type EdgeGraphPage,
  type EdgeHistoryDay,
  edgeHistoryByDay,
  listEdgesForGraph,
  recentlyChangedEdges,
} from './edge-graph'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

const EDGE_STATUSES: readonly EdgeStatus[] = ['active', 'stale', 'retracted']

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

/** An edge as a dump carries it: everything but its id and supersede link (both are store-local). */
export type ImportedEdge = Omit<Edge, 'id' | 'supersededBy'>

/** Names one edge within a workspace: its triple and whether it is derived. */
export interface EdgeKey {
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly derived: boolean
}

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
  /** The highest-confidence edges matching a graph filter (entity, predicate, text, session, peer, as-of), and the total. */
  listForGraph(workspaceId: string, filter: EdgeGraphFilter): Promise<EdgeGraphPage>
  /** One edge of the workspace, or null. */
  getById(workspaceId: string, id: number): Promise<Edge | null>
  /**
   * The supersede chain around an edge: the edges it replaced (newest first, following `superseded_by`
   * backwards) and the edges that replaced it (oldest first, following it forwards), at most 50 each way.
   */
  supersedeChain(workspaceId: string, id: number): Promise<{ replaced: Edge[]; replacedBy: Edge[] }>
  /** Per-day counts of direct edges appearing and being superseded, oldest day first. */
  historyByDay(workspaceId: string): Promise<EdgeHistoryDay[]>
  /** The direct edges that most recently appeared or were superseded, latest change first. */
  recentlyChanged(workspaceId: string, limit: number): Promise<Edge[]>
  /** Every predicate of the workspace's edges with its edge count, most used first. */
  predicateCounts(workspaceId: string): Promise<{ predicate: string; edges: number }[]>
}

const IN_LIST_CHUNK = 500
const MAX_CHAIN = 50

export function createEdgesRepository(scope: RepositoryScope): EdgesRepository {
  const { db } = scope
  const byId = async (workspaceId: string, id: number) => {
    const row = await db
      .selectFrom('knowledge_graph')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? toEdge(row) : null
  }
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
    listForGraph: (workspaceId, filter) => listEdgesForGraph(db, workspaceId, filter),
    async getById(workspaceId, id) {
      if (!Number.isInteger(id)) throw new StoreError('INVALID_INPUT', 'an edge id must be an integer')
      return byId(workspaceId, id)
    },
    async supersedeChain(workspaceId, id) {
      if (!Number.isInteger(id)) throw new StoreError('INVALID_INPUT', 'an edge id must be an integer')
      const seen = new Set([id])
      const replacedBy: Edge[] = []
      let next = (await byId(workspaceId, id))?.supersededBy ?? null
      while (next !== null && !seen.has(next) && replacedBy.length < MAX_CHAIN) {
        seen.add(next)
        const edge = await byId(workspaceId, next)
        if (!edge) break
        replacedBy.push(edge)
        next = edge.supersededBy
      }
      const replaced: Edge[] = []
      let frontier = [id]
      while (frontier.length > 0 && replaced.length < MAX_CHAIN) {
        const rows = await db
          .selectFrom('knowledge_graph')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
          .where('superseded_by', 'in', frontier)
          .orderBy('valid_to', 'desc')
          .orderBy('id', 'desc')
          .execute()
        const fresh = rows.map(toEdge).filter((edge) => !seen.has(edge.id))
        for (const edge of fresh) seen.add(edge.id)
        replaced.push(...fresh.slice(0, MAX_CHAIN - replaced.length))
        frontier = fresh.map((edge) => edge.id)
      }
      return { replaced, replacedBy }
    },
    historyByDay: (workspaceId) => edgeHistoryByDay(db, workspaceId),
    recentlyChanged: (workspaceId, limit) => recentlyChangedEdges(db, workspaceId, limit),
    async predicateCounts(workspaceId) {
      const rows = await db
        .selectFrom('knowledge_graph')
        .select(['predicate', (eb) => eb.fn.countAll<number>().as('n')])
        .where('workspace_id', '=', workspaceId)
        .groupBy('predicate')
        .orderBy('n', 'desc')
        .orderBy('predicate')
        .execute()
      return rows.map((row) => ({ predicate: row.predicate, edges: Number(row.n) }))
    },
  }
}
