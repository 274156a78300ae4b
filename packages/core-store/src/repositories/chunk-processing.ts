import { requireInteger, requireLimit, requireText } from './checks'
import { type Chunk, toChunk } from './chunk-model'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** That a chunk was extracted under a prompt version. */
export interface ChunkProcessing {
  readonly chunkId: number
  readonly promptVersion: string
  readonly extractor: string
  readonly processedAt: string
}

/** The processing marks of chunks (`processed_chunks`): which prompt version extracted which chunk. */
export interface ChunkProcessingMarks {
  /** Chunks not yet processed under `promptVersion`, oldest first (by time, then id), at most `limit`. */
  listUnprocessed(workspaceId: string, promptVersion: string, limit: number): Promise<Chunk[]>
  /** Chunks of the workspace not yet processed under this prompt version. */
  countUnprocessed(workspaceId: string, promptVersion: string): Promise<number>
  /** Per session, the chunks not yet processed under this prompt version (sessions with none are left out). */
  countUnprocessedBySession(
    workspaceId: string,
    promptVersion: string,
  ): Promise<{ sessionId: string; chunks: number }[]>
  /** Records that the workspace's chunk was processed under a prompt version (idempotent; another's: no-op). */
  markProcessed(
    workspaceId: string,
    chunkId: number,
    processing: { promptVersion: string; extractor: string },
  ): Promise<void>
  /** Every processing mark of the workspace's chunks, by chunk id then prompt version. */
  listProcessed(workspaceId: string): Promise<ChunkProcessing[]>
  /** The last `limit` chunks of a session processed under `promptVersion`, oldest first. */
  listProcessedTail(
    workspaceId: string,
    sessionId: string,
    promptVersion: string,
    limit: number,
  ): Promise<Chunk[]>
  /** Ids of processed chunks (under any prompt version) that occurred before `before`, oldest first. */
  listEvictable(workspaceId: string, before: string): Promise<number[]>
  /** Drops the processing marks of the workspace's chunks, so the next dream extracts every chunk again. */
  clearProcessed(workspaceId: string): Promise<void>
}

export function createChunkProcessing(scope: RepositoryScope): ChunkProcessingMarks {
  const { db, context } = scope
  /** The workspace's chunks with no processing mark under `promptVersion`. */
  const unprocessed = (workspaceId: string, promptVersion: string) =>
    db
      .selectFrom('chunks')
      .where('workspace_id', '=', workspaceId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('processed_chunks')
              .select('chunk_id')
              .whereRef('processed_chunks.chunk_id', '=', 'chunks.id')
              .where('processed_chunks.prompt_version', '=', promptVersion),
          ),
        ),
      )
  return {
    async listUnprocessed(workspaceId, promptVersion, limit) {
      requireId(workspaceId, 'workspace id')
      requireText(promptVersion, 'promptVersion')
      const rows = await unprocessed(workspaceId, promptVersion)
        .selectAll()
        .orderBy('occurred_at')
        .orderBy('id')
        .limit(requireLimit(limit))
        .execute()
      return rows.map(toChunk)
    },
    async countUnprocessed(workspaceId, promptVersion) {
      requireId(workspaceId, 'workspace id')
      requireText(promptVersion, 'promptVersion')
      const row = await unprocessed(workspaceId, promptVersion)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async countUnprocessedBySession(workspaceId, promptVersion) {
      requireId(workspaceId, 'workspace id')
      requireText(promptVersion, 'promptVersion')
      const rows = await unprocessed(workspaceId, promptVersion)
        .select(['session_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('session_id')
        .orderBy('session_id')
        .execute()
      return rows.map((row) => ({ sessionId: row.session_id, chunks: Number(row.n) }))
    },
    async markProcessed(workspaceId, chunkId, processing) {
      requireId(workspaceId, 'workspace id')
      requireInteger(chunkId, 'chunk id')
      const promptVersion = requireText(processing.promptVersion, 'promptVersion')
      const extractor = requireText(processing.extractor, 'extractor')
      const now = context.now()
      await db
        .insertInto('processed_chunks')
        .columns(['chunk_id', 'prompt_version', 'extractor', 'processed_at'])
        .expression((eb) =>
          eb
            .selectFrom('chunks')
            .select([
              'id',
              eb.val(promptVersion).as('prompt_version'),
              eb.val(extractor).as('extractor'),
              eb.val(now).as('processed_at'),
            ])
            .where('workspace_id', '=', workspaceId)
            .where('id', '=', chunkId),
        )
        .onConflict((oc) => oc.doNothing())
        .execute()
    },
    async listProcessed(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('processed_chunks')
        .innerJoin('chunks', 'chunks.id', 'processed_chunks.chunk_id')
        .selectAll('processed_chunks')
        .where('chunks.workspace_id', '=', workspaceId)
        .orderBy('processed_chunks.chunk_id')
        .orderBy('processed_chunks.prompt_version')
        .execute()
      return rows.map((row) => ({
        chunkId: row.chunk_id,
        promptVersion: row.prompt_version,
        extractor: row.extractor,
        processedAt: row.processed_at,
      }))
    },
    async listProcessedTail(workspaceId, sessionId, promptVersion, limit) {
      requireId(workspaceId, 'workspace id')
      requireId(sessionId, 'session id')
      requireText(promptVersion, 'promptVersion')
      const rows = await db
        .selectFrom('chunks')
        .innerJoin('processed_chunks', 'processed_chunks.chunk_id', 'chunks.id')
        .selectAll('chunks')
        .where('chunks.workspace_id', '=', workspaceId)
        .where('chunks.session_id', '=', sessionId)
        .where('processed_chunks.prompt_version', '=', promptVersion)
        .orderBy('chunks.id', 'desc')
        .limit(requireLimit(limit))
        .execute()
      return rows.reverse().map(toChunk)
    },
    async listEvictable(workspaceId, before) {
      requireId(workspaceId, 'workspace id')
      requireText(before, 'before')
      const rows = await db
        .selectFrom('chunks')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('occurred_at', '<', before)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('processed_chunks')
              .select('chunk_id')
              .whereRef('processed_chunks.chunk_id', '=', 'chunks.id'),
          ),
        )
        .orderBy('occurred_at')
        .orderBy('id')
        .execute()
      return rows.map((row) => row.id)
    },
    async clearProcessed(workspaceId) {
      requireId(workspaceId, 'workspace id')
      await scope.write((tx) =>
        tx
          .deleteFrom('processed_chunks')
          .where(
            'chunk_id',
            'in',
            tx.selectFrom('chunks').select('id').where('workspace_id', '=', workspaceId),
          )
          .execute(),
      )
    },
  }
}
