import { requireInteger } from '../../../repositories/checks'
import { type EvidenceRepository, evidenceRow } from '../../../repositories/evidence'
import { requireId } from '../../../repositories/json'
import type { RepositoryScope } from '../../../repositories/scope'

/** `evidence.add` and `evidence.removeDecayMark` on PostgreSQL (raw cached statements on SQLite). */
export function postgresEvidence(scope: RepositoryScope, portable: EvidenceRepository): EvidenceRepository {
  return {
    ...portable,
    async add(workspaceId, evidence) {
      requireId(workspaceId, 'workspace id')
      const row = evidenceRow(workspaceId, evidence, scope.context.now())
      const result = await scope.write((tx) =>
        tx
          .insertInto('kg_evidence')
          .values(row)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      )
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
    },
    async removeDecayMark(workspaceId, edgeId, chunkId) {
      requireId(workspaceId, 'workspace id')
      requireInteger(edgeId, 'edge id')
      requireInteger(chunkId, 'chunk id')
      await scope.write((tx) =>
        tx
          .deleteFrom('kg_evidence')
          .where('edge_id', '=', edgeId)
          .where('chunk_id', '=', chunkId)
          .where('polarity', '=', -1)
          .where('source', '=', 'decay')
          .where('workspace_id', '=', workspaceId)
          .execute(),
      )
    },
  }
}
