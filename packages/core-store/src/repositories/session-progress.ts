import { StoreError } from '../kernel/errors'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import type { SessionsRepository } from './types'

/** Dreaming's progress through a session: the chunking watermark and the summary's coverage. */
export type SessionProgress = Pick<
  SessionsRepository,
  | 'listChunkWatermarks'
  | 'advanceChunkWatermark'
  | 'listSummaryBacklog'
  | 'markSummarized'
  | 'unchunkedCounts'
>

export function createSessionProgress(scope: RepositoryScope): SessionProgress {
  const { db } = scope
  return {
    async listChunkWatermarks(workspaceId, sessionId) {
      requireId(workspaceId, 'workspace id')
      if (sessionId !== undefined) requireId(sessionId, 'session id')
      let query = db
        .selectFrom('sessions')
        .select(['id', 'last_chunked_message_id'])
        .where('workspace_id', '=', workspaceId)
      if (sessionId !== undefined) query = query.where('id', '=', sessionId)
      const rows = await query.orderBy('created_at').orderBy('id').execute()
      return rows.map((row) => ({ sessionId: row.id, lastChunkedMessageId: row.last_chunked_message_id }))
    },
    async advanceChunkWatermark(workspaceId, sessionId, from, to) {
      requireId(workspaceId, 'workspace id')
      requireId(sessionId, 'session id')
      if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to))
        throw new StoreError('INVALID_INPUT', 'watermarks must be integer message ids')
      const result = await db
        .updateTable('sessions')
        .set({ last_chunked_message_id: to })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', sessionId)
        .where('last_chunked_message_id', '=', from)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },
    async listSummaryBacklog(workspaceId, promptVersion) {
      requireId(workspaceId, 'workspace id')
      requireId(promptVersion, 'promptVersion')
      const rows = await db
        .selectFrom('chunks')
        .innerJoin('sessions', (j) =>
          j
            .onRef('sessions.workspace_id', '=', 'chunks.workspace_id')
            .onRef('sessions.id', '=', 'chunks.session_id'),
        )
        .innerJoin('processed_chunks', 'processed_chunks.chunk_id', 'chunks.id')
        .select(['chunks.session_id as id', (eb) => eb.fn.max('chunks.last_message_id').as('upTo')])
        .where('chunks.workspace_id', '=', workspaceId)
        .where('processed_chunks.prompt_version', '=', promptVersion)
        .groupBy(['chunks.session_id', 'sessions.summary_message_id'])
        .having((eb) =>
          eb.or([
            eb('sessions.summary_message_id', 'is', null),
            eb(eb.fn.max('chunks.last_message_id'), '>', eb.ref('sessions.summary_message_id')),
          ]),
        )
        .orderBy('chunks.session_id')
        .execute()
      return rows.map((row) => ({ sessionId: row.id, lastMessageId: Number(row.upTo) }))
    },
    async markSummarized(workspaceId, id, messageId) {
      requireId(workspaceId, 'workspace id')
      requireId(id, 'session id')
      if (!Number.isSafeInteger(messageId))
        throw new StoreError('INVALID_INPUT', 'messageId must be an integer message id')
      await db
        .updateTable('sessions')
        .set({ summary_message_id: messageId })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute()
    },
    async unchunkedCounts(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('sessions as s', (join) =>
          join.onRef('s.workspace_id', '=', 'm.workspace_id').onRef('s.id', '=', 'm.session_id'),
        )
        .where('m.workspace_id', '=', workspaceId)
        .whereRef('m.id', '>', 's.last_chunked_message_id')
        .select(['m.session_id as sessionId', (eb) => eb.fn.countAll<number>().as('pending')])
        .groupBy('m.session_id')
        .orderBy('m.session_id')
        .execute()
      return rows.map((row) => ({ sessionId: row.sessionId, messages: Number(row.pending) }))
    },
  }
}
