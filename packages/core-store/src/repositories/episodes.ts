import type { Selectable } from 'kysely'
import type { EpisodesTable } from '../schema/tables'
import { selectByIdsSqlite } from './by-ids'
import { parseArray, requireId } from './json'
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

/** A new episode. */
export interface NewEpisode {
  readonly id: string
  readonly sessionId: string
  readonly title: string
  readonly summary: string
  readonly outcome?: string | null
  readonly entities?: readonly string[]
  readonly chunkIds?: readonly number[]
  readonly messageIds?: readonly number[]
  /** @default now */
  readonly startedAt?: string
  /** @default startedAt */
  readonly endedAt?: string
}

/** Episodes (`episodes`): named, summarised stretches of a session. */
export interface EpisodesRepository {
  /** Every episode of the workspace, by id. */
  listAll(workspaceId: string): Promise<Episode[]>
  /** The workspace's episodes among `ids`, in no particular order (unknown ids are skipped). */
  getByIds(workspaceId: string, ids: readonly string[]): Promise<Episode[]>
  /** Inserts an episode as given. */
  insert(workspaceId: string, episode: NewEpisode): Promise<Episode>
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
    async getByIds(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return []
      return (await selectByIdsSqlite(db, 'episodes', workspaceId, ids)).map(toEpisode)
    },
    async insert(workspaceId, episode) {
      requireId(workspaceId, 'workspace id')
      requireId(episode.id, 'episode id')
      requireId(episode.sessionId, 'session id')
      const now = scope.context.now()
      const startedAt = episode.startedAt ?? now
      const row = await db
        .insertInto('episodes')
        .values({
          id: episode.id,
          workspace_id: workspaceId,
          session_id: episode.sessionId,
          title: episode.title,
          summary: episode.summary,
          outcome: episode.outcome ?? null,
          entities: JSON.stringify(episode.entities ?? []),
          chunk_ids: JSON.stringify(episode.chunkIds ?? []),
          message_ids: JSON.stringify(episode.messageIds ?? []),
          started_at: startedAt,
          ended_at: episode.endedAt ?? startedAt,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toEpisode(row)
    },
  }
}
