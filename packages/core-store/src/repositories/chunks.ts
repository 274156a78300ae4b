import type { Selectable } from 'kysely'
import type { ChunksTable } from '../schema/tables'
import { parseArray } from './json'
import type { RepositoryScope } from './scope'

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

/** Chunks (`chunks`) and their per-prompt-version processing marks (`processed_chunks`). */
export interface ChunksRepository {
  /** Every chunk of the workspace, by id. */
  listAll(workspaceId: string): Promise<Chunk[]>
  /** Chunks of the workspace not yet processed under this prompt version. */
  countUnprocessed(workspaceId: string, promptVersion: string): Promise<number>
  /** Drops the processing marks of the workspace's chunks, so the next dream extracts every chunk again. */
  clearProcessed(workspaceId: string): Promise<void>
}

export function createChunksRepository(scope: RepositoryScope): ChunksRepository {
  const { db } = scope
  const ofWorkspace = (workspaceId: string) =>
    db.selectFrom('chunks').select('id').where('workspace_id', '=', workspaceId)
  return {
    async listAll(workspaceId) {
      const rows = await db
        .selectFrom('chunks')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
      return rows.map(toChunk)
    },
    async countUnprocessed(workspaceId, promptVersion) {
      const row = await db
        .selectFrom('chunks as c')
        .where('c.workspace_id', '=', workspaceId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('processed_chunks as p')
                .select('p.chunk_id')
                .whereRef('p.chunk_id', '=', 'c.id')
                .where('p.prompt_version', '=', promptVersion),
            ),
          ),
        )
        .select((eb) => eb.fn.countAll<number>().as('pending'))
        .executeTakeFirstOrThrow()
      return Number(row.pending)
    },
    async clearProcessed(workspaceId) {
      await scope.write((tx) =>
        tx.deleteFrom('processed_chunks').where('chunk_id', 'in', ofWorkspace(workspaceId)).execute(),
      )
    },
  }
}
