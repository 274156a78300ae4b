import { StoreError } from '../kernel/errors'
import {
  type EdgeGraphFilter,
  type EdgeGraphPage,
  type EdgeHistoryDay,
  edgeHistoryByDay,
  listEdgesForGraph,
  recentlyChangedEdges,
} from './edge-graph'
import { type Edge, toEdge } from './edge-model'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

/** The graph reads behind the memory inspector: pictures, single facts, supersede chains and history. */
export interface EdgeInspectorReads {
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

const MAX_CHAIN = 50

export function createEdgeInspectorReads(scope: RepositoryScope): EdgeInspectorReads {
  const { db } = scope
  const byId = async (workspaceId: string, id: number) => {
    const row = await selectInWorkspace(db, 'knowledge_graph', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? toEdge(row) : null
  }
  return {
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
        const rows = await selectInWorkspace(db, 'knowledge_graph', workspaceId)
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
