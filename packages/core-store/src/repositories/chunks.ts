import type { Selectable } from 'kysely'
import type { ChunksTable } from '../schema/tables'
import { StoreError } from '../store/errors'
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
  /** The workspace's chunks with these ids, in the order asked (unknown ids are absent). */
  getByIds(workspaceId: string, ids: readonly number[]): Promise<Chunk[]>
}

const IN_LIST_CHUNK = 500

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
    async getByIds(workspaceId, ids) {
      if (!ids.every(Number.isInteger)) throw new StoreError('INVALID_INPUT', 'chunk ids must be integers')
      const unique = [...new Set(ids)]
      const byId = new Map<number, Chunk>()
      for (let start = 0; start < unique.length; start += IN_LIST_CHUNK) {
        const rows = await db
          .selectFrom('chunks')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
          .where('id', 'in', unique.slice(start, start + IN_LIST_CHUNK))
          .execute()
        for (const row of rows) byId.set(row.id, toChunk(row))
      }
      return unique.flatMap((id) => byId.get(id) ?? [])
    },
  }
}
