import type { Insertable, Selectable } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { EpisodesTable } from '../kernel/tables'
import { selectByIds } from './by-ids'
import { optionalText, requireIntegers, requireText } from './checks'
import { parseArray, requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

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

/** An episode as a backup carries it: its entity list kept as stored, whatever it holds. */
export interface StoredEpisode extends Omit<Episode, 'entities'> {
  readonly entities: readonly unknown[]
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

export function fromEpisode(episode: StoredEpisode): Insertable<EpisodesTable> {
  return {
    id: episode.id,
    workspace_id: episode.workspaceId,
    session_id: episode.sessionId,
    title: episode.title,
    summary: episode.summary,
    outcome: episode.outcome,
    entities: JSON.stringify(episode.entities),
    chunk_ids: JSON.stringify(episode.chunkIds),
    message_ids: JSON.stringify(episode.messageIds),
    started_at: episode.startedAt,
    ended_at: episode.endedAt,
    created_at: episode.createdAt,
    updated_at: episode.updatedAt,
  }
}

/** A new episode; its id is chosen by the caller (dreaming keeps it stable across re-extraction). */
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
  /** The episodes of one session, by id. */
  listBySession(workspaceId: string, sessionId: string): Promise<Episode[]>
  /** Inserts the episode, or rewrites the one with its id (keeping its creation time). */
  upsert(workspaceId: string, episode: NewEpisode): Promise<Episode>
  delete(workspaceId: string, ids: readonly string[]): Promise<number>
}

function strings(values: unknown, field: string): readonly string[] {
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
    throw new StoreError('INVALID_INPUT', `${field} must be an array of strings`)
  return values
}

export function createEpisodesRepository(scope: RepositoryScope): EpisodesRepository {
  const { db, context } = scope
  return {
    async listAll(workspaceId) {
      const rows = await selectInWorkspace(db, 'episodes', workspaceId).orderBy('id').execute()
      return rows.map(toEpisode)
    },
    async getByIds(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return []
      return (await selectByIds(scope.engine, db, 'episodes', workspaceId, ids)).map(toEpisode)
    },
    async listBySession(workspaceId, sessionId) {
      requireId(workspaceId, 'workspace id')
      requireId(sessionId, 'session id')
      const rows = await selectInWorkspace(db, 'episodes', workspaceId)
        .where('session_id', '=', sessionId)
        .orderBy('id')
        .execute()
      return rows.map(toEpisode)
    },
    async upsert(workspaceId, episode) {
      requireId(workspaceId, 'workspace id')
      const id = requireText(episode.id, 'id')
      const sessionId = requireId(episode.sessionId, 'session id')
      const now = context.now()
      const startedAt = episode.startedAt === undefined ? now : requireText(episode.startedAt, 'startedAt')
      const row = {
        title: requireString(episode.title, 'title'),
        summary: requireString(episode.summary, 'summary'),
        outcome: optionalText(episode.outcome, 'outcome'),
        entities: JSON.stringify(strings(episode.entities ?? [], 'entities')),
        chunk_ids: JSON.stringify(requireIntegers(episode.chunkIds ?? [], 'chunkIds')),
        message_ids: JSON.stringify(requireIntegers(episode.messageIds ?? [], 'messageIds')),
        started_at: startedAt,
        ended_at: episode.endedAt === undefined ? startedAt : requireText(episode.endedAt, 'endedAt'),
        updated_at: now,
      }
      const stored = await db
        .insertInto('episodes')
        .values({ id, workspace_id: workspaceId, session_id: sessionId, created_at: now, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .returningAll()
        .executeTakeFirstOrThrow()
      return toEpisode(stored)
    },
    async delete(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      strings(ids, 'ids')
      if (ids.length === 0) return 0
      const result = await db
        .deleteFrom('episodes')
        .where('id', 'in', ids)
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new StoreError('INVALID_INPUT', `${field} must be a string`)
  return value
}
