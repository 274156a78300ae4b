import { sql } from 'kysely'
import { requireInteger } from '../../../repositories/checks'
import { edgeConfidence } from '../../../repositories/edge-confidence'
import { requireTriple, toEdge } from '../../../repositories/edge-model'
import { patchColumns } from '../../../repositories/edge-writes'
import type { EdgesRepository } from '../../../repositories/edges'
import { requireId } from '../../../repositories/json'
import type { RepositoryScope } from '../../../repositories/scope'

/**
 * `edges.findByKey` and `edges.recount` on PostgreSQL. SQLite runs them as raw cached statements (extraction
 * calls them for every triple); here they are builder queries, and `recount` locks the edge row first so two
 * writers recounting one edge never store a stale count.
 */
export function postgresEdges(scope: RepositoryScope, portable: EdgesRepository): EdgesRepository {
  return {
    ...portable,
    async findByKey(workspaceId, key) {
      requireId(workspaceId, 'workspace id')
      const triple = requireTriple(key)
      const row = await scope.db
        .selectFrom('knowledge_graph')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('subject', '=', triple.subject)
        .where('predicate', '=', triple.predicate)
        .where('object', '=', triple.object)
        .where('derived', '=', key.derived === true ? 1 : 0)
        .executeTakeFirst()
      return row ? toEdge(row) : null
    },
    async recount(workspaceId, edgeId, patch = {}) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      const columns = patchColumns(patch)
      return scope.write(async (tx) => {
        await tx
          .selectFrom('knowledge_graph')
          .select('id')
          .where('id', '=', edgeId)
          .where('workspace_id', '=', workspaceId)
          .forUpdate()
          .execute()
        const counts = await tx
          .selectFrom('kg_evidence')
          .select(['polarity', sql<number>`count(*)::int`.as('n')])
          .where('edge_id', '=', edgeId)
          .where('workspace_id', '=', workspaceId)
          .groupBy('polarity')
          .execute()
        const pos = counts.find((row) => row.polarity === 1)?.n ?? 0
        const neg = counts.find((row) => row.polarity === -1)?.n ?? 0
        const confidence = edgeConfidence(pos, neg)
        await tx
          .updateTable('knowledge_graph')
          .set({ ...columns, pos_evidence: pos, neg_evidence: neg, confidence })
          .where('id', '=', edgeId)
          .where('workspace_id', '=', workspaceId)
          .execute()
        return { posEvidence: pos, negEvidence: neg, confidence }
      })
    },
  }
}
