import { StoreError } from '../kernel/errors'

export type { ChunkProcessing } from './chunk-processing'

import { type Chunk, fromChunk, toChunk } from './chunk-model'

export { type Chunk, fromChunk, toChunk }

import { selectByIds } from './by-ids'
import { requireIntegers, requireText } from './checks'
import { type ChunkProcessingMarks, createChunkProcessing } from './chunk-processing'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

/** A new chunk over messages of one session. */
export interface NewChunk {
  readonly sessionId: string
  readonly text: string
  readonly salienceReason: string
  /** `messages.id` the chunk covers (at least one), in order. */
  readonly messageIds: readonly number[]
  /** @default now */
  readonly occurredAt?: string
}

/** Chunks (`chunks`) and their per-prompt-version processing marks (`processed_chunks`). */
export interface ChunksRepository extends ChunkProcessingMarks {
  /** Every chunk of the workspace, by id. */
  listAll(workspaceId: string): Promise<Chunk[]>
  count(workspaceId: string): Promise<number>
  /** The workspace's chunks with these ids, in the order asked (unknown ids are absent). */
  getByIds(workspaceId: string, ids: readonly number[]): Promise<Chunk[]>
  /**
   * Inserts a chunk (its session must exist; first and last message ids come from `messageIds`). Null when
   * a chunk over the same span of the session already exists, which is left untouched.
   */
  insertIfNew(workspaceId: string, chunk: NewChunk): Promise<Chunk | null>
  /** Chunks that occurred at or after `since`. */
  listSince(workspaceId: string, since: string): Promise<Chunk[]>
  /** Chunks without a stored embedding, by id. */
  listUnembedded(workspaceId: string): Promise<Chunk[]>
  /** Deletes chunks (their mentions and processing marks go with them; evidence keeps its message ids). */
  delete(workspaceId: string, ids: readonly number[]): Promise<number>
}

export function createChunksRepository(scope: RepositoryScope): ChunksRepository {
  const { db, context } = scope
  return {
    ...createChunkProcessing(scope),
    async listAll(workspaceId) {
      const rows = await selectInWorkspace(db, 'chunks', workspaceId).orderBy('id').execute()
      return rows.map(toChunk)
    },
    async count(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const row = await db
        .selectFrom('chunks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async insertIfNew(workspaceId, chunk) {
      requireId(workspaceId, 'workspace id')
      requireId(chunk.sessionId, 'session id')
      const messageIds = requireIntegers(chunk.messageIds, 'messageIds')
      if (messageIds.length === 0)
        throw new StoreError('INVALID_INPUT', 'a chunk needs at least one message id')
      if (typeof chunk.text !== 'string') throw new StoreError('INVALID_INPUT', 'text must be a string')
      if (typeof chunk.salienceReason !== 'string')
        throw new StoreError('INVALID_INPUT', 'salienceReason must be a string')
      const now = context.now()
      const row = await db
        .insertInto('chunks')
        .values(
          fromChunk({
            workspaceId,
            sessionId: chunk.sessionId,
            text: chunk.text,
            salienceReason: chunk.salienceReason,
            messageIds,
            firstMessageId: Math.min(...messageIds),
            lastMessageId: Math.max(...messageIds),
            occurredAt: chunk.occurredAt === undefined ? now : requireText(chunk.occurredAt, 'occurredAt'),
            createdAt: now,
          }),
        )
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst()
      return row ? toChunk(row) : null
    },
    async listSince(workspaceId, since) {
      requireId(workspaceId, 'workspace id')
      requireText(since, 'since')
      const rows = await selectInWorkspace(db, 'chunks', workspaceId)
        .where('occurred_at', '>=', since)
        .execute()
      return rows.map(toChunk)
    },
    async listUnembedded(workspaceId) {
      const rows = await selectInWorkspace(db, 'chunks', workspaceId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('chunk_embeddings')
                .select('chunk_id')
                .whereRef('chunk_embeddings.chunk_id', '=', 'chunks.id'),
            ),
          ),
        )
        .orderBy('id')
        .execute()
      return rows.map(toChunk)
    },
    async delete(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(ids, 'ids')
      if (ids.length === 0) return 0
      const result = await db
        .deleteFrom('chunks')
        .where('id', 'in', ids)
        .where(scope.engine.notIndexed('workspace_id'), '=', workspaceId)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
    async getByIds(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      const unique = [...new Set(requireIntegers(ids, 'chunk ids'))]
      if (unique.length === 0) return []
      const rows = await selectByIds(scope.engine, db, 'chunks', workspaceId, unique)
      const byId = new Map(rows.map((row) => [row.id, toChunk(row)]))
      return unique.flatMap((id) => byId.get(id) ?? [])
    },
  }
}
