import { requireInteger } from '../../../repositories/checks'
import { type EvidenceRepository, evidenceRow } from '../../../repositories/evidence'
import { requireId } from '../../../repositories/json'
import type { RepositoryScope } from '../../../repositories/scope'
import type { StatementCache } from '../../types'
import { _deleteDecayMarkSqlite, _insertEvidenceSqlite } from '../graph-statements'

/** `evidence.add` and `evidence.removeDecayMark` as cached prepared statements (run for every triple). */
export function sqliteEvidence(statements: StatementCache) {
  return (scope: RepositoryScope, portable: EvidenceRepository): EvidenceRepository => ({
    ...portable,
    async add(workspaceId, evidence) {
      requireId(workspaceId, 'workspace id')
      const row = evidenceRow(workspaceId, evidence, scope.context.now())
      return scope.write(() => _insertEvidenceSqlite(statements, row))
    },
    async removeDecayMark(workspaceId, edgeId, chunkId) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      requireInteger(chunkId, 'chunk id')
      await scope.write(() => _deleteDecayMarkSqlite(statements, workspaceId, edgeId, chunkId))
    },
  })
}
