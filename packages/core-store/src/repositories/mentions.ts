import { requireInteger, requireText } from './checks'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** That a chunk mentions an entity (by its canonical name). */
export interface Mention {
  readonly chunkId: number
  readonly entity: string
}

/** Entity mentions per chunk (`entity_mentions`). */
export interface MentionsRepository {
  /** Every mention of the workspace, by chunk id then entity. */
  listAll(workspaceId: string): Promise<Mention[]>
  /** Records the entities a chunk mentions in one multi-row insert (idempotent); returns how many were new. */
  add(workspaceId: string, chunkId: number, entities: Iterable<string>): Promise<number>
}

export function createMentionsRepository(scope: RepositoryScope): MentionsRepository {
  const { db } = scope
  return {
    async listAll(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('entity_mentions')
        .select(['chunk_id', 'entity'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('chunk_id')
        .orderBy('entity')
        .execute()
      return rows.map((row) => ({ chunkId: row.chunk_id, entity: row.entity }))
    },
    async add(workspaceId, chunkId, entities) {
      requireId(workspaceId, 'workspace id')
      requireInteger(chunkId, 'chunk id')
      const rows = [...entities].map((entity) => ({
        workspace_id: workspaceId,
        chunk_id: chunkId,
        entity: requireText(entity, 'entity'),
      }))
      if (rows.length === 0) return 0
      const result = await db
        .insertInto('entity_mentions')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0)
    },
  }
}
