import { requireInteger } from '../../../repositories/checks'
import { edgeConfidence } from '../../../repositories/edge-confidence'
import { requireTriple, toEdge } from '../../../repositories/edge-model'
import { patchColumns } from '../../../repositories/edge-writes'
import type { EdgesRepository } from '../../../repositories/edges'
import { requireId } from '../../../repositories/json'
import type { RepositoryScope } from '../../../repositories/scope'
import type { StatementCache } from '../../types'
import { _countEvidenceSqlite, _selectEdgeByKeySqlite, _updateEdgeCountsSqlite } from '../graph-statements'

/**
 * `edges.findByKey` and `edges.recount` as cached prepared statements: extraction runs them for every triple
 * of every chunk, and compiling a kysely query on each call costs more than running it.
 */
export function sqliteEdges(statements: StatementCache) {
  return (scope: RepositoryScope, portable: EdgesRepository): EdgesRepository => ({
    ...portable,
    async findByKey(workspaceId, key) {
      requireId(workspaceId, 'workspace id')
      const triple = requireTriple(key)
      const derived = key.derived === true
      const row = await scope.read(() =>
        _selectEdgeByKeySqlite(statements, workspaceId, { ...triple, derived }),
      )
      return row ? toEdge(row) : null
    },
    async recount(workspaceId, edgeId, patch = {}) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      const columns = patchColumns(patch)
      return scope.write(() => {
        const { pos, neg } = _countEvidenceSqlite(statements, edgeId)
        const confidence = edgeConfidence(pos, neg)
        _updateEdgeCountsSqlite(statements, workspaceId, edgeId, columns, { pos, neg, confidence })
        return { posEvidence: pos, negEvidence: neg, confidence }
      })
    },
  })
}
