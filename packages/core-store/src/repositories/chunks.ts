import type { Selectable } from 'kysely'
import type { ChunksTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { requireInteger, requireIntegers, requireText } from './checks'
import { parseArray, requireId } from './json'
import type { RepositoryScope } from './scope'
import { _notIndexedSqlite } from './sqlite-hints'

/** A salient stretch of a session's messages, the unit extraction works on. */
export interface Chunk {
  readonly id: number
  readonly workspaceId: string
  readonly sessionId: string
  readonly text: string
  readonly salienceReason: string
  /** `messages.id` this chunk was built from. */
  readonly messageIds: readonly number[]
  readonly firstMessageId: number
  readonly lastMessageId: number
  readonly occurredAt: string
  readonly createdAt: string
}

export function toChunk(row: Selectable<ChunksTable>): Chunk {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    text: row.text,
    salienceReason: row.salience_reason,
    messageIds: parseArray<number>(row.message_ids),
    firstMessageId: row.first_message_id,
    lastMessageId: row.last_message_id,
    occurredAt: row.occurred_at,
    createdAt: row.created_at,
  }
}

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

/** That a chunk was extracted under a prompt version. */
export interface ChunkProcessing {
  readonly chunkId: number
  readonly promptVersion: string
  readonly extractor: string
  readonly processedAt: string
}

/** Chunks (`chunks`) and their per-prompt-version processing marks (`processed_chunks`). */
export interface ChunksRepository {
  /** Every chunk of the workspace, by id. */
  listAll(workspaceId: string): Promise<Chunk[]>
  count(workspaceId: string): Promise<number>
  /**
   * Inserts a chunk (its session must exist; first and last message ids come from `messageIds`). Null when
   * a chunk over the same span of the session already exists, which is left untouched.
   */
  insertIfNew(workspaceId: string, chunk: NewChunk): Promise<Chunk | null>
  /** Chunks not yet processed under `promptVersion`, oldest first (by time, then id), at most `limit`. */
  listUnprocessed(workspaceId: string, promptVersion: string, limit: number): Promise<Chunk[]>
  /** Chunks of the workspace not yet processed under this prompt version. */
  countUnprocessed(workspaceId: string, promptVersion: string): Promise<number>
  /** Records that a chunk was processed under a prompt version (idempotent). */
  markProcessed(chunkId: number, processing: { promptVersion: string; extractor: string }): Promise<void>
  /** Every processing mark of the workspace's chunks, by chunk id then prompt version. */
  listProcessed(workspaceId: string): Promise<ChunkProcessing[]>
  /** The last `limit` chunks of a session processed under `promptVersion`, oldest first. */
  listProcessedTail(
    workspaceId: string,
    sessionId: string,
    promptVersion: string,
    limit: number,
  ): Promise<Chunk[]>
  /** Chunks that occurred at or after `since`. */
  listSince(workspaceId: string, since: string): Promise<Chunk[]>
  /** Chunks without a stored embedding, by id. */
  listUnembedded(workspaceId: string): Promise<Chunk[]>
  /** Ids of processed chunks (under any prompt version) that occurred before `before`, oldest first. */
  listEvictable(workspaceId: string, before: string): Promise<number[]>
  /** Deletes chunks (their mentions and processing marks go with them; evidence keeps its message ids). */
  delete(workspaceId: string, ids: readonly number[]): Promise<number>
}

function requireLimit(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 0')
  return value
}

export function createChunksRepository(scope: RepositoryScope): ChunksRepository {
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
    async listAll(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('chunks')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
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
        .values({
          workspace_id: workspaceId,
          session_id: chunk.sessionId,
          text: chunk.text,
          salience_reason: chunk.salienceReason,
          message_ids: JSON.stringify(messageIds),
          first_message_id: Math.min(...messageIds),
          last_message_id: Math.max(...messageIds),
          occurred_at: chunk.occurredAt === undefined ? now : requireText(chunk.occurredAt, 'occurredAt'),
          created_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst()
      return row ? toChunk(row) : null
    },
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
    async markProcessed(chunkId, processing) {
      requireInteger(chunkId, 'chunk id')
      const promptVersion = requireText(processing.promptVersion, 'promptVersion')
      const extractor = requireText(processing.extractor, 'extractor')
      const now = context.now()
      await db
        .insertInto('processed_chunks')
        .values({ chunk_id: chunkId, prompt_version: promptVersion, extractor, processed_at: now })
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
    async listSince(workspaceId, since) {
      requireId(workspaceId, 'workspace id')
      requireText(since, 'since')
      const rows = await db
        .selectFrom('chunks')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('occurred_at', '>=', since)
        .execute()
      return rows.map(toChunk)
    },
    async listUnembedded(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('chunks')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
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
    async delete(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(ids, 'ids')
      if (ids.length === 0) return 0
      const result = await db
        .deleteFrom('chunks')
        .where('id', 'in', ids)
        .where(_notIndexedSqlite('workspace_id'), '=', workspaceId)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
