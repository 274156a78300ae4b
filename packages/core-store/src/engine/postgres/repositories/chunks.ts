import { sql } from 'kysely'
import { requireInteger, requireText } from '../../../repositories/checks'
import type { ChunksRepository } from '../../../repositories/chunks'
import { requireId } from '../../../repositories/json'
import type { RepositoryScope } from '../../../repositories/scope'

/**
 * `chunks.markProcessed` on PostgreSQL, where `processed_chunks` carries the chunk's `workspace_id` (every
 * table does there, for a workspace-sharded cluster): the mark takes it from the chunk in the same statement.
 */
export function postgresChunks(scope: RepositoryScope, portable: ChunksRepository): ChunksRepository {
  return {
    ...portable,
    async markProcessed(workspaceId, chunkId, processing) {
      requireId(workspaceId, 'workspace id')
      requireInteger(chunkId, 'chunk id')
      const promptVersion = requireText(processing.promptVersion, 'promptVersion')
      const extractor = requireText(processing.extractor, 'extractor')
      await sql`INSERT INTO processed_chunks (workspace_id, chunk_id, prompt_version, extractor, processed_at)
        SELECT workspace_id, id, ${promptVersion}, ${extractor}, ${scope.context.now()} FROM chunks
        WHERE workspace_id = ${workspaceId} AND id = ${chunkId}
        ON CONFLICT DO NOTHING`.execute(scope.db)
    },
  }
}
