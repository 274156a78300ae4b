import { type Kysely, sql } from 'kysely'
import type { HyMemDatabase } from '../kernel/tables'
import type { RepositoryBackend } from './backend'
import { selectByIds } from './by-ids'
import type { NoteFilter } from './note-values'
import { _inIdList, _notIndexed } from './sqlite-hints'

// The notes repository's id-list statements: the ids travel as one parameter (see `_inIdList`).

/** The workspace's notes rows among `ids` that pass `filter`. */
export async function notesByIds(
  backend: RepositoryBackend,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  ids: readonly string[],
  filter: NoteFilter,
) {
  const where = []
  if (!filter.includeArchived) where.push(sql`archived_at IS NULL`)
  if (filter.observerId !== undefined) where.push(sql`observer_id = ${filter.observerId}`)
  if (filter.observedId !== undefined) where.push(sql`observed_id = ${filter.observedId}`)
  if (filter.aboutPeerOrNobody !== undefined)
    where.push(sql`(observed_id IS NULL OR observed_id = ${filter.aboutPeerOrNobody})`)
  return selectByIds(backend, db, 'notes', workspaceId, ids, where)
}

/** One statement for any number of ids (`+workspace_id` keeps SQLite on the primary key). */
export async function markNotesAccessed(
  backend: RepositoryBackend,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  ids: readonly string[],
  at: string,
): Promise<void> {
  await sql`UPDATE notes SET last_accessed_at = ${at}
    WHERE ${_inIdList(backend, 'id', ids)} AND ${_notIndexed(backend, 'workspace_id')} = ${workspaceId}`.execute(
    db,
  )
}
