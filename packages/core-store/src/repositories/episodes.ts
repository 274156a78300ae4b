import type { Selectable } from 'kysely'
import type { EpisodesTable } from '../schema/tables'
import { parseArray } from './json'
import type { RepositoryScope } from './scope'

/** A named, summarised stretch of a session. */
export interface Episode {
  readonly id: string
  readonly workspaceId: string
  readonly sessionId: string
  readonly title: string
  readonly summary: string
  readonly outcome: string | null
  readonly entities: readonly string[]
  readonly chunkIds: readonly number[]
  readonly messageIds: readonly number[]
  readonly startedAt: string
  readonly endedAt: string
  readonly createdAt: string
  readonly updatedAt: string
}

export function toEpisode(row: Selectable<EpisodesTable>): Episode {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    title: row.title,
    summary: row.summary,
    outcome: row.outcome,
    entities: parseArray<string>(row.entities),
    chunkIds: parseArray<number>(row.chunk_ids),
    messageIds: parseArray<number>(row.message_ids),
    startedAt: row.started_at,
    endedAt: row.ended_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** Episodes (`episodes`): named, summarised stretches of a session. */
export interface EpisodesRepository {
  /** Every episode of the workspace, by id. */
  listAll(workspaceId: string): Promise<Episode[]>
}

export function createEpisodesRepository(scope: RepositoryScope): EpisodesRepository {
  const { db } = scope
  return {
    async listAll(workspaceId) {
      const rows = await db
        .selectFrom('episodes')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
      return rows.map(toEpisode)
    },
  }
}
